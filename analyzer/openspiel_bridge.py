"""OpenSpiel bridge: troef's Boerenbridge policies as ``pyspiel.Bot`` s in OpenSpiel's
``oh_hell``, OpenSpiel's bots as entrants of ``troef tournament boerenbridge``, and a fair
world resampler for OpenSpiel's IS-MCTS.

Optional: needs the ``openspiel`` extra (``pip install -e '.[openspiel]'``); without it
every entry point raises :class:`RulesError` with that one line.

**The game.** ``oh_hell`` with ``players=n``, ``num_tricks_fixed=h``,
``off_bid_penalty=True`` and ``points_per_trick=2`` is troef's single deal of h cards under
``scoring=dutch`` (docs/rules.md §1): exact bid 10 + 2 per trick, missed −2 per trick of
distance; the dealer (last bidder) may not make the bids add up to h; follow suit, no
obligation to trump; the turned card after the deal names trump and is out of play; left of
the dealer bids first and leads; the trick's taker leads next. Conventions of OpenSpiel's
implementation that the bridge maps:

* chance nodes, in order: the number of tricks, the dealer (a player index), then the
  ``n·h`` cards dealt round-robin *starting at player 0* whoever deals (card ``i`` goes to
  player ``i mod n``), then the turned card;
* a card is ``rank·4 + suit`` with suits ``C D S H`` = 0..3 and ranks 2..A = 0..12
  (troef: ``16·suit + rank`` with ``S H D C``); a bid ``b`` is action ``52 + b``;
* the bridge's OpenSpiel player ``s`` is troef's seat ``s``; troef position ``p`` (0 = left
  of the dealer) is player ``(dealer + 1 + p) mod n``.

The only differences from troef's rules: OpenSpiel draws the dealer by chance (the bridge
fixes it to troef's dealer) and deals from player 0 (the bridge fixes every card, so the deal
is troef's deal exactly); none changes a deal's play or score.

**Matches** (:func:`tournament`) are played inside OpenSpiel: the chance outcomes are taken
from troef's own deals (``fastsim.boerenbridge.simulate`` with the same seed, so deal ``d``
has the cards troef's simulator deals as deal ``d``), every seat is a ``pyspiel.Bot``, the
seatings rotate as in :mod:`analyzer.tournament`.

**Fair resampling** (:class:`FairResampler`). OpenSpiel's own
``OhHellState.resample_from_infostate`` keeps the cards that were never dealt out of every
world, so a bot using it knows which 52 − n·h − 1 cards are out of play. The fair
resampler draws only from what the player can know (own hand, the cards seen played and by
whom, the turned card, the suits others showed void in): every unseen card, dealt or not,
goes to another player's hand or to the undealt stock, with troef's pimc world sampler
(:func:`fastsim.pimc_nb.deal_hidden_nb`).
"""
import json
import time

import numpy as np

from fastsim import boerenbridge_nb as nb
from fastsim.boerenbridge_schema import (EXACT_BASE, MAX_SEATS, PIMC_WORLDS, POLICIES,
                                         RulesError)
from fastsim.cards import codes_of, mask_of
from fastsim.pimc_nb import REST, deal_hidden_nb
from fastsim.play_nb import FULL52
from fastsim.rng import check_seed, deal_key_nb, run_key_nb

__all__ = ["available", "load_game", "to_os", "from_os", "deal_actions", "TroefBot",
           "FairResampler", "make_bot", "parse_entrant", "play_deal", "tournament",
           "deal_record", "replay_record",
           "render_extra", "INSTALL_HINT"]

INSTALL_HINT = ("OpenSpiel is not installed: pip install -e '.[openspiel]' "
                "(the open-spiel package) to use openspiel: entrants")
NUM_CARDS = 52
PREFIX = "openspiel:"
UCT_C = 10.0          # IS-MCTS exploration constant (returns span −2h … 10 + 2h)
ROLLOUTS = 1          # random rollouts per IS-MCTS leaf
HIDDEN_TRIES = 64     # sampler tries before the exact (flow) fallback

_OS_SUIT = (2, 3, 1, 0)      # troef suit S H D C -> OpenSpiel suit (C D S H = 0..3)
_TROEF_SUIT = (3, 2, 0, 1)   # OpenSpiel suit C D S H -> troef suit


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise RulesError(INSTALL_HINT) from None
    return pyspiel


def available():
    """Is OpenSpiel (``pyspiel``) importable?"""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def to_os(code):
    """troef card code → OpenSpiel oh_hell card."""
    code = int(code)
    return (code & 15) * 4 + _OS_SUIT[code >> 4]


def from_os(card):
    """OpenSpiel oh_hell card → troef card code."""
    card = int(card)
    return 16 * _TROEF_SUIT[card % 4] + card // 4


