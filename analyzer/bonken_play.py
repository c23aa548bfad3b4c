""""Which card should I play now?" — Bonken (trick contracts) information states and query.

Same API as :mod:`analyzer.boerenbridge_play` (see :mod:`analyzer.infostate`): an
information state from the CLI-style inputs (``contract``, ``position``, ``hand``,
``history``), a full-information :class:`BonkenDeal`, ``decide`` with the engine's own
compiled policies, and :func:`play_query` reporting per legal card the expected points
of the contract being played (my whole round score, points already taken included).

Positions: 0 = left of the dealer (leads the first trick), 1 = the chooser, 3 = the dealer.
Domino has its own state (:class:`DominoInfoState`: moves are cards or passes; a pass shows
the player holds none of the cards playable then) and query (:func:`domino_play_query`,
also reached through :func:`play_query` with ``contract="domino"``). The query's own
worlds do not use the chooser's contract choice; the ``strong`` policy's decisions do when
the state knows what the chooser chose from (``chosen_from``). numpy only.
"""
import numpy as np

from fastsim.aot import kernels
from fastsim.bonken_schema import (CONTRACTS, DOMINO, NO_HEARTS, NO_KH, NO_LAST, NO_MEN,
                                   NO_QUEENS, DUCKING, PIMC_WORLDS, POLICIES, TRUMP_S, NO_TRUMP,
                                   N_NEGATIVE, RulesError, build_rules, contract_id,
                                   parse_contracts, TEMP_NEGATIVE, TEMP_TRUMP)
from fastsim.cards import CardError, FULL52, SUITS, card_str, mask_of, parse_card, parse_cards
from fastsim.common import check_seed
from .infostate import query_kernels
from .infostate import InfoState, TrickInfoState, bits, parse_tricks, recommended, position_arg, query_state, suit_cards, play_args, record_card, sample_hidden, check_own_cards, replay, Deal, dealt_masks, SUIT_NAMES, weighted_summary, ess
from .evidence import finish_play
from .progress import sliced

# the compiled kernels: ahead of time where built (fastsim/aot.py: no numba to start, one
# thread) for a small query, else numba's (the same results)
pq = kernels("bonken_play")

GAME = "bonken"
DEFAULT_SAMPLES = 2_000
CHUNK = 128
HEARTS = 0x1FFF << 16
KINGS = sum(1 << (16 * s + 11) for s in range(4))
JACKS = sum(1 << (16 * s + 9) for s in range(4))
QUEENS = sum(1 << (16 * s + 10) for s in range(4))
KH = 1 << (16 + 11)
NOT_HEARTS = 0b1101   # void bits of a player shown to hold only hearts
POSITION_MUST = "position must be 0..3 (0 = left of the dealer, 1 = chooser, 3 = dealer)"

__all__ = ["BonkenInfoState", "BonkenDeal", "play_query", "sample_worlds",
           "positions_from_record", "deal_from_record", "DominoInfoState", "DominoDeal",
           "domino_play_query", "domino_sample_worlds", "domino_positions_from_record", "PASS",
           "others_model"]


def others_model(policy, contract=None):
    """One line: the model the other players follow in a Bonken query (docs/bonken.md,
    "The other players' model"), for ``contract`` (an id; None: any contract). Every
    built-in policy plays for its own score of the round; none looks at the game standings
    (aiming the penalties at the game's leader was measured and does not pay:
    benchmarks/bench_bonken_defenders.py)."""
    if policy == "random":
        return "the others play a random legal card"
    if contract == DOMINO:
        return ("the others play the Domino heuristic (the move that frees most of their "
                "cards further out), each for himself")
    negative = "avoids tricks; void, discards his highest penalty card on whoever takes the trick"
    if contract is None:
        plays = f"negative contracts: {negative}; trump contracts: wants tricks"
    elif contract < TRUMP_S:
        plays = negative
    else:
        plays = "wants tricks"
    what = {
        "heuristic": f"the heuristic: each plays for his own round score ({plays})",
        "pimc": "pimc: each plays the card best for his own round score over sampled deals "
                "finished by the heuristic",
        "strong": "strong: as pimc over more deals, weighted by the chooser's choice where "
                  "it is known, each for his own round score",
    }[policy]
    return f"the others follow {what}; the game standings play no part (no one sets the leader)"


