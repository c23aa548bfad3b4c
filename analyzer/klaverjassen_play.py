""""Which card should I play now?" — Klaverjassen information states and the play query.

Same API as :mod:`analyzer.boerenbridge_play` (see :mod:`analyzer.infostate`). Inputs:
``position`` (0 = left of the dealer, who leads the first trick), ``hand`` (held now),
``trump`` (suit), ``caller`` (the position that named trump: its team plays), ``history``;
optionally ``forced`` (everyone passed and position 0 had to name: the calling round, which
the ``strong`` policy's card play conditions on).
Teams are positions 0+2 and 1+3. Besides shown voids, the Rotterdam duties reveal more:
a player who does not overtrump holds no higher trump, one who undertrumps (or, when void,
plays a side card instead of trumping) holds no such card; these card-level constraints
are kept per position (``forbid``) and the hidden hands are sampled to respect them.

The query's ``value`` per card is the expected *margin* (my team's banked points minus the
other team's, nat and pit included: what the pimc policy maximises and what decides a
boompje); ``expected_score`` is my team's banked points and ``p_make`` the probability
that the playing team makes it (no nat). ``others_model`` (and the text's note) says which
model the other players follow: with ``heuristic`` (and in the rollouts of ``pimc`` and
``strong``) the defenders play for nat (docs/klaverjassen.md, "nat defence"). numpy only.
"""
import numpy as np

from fastsim.aot import kernels
from fastsim.cards import CardError, FULL32, SUITS, card_str, mask_of, parse_cards, parse_suit
from fastsim.klaverjassen_schema import (LAST_TRICK, PIMC_WORLDS, POLICIES, RulesError,
                                         build_rules)
from fastsim.common import check_seed
from .infostate import query_kernels
from .infostate import TrickInfoState, parse_tricks, recommended, position_arg, query_state, play_args, record_card, sample_hidden, check_own_cards, replay, Deal, dealt_masks, SUIT_NAMES, weighted_summary, ess
from .evidence import finish_play
from .evidence import PASS_SCALE as CALL_SCALE
from .progress import sliced

# the compiled kernels: ahead of time where built (fastsim/aot.py: no numba to start, one
# thread) for a small query, else numba's (the same results)
pq = kernels("klaverjassen_play")

GAME = "klaverjassen"
DEFAULT_SAMPLES = 2_000
CHUNK = 128
TEAM_OF_POS = np.array([0, 1, 0, 1], dtype=np.int64)

__all__ = ["KlaverjassenInfoState", "KlaverjassenDeal", "play_query", "sample_worlds",
           "positions_from_record", "deal_from_record"]


def others_model(policy):
    """One line naming the model the other players follow in a Klaverjassen query."""
    if policy == "random":
        return "the other players play random legal cards"
    if policy == "dd":
        return "every player plays perfectly with all hands open (double dummy)"
    heur = ("the heuristic (docs/klaverjassen.md): the playing team as in every deal, the "
            "defenders going for nat")
    if policy == "heuristic":
        return "the other players follow " + heur
    return f"the other players follow {policy}, its searches finishing every world with " + heur


def _arr(vals, n=4):
    a = np.zeros(n, dtype=np.int64)
    a[:len(vals)] = vals
    return a


