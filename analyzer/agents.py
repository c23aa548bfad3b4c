"""Your own policy: a Python function that plays seats of a simulation or a tournament.

A *user policy* is named ``PATH.py:FUNCTION`` wherever a built-in policy name
(``random``, ``heuristic``, ``pimc``) is accepted: ``--policy``, ``--seat-policy SEAT=…``
of ``troef simulate`` and ``--policies`` of ``troef tournament``. ``FUNCTION(state)`` is
called at every decision of its seat with a :class:`PolicyState` — the acting player's
information state and nothing else — and returns one of ``state.legal_actions()``. See
docs/policies.md.

Runs with a user policy go through the step-by-step driver of this module instead of the
compiled kernels: the deals are exactly the simulator's (the dealing is taken from the
engine for the same seed and global deal index), every decision point builds the acting
player's information state and asks that seat's agent, and a built-in seat answers with
``state.decide(policy, seed, deal, worlds)``, which is the simulator's own decision. A
run with every seat built in gives the same numbers either way; with a user policy it is
slow (Python) but the result has the same type, columns and summaries.

Seat policy codes: a user policy is an int8 code ``USER_BASE + i`` into this process's
table of loaded policies (:func:`user_code`), so the per-seat policy array of a run stays
a plain int8 array. The driver runs in this process only (no Dask workers).
"""
import contextlib
import importlib.util
import math
import os
import sys
from dataclasses import replace

import numpy as np

from fastsim.cards import CardError, card_str, codes_of, parse_card
from fastsim.common import POLICIES as _BASE, POLICY_STRONG, RulesError

# every built-in policy code of any game (each game's state checks its own list)
BUILTIN = {**_BASE, "strong": POLICY_STRONG}
BUILTIN_NAMES = {v: k for k, v in BUILTIN.items()}
_NAMES = {v: k for k, v in _BASE.items()}     # the policies every game has
from fastsim.common import check_seed

__all__ = ["PolicyError", "PolicyState", "is_user_spec", "load_policy", "user_code",
           "has_user", "parse_policies", "policy_names", "spec_of",
           "BoerenbridgeBidState", "KlaverjassenCallState", "BonkenContractState",
           "simulate_boerenbridge", "simulate_klaverjassen", "simulate_bonken", "tidy_named",
           "refuse_specs"]

NOT_SUPPORTED = ("a policy of your own is not supported yet (boerenbridge, klaverjassen, "
                 "bonken and boonaken take one)")
USER_BASE = 64          # int8 codes 64..127: user policies of this process
_SPECS = []             # code - USER_BASE -> spec text
_LOADED = {}            # spec text -> callable


class PolicyError(RulesError):
    """A user policy that cannot be loaded, raised, or chose an illegal action (one line)."""


# ---------------------------------------------------------------------- specs, loading

def is_user_spec(name):
    """Does the policy name look like ``PATH.py:FUNCTION`` (not a built-in name)?"""
    return isinstance(name, str) and (":" in name or name.strip().lower().endswith(".py"))


def _split(spec):
    path, sep, fn = spec.strip().rpartition(":")
    if not sep or not path or not fn.isidentifier() or not path.endswith(".py"):
        raise PolicyError(f"a policy of your own is given as PATH.py:FUNCTION "
                          f"(e.g. examples/mybot.py:choose), got {spec!r}")
    return path, fn


def load_policy(spec):
    """The callable named by ``PATH.py:FUNCTION`` (imported once per process)."""
    spec = spec.strip()
    if spec in _LOADED:
        return _LOADED[spec]
    path, fn = _split(spec)
    if not os.path.isfile(path):
        raise PolicyError(f"policy {spec}: no such file {path!r}")
    name = "troef_user_policy_" + str(len(_LOADED))
    try:
        mspec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(mspec)
        with _user_output():
            mspec.loader.exec_module(module)
    except KeyboardInterrupt:
        raise
    except BaseException as e:    # anything the user's file raises on import (sys.exit too)
        raise PolicyError(f"policy {spec}: {path} failed to import: {_raised(e)}") from None
    f = getattr(module, fn, None)
    if f is None:
        raise PolicyError(f"policy {spec}: {path} defines no {fn!r}")
    if not callable(f):
        raise PolicyError(f"policy {spec}: {fn!r} in {path} is not callable")
    _LOADED[spec] = f
    return f


def user_code(spec):
    """The seat code of user policy ``spec`` (loaded and checked now)."""
    spec = spec.strip()
    load_policy(spec)
    if spec not in _SPECS:
        if len(_SPECS) >= 128 - USER_BASE:
            raise PolicyError(f"at most {128 - USER_BASE} different policies of your own per run")
        _SPECS.append(spec)
    return USER_BASE + _SPECS.index(spec)


