""""Which card should I play now?" — Boerenbridge information states and the play query.

:class:`BoerenbridgeInfoState` is what one player knows in the middle of a deal (RULES §1):
the set-up, the turned card, everyone's bid, their own current hand, every card played so
far by whom, the trick in progress, tricks won and the suits others showed themselves void
in. :class:`BoerenbridgeDeal` is the full-information deal (all hands) played step by step;
each player's information state can be taken from it.

:func:`play_query` scores every legal card: it samples the hidden cards consistently with
the history (importance-weighted so that worlds are uniform over the consistent deals, and
under a deterministic bidder model only the worlds in which the others' heuristic bids
equal their actual bids), finishes every world once per card with the chosen policy for
everyone (common random numbers) and reports P(making my bid) and the expected score with
95% intervals. The policies are the engine's own compiled card rules, so
``decide(state, "heuristic")`` is exactly the card the simulator plays. numpy only.
"""
import numpy as np

from fastsim.aot import kernels
from fastsim.boerenbridge_schema import (MAX_SEATS, PIMC_WORLDS, POLICIES, POLICY_RANDOM,
                                         QUERY_SEARCHING, RulesError, build_rules)
from fastsim.cards import CardError, FULL52, SUITS, card_str, mask_of, parse_card, parse_cards
from fastsim.common import check_seed
from .progress import sliced
from .evidence import bid_slope, check_bid_model, draw_weights, finish_play, thin, weight_stats
from .infostate import query_kernels
from .infostate import TrickInfoState, play_args, record_card, check_own_cards, replay, Deal, dealt_masks, SUIT_NAMES, parse_bid_list, weighted_summary, ess

GAME = "boerenbridge"
DEFAULT_SAMPLES = 2_000
MAX_DRAW_FACTOR = 50
MIN_KEPT_FRACTION = 0.1   # by default, fewer bid-consistent worlds than this: drop the bids
CHUNK = 128
# the compiled kernels: ahead of time where built (fastsim/aot.py: no numba to start, one
# thread) for a small query, else numba's (the same results; infostate.query_kernels)
pq = kernels("boerenbridge_play")


def forbidden_bid(rules, h, bids):
    """The bid the dealer may not make after the other positions' ``bids`` in a deal of
    ``h`` cards (−1: none): the kernels' rule (``forbidden_bid_nb``), asked."""
    return int(pq.forbidden_bid_nb(h, sum(bids), rules.flags))


def is_blind(rules, h):
    """Whether a deal of ``h`` cards is bid blind, as the kernels decide it."""
    return bool(pq.is_blind_nb(h, rules.flags))

__all__ = ["BoerenbridgeInfoState", "BoerenbridgeDeal", "play_query", "sample_worlds",
           "positions_from_record", "deal_from_record", "DEFAULT_SAMPLES"]


def _key(card, led, trump):
    s = card >> 4
    if s == trump:
        return 64 + (card & 15)
    if s == led:
        return 32 + (card & 15)
    return 0


def _trick_winner(cards, leader, n, trump):
    """Position winning the (complete or partial) trick ``cards`` led by ``leader``."""
    led = cards[0] >> 4
    best = max(range(len(cards)), key=lambda j: (_key(cards[j], led, trump), -j))
    return (leader + best) % n