class KlaverjassenInfoState(TrickInfoState):
    """One player's information state in a Klaverjassen deal (immutable).

    ``team_cp``/``team_rm`` are per position-team (0: positions 0+2, 1: positions 1+3),
    ``playing`` the playing position-team; ``voids`` (suit bits, shown by not following:
    the engine's bookkeeping) and ``forbid`` (card masks: everything known not held)
    per position."""
    game = GAME
    n = 4
    h = 8
    DECK = 32
    __slots__ = ("rules", "position", "hand", "trump", "playing", "tricks", "leader",
                 "current", "won", "team_cp", "team_rm", "voids", "forbid", "played_by",
                 "played", "calls")

    @classmethod
    def initial(cls, rules, position, hand, trump, caller, forced=False, calls=None):
        """``calls``: the calling round as the engine records it (suit or −1 per call in
        order, a fifth entry the forced call); by default the one ``caller`` and
        ``forced`` imply (everyone before the caller passed); ``()``: no calling round
        (a fixed trump)."""
        s = cls.__new__(cls)
        s.rules = rules
        s.position = int(position)
        s.hand = int(hand) if isinstance(hand, (int, np.integer)) else mask_of(hand)
        if bin(s.hand).count("1") != 8 or s.hand & ~int(FULL32):
            raise RulesError(f"hand of the wrong size: {bin(s.hand).count('1')} cards, a "
                             "Klaverjassen hand has 8 of the 32-card deck")
        s.trump = int(trump)
        if isinstance(caller, bool) or not isinstance(caller, (int, np.integer)) \
                or not 0 <= caller < 4:
            raise RulesError(f"caller must be the position 0..3 that named trump, got {caller!r}")
        s.playing = int(caller) & 1
        if forced and caller != 0:
            raise RulesError(f"a forced call is made by position 0, not {caller}")
        if calls is None:
            calls = (-1,) * 4 + (s.trump,) if forced else (-1,) * int(caller) + (s.trump,)
        s.calls = tuple(int(c) for c in calls)
        s.tricks = ()
        s.leader = 0
        s.current = ()
        s.won = (0,) * 4
        s.team_cp = (0, 0)
        s.team_rm = (0, 0)
        s.voids = (0,) * 4
        s.forbid = (0,) * 4
        s.played_by = (0,) * 4
        s.played = 0
        return s

    @classmethod
    def from_inputs(cls, hand, trump, caller, position, history="", notation="en",
                    variants=(), require_turn=True, forced=False):
        """From the CLI-style inputs; raises :class:`RulesError` / :class:`CardError` with
        a one-line message."""
        rules = build_rules(variants)
        tr = parse_suit(trump, notation) if isinstance(trump, str) else int(trump)
        codes = parse_cards(hand, notation, deck=32) if isinstance(hand, str) else [int(c) for c in hand]
        if not codes:
            raise CardError("--hand is empty")
        position = position_arg(position, 4, f"position must be 0..3 (0 = left of the dealer, "
                                f"3 = dealer), got {position}")
        tricks = parse_tricks(history, 4, notation, deck=32)
        # my own cards in the history (winners need only trump, no rules)
        leader, mine = 0, []
        for t in tricks:
            mine += [c for j, c in enumerate(t) if (leader + j) % 4 == position]
            if len(t) == 4:
                _, _, leader, _, _, _ = pq.trick_state_nb(_arr(t), 4, leader, tr)
                leader = int(leader)
        check_own_cards(codes, mine, position, notation)
        if len(codes) + len(mine) != 8:
            raise RulesError(f"hand of the wrong size: {len(codes)} cards held after playing "
                             f"{len(mine)} makes {len(codes) + len(mine)}, not 8")
        s = cls.initial(rules, position, codes + mine, tr, caller, forced)
        return replay(s, tricks, position, notation, require_turn, "deal")

    @property
    def is_terminal(self):
        return self.t == 8

    def unseen_mask(self):
        return int(FULL32) & ~(self.hand | self.played)

    def _trick_state(self):
        return pq.trick_state_nb(_arr(self.current), len(self.current), self.leader, self.trump)

    def _cannot_hold(self, q):
        return self.forbid[q]

    def _own_legal_mask(self):
        return int(pq.legal_here_nb(np.int64(self.hand), _arr(self.current), len(self.current),
                                    self.leader, self.trump, TEAM_OF_POS, self.position,
                                    self.rules.flags))

    def _illegal_why(self, cs):
        hi = self._trick_state()[3]
        return f"may not play {cs} here (follow suit, {'overtrump' if hi >= 0 else 'trump'} when able)"

    def apply(self, card, notation="en"):
        """A new state with ``card`` played by :attr:`to_move` (validated)."""
        card, cs, p = self._card_to_play(card, notation)
        bit = 1 << card
        led, winner, win_pos, hi, trick, tp = self._trick_state()
        pw = win_pos >= 0 and TEAM_OF_POS[win_pos] == TEAM_OF_POS[p]
        if p != self.position and self.forbid[p] & bit:
            why = (f"showed earlier it has no {SUIT_NAMES[card >> 4]}"
                   if self.voids[p] >> (card >> 4) & 1 else
                   "showed by an earlier play (trumping duties) that it does not hold it")
            raise RulesError(f"position {p} {why}, so it cannot play {cs}")
        s = self._copy()
        record_card(s, self, p, card, led)
        if p != self.position:
            f = list(self.forbid)
            # what the play shows it lacks: the kernel's legality inverted (revealed_nb)
            f[p] |= int(pq.revealed_nb(card, led, self.trump, hi, pw, self.rules.flags))
            s.forbid = tuple(f)
        cur = self.current + (card,)
        if len(cur) == 4:
            _, _, w, _, mask, pts = pq.trick_state_nb(_arr(cur), 4, self.leader, self.trump)
            w = int(w)
            pts = int(pts) + (LAST_TRICK if self.t == 7 else 0)
            team = int(TEAM_OF_POS[w])
            cp, rm = list(self.team_cp), list(self.team_rm)
            cp[team] += pts
            rm[team] += int(pq.roem_nb(np.int64(mask), self.trump, self.rules.flags))
            s.team_cp, s.team_rm = tuple(cp), tuple(rm)
            self._close_trick(s, cur, w)
        else:
            s.current = cur
        return s

    def kernel_args(self):
        return {"hand": np.int64(self.hand), "played": np.int64(self.played),
                "tc": _arr(self.current), "tn": len(self.current), "t": self.t,
                "won": _arr(self.won), "cp": _arr(self.team_cp, 2), "rm": _arr(self.team_rm, 2),
                "voids": _arr(self.voids), "forbid": _arr(self.forbid),
                "played_by": _arr(self.played_by), "calls": _arr(self.calls, 5),
                "ncalls": len(self.calls)}

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=PIMC_WORLDS):
        """The card the built-in ``policy`` plays here, exactly as the simulator would."""
        p = self._my_turn(policy, POLICIES)
        a = self.kernel_args()
        r = self.rules
        if policy == "heuristic":
            return int(pq.decide_heuristic_nb(p, a["hand"], self.trump, TEAM_OF_POS,
                                              self.playing, self.leader, a["tc"], a["tn"],
                                              a["played"], a["cp"], a["rm"], r.flags))
        if policy == "strong":
            return int(pq.decide_strong_card_nb(
                POLICIES[policy], check_seed(seed), np.int64(deal), p, a["hand"], self.trump,
                TEAM_OF_POS, self.playing, self.t, self.leader, a["tc"], a["tn"], a["played"],
                a["won"], a["cp"], a["rm"], a["voids"].copy(), a["played_by"], a["calls"],
                a["ncalls"], r.flags, np.int64(worlds)))
        return int(pq.decide_card_nb(POLICIES[policy], check_seed(seed), np.int64(deal), p,
                                     a["hand"], self.trump, TEAM_OF_POS, self.playing, self.t,
                                     self.leader, a["tc"], a["tn"], a["played"], a["won"],
                                     a["cp"], a["rm"], a["voids"].copy(), r.flags,
                                     np.int64(worlds)))

    def final_scores(self):
        """Banked points per position-team once the deal is over (nat and pit included)."""
        if not self.is_terminal:
            raise RulesError("the deal is not over yet")
        tt = [self.won[0] + self.won[2], self.won[1] + self.won[3]]
        out = np.zeros(2, dtype=np.int64)
        from fastsim.klaverjassen_nb import score_deal_nb
        score_deal_nb(_arr(self.team_cp, 2), _arr(self.team_rm, 2), self.playing,
                      _arr(tt, 2), out)
        return [int(x) for x in out]


