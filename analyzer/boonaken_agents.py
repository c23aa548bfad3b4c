"""Boonaken with policies of your own: the auction, exchange and trump states, and the
step-by-step deal driver (the Boonaken part of :mod:`analyzer.agents`).

A Boonaken deal asks four kinds of decision, each through one call of the seat's
policy with the acting player's information state:

* ``"bid"`` — every turn of the auction (:class:`BoonakenBidState`): pass (−1), a level
  of the bid ladder (``fastsim.boonaken_schema.LADDER``: 0..15 the point bids 25..100,
  16 misère, 17..21 105..125, 22 zwabber, 23..73 130..380, 74 boonaak) above the standing
  bid, or 16 to join a standing misère;
* ``"exchange"`` — the declarer's exchange with the table (:class:`BoonakenExchangeState`):
  the six cards it keeps (a bit mask; a list of codes or a card string is accepted);
* ``"trump"`` — the declarer names trump (:class:`BoonakenTrumpState`; point bids and
  boonaak: a suit 0..3 or −1 "not named", the suit of its first card decides; leimuiden's
  lone misère: a suit);
* ``"play"`` — every card (:class:`analyzer.boonaken_play.BoonakenInfoState`).

The deal, every key and every built-in decision are the engine's
(:func:`fastsim.boonaken_nb.play_deal_nb`): a seat of a built-in policy plays exactly as
in the compiled run, so a function returning ``state.decide("heuristic")`` (or
``"random"``) reproduces the built-in results number for number.
"""
from dataclasses import replace
from itertools import combinations

import numpy as np

from fastsim.boonaken_schema import (BOONAAK, CONTRACT_BOONAAK, CONTRACT_MISERE,
                                     CONTRACT_POINTS, CONTRACT_ZWABBER, CTR_AUCTION,
                                     CTR_AUCTION_PICK, CTR_EXCHANGE, CTR_TRUMP, LADDER,
                                     LADDER_VALUE, MATCH_STRIDE, MAX_AUCTION, MAX_MATCH_DEALS,
                                     MISERE, PIMC_WORLDS, POLICIES, PRESET_LEIMUIDEN,
                                     PRESET_SEED, ZWABBER, RulesError, build_rules,
                                     table_layout)
from fastsim.cards import SUITS, CardError, card_str, codes_of, parse_card, parse_cards
from fastsim.common import check_seed

from .agents import _Agents, _DecisionBeforePlay, _dkey, as_int_action
from .boonaken_play import BoonakenDeal, BoonakenInfoState, BoonakenTable, _bits

__all__ = ["BoonakenBidState", "BoonakenExchangeState", "BoonakenTrumpState",
           "BoonakenPlayView", "simulate_boonaken", "simulate_boonaken_matches"]

FULL32 = sum(1 << (16 * s + r) for s in range(4) for r in range(5, 13))


def _check_policy(policy):
    if policy not in POLICIES:
        raise RulesError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")


def _auc(auction):
    """The auction as the kernels read it: (position, level or -1) rows."""
    return np.array(list(auction) or [(0, -1)], dtype=np.int64).reshape(-1, 2)


def _worlds(worlds):
    return np.int64(PIMC_WORLDS if worlds is None else worlds)


def _strong_args(st):
    """What the strong exchange and trump kernels read of a declarer's state."""
    mis = np.zeros(5, dtype=np.int64)
    mis[:len(st.misere)] = st.misere
    return (st.n, st.preset, st.position, np.int64(st.dealt), np.int64(st.open),
            np.int64(st.blind), np.int64(st.level), mis, np.int64(len(st.misere)),
            _auc(st.auction), np.int64(len(st.auction)))


def _below(seed, deal, counter, m):
    from fastsim.rng import below_nb
    return int(below_nb(_dkey(seed, deal), np.int64(counter), np.int64(m)))


def _cards(mask):
    return " ".join(card_str(c) for c in _bits(mask))


def level_str(level):
    """A ladder level as a word: ``pass``, ``60``, ``misere``, ``zwabber``, ``boonaak``."""
    return "pass" if level < 0 else str(LADDER[level])


class _Before(BoonakenTable, _DecisionBeforePlay):
    """What the auction, exchange and trump states share (besides what every state before
    the play shares: the player to move is the state's own position, ``hand_cards``)."""
    __slots__ = ()
    game = "boonaken"

    @property
    def open_cards(self):
        return codes_of(self.open)

    def parse_action(self, a):
        """An int action, or ``None`` when ``a`` is no action of this phase."""
        return as_int_action(a)

    def action_str(self, a):
        return repr(a)