class BoerenbridgeInfoState(TrickInfoState):
    """One player's information state (positions: 0 = left of the dealer … n−1 = dealer).

    Attributes: ``rules``, ``n`` (players), ``h`` (hand size), ``position`` (whose view),
    ``hand`` (current hand, bit mask; :attr:`hand_cards` as codes), ``turned`` (card
    code), ``trump`` (suit, −1 in a no-trump deal), ``bids`` (per position),
    ``tricks`` (completed: ``(leader, cards, winner)`` with cards in play order),
    ``leader``/``current`` (the trick in progress), ``won`` and ``voids`` (suit bits) per
    position, ``played_by`` (per position mask) and ``played`` (every card out of play,
    the turned card included). Immutable: :meth:`apply` returns a new state.
    """
    game = GAME
    __slots__ = ("rules", "n", "h", "position", "hand", "turned", "trump", "bids", "tricks",
                 "leader", "current", "won", "voids", "played_by", "played")

    # ------------------------------------------------------------------ construction
    @classmethod
    def initial(cls, rules, position, hand, turned, bids):
        """The state before the first card: ``hand`` as dealt (codes or a mask)."""
        s = cls.__new__(cls)
        s.rules = rules
        s.n = rules.players
        s.h = rules.schedule[0]
        s.position = int(position)
        s.hand = int(hand) if isinstance(hand, (int, np.integer)) else mask_of(hand)
        s.turned = int(turned)
        s.trump = -1 if rules.notrump[0] else s.turned >> 4
        s.bids = tuple(int(b) for b in bids)
        s.tricks = ()
        s.leader = 0
        s.current = ()
        s.won = (0,) * s.n
        s.voids = (0,) * s.n
        s.played_by = (0,) * s.n
        s.played = 1 << s.turned
        if bin(s.hand).count("1") != s.h:
            raise RulesError(f"hand of the wrong size: {bin(s.hand).count('1')} cards, "
                             f"the deal has {s.h}")
        if s.hand & s.played:
            raise CardError(f"the turned card {card_str(s.turned)} cannot also be in the hand")
        _check_bids(s.bids, rules)
        return s

    @classmethod
    def from_inputs(cls, players, hand, trump_card, position, bids, history="",
                    notation="en", variants=(), hand_size=None, require_turn=True):
        """From the CLI-style inputs: ``hand`` = the cards held now, ``bids`` = ``"b0,b1,…"``
        by position, ``history`` = ``"2C 5C KC 9C | AD"`` (see :mod:`analyzer.infostate`).
        Validates everything against the rules; raises :class:`RulesError` or
        :class:`CardError` with a one-line message."""
        codes = parse_cards(hand, notation) if isinstance(hand, str) else [int(c) for c in hand]
        if not codes:
            raise CardError("--hand is empty")
        if len(set(codes)) != len(codes):
            raise CardError("duplicate card in --hand")
        turned = parse_card(trump_card, notation) if isinstance(trump_card, str) else int(trump_card)
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
            raise RulesError(f"players must be an integer, got {players!r}")
        n = int(players)
        variants = _one_deal(variants)
        build_rules(players=n, hand_size=1, variants=variants)  # players, variants
        from .infostate import parse_tricks, position_arg
        position = position_arg(position, max(n, 1), f"position must be 0..{n - 1} (0 = left of "
                                f"the dealer, {n - 1} = dealer), got {position}")
        tricks = parse_tricks(history, n, notation, per_trick=f"one card per player ({n})")
        if turned in codes:
            raise CardError(f"the turned card {card_str(turned, notation)} cannot also be in the hand")
        if any(turned in tr for tr in tricks):
            raise CardError(f"history: {card_str(turned, notation)} is the turned trump card; "
                            "it is out of play")
        # who played what: the winners depend on trump, which (no_trump_rounds=ones) may
        # depend on the hand size, which depends on how many cards I played
        rules = None
        for notrump in (False, True):
            trump = -1 if notrump else turned >> 4
            seats = _seat_cards(tricks, n, trump)
            mine = [c for p, c in seats if p == position]
            r = build_rules(players=n, hand_size=len(codes) + len(mine), variants=variants)
            if bool(r.notrump[0]) == notrump:
                rules = r
                break
        if rules is None:  # pragma: no cover - no variant makes this ambiguous
            raise RulesError("cannot tell whether this deal has trump")
        h = rules.schedule[0]
        if hand_size is not None and int(hand_size) != h:
            raise RulesError(f"hand of the wrong size: {len(codes)} cards held after playing "
                             f"{len(mine)} makes {h}, not the hand size {hand_size}")
        check_own_cards(codes, mine, position, notation)
        bid_vals = parse_bid_list(bids, n)
        s = cls.initial(rules, position, codes + mine, turned, bid_vals)
        return replay(s, tricks, position, notation, require_turn, "deal")

    # ------------------------------------------------------------------ queries

    @property
    def is_terminal(self):
        return len(self.tricks) == self.h

    @property
    def is_blind(self):
        return is_blind(self.rules, self.h)

    @property
    def forbidden(self):
        """The dealer's forbidden bid (−1: none)."""
        return forbidden_bid(self.rules, self.h, self.bids[:-1])

    def unseen_mask(self):
        """Cards this player has not seen: not in the hand, not played, not turned."""
        return np.int64(FULL52) & ~(self.hand | self.played)

    def _own_legal_mask(self):
        led = self.current[0] >> 4 if self.current else -1
        return int(pq.follow_nb(np.int64(self.hand), len(self.current), led))

    def _illegal_why(self, cs):
        return f"must follow {SUIT_NAMES[self.current[0] >> 4]} and cannot play {cs}"

    def _out_of_play(self, card, cs):
        if card == self.turned:
            raise CardError(f"{cs} is the turned trump card; it is out of play")

    def apply(self, card, notation="en"):
        """A new state with ``card`` (code or string) played by :attr:`to_move`."""
        card, cs, p = self._card_to_play(card, notation)
        led = self.current[0] >> 4 if self.current else -1
        if p != self.position and self.voids[p] >> (card >> 4) & 1:
            raise RulesError(f"position {p} showed earlier it has no {SUIT_NAMES[card >> 4]} "
                             f"and cannot play {cs}")
        s = self._copy()
        record_card(s, self, p, card, led)
        cur = self.current + (card,)
        if len(cur) == self.n:
            w = _trick_winner(cur, self.leader, self.n, self.trump)
            self._close_trick(s, cur, w)
        else:
            s.current = cur
        return s

    # ------------------------------------------------------------------ engine arrays
    def kernel_args(self):
        """The engine's view of this position: dict of the arrays and scalars its card
        functions take (positions index every per-player array)."""
        def arr(vals):
            a = np.zeros(MAX_SEATS, dtype=np.int64)
            a[:len(vals)] = vals
            return a
        tc = arr(list(self.current))
        return {"hand": np.int64(self.hand), "played": np.int64(self.played),
                "bids": arr(self.bids), "won": arr(self.won), "voids": arr(self.voids),
                "played_by": arr(self.played_by), "tc": tc, "tn": len(self.current),
                "t": self.t, "leader": self.leader}

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=PIMC_WORLDS):
        """The card (code) the built-in ``policy`` plays here, exactly as the simulator
        would: ``seed`` and ``deal`` (the global deal index) key the random and pimc
        policies like ``simulate(..., seed)`` keys its deal number ``deal``."""
        p = self._my_turn(policy, POLICIES)
        a = self.kernel_args()
        r = self.rules
        if policy == "heuristic":
            return int(pq.decide_heuristic_nb(self.n, p, a["hand"], self.trump, a["played"],
                                              a["bids"], a["won"], self.leader, a["tc"],
                                              a["tn"]))
        c = pq.decide_card_nb(POLICIES[policy], check_seed(seed), np.int64(deal), self.n, self.h, p, a["hand"],
                              np.int64(self._legal_mask()), self.turned, self.trump,
                              a["played"], a["bids"], a["won"], self.t, self.leader, a["tc"],
                              a["tn"], a["voids"].copy(), a["played_by"], r.flags,
                              self.is_blind, np.int64(worlds))
        return int(c)

    # ------------------------------------------------------------------ text
    def history_str(self, notation="en"):
        parts = [" ".join(card_str(c, notation) for c in cards) for _, cards, _ in self.tricks]
        if self.current or not self.tricks or not self.is_terminal:
            parts.append(" ".join(card_str(c, notation) for c in self.current))
        return " | ".join(parts).strip()

    def __repr__(self):
        return (f"BoerenbridgeInfoState(position={self.position}, to_move={self.to_move}, "
                f"hand={' '.join(card_str(c) for c in self.hand_cards)!r}, "
                f"history={self.history_str()!r})")