class KlaverjassenDeal(Deal):
    """A full-information Klaverjassen deal played step by step (all hands known)."""
    game = GAME
    __slots__ = ()

    def __init__(self, rules, hands, trump, caller, notation="en", forced=False, calls=None):
        masks = dealt_masks(hands, 4, notation, deck=32)
        tr = parse_suit(trump, notation) if isinstance(trump, str) else int(trump)
        self.rules = rules
        self.dealt = tuple(masks)
        self.states = tuple(KlaverjassenInfoState.initial(rules, p, masks[p], tr, caller,
                                                          forced, calls)
                            for p in range(4))

    def scores(self):
        return self.states[0].final_scores()


def deal_from_record(rec, variants=(), notation="en"):
    """A :class:`KlaverjassenDeal` from one ``--record-play`` object, with the recorded
    calling round (without one, a fixed trump: the caller is taken as a position of the
    recorded playing team, which of the two does not matter)."""
    dealer = rec["dealer"]
    hands = [parse_cards(rec["hands"][(dealer + 1 + p) % 4], notation, deck=32)
             for p in range(4)]
    rules = build_rules(variants)
    trump = SUITS.index(rec["trump"])
    if rec.get("calls"):
        calls = [-1 if c == "pass" else SUITS.index(c) for _, c in rec["calls"]]
        caller = (rec["calls"][-1][0] - dealer - 1) % 4
        return KlaverjassenDeal(rules, hands, trump, caller, forced=len(calls) == 5,
                                calls=calls)
    # seat team t plays; position p has seat (dealer + 1 + p): a position of that team
    caller = next(p for p in range(4) if (dealer + 1 + p) % 2 == rec["playing_team"])
    return KlaverjassenDeal(rules, hands, trump, caller, calls=())


def positions_from_record(rec, variants=(), notation="en"):
    """Yield ``(info_state, card_played)`` for every card of a recorded deal."""
    yield from deal_from_record(rec, variants, notation).replay_record(rec, notation)