def _mask_os(cards):
    return mask_of(from_os(c) for c in cards)


def _cards_of(mask):
    return codes_of(mask)


_TO_OS = [((c & 15) * 4 + _OS_SUIT[c >> 4]) if (c & 15) < 13 else -1 for c in range(64)]


def game_params(players, hand_size):
    return {"players": int(players), "num_tricks_fixed": int(hand_size),
            "off_bid_penalty": True, "points_per_trick": 2}


def load_game(players, hand_size):
    """OpenSpiel's ``oh_hell`` for one troef deal of ``hand_size`` cards, dutch scoring."""
    return _pyspiel().load_game("oh_hell", game_params(players, hand_size))


def deal_actions(n, h, dealer, hands, turned):
    """The chance outcomes of one deal: ``hands`` per seat (troef bit masks or code lists),
    ``turned`` a troef code; OpenSpiel deals round-robin from player 0."""
    lists = [sorted(_cards_of(x) if isinstance(x, (int, np.integer)) else map(int, x))
             for x in hands]
    out = [int(h), int(dealer)]
    for i in range(n * h):
        out.append(to_os(lists[i % n][i // n]))
    out.append(to_os(turned))
    return out


# ---------------------------------------------------------------------- reading a state

class _View:
    """What an OpenSpiel oh_hell state's history says (seats = OpenSpiel players)."""
    __slots__ = ("n", "h", "dealer", "dealt", "turned", "bids", "plays", "post")

    def __init__(self, state):
        hist = state.history()
        n = state.get_game().num_players()
        h, dealer = hist[0], hist[1]
        k = 2 + n * h
        if len(hist) <= k:
            raise RulesError("the deal is not complete: no information state to act on")
        self.n, self.h, self.dealer = n, h, dealer
        self.dealt = [hist[2 + i::n][:h] for i in range(n)]   # OpenSpiel cards per seat
        self.turned = hist[k]
        self.post = hist[k + 1:]
        self.bids = [a - NUM_CARDS for a in self.post[:n]]    # by position (bidding order)
        self.plays = self.post[n:]

    def position(self, seat):
        return (seat - self.dealer - 1) % self.n

    def seat(self, position):
        return (self.dealer + 1 + position) % self.n


def _rules(n, h):
    from fastsim.boerenbridge_schema import build_rules
    return build_rules(players=n, hand_size=h, variants=["scoring=dutch"])


def info_state(state, seat, rules=None, view=None):
    """troef's :class:`~analyzer.boerenbridge_play.BoerenbridgeInfoState` of OpenSpiel
    player ``seat`` in a play-phase ``state`` (every bid made)."""
    from .boerenbridge_play import BoerenbridgeInfoState
    v = view or _View(state)
    if len(v.bids) < v.n:
        raise RulesError("the bidding is not over yet")
    rules = rules or _rules(v.n, v.h)
    s = BoerenbridgeInfoState.initial(rules, v.position(seat), _mask_os(v.dealt[seat]),
                                      from_os(v.turned), v.bids)
    for a in v.plays:
        s = s.apply(from_os(a))
    return s


# ---------------------------------------------------------------------- troef as a bot

def _dkey(seed, deal):
    """The simulator's key of deal ``deal`` of ``seed``. A numba kernel called from Python
    returns a Python int: every key is turned back into ``np.uint64`` before it is passed on."""
    return np.uint64(deal_key_nb(np.uint64(run_key_nb(check_seed(seed))), np.int64(deal)))


def _troef_bid(policy, rules, v, seat, seed, deal, worlds):
    """The bid troef's ``policy`` makes for ``seat``: the simulator's own bid functions with
    the same arguments (fastsim.boerenbridge_nb.bid_play_nb)."""
    n, h = v.n, v.h
    p = v.position(seat)
    hand = np.int64(_mask_os(v.dealt[seat]))
    turned = from_os(v.turned)
    trump = np.int64(turned >> 4)
    bid_sum = sum(v.bids[:p])
    f = nb.forbidden_bid_nb(h, bid_sum, rules.flags) if p == n - 1 else -1
    bids = np.full(MAX_SEATS, -1, dtype=np.int64)
    bids[:p] = v.bids[:p]
    return int(nb.policy_bid_nb(POLICIES[policy], _dkey(seed, deal), n, h, p, hand, turned,
                                trump, bids, bid_sum, f, rules.flags, False, np.int64(worlds)))


_BOT_CLASS = []


def TroefBot(policy, rules, seed=0, deal=0, worlds=PIMC_WORLDS):
    """A ``pyspiel.Bot`` playing troef's built-in ``policy`` (heuristic, pimc, random) in
    oh_hell exactly as troef's simulator plays deal ``deal`` of ``seed``."""
    if policy not in POLICIES:
        raise RulesError(f"unknown troef policy {policy!r}; known: {', '.join(POLICIES)}")
    if not _BOT_CLASS:
        _BOT_CLASS.append(_make_bot_class(_pyspiel().Bot))
    return _BOT_CLASS[0](policy, rules, seed, deal, worlds)


def _make_bot_class(base):
    class _TroefBot(base):
        def __init__(self, policy, rules, seed, deal, worlds):
            super().__init__()
            self.policy, self.rules, self.seed, self.deal, self.worlds = \
                policy, rules, seed, deal, worlds

        def step(self, state):
            seat = state.current_player()
            v = _View(state)
            if len(v.bids) < v.n:
                return NUM_CARDS + _troef_bid(self.policy, self.rules, v, seat, self.seed,
                                              self.deal, self.worlds)
            s = info_state(state, seat, self.rules, v)
            return to_os(s.decide(self.policy, seed=self.seed, deal=self.deal,
                                  worlds=self.worlds))

        def restart_at(self, state):
            pass

        def inform_action(self, state, player, action):
            pass

    _TroefBot.__name__ = _TroefBot.__qualname__ = "TroefBot"
    return _TroefBot


# ---------------------------------------------------------------------- fair resampler

def _augment(x, left, allowed, s, rng):
    """Place one more card of suit ``s`` into the counts ``x[suit][holder]``: along a
    shortest chain of moves (a holder allowed ``s`` passes one of its cards of another
    suit on, …) that ends at a holder with room. False if there is none."""
    S, Q = len(x), len(left)
    prev = {("s", s): None}
    queue = [("s", s)]
    end = None
    while queue and end is None:
        node = queue.pop(0)
        if node[0] == "s":
            order = list(range(Q))
            rng.shuffle(order)
            for q in order:
                if allowed[node[1]][q] and ("q", q) not in prev:
                    prev[("q", q)] = node
                    if left[q] > 0:
                        end = ("q", q)
                        break
                    queue.append(("q", q))
        else:
            for s2 in range(S):
                if x[s2][node[1]] > 0 and ("s", s2) not in prev:
                    prev[("s", s2)] = node
                    queue.append(("s", s2))
    if end is None:
        return False
    left[end[1]] -= 1
    node = end
    while prev[node] is not None:
        p = prev[node]
        if node[0] == "q":
            x[p[1]][node[1]] += 1
        else:
            x[node[1]][p[1]] -= 1
        node = p
    return True


def _feasible(counts, room, allowed, rng):
    """A random assignment ``x[s][q]`` of ``counts[s]`` cards of suit s to holders with
    ``room[q]``, only where ``allowed[s][q]``: the cards in random order, each to an
    allowed holder with room in proportion to that room, a chain of moves
    (:func:`_augment`) when none has room; None if no assignment exists."""
    S, Q = len(counts), len(room)
    x = [[0] * Q for _ in range(S)]
    left = list(room)
    order = [s for s in range(S) for _ in range(counts[s])]
    rng.shuffle(order)
    for s in order:
        elig = [q for q in range(Q) if allowed[s][q] and left[q] > 0]
        if elig:
            w = np.array([left[q] for q in elig], dtype=float)
            q = elig[int(rng.choice(len(elig), p=w / w.sum()))]
            x[s][q] += 1
            left[q] -= 1
        elif not _augment(x, left, allowed, s, rng):
            return None
    return x


class FairResampler:
    """``resample(state, player)`` → a new oh_hell state consistent with everything
    ``player`` has seen and nothing else: the unseen cards, including those never dealt,
    are spread over the other hands and the undealt stock (troef's pimc world sampler:
    random card order, most constrained suits first, each card to an eligible holder in
    proportion to its room; a shown void is always respected). Usable as the
    ``set_resampler`` callback of OpenSpiel's Python ``ISMCTSBot``."""

    name = "fair"

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
        self._key = None
        self._root = None
        self.stuck = 0        # draws that needed the exact fallback

    def _prepare(self, state, player):
        v = _View(state)
        n, h = v.n, v.h
        cap = np.zeros(MAX_SEATS + 1, dtype=np.int64)
        voids = np.zeros(MAX_SEATS, dtype=np.int64)
        played_by = [0] * n
        if len(v.bids) < n:      # bidding: nothing played yet
            me = v.position(player)
            hand = _mask_os(v.dealt[player])
            unseen = FULL52 & ~(hand | (1 << from_os(v.turned)))
            for q in range(n):
                if q != me:
                    cap[q] = h
        else:
            st = info_state(state, player, None, v)
            me, hand, unseen = st.position, st.hand, st.unseen_mask()
            tn = len(st.current)
            for q in range(n):
                if q != me:
                    cap[q] = h - st.t - (1 if (q - st.leader) % n < tn else 0)
                voids[q] = st.voids[q]
            played_by = list(st.played_by)
        cap[REST] = bin(unseen).count("1") - int(cap[:n].sum())
        self._root = (v, me, np.int64(hand), np.int64(unseen), cap, voids, played_by,
                      state.get_game())

    def draw(self, state, player):
        """One world as troef bit masks per position: the cards each holds *now*."""
        key = (player, tuple(state.history()))
        if key != self._key:
            self._prepare(state, player)
            self._key = key
        v, me, hand, unseen, cap, voids, _, _ = self._root
        out = np.zeros(MAX_SEATS, dtype=np.int64)
        for _ in range(HIDDEN_TRIES):
            wkey = np.uint64(self.rng.integers(0, 2 ** 63))
            if deal_hidden_nb(wkey, v.n, me, hand, unseen, cap, voids, out):
                return out
        self.stuck += 1
        return self._exact(v.n, me, hand, unseen, cap, voids)

    def _exact(self, n, me, hand, unseen, cap, voids):
        holders = [q for q in range(n) if q != me] + [REST]
        room = [int(cap[q]) for q in holders]
        by_suit = [[c for c in _cards_of(int(unseen)) if c >> 4 == s] for s in range(4)]
        allowed = [[q == REST or not (int(voids[q]) >> s) & 1 for q in holders]
                   for s in range(4)]
        x = _feasible([len(c) for c in by_suit], room, allowed, self.rng)
        if x is None:  # pragma: no cover - the real deal is always a solution
            raise RulesError("no deal of the unseen cards fits the shown voids")
        out = np.zeros(MAX_SEATS, dtype=np.int64)
        out[me] = hand
        for s in range(4):
            cards = list(by_suit[s])
            self.rng.shuffle(cards)
            i = 0
            for j, q in enumerate(holders):
                for c in cards[i:i + x[s][j]]:
                    if q != REST:
                        out[q] |= np.int64(1) << c
                i += x[s][j]
        return out

    def __call__(self, state, player):
        return self.resample(state, player)

    def resample(self, state, player):
        world = self.draw(state, player)
        v, me, _, _, _, _, played_by, game = self._root
        n, h = v.n, v.h
        dealt = [None] * n
        for q in range(n):
            seat = v.seat(q)
            mask = int(world[q]) | played_by[q]
            dealt[seat] = [_TO_OS[c] for c in _cards_of(mask)]
        s = game.new_initial_state()
        s.apply_action(h)
        s.apply_action(v.dealer)
        for i in range(n * h):
            s.apply_action(dealt[i % n][i // n])
        s.apply_action(v.turned)
        for a in v.post:
            s.apply_action(a)
        return s


class RolloutEvaluator:
    """OpenSpiel's random-rollout evaluation for the Python IS-MCTS (uniform prior; the
    value of a leaf is the returns of ``rollouts`` uniformly random playouts), written
    without numpy per step: the same as ``mcts.RandomRolloutEvaluator``, faster."""

    def __init__(self, rollouts=ROLLOUTS, seed=0):
        import random
        self.rollouts = rollouts
        self.rng = random.Random(seed)

    def evaluate(self, state):
        total = None
        for _ in range(self.rollouts):
            s = state.clone()
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[self.rng.randrange(len(legal))])
            r = s.returns()
            total = r if total is None else [a + b for a, b in zip(total, r)]
        return [x / self.rollouts for x in total]

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


# ---------------------------------------------------------------------- entrants

class Entrant:
    """One policy of a match: troef's own (``heuristic``, ``pimc``, ``random``) or an
    OpenSpiel bot (``openspiel:ismcts:SIMS[:openspiel-default]``, ``openspiel:random``)."""

    def __init__(self, name, side, kind, sims=None, resampler=None):
        self.name, self.side, self.kind, self.sims, self.resampler = \
            name, side, kind, sims, resampler


def parse_entrant(name):
    """A policy name → :class:`Entrant`; raises :class:`RulesError` for a bad one.

    ``BID+CARD`` (e.g. ``strong+openspiel:ismcts:1000``) is a split entrant: every bid by
    the entrant ``BID``, every card by ``CARD`` (each one of the names below), for
    measuring where a policy gains or loses (benchmarks/bench_openspiel.py --bid-policy /
    --card-policy)."""
    name = name.strip().lower()
    if "+" in name:
        parts = name.split("+")
        if len(parts) != 2 or "+" in parts[0] or not all(parts):
            raise RulesError(f"{name}: a split entrant is BID+CARD, e.g. "
                             "strong+openspiel:ismcts:1000")
        bid, card = parse_entrant(parts[0]), parse_entrant(parts[1])
        e = Entrant(name, "troef" if "troef" in (bid.side, card.side) else "openspiel",
                    "split")
        e.parts = (bid, card)
        return e
    if not name.startswith(PREFIX):
        if name not in POLICIES:
            raise RulesError(f"policy {name!r} is not available for boerenbridge; known: "
                             f"{', '.join(POLICIES)}, openspiel:ismcts:SIMS, "
                             "openspiel:ismcts:SIMS:openspiel-default, openspiel:random")
        return Entrant(name, "troef", name)
    parts = name[len(PREFIX):].split(":")
    if parts == ["random"]:
        return Entrant(name, "openspiel", "random")
    if parts[0] == "ismcts" and len(parts) in (2, 3):
        if not parts[1].isdigit() or not 1 <= int(parts[1]) <= 1_000_000:
            raise RulesError(f"{name}: the simulations per decision must be 1..1000000, "
                             f"e.g. openspiel:ismcts:1000")
        res = "fair" if len(parts) == 2 else parts[2]
        if res not in ("fair", "openspiel-default"):
            raise RulesError(f"{name}: the resampler is fair (the default) or "
                             "openspiel-default")
        return Entrant(name, "openspiel", "ismcts", int(parts[1]), res)
    raise RulesError(f"unknown OpenSpiel entrant {name!r}; use openspiel:ismcts:SIMS, "
                     "openspiel:ismcts:SIMS:openspiel-default or openspiel:random")


def _bot_seed(seed, deal, seat):
    return int(np.uint64(nb_key(seed, deal, seat)) % np.uint64(2 ** 31 - 1))


def nb_key(seed, deal, seat):
    return np.uint64(deal_key_nb(_dkey(seed, deal), np.int64(3_000_000 + seat)))


def make_bot(entrant, game, rules, seat, seed, deal, worlds):
    """The ``pyspiel.Bot`` of ``entrant`` for ``seat`` in deal ``deal`` (seeded by seed,
    deal and seat only, so a seating played twice plays the same)."""
    pyspiel = _pyspiel()
    if entrant.kind == "split":
        return SplitBot(*(make_bot(e, game, rules, seat, seed, deal, worlds)
                          for e in entrant.parts))
    if entrant.side == "troef":
        return TroefBot(entrant.kind, rules, seed, deal, worlds)
    bseed = _bot_seed(seed, deal, seat)
    if entrant.kind == "random":
        return pyspiel.make_uniform_random_bot(seat, bseed)
    if entrant.resampler == "openspiel-default":
        return pyspiel.ISMCTSBot(bseed, pyspiel.RandomRolloutEvaluator(ROLLOUTS, bseed), UCT_C,
                                 entrant.sims, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                 False, False)
    # OpenSpiel's Python IS-MCTS: the C++ bot does not expose set_resampler to Python
    from open_spiel.python.algorithms import ismcts
    rs = np.random.RandomState(bseed)
    bot = ismcts.ISMCTSBot(game, RolloutEvaluator(ROLLOUTS, bseed), UCT_C,
                           entrant.sims, random_state=rs,
                           final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    bot.set_resampler(FairResampler(bseed))
    return bot


def SplitBot(bid_bot, card_bot):
    """A ``pyspiel.Bot`` that bids with ``bid_bot`` and plays its cards with ``card_bot``."""
    if not _SPLIT_CLASS:
        _SPLIT_CLASS.append(_make_split_class(_pyspiel().Bot))
    return _SPLIT_CLASS[0](bid_bot, card_bot)


_SPLIT_CLASS = []


def _make_split_class(base):
    class _SplitBot(base):
        def __init__(self, bid_bot, card_bot):
            super().__init__()
            self.bid_bot, self.card_bot = bid_bot, card_bot

        def step(self, state):
            v = _View(state)
            return (self.bid_bot if len(v.bids) < v.n else self.card_bot).step(state)

        def restart_at(self, state):       # both halves see the whole deal, as bots alone
            self.bid_bot.restart_at(state)
            self.card_bot.restart_at(state)

        def inform_action(self, state, player, action):
            self.bid_bot.inform_action(state, player, action)
            self.card_bot.inform_action(state, player, action)

    _SplitBot.__name__ = _SplitBot.__qualname__ = "SplitBot"
    return _SplitBot


def tricks_won(state):
    """Tricks taken per seat (OpenSpiel player) in an oh_hell ``state``, from its history:
    follow suit, the highest trump wins, else the highest card of the suit led; position 0
    leads the first trick, the taker leads the next."""
    v = _View(state)
    trump = v.turned % 4
    won = [0] * v.n
    leader = v.seat(0)
    for t in range(len(v.plays) // v.n):
        trick = v.plays[t * v.n:(t + 1) * v.n]
        led = trick[0] % 4
        best = max(range(v.n), key=lambda i: (trick[i] % 4 == trump, trick[i] % 4 == led,
                                              trick[i] // 4))
        leader = (leader + best) % v.n
        won[leader] += 1
    return won


# ---------------------------------------------------------------------- one deal, a match

def play_deal(game, chance, bots, clock=None, trace=None, tricks=None):
    """Play one deal in OpenSpiel: ``chance`` (see :func:`deal_actions`), one bot per seat.
    ``clock[seat]`` collects (seconds, decisions) of every choice with more than one legal
    action (forced moves are played without asking); ``trace`` gets every action.
    ``tricks``, a list, gets the tricks taken per seat. Returns (returns per seat, bids per
    seat)."""
    s = game.new_initial_state()
    for a in chance:
        s.apply_action(a)
    while not s.is_terminal():
        p = s.current_player()
        legal = s.legal_actions()
        if len(legal) == 1:
            a = legal[0]
        else:
            t0 = time.perf_counter()
            a = int(bots[p].step(s))
            if clock is not None:
                clock[p][0] += time.perf_counter() - t0
                clock[p][1] += 1
            if a not in legal:
                raise RulesError(f"bot of player {p} chose the illegal action {a}")
        if trace is not None:
            trace.append((p, a))
        s.apply_action(a)
    v = _View(s)
    bids = [v.bids[v.position(seat)] for seat in range(v.n)]
    if tricks is not None:
        tricks[:] = tricks_won(s)
    return [float(x) for x in s.returns()], bids


def deal_record(seed, deal, seating, dealer, hands, turned, chance, trace, returns, bids):
    """One played deal as plain JSON-able data (the ``record`` of :func:`tournament`)."""
    return {"seed": int(seed), "deal": int(deal), "seating": list(seating),
            "dealer": int(dealer), "hands": [int(x) for x in hands], "turned": int(turned),
            "history": [int(a) for a in chance] + [int(a) for _, a in trace],
            "players": [int(p) for p, _ in trace],
            "returns": [float(x) for x in returns], "bids": [int(b) for b in bids]}


def replay_record(rec):
    """The terminal oh_hell state of a :func:`deal_record` (its history replayed)."""
    game = load_game(len(rec["hands"]), rec["history"][0])
    s = game.new_initial_state()
    for a in rec["history"]:
        s.apply_action(a)
    return s


def troef_deals(rules, n_deals, seed):
    """troef's deals ``0 .. n_deals−1`` of ``seed``: (hands per seat, turned, dealer)."""
    from fastsim import boerenbridge as bb
    r = bb.simulate(rules, n_deals, seed=seed)
    d = r.deals
    return [([int(x) for x in d["hands"][i]], int(d["trump_card"][i]), int(d["dealer"][i]))
            for i in range(n_deals)]


def _check_rules(rules, whole_games):
    if whole_games:
        raise RulesError("openspiel: entrants play single deals (oh_hell has no whole "
                         "games); use --deals with --hand-size")
    extra = sorted(set(rules.variants) - {"scoring"})
    if rules.scoring != "dutch" or extra:
        bad = ", ".join(extra) if extra else f"scoring={rules.scoring}"
        raise RulesError(f"openspiel: OpenSpiel's oh_hell plays only --variant scoring=dutch "
                         f"(no other variant); not {bad}")
    if not 3 <= rules.players <= 7:
        raise RulesError("openspiel: oh_hell needs 3 to 7 players")


def _warm_up(entrants, og, rules, seed, worlds, nseat, h, deal0):
    """Each troef policy (a split entrant's troef part too) plays the first deal once in
    every seat, untimed and unrecorded, before the match: numba compiles (or loads) its
    kernels there, so that ``ms_per_decision`` measures decisions, not start-up. Bots are
    seeded by (seed, deal, seat) alone, so this changes no result."""
    kinds = []
    for e in entrants:
        for part in (e.parts if e.kind == "split" else (e,)):
            if part.side == "troef" and part.kind not in kinds:
                kinds.append(part.kind)
    hands, turned, dealer = deal0
    chance = deal_actions(nseat, h, dealer, hands, turned)
    for kind in kinds:
        play_deal(og, chance, [TroefBot(kind, rules, seed, 0, worlds) for _ in range(nseat)])


BLOCK_DEALS = 10         # deals of one seating saved together with --out (a piece)


def _play_block(og, entrants, names, seating, rules, seed, worlds, deals, b0, b1, traced):
    """Deals ``b0 .. b1 − 1`` with one seating → the arrays of a piece: scores, exact
    bids, bids, tricks (a row a deal), each seat's seconds and decisions, and the deals'
    records as JSON lines (when ``traced``)."""
    nseat, h = rules.players, rules.schedule[0]
    m = b1 - b0
    sc, bd, tk = np.zeros((m, nseat)), np.zeros((m, nseat)), np.zeros((m, nseat))
    ex = np.zeros((m, nseat), dtype=bool)
    secs, dec = np.zeros(nseat), np.zeros(nseat, dtype=np.int64)
    records = []
    for j, d in enumerate(range(b0, b1)):
        hands, turned, dealer = deals[d]
        bots = [make_bot(entrants[names.index(seating[s])], og, rules, s, seed, d, worlds)
                for s in range(nseat)]
        clk = [[0.0, 0] for _ in range(nseat)]
        won = []
        chance = deal_actions(nseat, h, dealer, hands, turned)
        trace = [] if traced else None
        ret, bids = play_deal(og, chance, bots, clk, trace=trace, tricks=won)
        if traced:
            records.append(json.dumps(deal_record(seed, d, seating, dealer, hands, turned,
                                                  chance, trace, ret, bids)))
        sc[j], bd[j], tk[j] = ret, bids, won
        ex[j] = [x >= EXACT_BASE for x in ret]   # a missed bid scores below 0
        for s in range(nseat):
            secs[s] += clk[s][0]
            dec[s] += clk[s][1]
    return {"sc": sc, "ex": ex, "bd": bd, "tk": tk, "secs": secs, "dec": dec,
            "records": np.array(records, dtype=str)}


def tournament(game, policies, n=None, whole_games=False, seed=0, variants=(), players=None,
               hand_size=None, preset=None, worlds=None, threads=None, record=None,
               out=None, resume=False):
    """:func:`analyzer.tournament.tournament` with OpenSpiel entrants: the same duplicate
    seatings and result shape, played inside OpenSpiel's oh_hell; each policy's row adds
    ``side``, ``resampler``, ``exact_rate`` and ``ms_per_decision`` (each troef policy
    plays the first deal once, untimed, before the match, so that its compile time is not
    counted: :func:`_warm_up`).

    ``record``, a callable, is called once per deal played (each distinct seating × deal)
    with a dict: ``seed``, ``deal``, ``seating`` (the policy of each seat = OpenSpiel
    player), ``dealer``, ``hands`` (troef bit masks per seat), ``turned`` (troef code),
    ``history`` (OpenSpiel's whole action history, chance outcomes included: replaying it in
    :func:`load_game` gives the deal's end state), ``players`` (the player of each action
    after the turned card), ``returns`` and ``bids`` per seat (see :func:`deal_record`).

    ``out``/``resume``: as :func:`analyzer.tournament.tournament`; every
    :data:`BLOCK_DEALS` deals of a seating are saved as they end, with their records and
    their clocks (a resumed match's ms per decision includes the earlier session's)."""
    from . import games as registry
    if game != "boerenbridge":
        raise RulesError("openspiel: entrants play only boerenbridge (OpenSpiel's oh_hell)")
    names = [p.strip().lower() for p in (policies.split(",") if isinstance(policies, str)
                                         else policies)]
    from .tournament import check_entrants
    check_entrants(names, "pimc,openspiel:ismcts:100")
    entrants = [parse_entrant(p) for p in names]
    if whole_games:
        _check_rules(None, True)
    entry = registry.get(game)
    registry.check_options(entry, {"players": players, "hand_size": hand_size,
                                   "preset": preset, "variant": tuple(variants) or None})
    setup = entry.tournament_setup(whole_games, players=players, hand_size=hand_size,
                                   variant=tuple(variants))
    rules = setup.rules
    _check_rules(rules, whole_games)
    _pyspiel()
    from .tournament import check_size
    n, worlds = check_size(n, worlds, entry.TOURNAMENT_DEFAULT["deal"])
    if threads is not None:
        from fastsim.common import set_threads
        set_threads(threads)
    store = None
    if out is not None:
        from .tournament import open_store
        store = open_store(out, resume, "openspiel", entry, setup, names, n, whole_games,
                           seed, worlds)
    from .tournament import stored
    with stored(store):
        r = _match(names, entrants, rules, n, seed, worlds, record, store, game, variants)
        if store is not None:
            store.finish(r)
    return r


def _match(names, entrants, rules, n, seed, worlds, record, store, game, variants):
    """The body of :func:`tournament`: every distinct seating played (or read back from
    ``store``) a block of deals at a time, then the statistics."""
    from .stats_core import Z95
    nseat, h = rules.players, rules.schedule[0]
    og = load_game(nseat, h)
    deals = troef_deals(rules, n, seed)
    k = len(names)
    sums = np.zeros((n, k))
    exact = np.zeros(k)
    counts = np.zeros(k)
    bid_sum, trick_sum = np.zeros(k), np.zeros(k)
    over_n, under_n, over_pts, under_pts = np.zeros(k), np.zeros(k), np.zeros(k), np.zeros(k)
    clock = {e.name: [0.0, 0] for e in entrants}
    _warm_up(entrants, og, rules, seed, worlds, nseat, h, deals[0])
    played = {}
    from .tournament import seatings
    rotations = seatings(k, nseat)
    for rot in rotations:
        seating = tuple(names[i] for i in rot)
        if seating not in played:
            sc = np.zeros((n, nseat))
            ex = np.zeros((n, nseat), dtype=bool)
            bd = np.zeros((n, nseat))
            tk = np.zeros((n, nseat))
            for b0 in range(0, n, BLOCK_DEALS):
                b1 = min(n, b0 + BLOCK_DEALS)
                key = f"{'|'.join(seating)}@{b0}+{b1 - b0}"
                piece = store.get(key) if store is not None else None
                if piece is None:
                    piece = _play_block(og, entrants, names, seating, rules, seed, worlds,
                                        deals, b0, b1, store is not None or record is not None)
                    if store is not None:
                        store.put(key, **piece)
                sc[b0:b1], ex[b0:b1] = piece["sc"], piece["ex"]
                bd[b0:b1], tk[b0:b1] = piece["bd"], piece["tk"]
                for s in range(nseat):
                    clock[seating[s]][0] += float(piece["secs"][s])
                    clock[seating[s]][1] += int(piece["dec"][s])
                if record is not None:
                    for line in piece["records"]:
                        record(json.loads(str(line)))
            played[seating] = (sc, ex, bd, tk)
        sc, ex, bd, tk = played[seating]
        for s, p in enumerate(seating):
            i = names.index(p)
            sums[:, i] += sc[:, s]
            exact[i] += ex[:, s].sum()
            counts[i] += 1
            bid_sum[i] += bd[:, s].sum()
            trick_sum[i] += tk[:, s].sum()
            over, under = tk[:, s] > bd[:, s], tk[:, s] < bd[:, s]
            over_n[i] += over.sum()
            under_n[i] += under.sum()
            # points a missed bid gave up against making it: 10 + 2·bid + 2·|tricks − bid|
            gap = EXACT_BASE + 2 * bd[:, s] - sc[:, s]
            over_pts[i] += gap[over].sum()
            under_pts[i] += gap[under].sum()
    per_unit = sums / counts

    def ci(x):
        m, se = float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0
        return m, [m - Z95 * se, m + Z95 * se], abs(m) > Z95 * se

    rows, pairs = [], []
    for i, e in enumerate(entrants):
        m, c, _ = ci(per_unit[:, i])
        secs, dec = clock[e.name]
        rows.append({"policy": e.name, "mean_score": m, "ci": c, "side": e.side,
                     "resampler": e.resampler, "simulations": e.sims,
                     "exact_rate": float(exact[i] / (counts[i] * n)),
                     "mean_bid": float(bid_sum[i] / (counts[i] * n)),
                     "mean_tricks": float(trick_sum[i] / (counts[i] * n)),
                     "over_rate": float(over_n[i] / (counts[i] * n)),
                     "under_rate": float(under_n[i] / (counts[i] * n)),
                     "over_loss": float(over_pts[i] / (counts[i] * n)),
                     "under_loss": float(under_pts[i] / (counts[i] * n)),
                     "decisions": int(dec),
                     "ms_per_decision": 1000 * secs / dec if dec else None})
    for i in range(k):
        for j in range(i + 1, k):
            m, c, sig = ci(per_unit[:, i] - per_unit[:, j])
            pairs.append({"a": names[i], "b": names[j], "difference": m, "ci": c,
                          "significant": bool(sig)})
    return {"game": game, "unit": "deal", "units": n, "seatings": len(rotations), "seed": seed,
            "policies": rows, "pairs": pairs, "per_deal": per_unit.tolist(), "variants": list(variants),
            "worlds": worlds if "pimc" in names else None,
            "engine": "openspiel",
            "openspiel_game": f"oh_hell({', '.join(f'{a}={b}' for a, b in game_params(nseat, h).items())})",
            "distinct_seatings": len(played), "uct_c": UCT_C, "rollouts": ROLLOUTS,
            "resamplers": {e.name: e.resampler for e in entrants if e.kind == "ismcts"}}


def render_extra(r):
    """Extra text lines of an OpenSpiel match (played where, resamplers, speeds)."""
    w = max(12, *(len(p["policy"]) for p in r["policies"]))
    lines = ["", f"played in OpenSpiel {r['openspiel_game']}, {r['distinct_seatings']} "
             f"distinct seatings; IS-MCTS uct_c {r['uct_c']:g}, {r['rollouts']} random "
             "rollout per leaf",
             f"{'policy':<{w}} side       resampler           exact bids   ms/decision"]
    for p in r["policies"]:
        ms = "-" if p["ms_per_decision"] is None else f"{p['ms_per_decision']:.2f}"
        lines.append(f"{p['policy']:<{w}} {p['side']:<10} {p['resampler'] or '-':<19} "
                     f"{p['exact_rate']:>10.3f}   {ms:>11}")
    lines.append("(ms/decision: mean time of a bid or card with more than one legal choice)")
    return lines