def danger_of(contract):
    return {NO_HEARTS: HEARTS, NO_MEN: KINGS | JACKS, NO_QUEENS: QUEENS, NO_KH: KH}.get(contract, 0)


def trump_of(contract):
    return contract - TRUMP_S if TRUMP_S <= contract < NO_TRUMP else -1


def trick_points(contract, trick_mask, t):
    """Points the winner of trick ``t`` (0-based) scores (RULES §3)."""
    if contract == DUCKING:
        return -5
    if contract == NO_HEARTS:
        return -5 * bin(trick_mask & HEARTS).count("1")
    if contract == NO_MEN:
        return -20 * bin(trick_mask & KINGS).count("1") - 10 * bin(trick_mask & JACKS).count("1")
    if contract == NO_QUEENS:
        return -30 * bin(trick_mask & QUEENS).count("1")
    if contract == NO_KH:
        return -50 if trick_mask & KH else 0
    if contract == NO_LAST:
        return -50 if t == 12 else 0
    return 10


def _dealt_hand(hand):
    """A dealt Bonken hand (codes or a mask) as a mask: 13 cards, else one line."""
    m = int(hand) if isinstance(hand, (int, np.integer)) else mask_of(hand)
    if bin(m).count("1") != 13:
        raise RulesError(f"hand of the wrong size: {bin(m).count('1')} cards, a Bonken hand "
                         "has 13")
    return m


def _winner(cards, leader, trump):
    led = cards[0] >> 4

    def key(c):
        return 64 + (c & 15) if c >> 4 == trump else (32 + (c & 15) if c >> 4 == led else 0)
    best = max(range(len(cards)), key=lambda j: (key(cards[j]), -j))
    return (leader + best) % 4