def _builtin_name(code):
    """The name of a built-in policy code: the shared ones, or a game's own (Bonken's
    ``strong``), which every game that lists it names alike."""
    if code in BUILTIN_NAMES:
        return BUILTIN_NAMES[code]
    from fastsim import boerenbridge_schema, bonken_schema
    if code in bonken_schema.POLICY_NAMES:
        return bonken_schema.POLICY_NAMES[code]
    return boerenbridge_schema.POLICY_NAMES[code]     # Boerenbridge's learned, strongl


def spec_of(code):
    code = int(code)
    if code < USER_BASE:
        return _builtin_name(code)
    if code - USER_BASE >= len(_SPECS):
        raise PolicyError("a policy of your own runs only in the process that loaded it "
                          "(no Dask workers)")
    return _SPECS[code - USER_BASE]


def has_user(policies):
    return policies is not None and bool((np.asarray(policies).astype(np.int64) >= USER_BASE).any())


def policy_names(policies):
    return [spec_of(p) for p in policies]


def parse_policies(builtin_parse, players, default="heuristic", seat_policy=()):
    """The registry's ``parse_policies`` with user policies: ``builtin_parse(default,
    seat_policy)`` parses built-in names; ``PATH.py:FUNCTION`` entries become user codes."""
    default = default.strip()
    user_default = is_user_spec(default)
    rest, users = [], {}
    for item in seat_policy:
        seat_txt, sep, name = item.partition("=")
        if sep and is_user_spec(name):
            try:
                seat = int(seat_txt)
            except ValueError:
                raise RulesError(f"seat policy must look like SEAT=NAME (e.g. 0=random), "
                                 f"got {item!r}") from None
            if not 0 <= seat < players:
                raise RulesError(f"seat policy {item!r}: seat must be 0..{players - 1}")
            if seat in users:
                raise RulesError(f"seat {seat} given two policies")
            users[seat] = user_code(name)
        else:
            rest.append(item)
    pol = builtin_parse("heuristic" if user_default else default.lower(), rest)
    pol = np.asarray(pol, dtype=np.int8).copy()
    if user_default:
        code = user_code(default)
        named = {int(it.partition("=")[0]) for it in rest}
        for s in range(players):
            if s not in named:
                pol[s] = code
    for s, code in users.items():
        if any(int(it.partition("=")[0]) == s for it in rest):
            raise RulesError(f"seat {s} given two policies")
        pol[s] = code
    return pol


def _dkey(seed, deal):
    """The engine's key of global deal ``deal`` (as ``deal_key_nb(run_key_nb(seed), deal)``
    in the kernels; uint64 throughout)."""
    from fastsim.rng import deal_key_nb, run_key_nb
    rk = np.uint64(run_key_nb(np.uint64(check_seed(seed))))
    return np.uint64(deal_key_nb(rk, np.int64(deal)))


# ---------------------------------------------------------------------- the user's view

class PolicyState:
    """What a policy function gets at each decision: the acting player's information
    state (every attribute of it reads through, e.g. ``state.hand_cards``,
    ``state.bids``, ``state.current``), plus

    * ``phase`` — ``"bid"`` (Boerenbridge), ``"call"`` (Klaverjassen) or ``"play"``;
    * ``legal_actions()`` — the legal actions (card codes, bids, suits/−1 for pass);
    * ``decide(policy="heuristic")`` — the built-in policy's action here, exactly as
      the simulator would choose it (same seed, deal and pimc worlds);
    * ``rng`` — a ``numpy.random.Generator`` keyed by (seed, deal, decision number):
      the same numbers however the run is cut into chunks or threads;
    * ``seed``, ``deal`` (global deal index), ``decision`` (0, 1, … within the deal),
      ``position``, ``info`` (the underlying information state).

    Nothing here holds another player's cards.
    """
    __slots__ = ("info", "phase", "seed", "deal", "decision", "worlds", "_rng")

    def __init__(self, info, phase, seed, deal, decision, worlds):
        self.info = info
        self.phase = phase
        self.seed = seed
        self.deal = int(deal)
        self.decision = int(decision)
        self.worlds = int(worlds)
        self._rng = None

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.info, name)

    def __dir__(self):
        return sorted(set(self.__slots__) | set(dir(self.info)) | {"rng", "legal_actions", "decide"})

    @property
    def rng(self):
        if self._rng is None:
            self._rng = np.random.default_rng([int(check_seed(self.seed)), self.deal,
                                               self.decision])
        return self._rng

    def legal_actions(self):
        return self.info.legal_actions()

    def decide(self, policy="heuristic"):
        return self.info.decide(policy=policy, seed=self.seed, deal=self.deal,
                                worlds=self.worlds)

    def __repr__(self):
        return describe(self.info)