def _seat_cards(tricks, n, trump):
    """(position, card) for every history card, without validation."""
    out = []
    leader = 0
    for tr in tricks:
        for j, c in enumerate(tr):
            out.append(((leader + j) % n, c))
        if len(tr) == n:
            leader = _trick_winner(tr, leader, n, trump)
    return out


def _single_deal(variants, drop=()):
    """The variants without those that set a schedule (a query is one deal)."""
    out = []
    for v in variants:
        name = (v.split("=")[0] if isinstance(v, str) else v[0]).strip().lower().replace("-", "_")
        if name not in ("schedule", "fixed_hands") + tuple(drop):
            out.append(v)
    return out


def _one_deal(variants):
    """The variants of a one-deal query; a schedule variant (schedule=, fixed_hands=) sets
    a whole game's deals and is refused, as ``troef bid`` refuses it (the play query
    dropped it without a word)."""
    variants = list(variants)
    kept = _single_deal(variants)
    if len(kept) != len(variants):
        v = next(v for v in variants if v not in kept)
        raise RulesError(f"variant {v!r} sets a whole game's deals; a play query is one deal "
                         f"(its size: the hand and the cards I played)")
    return kept


def _check_bids(bids, rules):
    n, h = rules.players, rules.schedule[0]
    if len(bids) != n:
        raise RulesError(f"bids: need one per position ({n}), got {len(bids)}")
    for p, b in enumerate(bids):
        if not 0 <= b <= h:
            raise RulesError(f"impossible bid {b} by position {p}: bids are 0..{h} with {h} cards")
    if bids[-1] == forbidden_bid(rules, h, bids[:-1]):
        raise RulesError(f"the bids sum to {h} (the hand size): the dealer (position {n - 1}) "
                         "may not make that bid")