class BonkenInfoState(TrickInfoState):
    """One player's information state in a Bonken trick contract (immutable).

    Attributes: ``rules``, ``contract`` (id), ``position``, ``hand`` (mask), ``tricks``
    (``(leader, cards, winner)``), ``leader``/``current``, ``won``, ``scores`` (round
    points so far) and ``voids`` per position, ``played_by``, ``played``, ``broken``
    (a heart has fallen), ``taken`` (penalty cards taken), ``chosen_from`` (bit set of the
    contracts the chooser chose this one from; 0: unknown or nobody chose — the strong
    policy then infers nothing from the choice)."""
    game = GAME
    n = 4
    h = 13
    ENDED = "the round is over"
    __slots__ = ("rules", "contract", "position", "hand", "tricks", "leader", "current",
                 "won", "scores", "voids", "hearts_only", "played_by", "played", "broken",
                 "taken", "chosen_from")

    @classmethod
    def initial(cls, rules, contract, position, hand, chosen_from=0):
        s = cls.__new__(cls)
        s.chosen_from = int(chosen_from)
        if s.chosen_from and not s.chosen_from >> int(contract) & 1:
            raise RulesError("chosen_from must contain the contract being played")
        s.rules = rules
        s.contract = int(contract)
        if s.contract == DOMINO:
            raise RulesError("the play query covers the trick contracts; Domino has no tricks")
        s.position = int(position)
        s.hand = _dealt_hand(hand)
        s.tricks = ()
        s.leader = 0
        s.current = ()
        s.won = (0,) * 4
        s.scores = (0,) * 4
        s.voids = (0,) * 4
        s.hearts_only = (False,) * 4
        s.played_by = (0,) * 4
        s.played = 0
        s.broken = False
        s.taken = 0
        return s

    @classmethod
    def from_inputs(cls, contract, hand, position, history="", notation="en", variants=(),
                    require_turn=True, chosen_from=0):
        """From the CLI-style inputs (``history`` as in :mod:`analyzer.infostate`); raises
        :class:`RulesError` / :class:`CardError` with a one-line message."""
        rules = build_rules(variants)
        cid = contract_id(contract) if not isinstance(contract, (int, np.integer)) else int(contract)
        if not 0 <= cid < len(CONTRACTS):
            raise RulesError(f"unknown contract {contract!r}")
        if cid == DOMINO:
            raise RulesError("Domino has no tricks: use DominoInfoState")
        codes = parse_cards(hand, notation) if isinstance(hand, str) else [int(c) for c in hand]
        if not codes:
            raise CardError("--hand is empty")
        position = position_arg(position, 4, POSITION_MUST + f", got {position}")
        tricks = parse_tricks(history, 4, notation)
        trump = trump_of(cid)
        leader = 0
        mine = []
        for tr in tricks:
            mine += [c for j, c in enumerate(tr) if (leader + j) % 4 == position]
            if len(tr) == 4:
                leader = _winner(tr, leader, trump)
        check_own_cards(codes, mine, position, notation)
        if len(codes) + len(mine) != 13:
            raise RulesError(f"hand of the wrong size: {len(codes)} cards held after playing "
                             f"{len(mine)} makes {len(codes) + len(mine)}, not 13")
        s = cls.initial(rules, cid, position, codes + mine, chosen_from)
        return replay(s, tricks, position, notation, require_turn, "round")

    @property
    def danger(self):
        return danger_of(self.contract)

    @property
    def trump(self):
        return trump_of(self.contract)

    @property
    def is_terminal(self):
        d = self.danger
        return self.t == 13 or (d != 0 and self.taken == d)

    @property
    def restrict(self):
        return self.contract in (NO_HEARTS, NO_KH)

    def unseen_mask(self):
        return int(FULL52) & ~(self.hand | self.played)

    def known_voids(self):
        """Suits (bits) each position is known not to hold: shown by not following, and
        every suit but hearts after a restricted heart lead."""
        return tuple(v | (NOT_HEARTS if ho else 0) for v, ho in zip(self.voids, self.hearts_only))

    def _lead_restricted(self):
        """Whether a heart may not be led while holding another suit: the kernel's legal
        cards asked about a hand of one heart and one spade."""
        probe = np.int64(1 << 16 | 1)
        return not int(pq.legal_bonken_nb(probe, 0, -1, self.restrict, self.rules.flags,
                                          self.broken)) >> 16 & 1

    def _cannot_hold(self, q):
        return suit_cards(self.known_voids()[q])

    def _own_legal_mask(self):
        led = self.current[0] >> 4 if self.current else -1
        return int(pq.legal_bonken_nb(np.int64(self.hand), len(self.current), led,
                                      self.restrict, self.rules.flags, self.broken))

    def _illegal_why(self, cs):
        if self.current:
            return f"must follow {SUIT_NAMES[self.current[0] >> 4]} and cannot play {cs}"
        return "may not lead hearts while holding other suits"

    def apply(self, card, notation="en"):
        """A new state with ``card`` played by :attr:`to_move` (validated)."""
        card, cs, p = self._card_to_play(card, notation)
        led = self.current[0] >> 4 if self.current else -1
        if p != self.position and self.known_voids()[p] >> (card >> 4) & 1:
            why = ("led a heart under the hearts rule, so it holds only hearts,"
                   if self.hearts_only[p] and not self.voids[p] >> (card >> 4) & 1
                   else f"showed earlier it has no {SUIT_NAMES[card >> 4]}")
            raise RulesError(f"position {p} {why} and cannot play {cs}")
        s = self._copy()
        record_card(s, self, p, card, led)
        if led < 0 and (card >> 4) == 1 and self._lead_restricted() and p != self.position:
            ho = list(self.hearts_only)
            ho[p] = True                # a restricted heart lead: only hearts are left
            s.hearts_only = tuple(ho)
        cur = self.current + (card,)
        if len(cur) == 4:
            w = _winner(cur, self.leader, self.trump)
            mask = mask_of(cur)
            sc = list(self.scores)
            sc[w] += trick_points(self.contract, mask, self.t)
            s.scores = tuple(sc)
            self._close_trick(s, cur, w)
            s.broken = self.broken or bool(mask & HEARTS)
            s.taken = self.taken | (mask & self.danger)
        else:
            s.current = cur
        return s

    def kernel_args(self):
        def arr(vals):
            a = np.zeros(4, dtype=np.int64)
            a[:len(vals)] = vals
            return a
        return {"hand": np.int64(self.hand), "played": np.int64(self.played),
                "tc": arr(list(self.current)), "tn": len(self.current), "t": self.t,
                "leader": self.leader, "scores": arr(self.scores), "voids": arr(self.voids),
                "svoids": arr(self.known_voids()),
                "taken": np.int64(self.taken), "broken": bool(self.broken)}

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=PIMC_WORLDS):
        """The card the built-in ``policy`` plays here, exactly as the simulator would
        (``seed``/``deal`` key the random and pimc policies like the simulator's deal)."""
        p = self._my_turn(policy, POLICIES)
        a = self.kernel_args()
        if policy == "heuristic":
            return int(pq.decide_heuristic_nb(self.contract, a["hand"],
                                              np.int64(self._legal_mask()), self.leader,
                                              a["tc"], a["tn"], a["played"]))
        if policy == "strong":
            from fastsim import bonken_strong_nb as snb
            return int(snb.strong_decide_nb(
                check_seed(seed), np.int64(deal), self.contract, p, a["hand"],
                np.int64(self._legal_mask()), self.rules.flags, self.t,
                self.leader, a["tc"], a["tn"], a["played"], a["broken"], a["taken"],
                a["scores"], a["voids"].copy(), np.int64(worlds), np.int64(self.chosen_from),
                np.int64(self.played_by[1])))
        return int(pq.decide_card_nb(POLICIES[policy], check_seed(seed), np.int64(deal),
                                     self.contract, p, a["hand"], np.int64(self._legal_mask()),
                                     self.rules.flags, self.t, self.leader,
                                     a["tc"], a["tn"], a["played"], a["broken"], a["taken"],
                                     a["scores"], a["voids"].copy(), np.int64(worlds)))