def describe(info):
    """A one-line description of an information state (errors name it)."""
    own = type(info).__dict__.get("__repr__")
    if own is not None:
        return repr(info)
    parts = [f"position={info.position}"]
    if getattr(info, "to_move", None) is not None:
        parts.append(f"to_move={info.to_move}")
    if getattr(info, "game", "") == "bonken":
        from fastsim.bonken_schema import CONTRACTS
        parts.append(f"contract={CONTRACTS[info.contract]!r}")
    if getattr(info, "game", "") == "klaverjassen":
        from fastsim.cards import SUITS
        parts.append(f"trump={SUITS[info.trump]!r}")
    parts.append(f"hand={' '.join(card_str(c) for c in info.hand_cards)!r}")
    if hasattr(info, "history_str"):
        parts.append(f"history={info.history_str()!r}")
    return f"{type(info).__name__}({', '.join(parts)})"


def _user_output():
    """While user code runs, what it prints goes to stderr: stdout carries troef's answer
    (``--json``, ``--csv``, the tables) and must stay parseable."""
    return contextlib.redirect_stdout(sys.stderr)


def _safe_text(fn, x, limit=200):
    """``fn(x)`` (str or repr) of a user's object, on one line and at most ``limit``
    characters; a ``__str__``/``__repr__`` that raises is no traceback."""
    try:
        t = fn(x)
    except Exception:
        t = f"<{type(x).__name__} that cannot be shown>"
    t = " ".join(str(t).split())
    return t if len(t) <= limit else t[:limit - 3] + "..."


def _raised(e):
    """``ExceptionName: message`` (on one line, cut short) of an exception raised by user
    code."""
    what = _safe_text(str, e)
    return f"{type(e).__name__}{': ' + what if what else ''}"


def as_int_action(a):
    """A user's action as an int when it is a whole number (an int, a numpy integer or an
    integral finite float), else None (a bool, NaN, infinity, 2.5 or any other object)."""
    if isinstance(a, (bool, np.bool_)):
        return None
    if isinstance(a, (int, np.integer)):
        return int(a)
    if isinstance(a, (float, np.floating)) and math.isfinite(a) and float(a).is_integer():
        return int(a)
    return None


def _action_str(action, phase, notation="en", info=None):
    if hasattr(info, "action_str"):
        return _safe_text(info.action_str, action)
    code = as_int_action(action) if isinstance(action, (int, np.integer)) else None
    if phase == "play" and code is not None and 0 <= code < 64:
        try:
            return card_str(code, notation)
        except CardError:
            pass
    return _safe_text(repr, action)


def _ask(fn, spec, state):
    """The user's action at ``state`` (a PolicyState), validated."""
    try:
        with _user_output():
            a = fn(state)
    except (PolicyError, KeyboardInterrupt):
        raise
    except BaseException as e:     # sys.exit() in a policy must not end troef silently
        raise PolicyError(f"policy {spec} raised {_raised(e)} at {state!r} "
                          f"(seed {state.seed}, deal {state.deal})") from None
    legal = state.legal_actions()
    act = a
    parse = getattr(state.info, "parse_action", None)     # a state's own action forms
    if parse is not None:
        act = parse(a)
    else:
        if state.phase == "play" and isinstance(a, str):
            try:
                act = parse_card(a, "en", 32 if getattr(state.info, "game", "") in (
                    "klaverjassen", "boonaken") else 52)
            except CardError:
                act = None
        if act is not None:
            act = as_int_action(act)
        if act is None and state.phase == "call" and a is None:
            act = -1          # None: pass
    if act is None or act not in legal:
        if hasattr(state.info, "legal_str"):
            shown = state.info.legal_str()
        else:
            shown = ", ".join(_action_str(x, state.phase, info=state.info) for x in legal)
        chose = _action_str(a, state.phase, info=state.info)
        raise PolicyError(f"policy {spec} chose {chose}, which is not "
                          f"legal at {state!r} (seed {state.seed}, deal {state.deal}); "
                          f"legal: {shown}")
    return int(act)


class _Agents:
    """Per position: a callable ``(info_state, phase, decision) -> action``."""

    def __init__(self, codes, seed, deal, worlds):
        self.codes = [int(c) for c in codes]
        self.seed = seed
        self.deal = int(deal)
        self.worlds = int(worlds)
        self.decision = 0

    def act(self, p, info, phase, builtin, view=None):
        """``builtin(policy_name)``: the built-in's action (the simulator's); ``view(info)``:
        the state a user policy is shown (default ``info`` itself)."""
        code = self.codes[p]
        k = self.decision
        self.decision += 1
        if code < USER_BASE:
            return builtin(_builtin_name(code))
        spec = spec_of(code)
        st = PolicyState(info if view is None else view(info), phase, self.seed, self.deal, k,
                         self.worlds)
        return _ask(load_policy(spec), spec, st)


