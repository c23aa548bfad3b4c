""""Which card should I play now?" — Bonken (trick contracts) information states and query.

Same API as :mod:`analyzer.boerenbridge_play` (see :mod:`analyzer.infostate`): an
information state from the CLI-style inputs (``contract``, ``position``, ``hand``,
``history``), a full-information :class:`BonkenDeal`, ``decide`` with the engine's own
compiled policies, and :func:`play_query` reporting per legal card the expected points
of the contract being played (my whole round score, points already taken included).

Positions: 0 = left of the dealer (leads the first trick), 1 = the chooser, 3 = the dealer.
Domino (no tricks) is not covered. The chooser's contract choice is not used to sample the
hidden hands (all consistent deals are equally likely). numpy only.
"""
import numpy as np

from fastsim import bonken_play_nb as pq
from fastsim.bonken_schema import (CONTRACTS, DOMINO, NO_HEARTS, NO_KH, NO_LAST, NO_MEN,
                                   NO_QUEENS, DUCKING, PIMC_WORLDS, POLICIES, TRUMP_S, NO_TRUMP,
                                   RulesError, build_rules, contract_id)
from fastsim.cards import CardError, SUITS, card_str, mask_of, parse_card, parse_cards
from fastsim.play_nb import FULL52
from fastsim.rng import check_seed
from .infostate import SUIT_NAMES, parse_history, weighted_summary, ess

GAME = "bonken"
DEFAULT_SAMPLES = 2_000
CHUNK = 128
HEARTS = 0x1FFF << 16
KINGS = sum(1 << (16 * s + 11) for s in range(4))
JACKS = sum(1 << (16 * s + 9) for s in range(4))
QUEENS = sum(1 << (16 * s + 10) for s in range(4))
KH = 1 << (16 + 11)
NOT_HEARTS = 0b1101   # void bits of a player shown to hold only hearts

__all__ = ["BonkenInfoState", "BonkenDeal", "play_query", "sample_worlds",
           "positions_from_record", "deal_from_record"]


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


def _winner(cards, leader, trump):
    led = cards[0] >> 4

    def key(c):
        return 64 + (c & 15) if c >> 4 == trump else (32 + (c & 15) if c >> 4 == led else 0)
    best = max(range(len(cards)), key=lambda j: (key(cards[j]), -j))
    return (leader + best) % 4