def sample_worlds(state, count, seed=0, start=0, tau=CALL_SCALE):
    """The hidden hands the play query samples: ``(worlds, logw)``; ``logw`` includes the
    calling round's log likelihood under the soft heuristic caller of scale ``tau``
    (``None``: not weighed by the calls, as for random players)."""
    a = state.kernel_args()
    ncalls = 0 if tau is None else a["ncalls"]
    return sample_hidden(pq.sample_worlds_nb, state, "forbid", count, seed, start,
                         extra=(a["played_by"], a["calls"], np.int64(ncalls),
                                np.float64(tau or 0.0)))


def _determined(state, policy):
    return state.is_determined(policy, state.forbid)


def play_query(hand, trump, caller, position, history="", samples=None,
               policy="heuristic", worlds=PIMC_WORLDS, seed=0, threads=None, notation="en",
               variants=(), state=None, forced=False):
    """Score every legal card of the player to move; returns a JSON-able dict shaped like
    the Boerenbridge play query's (``value`` = expected margin, see the module doc)."""
    samples, seed_u = play_args(samples, policy, POLICIES, DEFAULT_SAMPLES, worlds, seed)
    state, cards = query_state(state, lambda: KlaverjassenInfoState.from_inputs(
        hand, trump, caller, position, history, notation, variants, forced=forced))
    r = state.rules
    K = len(cards)
    k = query_kernels(pq, threads, K * samples, policy)
    a = state.kernel_args()
    lw = np.empty(samples, dtype=np.float64)
    mine = np.zeros((samples, K), dtype=np.int16)
    theirs = np.zeros((samples, K), dtype=np.int16)
    made = np.zeros((samples, K), dtype=np.bool_)
    kernel = k.play_query_nb if policy == "heuristic" else k.play_query_policy_nb
    # the worlds are weighed by the calling round (the others' passes and call) under the
    # soft heuristic caller, except when everyone plays at random
    ncalls = 0 if policy == "random" else a["ncalls"]
    # in slices, for the progress bar (every world is drawn from its own key)
    sliced(samples, "world", lambda z: kernel(
        seed_u, state.position, a["hand"], cards, state.trump, TEAM_OF_POS,
        state.playing, state.t, state.leader, a["tc"], a["tn"], a["played"],
        a["won"], a["cp"], a["rm"], a["voids"], a["forbid"], POLICIES[policy],
        r.flags, np.int64(worlds), np.int64(z.start),
        np.int64(z.stop - z.start), np.int64(CHUNK), lw[z], mine[z], theirs[z], made[z],
        a["played_by"], a["calls"], np.int64(ncalls), np.float64(CALL_SCALE)),
        desc="worlds played")
    ok = np.isfinite(lw)
    if not ok.any():
        raise RulesError("no deal of the unseen cards is consistent with the history")
    w = np.exp(np.round(lw[ok] - lw[ok].max(), 9))
    mine, theirs, made = (x[ok].astype(np.float64) for x in (mine, theirs, made))
    exact = _determined(state, policy)
    out_cards = []
    for k in range(K):
        marg = weighted_summary(mine[:, k] - theirs[:, k], w, made[:, k] > 0, exact=exact)
        own = weighted_summary(mine[:, k], w, exact=exact)
        out_cards.append({"card": card_str(cards[k], notation), "value": marg["mean"],
                          "value_ci": marg["mean_ci"], "p_make": marg["p"],
                          "p_make_ci": marg["p_ci"], "expected_score": own["mean"],
                          "expected_score_ci": own["mean_ci"]})
    choice = card_str(state.decide(policy=policy, seed=seed, worlds=worlds), notation)
    best = recommended(out_cards, choice)
    return finish_play({
        "game": GAME,
        "trump": SUITS[state.trump],
        "playing_team": "ours" if state.playing == state.position & 1 else "theirs",
        "position": state.position,
        "to_move": state.to_move,
        "hand": [card_str(c, notation) for c in state.hand_cards],
        "history": state.history_str(notation),
        "trick": [card_str(c, notation) for c in state.current],
        "card_points_so_far": {"ours": state.team_cp[state.position & 1],
                               "theirs": state.team_cp[1 - (state.position & 1)]},
        "recommended": best["card"],
        "policy_choice": choice,
        "cards": out_cards,
        "value_is": "expected margin: my team's banked points minus the other team's",
        "others_model": others_model(policy),
        "note": others_model(policy),
        "exact": exact,
        "samples": int(ok.sum()),
        "effective_samples": float(ess(w)),
        "worlds_drawn": int(samples),
        "policy": policy,
        "calls_model": None if ncalls == 0 or all(
            q == state.position for q in range(min(ncalls, 4))) else f"soft (τ={CALL_SCALE:g})",
        "pimc_worlds": int(worlds),
        "seed": seed,
        "variants": dict(r.variants),
    }, w, mine - theirs)