class _DecisionBeforePlay:
    """What the bidding, calling and contract states share: the player to move is the
    state's own position, and no such state ends the deal."""
    __slots__ = ()

    @property
    def to_move(self):
        return self.position

    @property
    def is_terminal(self):
        return False

    @property
    def hand_cards(self):
        return codes_of(self.hand)


# ---------------------------------------------------------------------- Boerenbridge

class BoerenbridgeBidState(_DecisionBeforePlay):
    """One player's information state when it bids (Boerenbridge): ``rules``, ``n``,
    ``h`` (hand size), ``position`` (0 = left of the dealer … n−1 = dealer), ``hand``
    (bit mask; :attr:`hand_cards` as codes — empty under ``blind_one_card`` in a one-card
    deal, where players bid before looking), ``turned`` (card code), ``trump`` (suit, −1
    in a no-trump deal), ``bids`` (of positions 0 … position−1), ``forbidden`` (the
    dealer's forbidden bid, −1: none or not the dealer), ``is_blind``."""
    game = "boerenbridge"
    phase = "bid"
    __slots__ = ("rules", "n", "h", "position", "hand", "turned", "trump", "bids")

    def __init__(self, rules, position, hand, turned, bids):
        self.rules = rules
        self.n = rules.players
        self.h = rules.schedule[0]
        self.position = int(position)
        self.turned = int(turned)
        self.trump = -1 if rules.notrump[0] else self.turned >> 4
        self.bids = tuple(int(b) for b in bids)
        self.hand = 0 if self.is_blind else int(hand)

    @property
    def is_blind(self):
        from .boerenbridge_play import is_blind
        return is_blind(self.rules, self.h)

    @property
    def forbidden(self):
        from .boerenbridge_play import forbidden_bid
        return forbidden_bid(self.rules, self.h, self.bids) if self.position == self.n - 1 else -1

    def legal_actions(self):
        return [b for b in range(self.h + 1) if b != self.forbidden]

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=None, _hand=None):
        """The bid the built-in ``policy`` makes here, exactly as the simulator."""
        from fastsim import boerenbridge_nb as nb
        from fastsim.boerenbridge_schema import MAX_SEATS, PIMC_WORLDS
        from fastsim.boerenbridge_schema import POLICIES, QUERY_SEARCHING
        if policy not in POLICIES:
            raise RulesError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
        hand = self.hand if _hand is None else int(_hand)
        f, p, r = self.forbidden, self.position, self.rules
        # the searching policies' bidders search worlds around the hand as dealt
        if policy in QUERY_SEARCHING and self.is_blind and _hand is None:
            raise RulesError(f"the simulator's {policy} bidder looks at the card in a blind "
                             "one-card deal; a policy cannot ask for it")
        bids = np.full(MAX_SEATS, -1, dtype=np.int64)
        bids[:p] = self.bids
        return int(nb.policy_bid_nb(POLICIES[policy], _dkey(seed, deal), self.n, self.h, p,
                                    np.int64(hand), np.int64(self.turned),
                                    np.int64(self.trump), bids, np.int64(sum(self.bids)),
                                    np.int64(f), r.flags, self.is_blind,
                                    np.int64(PIMC_WORLDS if worlds is None else worlds)))

    def __repr__(self):
        return (f"BoerenbridgeBidState(position={self.position}, "
                f"hand={' '.join(card_str(c) for c in self.hand_cards)!r}, "
                f"turned={card_str(self.turned)!r}, bids={list(self.bids)})")


def _bb_deal(rules, hands, turned, codes, seed, deal, worlds):
    """Bid and play one Boerenbridge deal (per-position ``hands``, ``codes``); returns the
    finished :class:`BoerenbridgeDeal`."""
    from .boerenbridge_play import BoerenbridgeDeal
    agents = _Agents(codes, seed, deal, worlds)
    n = rules.players
    bids = []
    for p in range(n):
        st = BoerenbridgeBidState(rules, p, hands[p], turned, bids)
        bids.append(agents.act(p, st, "bid", lambda pol: st.decide(
            pol, seed=seed, deal=deal, worlds=worlds, _hand=hands[p])))
    d = BoerenbridgeDeal(rules, list(hands), turned, bids)
    while not d.is_terminal:
        p = d.to_move
        st = d.info_state(p)
        c = agents.act(p, st, "play", lambda pol: st.decide(pol, seed=seed, deal=deal,
                                                            worlds=worlds))
        d = d.apply(c)
    return d