# ---------------------------------------------------------------------- auction

class BoonakenBidState(_Before):
    """One player's information state at its turn in the auction: ``rules``, ``n``,
    ``position`` (0 = left of the dealer, who speaks first), ``hand`` (bit mask;
    :attr:`hand_cards`), ``open`` (the face-up table cards; :attr:`open_cards`),
    ``auction`` (every earlier turn as ``(position, action)``, −1 a pass),
    ``standing`` (the standing level, −1: none), ``holder`` (its bidder, −1: none),
    ``misere`` (the misère players in order, the bidder first), ``passed`` (per
    position), ``can_join`` (a misère stands and I may join it).
    Actions: −1 (or ``None``, ``"pass"``) to pass; a level above ``standing``
    (``fastsim.boonaken_schema.LADDER[level]``; ``"60"``, ``"misere"``, ``"zwabber"``,
    ``"boonaak"`` are accepted); 16 (``"misere"``) joins a standing misère."""
    phase = "bid"
    __slots__ = ("rules", "position", "hand", "open", "auction", "standing", "holder",
                 "misere", "passed")

    def __init__(self, rules, position, hand, open_mask, auction, standing, holder, misere,
                 passed):
        self.rules = rules
        self.position = int(position)
        self.hand = int(hand)
        self.open = int(open_mask)
        self.auction = tuple((int(q), int(a)) for q, a in auction)
        self.standing = int(standing)
        self.holder = int(holder)
        self.misere = tuple(int(q) for q in misere)
        self.passed = tuple(bool(x) for x in passed)

    @property
    def can_join(self):
        return self.standing == MISERE and self.position not in self.misere

    def legal_actions(self):
        return [-1] + ([MISERE] if self.can_join else []) + list(range(self.standing + 1, 75))

    def parse_action(self, a):
        if a is None:
            return -1
        if isinstance(a, str):
            t = a.strip().lower().replace("è", "e")
            if t == "pass":
                return -1
            if t in ("misere", "zwabber", "boonaak"):
                return LADDER.index(t)
            try:
                v = int(t)
            except ValueError:
                return None
            return LADDER.index(v) if v in LADDER else None
        return super().parse_action(a)

    def action_str(self, a):
        if isinstance(a, (int, np.integer)) and not isinstance(a, bool) and -1 <= a < 75:
            return f"{int(a)} ({level_str(int(a))})"
        return repr(a)

    def legal_str(self):
        parts = ["-1 (pass)"] + (["16 (join the misere)"] if self.can_join else [])
        lo = self.standing + 1
        if lo <= 74:
            parts.append(f"{lo}..74 ({level_str(lo)} .. boonaak)" if lo < 74 else "74 (boonaak)")
        return ", ".join(parts)

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=None):
        """The built-in ``policy``'s action here, exactly as the simulator's auction
        (pimc bids as the heuristic; strong searches, ``worlds``: the engine's)."""
        from fastsim import boonaken_nb as nb
        _check_policy(policy)
        k = len(self.auction)
        st, join = self.standing, self.can_join
        if policy == "strong":
            from fastsim import boonaken_strong_nb as sn
            return int(sn.decide_bid_nb(check_seed(seed), np.int64(deal), self.n, self.preset,
                                        self.position, np.int64(self.hand), np.int64(self.open),
                                        _auc(self.auction), np.int64(k), _worlds(worlds)))
        if policy == "random":
            if _below(seed, deal, CTR_AUCTION + k, 2) != 1:
                return -1
            count = (1 if join else 0) + (74 - st)
            if count <= 0:
                return -1
            i = _below(seed, deal, CTR_AUCTION_PICK + k, count)
            if join:
                return MISERE if i == 0 else st + i
            return st + 1 + i
        b, z, m = nb.wants_nb(np.int64(self.hand))
        if b and st < BOONAAK:
            return BOONAAK
        if z and st < ZWABBER:
            return ZWABBER
        if m and (st < MISERE or join):
            return MISERE
        _, e = nb.best_trump_nb(np.int64(self.hand | self.open), self.n, self.preset)
        est = (int(e) * 4) // 5
        lvl = st + 1
        while lvl <= 73 and lvl in (MISERE, ZWABBER):
            lvl += 1
        if st < 73 and lvl <= 73 and LADDER_VALUE[lvl] <= est:
            return lvl
        return -1

    def __repr__(self):
        return (f"BoonakenBidState(position={self.position}, hand={_cards(self.hand)!r}, "
                f"open={_cards(self.open)!r}, standing={level_str(self.standing)!r})")