class BonkenDeal(Deal):
    """A full-information Bonken round played step by step (all hands known)."""
    game = GAME
    __slots__ = ()
    OVER = "the round is over: no card can be played"

    def __init__(self, rules, contract, hands, notation="en", chosen_from=0):
        masks = dealt_masks(hands, 4, notation)
        cid = contract_id(contract) if not isinstance(contract, (int, np.integer)) else int(contract)
        self.rules = rules
        self.dealt = tuple(masks)
        self.states = tuple(BonkenInfoState.initial(rules, cid, p, masks[p], chosen_from)
                            for p in range(4))

    def scores(self):
        return list(self.states[0].scores)


def deal_from_record(rec, variants=(), notation="en"):
    """A :class:`BonkenDeal` from one ``--record-play`` object of a trick contract."""
    dealer = rec["dealer"]
    hands = [parse_cards(rec["hands"][(dealer + 1 + p) % 4], notation) for p in range(4)]
    return BonkenDeal(build_rules(variants), rec["contract"], hands)


def positions_from_record(rec, variants=(), notation="en"):
    """Yield ``(info_state, card_played)`` for every card of a recorded trick contract."""
    yield from deal_from_record(rec, variants, notation).replay_record(rec, notation)


def sample_worlds(state, count, seed=0, start=0, weigh_choice=True):
    """The hidden hands the play query samples: ``(worlds, logw)`` as in
    :func:`analyzer.boerenbridge_play.sample_worlds`; ``logw`` includes the chooser's
    contract choice when the state knows what it chose from (``weigh_choice=False``: the
    sampler alone)."""
    chosen = state.chosen_from if weigh_choice else 0
    return sample_hidden(pq.sample_worlds_nb, state, "svoids", count, seed, start,
                         extra=(np.int64(state.contract), np.int64(chosen),
                                np.int64(state.played_by[1])))


def chosen_from_mask(available, contract):
    """``--available`` (the contracts the chooser chose from, e.g. ``ducking,no-queens``)
    as a bit set, checked: it holds the contract being played and only contracts of its
    half (the negative ones, or the trump options)."""
    if available is None:
        return 0
    ids = parse_contracts(available) if isinstance(available, str) else sorted(set(available))
    kinds = {i < N_NEGATIVE for i in ids}
    if len(kinds) > 1:
        raise RulesError("--available lists negative contracts and trump options together; "
                         "the chooser picks from one kind at a time")
    if contract not in ids:
        raise RulesError(f"--available must include the contract being played "
                         f"({CONTRACTS[contract]})")
    return sum(1 << i for i in ids)


def _determined(state, policy):
    return state.is_determined(policy, [suit_cards(v) for v in state.known_voids()])