class BoerenbridgeDeal(Deal):
    """A full-information deal played step by step: every hand is known. Same API as the
    information state, plus :meth:`info_state`, :attr:`hands` and :meth:`scores`."""
    game = GAME
    __slots__ = ()

    def __init__(self, rules, hands, turned, bids, notation="en"):
        if isinstance(turned, str):
            turned = parse_card(turned, notation)
        n = rules.players
        masks = dealt_masks(hands, n, notation)
        self.rules = rules
        self.dealt = tuple(masks)
        self.states = tuple(BoerenbridgeInfoState.initial(rules, p, masks[p], turned, bids)
                            for p in range(n))

    @property
    def hands(self):
        return tuple(s.hand for s in self.states)

    def scores(self):
        """Per-position deal scores once the deal is over."""
        s = self.states[0]
        if not s.is_terminal:
            raise RulesError("the deal is not over yet")
        r = self.rules
        from fastsim import boerenbridge_nb as nb
        return [int(nb.deal_score_nb(s.bids[p], s.won[p], r.flags, p == s.n - 1, s.forbidden,
                                     s.is_blind))
                for p in range(s.n)]


# ---------------------------------------------------------------------- records

def deal_from_record(rec, variants=(), notation="en"):
    """A :class:`BoerenbridgeDeal` (before the first card) from one ``--record-play``
    object (seat-based) of a Boerenbridge deal; variants as the simulation had them."""
    n, h, dealer = rec["players"], rec["hand_size"], rec["dealer"]
    # one deal of a game: its own hand size, trump as recorded
    kept = _single_deal(variants, drop=("no_trump_rounds",))
    if rec.get("trump") is None:
        kept.append("no_trump_rounds=1")
    rules = build_rules(players=n, hand_size=h, variants=kept)
    seat = [(dealer + 1 + p) % n for p in range(n)]
    hands = [parse_cards(rec["hands"][seat[p]], notation) for p in range(n)]
    bids = [rec["bids"][seat[p]] for p in range(n)]
    return BoerenbridgeDeal(rules, hands, parse_card(rec["trump_card"], notation), bids)


def positions_from_record(rec, variants=(), notation="en"):
    """Yield ``(info_state, card_played)`` for every card of a recorded deal: the
    information state of the player to move and the card the simulator played there."""
    yield from deal_from_record(rec, variants, notation).replay_record(rec, notation)


# ---------------------------------------------------------------------- play query

def _condition(policy, condition_bids):
    return POLICIES[policy] != POLICY_RANDOM if condition_bids is None else bool(condition_bids)