def _contract_of(level):
    return {MISERE: CONTRACT_MISERE, ZWABBER: CONTRACT_ZWABBER,
            BOONAAK: CONTRACT_BOONAAK}.get(level, CONTRACT_POINTS)


# ---------------------------------------------------------------------- exchange, trump

class BoonakenExchangeState(_Before):
    """The declarer's information state at the exchange: ``rules``, ``position``,
    ``hand`` (its dealt hand), ``open`` (the face-up table cards), ``open_order`` (them
    as they lie, in deal order), ``blind`` (the face-down table cards it picks up: pagat
    and leimuiden; 0 in the seed preset), ``contract`` (``CONTRACTS`` index),
    ``level``, ``misere`` (the misère players), ``auction`` (every turn of the auction as
    ``(position, action)``). Seed preset: it may swap face-up cards
    into its hand (those not taken lie out of play); pagat and leimuiden: it takes every
    table card and puts as many away. Actions: the six cards kept, as a bit mask
    (:meth:`legal_actions` lists every one; a list of codes or a string such as
    ``"JH 9H AH KH 7S AD"`` is accepted)."""
    phase = "exchange"
    __slots__ = ("rules", "position", "hand", "open", "open_order", "blind", "contract",
                 "level", "misere", "auction")

    def __init__(self, rules, position, hand, open_order, blind, level, misere, auction=()):
        self.rules = rules
        self.position = int(position)
        self.hand = int(hand)
        self.open_order = tuple(int(c) for c in open_order)
        self.open = sum(1 << c for c in self.open_order)
        self.blind = int(blind)
        self.level = int(level)
        self.contract = _contract_of(self.level)
        self.misere = tuple(int(q) for q in misere)
        self.auction = tuple((int(q), int(a)) for q, a in auction)

    @property
    def dealt(self):
        """Its hand as dealt."""
        return self.hand

    @property
    def holding(self):
        """Every card it chooses from (hand and table)."""
        return self.hand | self.open | self.blind

    def legal_actions(self):
        cards = _bits(self.holding)
        return sorted(sum(1 << c for c in k) for k in combinations(cards, 6))

    def parse_action(self, a):
        if isinstance(a, str):
            try:
                codes = parse_cards(a, "en", deck=32)
            except CardError:
                return None
        elif isinstance(a, (list, tuple, set, frozenset)):
            try:
                codes = [parse_card(c, "en", deck=32) if isinstance(c, str) else int(c)
                         for c in a]
            except (CardError, TypeError, ValueError):
                return None
        else:
            return super().parse_action(a)
        if len(set(codes)) != len(codes) or any(not 0 <= c < 64 for c in codes):
            return None
        return sum(1 << c for c in codes)

    def action_str(self, a):
        if isinstance(a, (int, np.integer)) and not isinstance(a, bool) and a > 0:
            try:
                return repr(_cards(int(a)))
            except CardError:
                pass
        return repr(a)

    def legal_str(self):
        return f"any 6 of {_cards(self.holding)}"

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=None):
        """The six cards the built-in ``policy`` keeps, exactly as the simulator (pimc
        exchanges as the heuristic; strong searches, ``worlds``: the engine's)."""
        from fastsim import boonaken_nb as nb
        _check_policy(policy)
        n, hold = self.n, self.holding
        if policy == "strong":
            from fastsim import boonaken_strong_nb as sn
            return int(sn.decide_exchange_nb(check_seed(seed), np.int64(deal),
                                             *_strong_args(self), _worlds(worlds)))
        if policy == "random":
            if self.preset == PRESET_SEED:
                cur = self.hand
                for i, c in enumerate(self.open_order):
                    if _below(seed, deal, CTR_EXCHANGE + 2 * i, 2) == 1:
                        idx = _below(seed, deal, CTR_EXCHANGE + 2 * i + 1, 6)
                        cur = (cur & ~(1 << _bits(cur)[idx])) | (1 << c)
                return cur
            cur = hold
            for i in range(bin(self.open | self.blind).count("1")):
                idx = _below(seed, deal, CTR_EXCHANGE + i, bin(cur).count("1"))
                cur &= ~(1 << _bits(cur)[idx])
            return cur
        if self.contract in (CONTRACT_POINTS, CONTRACT_BOONAAK):
            t, _ = nb.best_trump_nb(np.int64(hold), n, self.preset)
            return int(nb.best_six_nb(np.int64(hold), t, n))
        return int(nb.extreme_six_nb(np.int64(hold), self.contract == CONTRACT_MISERE))

    def __repr__(self):
        return (f"BoonakenExchangeState(position={self.position}, hand={_cards(self.hand)!r}, "
                f"table={_cards(self.open | self.blind)!r}, "
                f"contract={level_str(self.level)!r})")