def play_query(contract, hand, position, history="", samples=None,
               policy="heuristic", worlds=PIMC_WORLDS, seed=0, threads=None, notation="en",
               variants=(), state=None, available=None):
    """Score every legal card of the player to move by my expected round score; returns a
    JSON-able dict shaped like the Boerenbridge play query's (``p_make`` is null).
    ``available``: the contracts the chooser chose from (a list or ``"ducking,…"``); the
    worlds are then weighed by the soft chooser's probability of its choice."""
    samples, seed_u = play_args(samples, policy, POLICIES, DEFAULT_SAMPLES, worlds, seed)
    if state is None and contract is not None and not isinstance(contract, (int, np.integer)) \
            and contract_id(contract) == DOMINO or state is not None and state.contract == DOMINO:
        if available is not None:
            raise RulesError("--available is not used in domino (its worlds are not weighed "
                             "by the choice)")
        return domino_play_query(hand, position, history, samples, policy, seed, threads,
                                 notation, variants, state)
    def make():
        chosen = chosen_from_mask(available, contract_id(contract)
                                  if not isinstance(contract, (int, np.integer)) else int(contract))
        s = BonkenInfoState.from_inputs(contract, hand, position, history, notation, variants,
                                        chosen_from=chosen)
        if chosen and s.rules.fixed_order:
            raise RulesError("--available does not go with fixed_order: the contracts come "
                             "in a fixed order, nobody chose this one")
        return s
    state, cards = query_state(state, make)
    K = len(cards)
    k = query_kernels(pq, threads, K * samples, policy)
    a = state.kernel_args()
    lw = np.empty(samples, dtype=np.float64)
    sc = np.zeros((samples, K), dtype=np.int16)
    if policy == "strong":
        def run(z):
            from fastsim import bonken_strong_nb as snb
            snb.play_query_strong_nb(seed_u, state.contract, state.position, a["hand"], cards,
                                     state.rules.flags, state.t, state.leader,
                                     a["tc"], a["tn"], a["played"], a["broken"], a["taken"],
                                     a["scores"], a["voids"], a["svoids"], np.int64(worlds),
                                     np.int64(state.chosen_from), np.int64(state.played_by[1]),
                                     np.int64(z.start), np.int64(z.stop - z.start),
                                     np.int64(CHUNK), lw[z], sc[z])
    else:
        kernel = k.play_query_nb if policy == "heuristic" else k.play_query_policy_nb

        def run(z):
            kernel(seed_u, state.contract, state.position, a["hand"], cards,
                   state.rules.flags, state.t, state.leader, a["tc"], a["tn"],
                   a["played"], a["broken"], a["taken"], a["scores"], a["voids"],
                   a["svoids"], POLICIES[policy], np.int64(worlds), np.int64(z.start),
                   np.int64(z.stop - z.start), np.int64(CHUNK), lw[z], sc[z],
                   np.int64(state.chosen_from), np.int64(state.played_by[1]))
    # in slices, for the progress bar (every world is drawn from its own key)
    sliced(samples, "world", run, desc="worlds played")
    ok = np.isfinite(lw)
    if not ok.any():
        raise RulesError("no deal of the unseen cards is consistent with the shown voids")
    logw = np.round(lw[ok] - lw[ok].max(), 9)
    w = np.exp(logw)
    scores = sc[ok].astype(np.float64)
    exact = _determined(state, policy)
    out_cards = []
    for k in range(K):
        summ = weighted_summary(scores[:, k], w, exact=exact)
        out_cards.append({"card": card_str(cards[k], notation), "value": summ["mean"],
                          "value_ci": summ["mean_ci"], "p_make": None, "p_make_ci": None,
                          "expected_score": summ["mean"], "expected_score_ci": summ["mean_ci"]})
    choice = card_str(state.decide(policy=policy, seed=seed, worlds=worlds), notation)
    best = recommended(out_cards, choice, "expected_score")
    return finish_play({
        "game": GAME,
        "contract": CONTRACTS[state.contract],
        "trump": SUITS[state.trump] if state.trump >= 0 else None,
        "position": state.position,
        "to_move": state.to_move,
        "hand": [card_str(c, notation) for c in state.hand_cards],
        "history": state.history_str(notation),
        "trick": [card_str(c, notation) for c in state.current],
        "scores_so_far": list(state.scores),
        "recommended": best["card"],
        "policy_choice": choice,
        "cards": out_cards,
        "exact": exact,
        "samples": int(ok.sum()),
        "effective_samples": float(ess(w)),
        "worlds_drawn": int(samples),
        "policy": policy,
        "others_model": others_model(policy, state.contract),
        "note": others_model(policy, state.contract),
        "choice_model": None if not state.chosen_from or state.position == 1 else (
            "soft (temperatures %d and %d)" % (TEMP_NEGATIVE, TEMP_TRUMP)),
        "chosen_from": [CONTRACTS[i] for i in range(12) if state.chosen_from >> i & 1] or None,
        "pimc_worlds": int(worlds),
        "seed": seed,
        "variants": dict(state.rules.variants),
    }, w, scores)