def sample_worlds(state, count, seed=0, condition_bids=None, policy="heuristic", start=0,
                  bid_model=None):
    """The hidden hands the play query samples (worlds ``start .. start+count`` of
    ``seed``): ``(worlds, logw)`` with ``worlds[i, q]`` the bit mask position ``q`` holds
    now in world i (the state's own hand for its position) and ``logw[i]`` the log
    importance weight: uniform over the deals consistent with the shown voids, times the
    likelihood of the others' bids under ``bid_model`` (analyzer/evidence.py; −inf:
    impossible — under the exact model, inconsistent with the bids — or stuck)."""
    out_w, out_l, _ = _sample(state, count, seed, _condition(policy, condition_bids),
                              bid_slope(bid_model, policy), start)
    return out_w, out_l


def _sample(state, count, seed, condition, lam, start, k=pq):
    a = state.kernel_args()
    out_w = np.zeros((count, state.n), dtype=np.int64)
    out_l = np.zeros(count, dtype=np.float64)
    out_u = np.zeros(count, dtype=np.float64)
    k.sample_worlds_nb(check_seed(seed), state.n, state.h, state.position, a["hand"],
                        a["played"], state.t, state.leader, a["tn"], a["voids"], a["played_by"],
                        state.trump, a["bids"], condition, np.float64(lam),
                        state.rules.flags, state.is_blind, np.int64(start), np.int64(count), out_w, out_l, out_u)
    return out_w, out_l, out_u


def _determined(state, policy):
    """Is the outcome of every card fixed? True when nobody else holds a card any more, or
    the hidden cards can lie only one way and the policy is the deterministic heuristic."""
    from .infostate import suit_cards
    return state.is_determined(policy, [suit_cards(v) for v in state.voids])


def _draw(state, a, cards, samples, condition, lam, pol, worlds, seed_u, k=pq):
    """Weigh worlds 0, 1, … until they carry ``samples`` effective samples (or the draw
    budget is spent), thin them (analyzer/evidence.py) and play the kept ones; returns
    (weights, my tricks, my scores, worlds drawn, worlds of positive weight)."""
    n, h, me = state.n, state.h, state.position
    K = len(cards)

    def weigh(start, count):
        _, lw, u = _sample(state, count, seed_u, condition, lam, start, k)
        return lw, u

    logw, u = draw_weights(weigh, samples, samples * MAX_DRAW_FACTOR)
    deals, w = thin(logw, u, samples)
    m = len(deals)
    lw = np.empty(m, dtype=np.float64)
    tr = np.zeros((m, K), dtype=np.int8)
    sc = np.zeros((m, K), dtype=np.int16)
    kernel = k.play_query_nb if pol == POLICIES["heuristic"] else k.play_query_policy_nb
    deals = deals.astype(np.int64)
    # in slices, for the progress bar (every world is played from its own key)
    sliced(m, "world", lambda z: kernel(
        seed_u, n, h, me, a["hand"], cards, state.turned, state.trump, a["played"],
        a["bids"], a["won"], state.t, state.leader, a["tc"], a["tn"], a["voids"],
        a["played_by"], condition, np.float64(lam), pol, state.rules.flags, state.is_blind,
        np.int64(worlds), deals[z], np.int64(CHUNK), lw[z], tr[z], sc[z]),
        desc="worlds played")
    return (w, tr.astype(np.int64), sc.astype(np.float64), len(logw),
            int(np.isfinite(logw).sum()))