def trump_asked(contract, preset, n_misere):
    """Does the declarer name trump in this contract (and preset)?"""
    return contract in (CONTRACT_POINTS, CONTRACT_BOONAAK) or (
        contract == CONTRACT_MISERE and preset == PRESET_LEIMUIDEN and n_misere == 1)


class BoonakenTrumpState(_Before):
    """The declarer's information state when it names trump (after the exchange):
    ``rules``, ``position``, ``hand`` (the six cards kept), ``holding`` (what it chose
    them from: its dealt hand and the table cards it saw), ``open``, ``discarded``,
    ``contract``, ``level``, ``blind`` (the face-down table cards it picked up: pagat and
    leimuiden), ``misere`` (the misère players), ``auction`` (as
    :class:`BoonakenExchangeState`). Actions: a point bid or boonaak: a suit 0..3 (spades,
    hearts, diamonds, clubs; ``"H"`` is accepted) or −1 (``None``) to name none, so that
    the suit of its first card is trump; leimuiden's lone misère: a suit."""
    phase = "trump"
    __slots__ = ("rules", "position", "hand", "holding", "open", "level", "contract", "blind",
                 "misere", "auction")

    def __init__(self, rules, position, hand, holding, open_mask, level, blind=0, misere=(),
                 auction=()):
        self.rules = rules
        self.position = int(position)
        self.hand = int(hand)
        self.holding = int(holding)
        self.open = int(open_mask)
        self.level = int(level)
        self.contract = _contract_of(self.level)
        self.blind = int(blind)
        self.misere = tuple(int(q) for q in misere)
        self.auction = tuple((int(q), int(a)) for q, a in auction)

    @property
    def dealt(self):
        """Its hand as dealt (what it held before the exchange)."""
        return self.holding & ~(self.open | self.blind)

    @property
    def discarded(self):
        return self.holding & ~self.hand

    def legal_actions(self):
        return [0, 1, 2, 3] if self.contract == CONTRACT_MISERE else [-1, 0, 1, 2, 3]

    def parse_action(self, a):
        if a is None:
            return -1
        if isinstance(a, str):
            from fastsim.cards import parse_suit
            try:
                return int(parse_suit(a, "en"))
            except (CardError, RulesError, ValueError):
                return None
        return super().parse_action(a)

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=None):
        """The built-in ``policy``'s trump, exactly as the simulator (the heuristic
        names the suit it exchanged for; pimc names as the heuristic; strong searches the
        suits for the six kept, ``worlds``: the engine's)."""
        from fastsim import boonaken_nb as nb
        _check_policy(policy)
        if policy == "strong":
            from fastsim import boonaken_strong_nb as sn
            return int(sn.decide_trump_nb(check_seed(seed), np.int64(deal), *_strong_args(self),
                                          _worlds(worlds), np.int64(self.hand)))
        if self.contract == CONTRACT_MISERE:
            if policy == "random":
                return _below(seed, deal, CTR_TRUMP, 4)
            counts = [bin(self.hand >> (16 * s) & 0x1FFF).count("1") for s in range(4)]
            return counts.index(min(counts))
        if policy == "random":
            t = _below(seed, deal, CTR_TRUMP, 5)
            return t if t < 4 else -1
        t, _ = nb.best_trump_nb(np.int64(self.holding), self.n, self.preset)
        return int(t)

    def __repr__(self):
        return (f"BoonakenTrumpState(position={self.position}, hand={_cards(self.hand)!r}, "
                f"contract={level_str(self.level)!r})")