# ---------------------------------------------------------------------- domino

PASS = -1
_PASS_TOKENS = ("pass", "-", "x")


def parse_domino_history(history, notation="en"):
    """Domino moves in turn order (players out of cards are skipped): cards, or ``pass``
    (also ``-``) for a player who could not move; ``|`` and commas separate like spaces."""
    if history is None:
        return []
    if not isinstance(history, str):
        return [PASS if (c is None or c == PASS or (isinstance(c, str) and c.lower() in _PASS_TOKENS))
                else (parse_card(c, notation) if isinstance(c, str) else int(c)) for c in history]
    toks = history.replace("|", " ").replace(",", " ").split()
    return [PASS if t.lower() in _PASS_TOKENS else parse_card(t, notation) for t in toks]


def move_str(move, notation="en"):
    return "pass" if move == PASS else card_str(move, notation)


def _domino_legal(cards, lo, hi):
    m = 0
    for s in range(4):
        if lo[s] < 0:
            m |= cards & (1 << (16 * s + 6))
        else:
            if hi[s] < 12:
                m |= cards & (1 << (16 * s + hi[s] + 1))
            if lo[s] > 0:
                m |= cards & (1 << (16 * s + lo[s] - 1))
    return m


def _domino_place(lo, hi, move):
    """The open rows (``lo``/``hi`` per suit) once card ``move`` is laid on the table."""
    st, r = move >> 4, move & 15
    lo, hi = list(lo), list(hi)
    if lo[st] < 0:
        lo[st] = hi[st] = r
    elif r > hi[st]:
        hi[st] = r
    else:
        lo[st] = r
    return tuple(lo), tuple(hi)