def play_query(players, hand, trump_card, position, bids, history="", samples=None,
               policy="heuristic", worlds=PIMC_WORLDS, seed=0, threads=None, notation="en",
               variants=(), hand_size=None, condition_bids=None, state=None, bid_model=None):
    """Score every legal card of the player to move; returns a JSON-able dict.

    ``players``, ``hand`` (cards held now), ``trump_card``, ``position`` (0 = left of the
    dealer), ``bids`` (``"b0,b1,…"`` by position) and ``history`` as for
    :meth:`BoerenbridgeInfoState.from_inputs` (or pass a ready ``state``). ``samples``
    effective worlds are played out once per legal card with ``policy`` for everyone
    (``worlds``: the pimc policy's own worlds per decision). ``condition_bids`` (default:
    on unless the policy is random) weighs the worlds by the likelihood of the others'
    bids under ``bid_model`` (analyzer/evidence.py: ``soft``, the default, or ``exact``,
    only worlds in which the others' heuristic bids equal their actual bids; then, by
    default, when fewer than a tenth of ``samples`` pass within the draw budget, the bids
    are not used and ``note`` says so; ``condition_bids=True`` keeps them, an error if no
    world passes). Reproducible from ``seed`` for any ``threads``. ``samples``: default
    2,000 (300 when everyone plays a searching policy: pimc, strong, ...).
    """
    from .infostate import query_state
    samples, seed_u = play_args(samples, policy, POLICIES, DEFAULT_SAMPLES, worlds, seed,
                                QUERY_SEARCHING)
    state, cards = query_state(state, lambda: BoerenbridgeInfoState.from_inputs(
        players, hand, trump_card, position, bids, history, notation, variants, hand_size))
    n, h, me = state.n, state.h, state.position
    rules = state.rules
    K = len(cards)
    k = query_kernels(pq, threads, K * samples, policy)
    a = state.kernel_args()
    condition = _condition(policy, condition_bids)
    model = check_bid_model(bid_model)
    lam = bid_slope(model, policy)
    pol = POLICIES[policy]
    note = None
    w, tricks, scores, drawn, accepted = _draw(state, a, cards, samples, condition, lam, pol,
                                               worlds, seed_u, k)
    if weight_stats(w)["effective_samples"] < samples * MIN_KEPT_FRACTION and condition \
            and condition_bids is None and model == "exact":
        note = (f"only {accepted:,} of {drawn:,} worlds drawn are consistent with the bids "
                f"{','.join(map(str, state.bids))} under heuristic bidders; "
                "the bids were not used to sample")
        condition = False
        w, tricks, scores, drawn, accepted = _draw(state, a, cards, samples, condition, lam,
                                                   pol, worlds, seed_u, k)
    kept = len(w)
    if kept == 0:
        why = (f"with the others' bids {','.join(map(str, state.bids))} under heuristic "
               "bidders (try bid_model soft, condition_bids off or policy random)"
               if condition else "with the shown voids")
        raise RulesError(f"no sampled world out of {drawn:,} is consistent {why}")
    exact = _determined(state, policy)
    bid = state.bids[me]
    out_cards = []
    for k in range(K):
        summ = weighted_summary(scores[:, k], w, tricks[:, k] == bid, exact=exact)
        dist = np.bincount(tricks[:, k], weights=w, minlength=h + 1)[: h + 1] / w.sum()
        out_cards.append({
            "card": card_str(cards[k], notation),
            "value": summ["mean"],
            "value_ci": summ["mean_ci"],
            "p_make": summ["p"],
            "p_make_ci": summ["p_ci"],
            "expected_score": summ["mean"],
            "expected_score_ci": summ["mean_ci"],
            "trick_distribution": [float(x) for x in dist],
        })
    choice = state.decide(policy=policy, seed=seed, worlds=worlds)
    choice_s = card_str(choice, notation)
    from .infostate import recommended
    best = recommended(out_cards, choice_s, "expected_score",
                       lambda tied: max(tied, key=lambda x: x["p_make"]))
    return finish_play({
        "game": GAME,
        "players": n,
        "hand_size": h,
        "position": me,
        "to_move": state.to_move,
        "hand": [card_str(c, notation) for c in state.hand_cards],
        "trump_card": card_str(state.turned, notation),
        "trump": None if state.trump < 0 else SUITS[state.trump],
        "bids": list(state.bids),
        "tricks_won": list(state.won),
        "history": state.history_str(notation),
        "trick": [card_str(c, notation) for c in state.current],
        "recommended": best["card"],
        "policy_choice": choice_s,
        "cards": out_cards,
        "exact": exact,
        "samples": int(kept),
        "effective_samples": float(ess(w)),
        "worlds_drawn": int(drawn),
        "acceptance_rate": accepted / drawn,
        "conditioned_on_bids": condition,
        "bid_model": model if condition else None,
        "note": note,
        "policy": policy,
        "pimc_worlds": int(worlds),
        "seed": seed,
        "scoring": rules.scoring,
        "variants": dict(rules.variants),
    }, w, scores)