class BonkenInfoState:
    """One player's information state in a Bonken trick contract (immutable).

    Attributes: ``rules``, ``contract`` (id), ``position``, ``hand`` (mask), ``tricks``
    (``(leader, cards, winner)``), ``leader``/``current``, ``won``, ``scores`` (round
    points so far) and ``voids`` per position, ``played_by``, ``played``, ``broken``
    (a heart has fallen), ``taken`` (penalty cards taken)."""
    game = GAME
    n = 4
    h = 13
    __slots__ = ("rules", "contract", "position", "hand", "tricks", "leader", "current",
                 "won", "scores", "voids", "hearts_only", "played_by", "played", "broken",
                 "taken")

    @classmethod
    def initial(cls, rules, contract, position, hand):
        s = cls.__new__(cls)
        s.rules = rules
        s.contract = int(contract)
        if s.contract == DOMINO:
            raise RulesError("the play query covers the trick contracts; Domino has no tricks")
        s.position = int(position)
        s.hand = int(hand) if isinstance(hand, (int, np.integer)) else mask_of(hand)
        if bin(s.hand).count("1") != 13:
            raise RulesError(f"hand of the wrong size: {bin(s.hand).count('1')} cards, a "
                             "Bonken hand has 13")
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
                    require_turn=True):
        """From the CLI-style inputs (``history`` as in :mod:`analyzer.infostate`); raises
        :class:`RulesError` / :class:`CardError` with a one-line message."""
        rules = build_rules(variants)
        cid = contract_id(contract) if not isinstance(contract, (int, np.integer)) else int(contract)
        if not 0 <= cid < len(CONTRACTS):
            raise RulesError(f"unknown contract {contract!r}")
        if cid == DOMINO:
            raise RulesError("the play query covers the trick contracts; Domino has no tricks")
        codes = parse_cards(hand, notation) if isinstance(hand, str) else [int(c) for c in hand]
        if not codes:
            raise CardError("--hand is empty")
        if isinstance(position, bool) or not isinstance(position, (int, np.integer)) \
                or not 0 <= position < 4:
            raise RulesError(f"position must be 0..3 (0 = left of the dealer, 1 = chooser, "
                             f"3 = dealer), got {position}")
        position = int(position)
        tricks = parse_history(history, notation)
        for i, tr in enumerate(tricks):
            if len(tr) > 4 or (len(tr) < 4 and i < len(tricks) - 1):
                raise RulesError(f"history: trick {i + 1} has {len(tr)} cards; every finished "
                                 "trick has 4")
        if tricks and len(tricks[-1]) == 4:
            tricks.append([])
        trump = trump_of(cid)
        leader = 0
        mine = []
        for tr in tricks:
            mine += [c for j, c in enumerate(tr) if (leader + j) % 4 == position]
            if len(tr) == 4:
                leader = _winner(tr, leader, trump)
        if len(set(mine)) != len(mine):
            dup = next(c for c in mine if mine.count(c) > 1)
            raise CardError(f"history: {card_str(dup, notation)} was played twice")
        if set(codes) & set(mine):
            dup = sorted(set(codes) & set(mine))[0]
            raise CardError(f"history: {card_str(dup, notation)} was played by position "
                            f"{position} but is still in the hand")
        if len(codes) + len(mine) != 13:
            raise RulesError(f"hand of the wrong size: {len(codes)} cards held after playing "
                             f"{len(mine)} makes {len(codes) + len(mine)}, not 13")
        s = cls.initial(rules, cid, position, codes + mine)
        for i, tr in enumerate(tricks):
            for j, c in enumerate(tr):
                try:
                    s = s.apply(c, notation=notation)
                except (RulesError, CardError) as e:
                    raise type(e)(f"history trick {i + 1}, card {j + 1} "
                                  f"({card_str(c, notation)}): {e}") from None
        if require_turn:
            if s.is_terminal:
                raise RulesError("the history finishes the round: there is no card left to play")
            if s.to_move != position:
                raise RulesError(f"the history says it is position {s.to_move}'s turn, "
                                 f"not position {position}'s")
        return s

    def _copy(self):
        s = BonkenInfoState.__new__(BonkenInfoState)
        for a in self.__slots__:
            setattr(s, a, getattr(self, a))
        return s

    @property
    def t(self):
        return len(self.tricks)

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
    def to_move(self):
        return None if self.is_terminal else (self.leader + len(self.current)) % 4

    @property
    def hand_cards(self):
        return [c for c in range(64) if self.hand >> c & 1]

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
        return self.restrict and not (self.rules.hearts_after_broken and self.broken)

    def _legal_mask(self):
        p = self.to_move
        if p is None:
            return 0
        if p != self.position:
            m = self.unseen_mask()
            for s in range(4):
                if self.known_voids()[p] >> s & 1:
                    m &= ~(0x1FFF << (16 * s))
            return m
        if not self.current:
            if self._lead_restricted() and self.hand & ~HEARTS:
                return self.hand & ~HEARTS
            return self.hand
        follow = self.hand & (0x1FFF << (16 * (self.current[0] >> 4)))
        return follow if follow else self.hand

    def legal_actions(self):
        m = self._legal_mask()
        return [c for c in range(64) if m >> c & 1]

    def apply(self, card, notation="en"):
        """A new state with ``card`` played by :attr:`to_move` (validated)."""
        if isinstance(card, str):
            card = parse_card(card, notation)
        card = int(card)
        cs = card_str(card, notation)
        if self.is_terminal:
            raise RulesError("the round is over: no card can be played")
        p = self.to_move
        bit = 1 << card
        if self.played & bit:
            raise CardError(f"{cs} was already played")
        led = self.current[0] >> 4 if self.current else -1
        if p == self.position:
            if not self.hand & bit:
                raise CardError(f"{cs} is not in the hand of position {p}")
            if not self._legal_mask() & bit:
                if led >= 0:
                    raise RulesError(f"position {p} must follow {SUIT_NAMES[led]} and cannot play {cs}")
                raise RulesError(f"position {p} may not lead hearts while holding other suits")
        else:
            if self.hand & bit:
                raise CardError(f"{cs} is in the hand of position {self.position}; "
                                f"position {p} cannot play it")
            if self.known_voids()[p] >> (card >> 4) & 1:
                why = ("led a heart under the hearts rule, so it holds only hearts,"
                       if self.hearts_only[p] and not self.voids[p] >> (card >> 4) & 1
                       else f"showed earlier it has no {SUIT_NAMES[card >> 4]}")
                raise RulesError(f"position {p} {why} and cannot play {cs}")
        s = self._copy()
        if p == self.position:
            s.hand = self.hand & ~bit
        s.played = self.played | bit
        pb = list(self.played_by)
        pb[p] |= bit
        s.played_by = tuple(pb)
        if led >= 0 and (card >> 4) != led:
            v = list(self.voids)
            v[p] |= 1 << led
            s.voids = tuple(v)
        if led < 0 and (card >> 4) == 1 and self._lead_restricted() and p != self.position:
            ho = list(self.hearts_only)
            ho[p] = True                # a restricted heart lead: only hearts are left
            s.hearts_only = tuple(ho)
        cur = self.current + (card,)
        if len(cur) == 4:
            w = _winner(cur, self.leader, self.trump)
            mask = mask_of(cur)
            won = list(self.won)
            won[w] += 1
            sc = list(self.scores)
            sc[w] += trick_points(self.contract, mask, self.t)
            s.won, s.scores = tuple(won), tuple(sc)
            s.tricks = self.tricks + ((self.leader, cur, w),)
            s.leader = w
            s.current = ()
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
        if policy not in POLICIES:
            raise RulesError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
        p = self.to_move
        if p is None:
            raise RulesError("the round is over: no card to play")
        if p != self.position:
            raise RulesError(f"it is position {p}'s turn, not position {self.position}'s")
        a = self.kernel_args()
        if policy == "heuristic":
            return int(pq.decide_heuristic_nb(self.contract, a["hand"],
                                              np.int64(self._legal_mask()), self.leader,
                                              a["tc"], a["tn"], a["played"]))
        return int(pq.decide_card_nb(POLICIES[policy], check_seed(seed), np.int64(deal),
                                     self.contract, p, a["hand"], np.int64(self._legal_mask()),
                                     self.rules.hearts_after_broken, self.t, self.leader,
                                     a["tc"], a["tn"], a["played"], a["broken"], a["taken"],
                                     a["scores"], a["voids"].copy(), np.int64(worlds)))

    def history_str(self, notation="en"):
        parts = [" ".join(card_str(c, notation) for c in cards) for _, cards, _ in self.tricks]
        parts.append(" ".join(card_str(c, notation) for c in self.current))
        return " | ".join(parts).strip(" |")