class DominoInfoState(InfoState):
    """One player's information state in a Bonken Domino round (immutable): the open rows
    (``lo``/``hi`` rank per suit, −1 = not open), the turn counter ``m``, cards still
    ``held`` per position, and ``forbid`` (cards a position cannot hold: it passed when
    they were playable). Moves are card codes or :data:`PASS` (−1)."""
    game = GAME
    contract = DOMINO
    __slots__ = ("rules", "position", "hand", "moves", "lo", "hi", "m", "held", "played_by",
                 "played", "forbid", "turn", "out")

    @classmethod
    def initial(cls, rules, position, hand):
        s = cls.__new__(cls)
        s.rules = rules
        s.position = int(position)
        s.hand = _dealt_hand(hand)
        s.moves = ()
        s.lo = (-1,) * 4
        s.hi = (-1,) * 4
        s.m = 0
        s.held = (13,) * 4
        s.played_by = (0,) * 4
        s.played = 0
        s.forbid = (0,) * 4
        s.turn = 0
        s.out = 0
        return s

    @classmethod
    def from_inputs(cls, hand, position, history="", notation="en", variants=(),
                    require_turn=True):
        rules = build_rules(variants)
        codes = parse_cards(hand, notation) if isinstance(hand, str) else [int(c) for c in hand]
        position = position_arg(position, 4, POSITION_MUST + f", got {position}")
        moves = parse_domino_history(history, notation)
        # whose move each one is: turn order skipping players out of cards
        held, p, mine = [13] * 4, 0, []
        for mv in moves:
            if sum(1 for x in held if x > 0) <= 1:
                raise RulesError("history: the round is already over")
            while held[p] == 0:
                p = (p + 1) % 4
            if mv != PASS:
                held[p] -= 1
                if p == position:
                    mine.append(mv)
            p = (p + 1) % 4
        check_own_cards(codes, mine, position, notation)
        if len(codes) + len(mine) != 13:
            raise RulesError(f"hand of the wrong size: {len(codes)} cards held after playing "
                             f"{len(mine)} makes {len(codes) + len(mine)}, not 13")
        s = cls.initial(rules, position, codes + mine)
        for i, mv in enumerate(moves):
            try:
                s = s.apply(mv, notation=notation)
            except (RulesError, CardError) as e:
                raise type(e)(f"history move {i + 1} ({move_str(mv, notation)}): {e}") from None
        if require_turn:
            if s.is_terminal:
                raise RulesError("the history finishes the round: there is nothing left to play")
            if s.to_move != position:
                raise RulesError(f"the history says it is position {s.to_move}'s turn, "
                                 f"not position {position}'s")
        return s

    @property
    def is_terminal(self):
        return self.out >= 3

    @property
    def to_move(self):
        return None if self.is_terminal else self.turn

    def unseen_mask(self):
        return int(FULL52) & ~(self.hand | self.played)

    def _legal_mask(self):
        p = self.to_move
        if p is None:
            return 0
        if p == self.position:
            return _domino_legal(self.hand, self.lo, self.hi)
        return _domino_legal(self.unseen_mask() & ~self.forbid[p], self.lo, self.hi)

    def legal_actions(self):
        """Legal moves of ``to_move`` (codes; ``[PASS]`` when it cannot move). For another
        player: the cards it might play, and PASS (it might hold none of them)."""
        cards = bits(self._legal_mask())
        if self.to_move == self.position:
            return cards or [PASS]
        return cards + [PASS]

    def apply(self, move, notation="en"):
        if isinstance(move, str):
            move = PASS if move.lower() in _PASS_TOKENS else parse_card(move, notation)
        move = int(move)
        if self.is_terminal:
            raise RulesError("the round is over: nothing can be played")
        p = self.turn
        s = self._copy()
        if p == self.position:
            legal = _domino_legal(self.hand, self.lo, self.hi)
            if move == PASS and legal:
                raise RulesError(f"position {p} must move when able "
                                 f"(could play {card_str((legal & -legal).bit_length() - 1, notation)})")
        if move == PASS:
            if p != self.position:
                f = list(self.forbid)
                f[p] |= _domino_legal(int(FULL52) & ~self.played, self.lo, self.hi)
                s.forbid = tuple(f)
                if bin(self.unseen_mask() & ~f[p]).count("1") < self.held[p]:
                    raise RulesError(f"position {p} cannot have passed: too few cards it "
                                     "could hold are left")
        else:
            cs = card_str(move, notation)
            bit = 1 << move
            if self.played & bit:
                raise CardError(f"{cs} was already played")
            if not _domino_legal(bit, self.lo, self.hi):
                raise RulesError(f"{cs} does not fit on the table (8s open a row, then one up "
                                 "or one down)")
            self._check_holder(p, move, cs)
            if p == self.position:
                s.hand = self.hand & ~bit
            elif self.forbid[p] & bit:
                raise RulesError(f"position {p} passed earlier while {cs} was playable, "
                                 "so it cannot hold it")
            s.lo, s.hi = _domino_place(self.lo, self.hi, move)
            s.played = self.played | bit
            pb = list(self.played_by)
            pb[p] |= bit
            s.played_by = tuple(pb)
            held = list(self.held)
            held[p] -= 1
            s.held = tuple(held)
            if held[p] == 0:
                s.out = self.out + 1
        s.moves = self.moves + ((p, move),)
        s.m = self.m + 1
        q = (p + 1) % 4
        if s.out < 3:
            while s.held[q] == 0:
                q = (q + 1) % 4
        s.turn = q
        return s

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=PIMC_WORLDS):
        """The engine's Domino move (pimc and strong play Domino by the heuristic, as in
        the engine)."""
        self._my_turn(policy, POLICIES, over="the round is over: nothing to play")
        return int(pq.domino_decide_nb(POLICIES[policy], check_seed(seed), np.int64(deal),
                                       np.int64(self.hand), np.array(self.lo, dtype=np.int64),
                                       np.array(self.hi, dtype=np.int64), np.int64(self.m)))

    def caps(self):
        return np.array([0 if q == self.position else self.held[q] for q in range(4)]
                        + [0] * 5, dtype=np.int64)

    def history_str(self, notation="en"):
        return " ".join(move_str(mv, notation) for _, mv in self.moves)


class DominoDeal(Deal):
    """A full-information Domino round played step by step."""
    game = GAME
    __slots__ = ()
    OVER = "the round is over: nothing can be played"

    def __init__(self, rules, hands, notation="en"):
        masks = dealt_masks(hands, 4, notation, check=False)
        self.rules = rules
        self.dealt = tuple(masks)
        self.states = tuple(DominoInfoState.initial(rules, p, masks[p]) for p in range(4))

    def scores(self):
        s = self.states[0]
        if not s.is_terminal:
            raise RulesError("the round is not over yet")
        return [-50 if s.held[q] else 0 for q in range(4)]