# ---------------------------------------------------------------------- play

class BoonakenPlayView(BoonakenInfoState):
    """A player's play state as its policy sees it: the simulator's state less what the
    player does not know (the stock's order: only its own draws so far; in pagat and
    leimuiden, which table cards the declarer kept). ``decide("pimc")`` and
    ``decide("strong")`` of a non-declarer in pagat or leimuiden are refused: the
    simulator's pimc is told which table cards the declarer kept."""
    # no __slots__ of its own: copies (``apply``) go through the parent's slots

    @classmethod
    def of(cls, st):
        v = cls.__new__(cls)
        for a in BoonakenInfoState.__slots__:
            setattr(v, a, getattr(st, a))
        if st.stock is not None:
            n = st.n
            v.my_draws = tuple(st.stock[k * n + (st.position - ld) % n]
                               for k, (ld, _, _) in enumerate(st.tricks[:st.draws]))
            v.stock = None
        if st.preset != PRESET_SEED and st.position != st.decl:
            v.sim_known = 0
            v.sim_pinned = 0
        return v

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=PIMC_WORLDS):
        if policy in ("pimc", "strong") and self.preset != PRESET_SEED \
                and self.position != self.decl:
            raise RulesError(f"the simulator's {policy} player is told which table cards the "
                             f"declarer kept ({self.rules.preset} preset); a policy of a "
                             "non-declarer cannot ask for it")
        return super().decide(policy, seed, deal, worlds)

    def __repr__(self):
        p = self.to_move
        trump = "first" if not self.named else (SUITS[self.trump] if self.trump >= 0 else "none")
        return (f"BoonakenInfoState(position={self.position}"
                + (f", to_move={p}" if p is not None else "")
                + f", contract={level_str(self.level)!r}, trump={trump!r}, "
                f"hand={_cards(self.hand)!r}, history={self.history_str()!r})")

    @property
    def level(self):
        """The contract's level on the bid ladder."""
        if self.contract == CONTRACT_POINTS:
            return LADDER.index(self.bid)
        return {CONTRACT_MISERE: MISERE, CONTRACT_ZWABBER: ZWABBER}.get(self.contract, BOONAAK)


# ---------------------------------------------------------------------- one deal

def _layout(preset, n, deck):
    n_open, n_blind = table_layout(preset, n)
    base = 6 * n
    if preset == 1 and n <= 4:          # pagat: blind cards first, then the open ones
        blind_at, open_at = base, base + n_blind
    else:
        open_at, blind_at = base, base + n_open
    rest_at = base + n_open + n_blind
    open_order = [int(deck[i]) for i in range(open_at, open_at + n_open)]
    blind = sum(1 << int(deck[i]) for i in range(blind_at, blind_at + n_blind))
    rest = sum(1 << int(deck[i]) for i in range(rest_at, 32))
    return open_order, blind, rest_at, rest