class BonkenDeal:
    """A full-information Bonken round played step by step (all hands known)."""
    game = GAME
    __slots__ = ("rules", "dealt", "states")

    def __init__(self, rules, contract, hands, notation="en"):
        if len(hands) != 4:
            raise RulesError(f"need 4 hands, got {len(hands)}")
        masks = [int(hd) if isinstance(hd, (int, np.integer)) else
                 mask_of(parse_cards(hd, notation) if isinstance(hd, str) else hd) for hd in hands]
        total = 0
        for m in masks:
            if total & m:
                raise CardError("a card is dealt to two players")
            total |= m
        cid = contract_id(contract) if not isinstance(contract, (int, np.integer)) else int(contract)
        self.rules = rules
        self.dealt = tuple(masks)
        self.states = tuple(BonkenInfoState.initial(rules, cid, p, masks[p]) for p in range(4))

    @property
    def to_move(self):
        return self.states[0].to_move

    @property
    def is_terminal(self):
        return self.states[0].is_terminal

    def info_state(self, position):
        return self.states[position]

    def legal_actions(self):
        p = self.to_move
        return [] if p is None else self.states[p].legal_actions()

    def apply(self, card, notation="en"):
        p = self.to_move
        if p is None:
            raise RulesError("the round is over: no card can be played")
        mover = self.states[p].apply(card, notation)
        d = BonkenDeal.__new__(BonkenDeal)
        d.rules, d.dealt = self.rules, self.dealt
        d.states = tuple(mover if q == p else s.apply(card, notation)
                         for q, s in enumerate(self.states))
        return d

    def decide(self, policy="heuristic", seed=0, **kw):
        return self.states[self.to_move].decide(policy=policy, seed=seed, **kw)

    def scores(self):
        return list(self.states[0].scores)