def simulate_boerenbridge(rules, n_games, seed=0, policies=None, game_start=0, record=False,
                          worlds=None, threads=None):
    """:func:`fastsim.boerenbridge.simulate` through the step-by-step driver: the same
    Result (deals, games, the recorded play) for any mix of built-in and user policies."""
    from fastsim import boerenbridge as bb
    from fastsim.boerenbridge_schema import PIMC_WORLDS
    worlds = PIMC_WORLDS if worlds is None else worlds
    pol = np.asarray(policies, dtype=np.int8)
    n = rules.players
    # the deals: the engine's own dealing for this seed (independent of the policies)
    base = bb.simulate(rules, n_games, seed=seed, policies=np.full(n, BUILTIN["heuristic"], np.int8),
                       threads=threads, game_start=game_start, worlds=1)
    dd, g = base.deals, base.games
    K = len(rules.schedule)
    rows = len(dd["deal"])
    hmax = max(rules.schedule)
    play = None
    if record:
        play = {"cards": np.full((rows, hmax, n), -1, dtype=np.int8),
                "leader": np.full((rows, hmax), -1, dtype=np.int8),
                "winner": np.full((rows, hmax), -1, dtype=np.int8)}
    per_deal = {}
    for r in range(rows):
        k = int(dd["deal_no"][r])
        h = int(dd["hand_size"][r])
        nt = bool(rules.notrump[k])
        key = (h, nt)
        if key not in per_deal:
            per_deal[key] = replace(rules, schedule=(h,), notrump=(nt,))
        dealer = int(dd["dealer"][r])
        seats = [(dealer + 1 + p) % n for p in range(n)]
        hands = [int(dd["hands"][r, s]) for s in seats]
        d = _bb_deal(per_deal[key], hands, int(dd["trump_card"][r]), [pol[s] for s in seats],
                     seed, int(dd["deal"][r]), worlds)
        s0 = d.states[0]
        scores = d.scores()
        dd["forbidden"][r] = s0.forbidden
        for p, s in enumerate(seats):
            dd["bids"][r, s] = s0.bids[p]
            dd["tricks"][r, s] = s0.won[p]
            dd["scores"][r, s] = scores[p]
        if record:
            for t, (leader, cards, winner) in enumerate(s0.tricks):
                play["cards"][r, t, :len(cards)] = cards
                play["leader"][r, t] = leader
                play["winner"][r, t] = winner
    # whole games: totals, exact bids, best deal, winners (as the engine's run_games_nb)
    for gi in range(n_games):
        sl = slice(gi * K, (gi + 1) * K)
        sc = dd["scores"][sl].astype(np.int64)
        ex = (dd["bids"][sl] == dd["tricks"][sl]).sum(axis=0)
        tot, best = sc.sum(axis=0), sc.max(axis=0)
        g["totals"][gi] = tot
        g["exact"][gi] = ex
        g["best"][gi] = best
        keys = list(zip(tot.tolist(), ex.tolist(), best.tolist()))
        top = max(keys)
        g["winners"][gi] = [kk == top for kk in keys]
    return replace(base, policies=pol, play=play)


# ---------------------------------------------------------------------- Klaverjassen

class KlaverjassenCallState(_DecisionBeforePlay):
    """One player's information state in Klaverjassen's calling round: ``rules``,
    ``position`` (0 = left of the dealer, who is asked first), ``hand`` (bit mask;
    :attr:`hand_cards`), ``passes`` (the positions that passed before, all of
    0 … position−1), ``forced`` (everyone passed: position 0 must name a suit).
    Actions: a suit 0..3 (spades, hearts, diamonds, clubs) to play it as trump, or −1
    (or ``None``) to pass; :meth:`legal_actions` lists them."""
    game = "klaverjassen"
    phase = "call"
    __slots__ = ("rules", "position", "hand", "forced")

    def __init__(self, rules, position, hand, forced):
        self.rules = rules
        self.position = int(position)
        self.hand = int(hand)
        self.forced = bool(forced)

    @property
    def passes(self):
        return tuple(range(4)) if self.forced else tuple(range(self.position))

    def legal_actions(self):
        return [0, 1, 2, 3] if self.forced else [-1, 0, 1, 2, 3]

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=None):
        """The call of the built-in ``policy`` (pimc calls as the heuristic; strong by
        search, on ``worlds``, default the simulator's), exactly as the simulator's calling
        round."""
        from fastsim import klaverjassen_nb as nb
        from fastsim.klaverjassen_schema import CTR_CALL, CTR_FORCED, PIMC_WORLDS, POLICIES
        from fastsim.rng import below_nb
        if policy not in POLICIES:
            raise RulesError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
        if policy == "strong":
            from fastsim.klaverjassen_strong_nb import decide_call_nb
            r = self.rules
            return int(decide_call_nb(check_seed(seed), np.int64(deal), np.int64(self.position),
                                      np.int64(self.hand), self.forced, r.flags,
                                      np.int64(PIMC_WORLDS if worlds is None else worlds)))
        if policy == "random":
            dkey = _dkey(seed, deal)
            if self.forced:
                return int(below_nb(dkey, np.int64(CTR_FORCED), np.int64(4)))
            k = int(below_nb(dkey, np.int64(CTR_CALL + self.position), np.int64(5)))
            return k if k < 4 else -1
        return int(nb.heuristic_call_nb(np.int64(self.hand), np.int64(self.position),
                                        self.forced))

    def __repr__(self):
        return (f"KlaverjassenCallState(position={self.position}, "
                f"hand={' '.join(card_str(c) for c in self.hand_cards)!r}, "
                f"forced={self.forced})")