def play_deal(rules, codes, seed, deal, worlds, rec=None):
    """Deal, auction, exchange, trump, play and judge one deal among ``rules.players``
    positions (``codes``: the policy code per position), as
    :func:`fastsim.boonaken_nb.play_deal_nb`. Returns a dict of per-position values
    (``info``: the engine's 17 fields). ``rec``: a dict of one deal's record rows to fill."""
    from fastsim import boonaken_nb as nb
    from fastsim.cards import DECK32
    from fastsim.rng import shuffle_nb
    n, preset = rules.players, rules.preset_id
    dkey = _dkey(seed, deal)
    deck = np.array(DECK32, dtype=np.int64)
    shuffle_nb(dkey, 0, deck, 0, 31, 32)
    hands = [sum(1 << int(c) for c in deck[6 * p:6 * p + 6]) for p in range(n)]
    open_order, blind, rest_at, rest = _layout(preset, n, deck)
    open_m = sum(1 << c for c in open_order)
    info = np.zeros(nb.N_INFO, dtype=np.int64)
    info[nb.I_OPEN], info[nb.I_BLIND] = open_m, blind
    info[nb.I_STOCK if preset == PRESET_SEED else nb.I_SLEEP] = rest
    if rec is not None:
        rec["deck"][:] = deck
    agents = _Agents(codes, seed, deal, worlds)
    out = {"hands": hands, "info": info, "misere": [], "won": [0] * n, "cpts": [0] * n,
           "result": [-1] * n}

    # ---- auction
    passed = [False] * n
    mis = []
    auction = []
    standing = holder = -1
    turn = 0
    while True:
        current = [standing >= 0 and (q == holder or (standing == MISERE and q in mis))
                   for q in range(n)]
        if all(passed):
            info[nb.I_VOID] = 1
            break
        if standing >= 0 and all(passed[q] or current[q] for q in range(n)):
            break
        q = turn % n
        while passed[q] or current[q]:
            q = (q + 1) % n
        st = BoonakenBidState(rules, q, hands[q], open_m, auction, standing, holder, mis,
                              passed)
        a = agents.act(q, st, "bid", lambda pl, st=st: st.decide(pl, seed, deal, worlds))
        if rec is not None and len(auction) < MAX_AUCTION:
            rec["auction"][len(auction)] = (q, a)
        auction.append((q, a))
        if a < 0:
            passed[q] = True
        elif a == MISERE and st.can_join:
            mis.append(q)
        else:
            standing, holder = a, q
            mis = [q] if a == MISERE else []
        turn = q + 1
    info[nb.I_NAUCTION] = len(auction)
    if info[nb.I_VOID]:
        return out
    decl = holder
    contract = _contract_of(standing)
    bid = int(LADDER_VALUE[standing])
    info[nb.I_CONTRACT], info[nb.I_LEVEL], info[nb.I_BID] = contract, standing, bid
    info[nb.I_DECL], info[nb.I_NMIS] = decl, len(mis)
    out["misere"] = list(mis)

    # ---- exchange and trump
    hand = hands[decl]
    table_blind = blind if preset != PRESET_SEED else 0
    st = BoonakenExchangeState(rules, decl, hand, open_order, table_blind, standing, mis,
                               auction)
    keep = agents.act(decl, st, "exchange", lambda pl: st.decide(pl, seed, deal, worlds))
    table = open_m | table_blind
    trump, named = -1, True
    if trump_asked(contract, preset, len(mis)):
        ts = BoonakenTrumpState(rules, decl, keep, hand | table, open_m, standing, table_blind,
                                mis, auction)
        t = agents.act(decl, ts, "trump", lambda pl: ts.decide(pl, seed, deal, worlds))
        if t >= 0:
            trump = t
        else:
            named = False
    taken = keep & table
    info[nb.I_TAKEN], info[nb.I_DISCARDED] = taken, hand & ~keep
    disc = hand & ~keep
    if preset != PRESET_SEED:       # every table card not kept was put away too
        disc |= table & ~taken
    start = list(hands)
    start[decl] = keep
    trump_arg = "first" if not named else (trump if trump >= 0 else None)
    stock = [int(c) for c in deck[rest_at:]] if preset == PRESET_SEED else ()
    d = BoonakenDeal(rules, start, decl, (contract, bid if contract == CONTRACT_POINTS else 0),
                     trump_arg, open_m, stock, taken, disc, mis[1:], None, taken,
                     table_blind, auction=auction)

    # ---- play
    while not d.is_terminal:
        p = d.to_move
        full = d.info_state(p)
        c = agents.act(p, full, "play",
                       lambda pl, full=full: full.decide(pl, seed, deal, worlds),
                       view=BoonakenPlayView.of)
        d = d.apply(c)
    s0 = d.states[0]
    info[nb.I_NTRICKS], info[nb.I_TRUMP], info[nb.I_NAMED] = s0.t, s0.trump, named
    roem = d.standing_roem() if contract == CONTRACT_POINTS else 0
    info[nb.I_ROEM] = roem
    won, cpts = list(s0.won), list(s0.cpts)
    res = [-1] * n
    if contract == CONTRACT_POINTS:
        res[decl] = 1 if cpts[decl] + roem >= bid else 0
    elif contract == CONTRACT_MISERE:
        for q in mis:
            res[q] = 1 if won[q] == 0 else 0
    else:
        res[decl] = 1 if won[decl] == s0.t else 0
    out.update(won=won, cpts=cpts, result=res)
    if rec is not None:
        pos = rest_at
        for t, (leader, cards, winner) in enumerate(s0.tricks):
            rec["cards"][t, :len(cards)] = cards
            rec["leader"][t], rec["winner"][t] = leader, winner
            if preset == PRESET_SEED and 32 - pos >= n:
                rec["draws"][t, :n] = deck[pos:pos + n]
                pos += n
    return out