def deal_from_record(rec, variants=(), notation="en"):
    """A :class:`BonkenDeal` from one ``--record-play`` object of a trick contract."""
    dealer = rec["dealer"]
    hands = [parse_cards(rec["hands"][(dealer + 1 + p) % 4], notation) for p in range(4)]
    return BonkenDeal(build_rules(variants), rec["contract"], hands)


def positions_from_record(rec, variants=(), notation="en"):
    """Yield ``(info_state, card_played)`` for every card of a recorded trick contract."""
    d = deal_from_record(rec, variants, notation)
    dealer = rec["dealer"]
    for tr in rec["tricks"]:
        for s, c in tr["cards"]:
            if d.to_move != (s - dealer - 1) % 4:
                raise RulesError("record: play out of turn")
            code = parse_card(c, notation)
            yield d.info_state(d.to_move), code
            d = d.apply(code)


def sample_worlds(state, count, seed=0, start=0):
    """The hidden hands the play query samples: ``(worlds, logw)`` as in
    :func:`analyzer.boerenbridge_play.sample_worlds`."""
    a = state.kernel_args()
    out_w = np.zeros((count, 4), dtype=np.int64)
    out_l = np.zeros(count, dtype=np.float64)
    pq.sample_worlds_nb(check_seed(seed), state.position, a["hand"], a["played"], state.t,
                        state.leader, a["tn"], a["svoids"], np.int64(start), np.int64(count),
                        out_w, out_l)
    return out_w, out_l


def _determined(state, policy):
    tn = len(state.current)
    cap = [0 if q == state.position else 13 - state.t - (1 if (q - state.leader) % 4 < tn else 0)
           for q in range(4)]
    if sum(cap) == 0:
        return True
    if policy != "heuristic":
        return False
    unseen = state.unseen_mask()
    for s in range(4):
        if unseen >> (16 * s) & 0x1FFF:
            kv = state.known_voids()
            if len([q for q in range(4) if cap[q] > 0 and not kv[q] >> s & 1]) > 1:
                return False
    return True


def play_query(contract, hand, position, history="", samples=DEFAULT_SAMPLES,
               policy="heuristic", worlds=PIMC_WORLDS, seed=0, threads=None, notation="en",
               variants=(), state=None):
    """Score every legal card of the player to move by my expected round score; returns a
    JSON-able dict shaped like the Boerenbridge play query's (``p_make`` is null)."""
    if policy not in POLICIES:
        raise RulesError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise RulesError(f"--samples must be a positive integer, got {samples!r}")
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or not 1 <= worlds <= 4096:
        raise RulesError(f"worlds must be 1..4096, got {worlds!r}")
    seed_u = check_seed(seed)
    if state is None:
        state = BonkenInfoState.from_inputs(contract, hand, position, history, notation, variants)
    elif state.to_move != state.position:
        raise RulesError(f"it is position {state.to_move}'s turn, not position {state.position}'s")
    if threads is not None:
        from fastsim.bonken import set_threads
        set_threads(threads)
    cards = np.array(state.legal_actions(), dtype=np.int64)
    K = len(cards)
    a = state.kernel_args()
    lw = np.empty(samples, dtype=np.float64)
    sc = np.zeros((samples, K), dtype=np.int16)
    kernel = pq.play_query_nb if policy == "heuristic" else pq.play_query_policy_nb
    kernel(seed_u, state.contract, state.position, a["hand"], cards,
           state.rules.hearts_after_broken, state.t, state.leader, a["tc"], a["tn"],
           a["played"], a["broken"], a["taken"], a["scores"], a["voids"],
           a["svoids"], POLICIES[policy], np.int64(worlds), np.int64(0), np.int64(samples),
           np.int64(CHUNK), lw, sc)
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
    top = max(x["expected_score"] for x in out_cards)
    tied = [x for x in out_cards if x["expected_score"] == top]
    best = next((x for x in tied if x["card"] == choice), tied[0])
    return {
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
        "pimc_worlds": int(worlds),
        "seed": seed,
        "variants": dict(state.rules.variants),
    }