def _kj_deal(rules, hands, dealer, codes, seed, deal, worlds, trump=None, playing_team=0):
    """Call (unless ``trump`` is fixed), play and score one Klaverjassen deal; returns the
    row's per-deal values, per seat / seat team as the engine stores them."""
    from fastsim.klaverjassen_nb import score_deal_nb
    from .klaverjassen_play import KlaverjassenDeal, _arr
    seats = [(dealer + 1 + p) & 3 for p in range(4)]
    steam = [(dealer + 1 + t) & 1 for t in range(2)]       # position-team -> seat team
    agents = _Agents(codes, seed, deal, worlds)
    row = {}
    calls = []
    if trump is None:
        for k in range(5):
            q = k if k < 4 else 0
            st = KlaverjassenCallState(rules, q, hands[q], k == 4)
            c = agents.act(q, st, "call", lambda pl, st=st: st.decide(pl, seed=seed, deal=deal,
                                                                     worlds=worlds))
            calls.append(int(c))
            if c >= 0:
                tr, cpos = c, q
                row.update(trump=c, playing_team=seats[q] & 1, caller=seats[q], forced=k == 4)
                break
    else:
        tr = int(trump)
        cpos = steam.index(int(playing_team))       # a position of the playing team
    d = KlaverjassenDeal(rules, hands, tr, cpos, forced=len(calls) == 5, calls=calls)
    while not d.is_terminal:
        p = d.to_move
        st = d.info_state(p)
        c = agents.act(p, st, "play", lambda pl, st=st: st.decide(pl, seed=seed, deal=deal,
                                                                 worlds=worlds))
        d = d.apply(c)
    s0 = d.states[0]
    sc = np.zeros(2, dtype=np.int64)
    tt = [s0.won[0] + s0.won[2], s0.won[1] + s0.won[3]]
    nat, pit = score_deal_nb(_arr(s0.team_cp, 2), _arr(s0.team_rm, 2), s0.playing,
                             _arr(tt, 2), sc)
    row["nat"] = bool(nat)
    row["pit"] = steam[int(pit)] if int(pit) >= 0 else -1
    tricks, cp, rm, ts = [0] * 4, [0, 0], [0, 0], [0, 0]
    for p, s in enumerate(seats):
        tricks[s] = s0.won[p]
    for t in range(2):
        cp[steam[t]], rm[steam[t]], ts[steam[t]] = s0.team_cp[t], s0.team_rm[t], int(sc[t])
    row.update(tricks=tricks, card_points=cp, roem=rm, team_scores=ts)
    return row