# ---------------------------------------------------------------------- runs

def simulate_boonaken(rules, n_deals, seed=0, policies=None, start=0, record=False,
                      worlds=PIMC_WORLDS, threads=None):
    """:func:`fastsim.boonaken.simulate` through the driver: the same Result for any mix of
    built-in and user policies. (A deal where everyone passed holds only what the engine
    defines for it: the auction, the table, no contract.)"""
    from fastsim import boonaken as bo
    pol = np.asarray(policies, dtype=np.int8)
    n, dealer = rules.players, rules.first_dealer
    base = bo.simulate(rules, 0, seed=seed, policies=np.full(n, POLICIES["heuristic"]),
                       start=start, record=record, threads=threads)
    d = bo.deal_arrays(n_deals, n)
    play = bo.play_arrays(n_deals) if record else None
    seats = [(dealer + 1 + p) % n for p in range(n)]
    codes = [pol[s] for s in seats]
    for i in range(n_deals):
        rec = {k: v[i] for k, v in play.items()} if record else None
        o = play_deal(rules, codes, seed, start + i, worlds, rec)
        d["info"][i] = o["info"]
        for p, s in enumerate(seats):
            d["hands"][i, s] = o["hands"][p]
            d["tricks"][i, s] = o["won"][p]
            d["card_points"][i, s] = o["cpts"][p]
            d["result"][i, s] = o["result"][p]
        for k, q in enumerate(o["misere"]):
            d["misere"][i, k] = seats[q]
    return replace(base, policies=pol, deals=d, play=play)


def simulate_boonaken_matches(rules, n_matches, seed=0, policies=None, start=0,
                              worlds=PIMC_WORLDS, threads=None):
    """:func:`fastsim.boonaken.simulate_matches` through the driver (as
    :func:`fastsim.boonaken_nb.run_matches_nb`)."""
    from fastsim import boonaken as bo
    from fastsim import boonaken_nb as nb
    pol = np.asarray(policies, dtype=np.int8)
    n0, preset = rules.players, rules.preset_id
    base = bo.simulate_matches(rules, 0, seed=seed, policies=np.full(n0, POLICIES["heuristic"]),
                               start=start, threads=threads)
    m = bo.match_arrays(n_matches, n0)
    per_n = {}
    for i in range(n_matches):
        mi = start + i
        dealer = (rules.first_dealer + mi) % n0
        m["first_dealer"][i] = dealer
        plus, walk, active = [0] * n0, [0] * n0, [True] * n0
        winner, k = -1, 0
        while k < MAX_MATCH_DEALS:
            seats = [(dealer + off) % n0 for off in range(1, n0 + 1)
                     if active[(dealer + off) % n0]]
            n = len(seats)
            if preset == PRESET_LEIMUIDEN and n <= 1:
                break
            if n not in per_n:
                per_n[n] = build_rules(n, rules.preset)
            o = play_deal(per_n[n], [pol[s] for s in seats], seed, mi * MATCH_STRIDE + k,
                          worlds)
            k += 1
            info, res = o["info"], o["result"]
            if info[nb.I_VOID]:
                continue      # the same dealer redeals
            if preset != PRESET_LEIMUIDEN:
                for p in range(n):
                    if res[p] == 1:
                        plus[seats[p]] += 1
                winner = next((seats[p] for p in range(n) if plus[seats[p]] >= 2), -1)
                if winner >= 0:
                    break
            else:
                if info[nb.I_CONTRACT] == CONTRACT_MISERE and info[nb.I_NMIS] > 1:
                    for p in o["misere"]:
                        walk[seats[p]] += 1 if res[p] == 1 else -1
                else:
                    dd = int(info[nb.I_DECL])
                    made = res[dd] == 1
                    for p in range(n):
                        walk[seats[p]] += (1 if made else -1) * (1 if p == dd else -1)
                for p in range(n):
                    if abs(walk[seats[p]]) >= 2:
                        active[seats[p]] = False
            nd = (dealer + 1) % n0
            while not active[nd] and nd != dealer:
                nd = (nd + 1) % n0
            dealer = nd
        m["deals"][i], m["winner"][i] = k, winner
        m["plus"][i], m["walk"][i] = plus, walk
        m["status"][i] = [1 if w >= 2 else (-1 if w <= -2 else 0) for w in walk]
    return replace(base, policies=pol, matches=m)