def domino_positions_from_record(rec, variants=(), notation="en"):
    """Yield ``(info_state, move)`` for every move (pass included) of a recorded Domino."""
    dealer = rec["dealer"]
    hands = [parse_cards(rec["hands"][(dealer + 1 + p) % 4], notation) for p in range(4)]
    d = DominoDeal(build_rules(variants), hands)
    for seat, c in rec["moves"]:
        if d.to_move != (seat - dealer - 1) % 4:
            raise RulesError("record: move out of turn")
        mv = PASS if c is None else parse_card(c, notation)
        yield d.info_state(d.to_move), mv
        d = d.apply(mv)


def domino_sample_worlds(state, count, seed=0, start=0):
    out_w = np.zeros((count, 4), dtype=np.int64)
    out_l = np.zeros(count, dtype=np.float64)
    pq.domino_sample_worlds_nb(check_seed(seed), state.position, np.int64(state.hand),
                               np.int64(state.unseen_mask()), state.caps(),
                               np.array(state.forbid, dtype=np.int64), np.int64(start),
                               np.int64(count), out_w, out_l)
    return out_w, out_l


def domino_play_query(hand, position, history="", samples=DEFAULT_SAMPLES, policy="heuristic",
                      seed=0, threads=None, notation="en", variants=(), state=None):
    """The Domino play query: per legal move my expected score (−50 × P(I am the last
    one holding cards)); same shape as :func:`play_query`."""
    samples, seed_u = play_args(samples, policy, POLICIES, DEFAULT_SAMPLES, None, seed)
    state, moves = query_state(state, lambda: DominoInfoState.from_inputs(
        hand, position, history, notation, variants), threads)
    K = len(moves)
    lw = np.empty(samples, dtype=np.float64)
    lose = np.zeros((samples, K), dtype=np.bool_)
    caps, forbid = state.caps(), np.array(state.forbid, dtype=np.int64)
    lo, hi = np.array(state.lo, dtype=np.int64), np.array(state.hi, dtype=np.int64)
    sliced(samples, "world", lambda z: pq.domino_query_nb(
        seed_u, state.position, np.int64(state.hand), moves, np.int64(state.unseen_mask()), caps,
        forbid, lo, hi, np.int64(state.m), np.int64(state.out), POLICIES[policy],
        np.int64(z.start), np.int64(z.stop - z.start), np.int64(CHUNK), lw[z], lose[z]),
        desc="worlds played")
    ok = np.isfinite(lw)
    if not ok.any():
        raise RulesError("no deal of the unseen cards is consistent with the history")
    w = np.exp(np.round(lw[ok] - lw[ok].max(), 9))
    lose = lose[ok]
    exact = _domino_determined(state, policy)
    out_cards = []
    for k in range(K):
        summ = weighted_summary(-50.0 * lose[:, k], w, lose[:, k], exact=exact)
        out_cards.append({"card": move_str(moves[k], notation), "value": summ["mean"],
                          "value_ci": summ["mean_ci"], "p_make": None, "p_make_ci": None,
                          "p_last": summ["p"], "p_last_ci": summ["p_ci"],
                          "expected_score": summ["mean"], "expected_score_ci": summ["mean_ci"]})
    choice = move_str(state.decide(policy=policy, seed=seed), notation)
    best = recommended(out_cards, choice)
    return finish_play({
        "game": GAME, "contract": "domino", "trump": None, "position": state.position,
        "to_move": state.to_move, "hand": [card_str(c, notation) for c in state.hand_cards],
        "history": state.history_str(notation), "held": list(state.held),
        "recommended": best["card"], "policy_choice": choice, "cards": out_cards,
        "exact": exact, "samples": int(ok.sum()), "effective_samples": float(ess(w)),
        "worlds_drawn": int(samples), "policy": policy, "seed": seed,
        "others_model": others_model(policy, DOMINO),
        "note": others_model(policy, DOMINO),
        "variants": dict(state.rules.variants),
    }, w, lose)


def _domino_determined(state, policy):
    if policy == "random":
        return False
    unseen = state.unseen_mask()
    x = unseen
    while x:
        c = (x & -x).bit_length() - 1
        x &= x - 1
        if len([q for q in range(4) if q != state.position and state.held[q] > 0
                and not state.forbid[q] >> c & 1]) > 1:
            return False
    return True