def simulate_klaverjassen(rules, n_games, seed=0, policies=None, boompje=False,
                          trump=None, playing_team=0, game_start=0, record=False, worlds=None,
                          threads=None):
    """:func:`fastsim.klaverjassen.simulate` (single deals or whole boompjes) through the
    driver: the same Result for any mix of built-in and user policies."""
    from fastsim import klaverjassen as kj
    from fastsim.klaverjassen_nb import deal32_nb
    from fastsim.klaverjassen_schema import (DEAL_COLUMNS, GAME_DEALS, GAME_STRIDE,
                                             MAX_GAME_DEALS, PIMC_WORLDS)
    if record:
        raise PolicyError("klaverjassen: --record-play with a policy of your own is not "
                          "supported")
    worlds = PIMC_WORLDS if worlds is None else worlds
    pol = np.asarray(policies, dtype=np.int8)
    base = kj.simulate(rules, 0 if boompje else n_games, seed=seed,
                       policies=np.full(4, BUILTIN["heuristic"], np.int8), boompje=boompje,
                       trump=trump, playing_team=playing_team, threads=threads,
                       game_start=game_start, worlds=1)
    g = {k: np.zeros((n_games,) + v.shape[1:], dtype=v.dtype) for k, v in base.games.items()}
    if not boompje:
        dd = base.deals
        for r in range(len(dd["deal"])):
            dealer = int(dd["dealer"][r])
            seats = [(dealer + 1 + p) & 3 for p in range(4)]
            row = _kj_deal(rules, [int(dd["hands"][r, s]) for s in seats], dealer,
                           [pol[s] for s in seats], seed, int(dd["deal"][r]), worlds,
                           trump, playing_team)
            for k, v in row.items():
                dd[k][r] = v
        tot = dd["team_scores"].astype(np.int64)
        g["totals"][:] = tot
        g["n_deals"][:] = 1
        g["winners"][:, 0] = tot[:, 0] >= tot[:, 1]
        g["winners"][:, 1] = tot[:, 1] >= tot[:, 0]
        return replace(base, policies=pol, games=g)
    # whole boompjes: 16 deals, more while the totals are level (at most 32)
    rows = []
    deck = np.empty(32, dtype=np.int64)
    hands4 = np.empty(4, dtype=np.int64)
    for gi in range(n_games):
        tot = [0, 0]
        k = 0
        while not (k >= GAME_DEALS and (tot[0] != tot[1] or k >= MAX_GAME_DEALS)):
            deal = (game_start + gi) * GAME_STRIDE + k
            dealer = (rules.first_dealer + k) & 3
            deal32_nb(_dkey(seed, deal), deck, hands4)
            seats = [(dealer + 1 + p) & 3 for p in range(4)]
            hands = [int(x) for x in hands4]
            row = _kj_deal(rules, hands, dealer, [pol[s] for s in seats], seed, deal, worlds)
            by_seat = [0] * 4
            for p, s in enumerate(seats):
                by_seat[s] = hands[p]
            row.update(deal=deal, game=game_start + gi, deal_no=k, dealer=dealer, hands=by_seat)
            rows.append(row)
            for t in range(2):
                tot[t] += row["team_scores"][t]
            k += 1
        g["totals"][gi] = tot
        g["n_deals"][gi] = k
        g["winners"][gi] = [tot[0] >= tot[1], tot[1] >= tot[0]]
    deals = {}
    for name, (dtype, kind) in DEAL_COLUMNS.items():
        shape = (len(rows),) if not kind else (len(rows), 2 if kind == "team" else 4)
        deals[name] = np.array([r[name] for r in rows], dtype=dtype).reshape(shape)
    return replace(base, policies=pol, deals=deals, games=g)


# ---------------------------------------------------------------------- registry helpers

def tidy_named(tidy_fn, result):
    """The game's tidy frame of a result whose seats may hold user policies (or strong,
    which not every game has): the ``policy`` column then also has the ``PATH.py:FUNCTION``
    names (and ``strong``) as categories."""
    import pandas as pd
    pol = np.asarray(result.policies)
    extra = (pol.astype(np.int64) >= USER_BASE) | (pol.astype(np.int64) == POLICY_STRONG)
    if not extra.any():
        return tidy_fn(result)
    safe = np.where(extra, BUILTIN["heuristic"], pol).astype(np.int8)
    df = tidy_fn(replace(result, policies=safe))
    names = policy_names(pol)
    cats = [_NAMES[i] for i in sorted(_NAMES)]
    cats += [s for s in dict.fromkeys(names) if s not in cats]
    seat_name = dict(enumerate(names))
    df["policy"] = pd.Categorical(df["seat"].astype(int).map(seat_name), categories=cats)
    return df


def refuse_specs(game, default="heuristic", seat_policy=()):
    """A game without user policies: a clear one-line refusal of ``PATH.py:FUNCTION``."""
    names = [default] + [it.partition("=")[2] for it in seat_policy]
    if any(is_user_spec(x) for x in names):
        raise PolicyError(f"{game}: {NOT_SUPPORTED}")


# ---------------------------------------------------------------------- Bonken

class BonkenContractState(_DecisionBeforePlay):
    """The chooser's information state when it picks a Bonken contract: ``rules``,
    ``position`` (1: the player across from the dealer), ``hand`` (bit mask;
    :attr:`hand_cards`), ``round`` (0-based round of the game), ``available`` (the
    contract ids it may choose: the unplayed ones of this half), ``contracts_played``
    (the ids of the earlier rounds). Actions: contract ids (``fastsim.bonken_schema.CONTRACTS``
    names them: 0 ducking … 6 domino, 7–10 trump ♠♥♦♣, 11 no-trump)."""
    game = "bonken"
    phase = "contract"
    __slots__ = ("rules", "position", "hand", "round", "done")

    def __init__(self, rules, hand, round_, done):
        self.rules = rules
        self.position = 1
        self.hand = int(hand)
        self.round = int(round_)
        self.done = int(done)

    @property
    def available_mask(self):
        from fastsim.bonken_schema import N_NEGATIVE
        return (~self.done) & (0x7F if self.round < N_NEGATIVE else 0xF80)

    @property
    def available(self):
        return tuple(c for c in range(12) if self.available_mask >> c & 1)

    @property
    def contracts_played(self):
        return tuple(c for c in range(12) if self.done >> c & 1)

    def legal_actions(self):
        return list(self.available)

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=None):
        """The built-in ``policy``'s contract (pimc chooses as the heuristic, strong by its
        search over ``CHOICE_WORLDS × worlds`` deals), exactly as the simulator."""
        from fastsim import bonken_nb as nb
        from fastsim.bonken_schema import PIMC_WORLDS, POLICIES
        if policy not in POLICIES:
            raise RulesError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
        if policy == "strong":
            from fastsim import bonken_strong_nb as snb
            return int(snb.strong_choose_decide_nb(
                check_seed(seed), np.int64(deal), np.int64(self.hand),
                np.int64(self.available_mask), self.rules.flags,
                np.int64(PIMC_WORLDS if worlds is None else worlds)))
        return int(nb.choose_contract_nb(_dkey(seed, deal), np.int64(self.hand),
                                         np.int64(self.available_mask),
                                         np.int64(POLICIES[policy])))

    def __repr__(self):
        from fastsim.bonken_schema import CONTRACTS
        return (f"BonkenContractState(round={self.round}, "
                f"hand={' '.join(card_str(c) for c in self.hand_cards)!r}, "
                f"available={[CONTRACTS[c] for c in self.available]})")


def simulate_bonken(rules, n_games, seed=0, policies=None, contract=None, game_start=0,
                    record=False, worlds=None, threads=None):
    """:func:`fastsim.bonken.simulate` (whole games or single rounds) through the driver."""
    from fastsim import bonken as bk
    from fastsim.bonken_schema import DOMINO, PIMC_WORLDS
    from .bonken_play import BonkenDeal, DominoDeal
    if record:
        raise PolicyError("bonken: --record-play with a policy of your own is not supported")
    worlds = PIMC_WORLDS if worlds is None else worlds
    pol = np.asarray(policies, dtype=np.int8)
    base = bk.simulate(rules, n_games, seed=seed, policies=np.full(4, BUILTIN["heuristic"], np.int8),
                       contract=contract, threads=threads, game_start=game_start, worlds=1)
    dd, g = base.deals, base.games
    plan = list(base.plan)
    K = len(plan)
    for gi in range(n_games):
        done = 0
        for k in range(K):
            r = gi * K + k
            deal = int(dd["deal"][r])
            dealer = int(dd["dealer"][r])
            seats = [(dealer + 1 + p) & 3 for p in range(4)]
            hands = [int(dd["hands"][r, s]) for s in seats]
            agents = _Agents([pol[s] for s in seats], seed, deal, worlds)
            c = plan[k]
            chosen_from = 0
            if c < 0:
                st = BonkenContractState(rules, hands[1], k, done)
                chosen_from = st.available_mask
                c = agents.act(1, st, "contract",
                               lambda pl, st=st: st.decide(pl, seed=seed, deal=deal,
                                                           worlds=worlds))
            done |= 1 << c
            d = (DominoDeal(rules, hands) if c == DOMINO
                 else BonkenDeal(rules, c, hands, chosen_from=chosen_from))
            while not d.is_terminal:
                p = d.to_move
                st = d.info_state(p)
                mv = agents.act(p, st, "play", lambda pl, st=st: st.decide(
                    pl, seed=seed, deal=deal, worlds=worlds))
                d = d.apply(mv)
            s0 = d.states[0]
            scores = d.scores()
            dd["contract"][r] = c
            if c == DOMINO:
                dd["n_tricks"][r] = 0
                dd["loser"][r] = seats[next(q for q in range(4) if s0.held[q])]
                won = [0] * 4
            else:
                dd["n_tricks"][r] = len(s0.tricks)
                dd["loser"][r] = -1
                won = s0.won
            for p, s in enumerate(seats):
                dd["tricks"][r, s] = won[p]
                dd["scores"][r, s] = scores[p]
        tot = dd["scores"][gi * K:(gi + 1) * K].astype(np.int64).sum(axis=0)
        g["totals"][gi] = tot
        g["winners"][gi] = tot == tot.max()
    return replace(base, policies=pol)
