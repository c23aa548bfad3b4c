""""Which card should I play now?" — Boonaken information states and the play query.

Same API as the other games' play modules (see :mod:`analyzer.infostate`). Positions:
0 = left of the dealer … n−1 = the dealer. The declarer (for a misère: its first bidder)
leads the first trick; every later trick is led by the previous trick's winner.

Public facts (besides one's own hand and the cards played): the preset and player count,
the declarer and contract (a point bid, ``misere`` with its joiners, ``zwabber`` or
``boonaak``), trump (a suit; ``first``: not named, the suit of the declarer's first card;
none in a zwabber or a joined misère), the face-up table cards (``open``) and, in the
``seed`` preset, which of them the declarer took (the others lie face up out of play).
In ``pagat`` and ``leimuiden`` the declarer takes every table card and discards as many
face down, so a face-up card is either in the declarer's hand or among the discards.
Private facts one may add: the cards I drew after each trick (``drawn``, seed preset;
needed once draws happened), the declarer's own discards (``discarded``) and the
declarer's counted roem (``roem``; in the seed preset the meld that stood at the first
trick, public from then on).

Shown voids: not following (seed, pagat) shows no card of the led suit, and not trumping
then shows no trump either; in leimuiden the duties are weaker (trumping in is free, the
jack of trump never has to be played, an undertrump shows a hand of low trumps only).
In the seed preset a later draw can bring the suit back: the sampled worlds keep only
deals that some order of dealing and drawing explains (:mod:`fastsim.boonaken_play_nb`).

The query's ``value`` per card is my expected *mark* for the deal: +1 for a contract of
mine that is made, −1 for one that fails; for the other players the reverse of every
declarer's (each misère player's) mark. ``p_make`` is the probability that the declarer
(the first misère bidder) makes it and ``expected_score`` the declarer's expected points
(card points, plus the counted roem in a point contract). numpy only.
"""
import numpy as np

from fastsim.aot import kernels
from fastsim.boonaken_schema import (BOONAAK, CONTRACT_BOONAAK, CONTRACT_MISERE,
                                     CONTRACT_POINTS, CONTRACT_ZWABBER, CONTRACTS, GAME,
                                     LADDER, MISERE, PIMC_WORLDS, ZWABBER,
                                     POLICIES, PRESET_LEIMUIDEN, PRESET_SEED, RulesError,
                                     ROEM_GIVEN, ROEM_MELD, ROEM_SUM, AUCTION_EPS, AUCTION_TAU,
                                     build_rules, table_layout)
from fastsim.cards import CardError, FULL32, SUITS, card_str, mask_of, parse_card, parse_cards, parse_suit
from fastsim.common import REST, check_seed
from .evidence import finish_play
from .progress import sliced
from .infostate import query_kernels
from .infostate import (TrickInfoState, bits, parse_tricks, recommended, position_arg, query_state, play_args, Deal, record_card, SUIT_NAMES, check_own_cards, copy_state, ess,
                        replay, weighted_summary)

# the compiled kernels: ahead of time where built (fastsim/aot.py: no numba to start, one
# thread) for a small query, else numba's (the same results)
pq = kernels("boonaken_play")

DEFAULT_SAMPLES = 2_000
CHUNK = 64
FULL = int(FULL32)
SUIT = [FULL & (0x1FFF << (16 * s)) for s in range(4)]
POINT_BIDS = [v for v in LADDER if isinstance(v, int)]
# the most roem 6 kept cards can count (pagat: four jacks with the trump J-Q-K run and
# stuk, 200 + 20 + 20; tests/test_hostile_options.py checks it against every hand)
MAX_ROEM = 240

__all__ = ["BoonakenInfoState", "BoonakenDeal", "play_query", "sample_worlds",
           "positions_from_record", "deal_from_record", "parse_contract", "revealed",
           "parse_auction", "auction_str", "auction_model"]


_bits = bits


def _mask(cards, notation="en", what="cards"):
    if cards is None:
        return 0
    if isinstance(cards, (int, np.integer)):
        return int(cards)
    codes = parse_cards(cards, notation, deck=32) if isinstance(cards, str) else [
        parse_card(c, notation, deck=32) if isinstance(c, str) else int(c) for c in cards]
    if len(set(codes)) != len(codes):
        raise CardError(f"{what}: a card is listed twice")
    return mask_of(codes)


def parse_contract(contract):
    """``"60"`` / 60 (a point bid), ``misere``, ``zwabber``, ``boonaak`` → (contract id, bid)."""
    if isinstance(contract, (int, np.integer)) and not isinstance(contract, bool):
        text = str(int(contract))
    else:
        text = str(contract).strip().lower().replace("è", "e")
    if text in ("misere", "zwabber", "boonaak"):
        return CONTRACTS.index(text), 0
    return CONTRACT_POINTS, _point_bid(text, f"unknown contract {contract!r}: ")


def _point_bid(text, unknown, what=""):
    """``text`` as a point bid of the ladder, else one line: ``unknown`` begins it when
    ``text`` is no number, ``what`` when it is no bid of the ladder."""
    try:
        bid = int(text)
    except ValueError:
        raise RulesError(f"{unknown}a point bid 25..380 (multiples of 5), misere, zwabber or "
                         "boonaak") from None
    if bid not in POINT_BIDS:
        raise RulesError(f"{what}a point bid is a multiple of 5 from 25 to 380, got {bid}")
    return bid


PASS_WORDS = ("pass", "p", "pas", "-")


def _level_name(a):
    return "pass" if a < 0 else str(LADDER[a])


def auction_str(auction):
    """``(position, level or -1)`` pairs → the ``--auction`` notation, ``"0:pass 1:60 …"``."""
    return " ".join(f"{q}:{_level_name(a)}" for q, a in auction)


def parse_auction(text, n):
    """The ``--auction`` notation → ``(position, ladder level or -1 for a pass)`` pairs in
    bidding order, checked against the rules of the auction (docs/rules.md, Boonaken): calls in
    bidding order from position 0 (left of the dealer), separated by spaces or commas; each
    ``pass``, a point bid (``60``), ``misere`` (while a misère stands: a join), ``zwabber``
    or ``boonaak``, optionally as ``POSITION:CALL`` (the position is then checked: whose
    turn it is, a pass being final). Returns ``(auction, declarer, final level, misère
    joiners)``; raises :class:`RulesError` with a one-line message."""
    if text is None:
        return None
    if not isinstance(text, str):          # already pairs (position, level)
        raw = [(int(q), int(a)) for q, a in text]
        toks = [(f"{q}:{_level_name(a)}", q, a) for q, a in raw]
    else:
        toks = []
        for tok in text.replace(",", " ").split():
            pos, _, call = tok.rpartition(":")
            q = None
            if pos:
                try:
                    q = int(pos)
                except ValueError:
                    raise RulesError(f"auction: {tok!r} is not CALL or POSITION:CALL") from None
            c = call.strip().lower().replace("è", "e")
            if c in PASS_WORDS:
                a = -1
            elif c in ("misere", "zwabber", "boonaak"):
                a = {"misere": MISERE, "zwabber": ZWABBER, "boonaak": BOONAAK}[c]
            else:
                a = LADDER.index(_point_bid(c, f"auction: unknown call {call!r}: pass, ",
                                            "auction: "))
            toks.append((tok, q, a))
    if not toks:
        raise RulesError("auction: no calls given")
    passed = [False] * n
    standing, holder, in_mis, turn = -1, -1, [], 0
    out = []

    def current(p):
        return standing >= 0 and (p == holder or (standing == MISERE and p in in_mis))
    for k, (tok, given, a) in enumerate(toks):
        if given is not None and not 0 <= given < n:
            raise RulesError(f"auction: position {given} is not 0..{n - 1}")
        if all(passed):
            raise RulesError(f"auction: everyone had passed after {k} calls; {tok!r} is one "
                             "too many")
        if standing >= 0 and all(passed[p] or current(p) for p in range(n)):
            raise RulesError(f"auction: the auction was over after {k} calls; {tok!r} is one "
                             "too many")
        q = next(p for p in ((turn + i) % n for i in range(n))
                 if not passed[p] and not current(p))
        if given is not None and given != q:
            why = ("passed earlier (a pass is final)" if passed[given] else
                   "holds the standing bid" if current(given) else "speaks out of turn")
            raise RulesError(f"auction: call {k + 1} ({tok}): position {given} {why}; it is "
                             f"position {q}'s turn")
        can_join = standing == MISERE and q not in in_mis
        if a < 0:
            passed[q] = True
        elif a == MISERE and can_join:
            in_mis.append(q)
        elif a <= standing:
            raise RulesError(f"auction: call {k + 1} ({tok}): {_level_name(a)} by position {q} "
                             f"does not beat the standing {_level_name(standing)}")
        else:
            standing, holder = a, q
            in_mis = [q] if a == MISERE else []
        out.append((q, a))
        turn = q + 1
    if all(passed):
        raise RulesError("auction: everyone passed; the deal is redealt, not played")
    rest = [p for p in ((turn + i) % n for i in range(n)) if not passed[p] and not current(p)]
    if rest:
        raise RulesError(f"auction: not finished: position {rest[0]} has still to speak "
                         f"(it ends when one bidder is left, plus any misère joiners)")
    return out, holder, standing, in_mis[1:]


def check_auction(text, n, declarer, contract, bid, joiners):
    """:func:`parse_auction`, then the auction's outcome must be the given declarer, contract
    (and point bid) and misère joiners. Returns the ``(position, level)`` pairs."""
    auction, holder, level, joined = parse_auction(text, n)
    if holder != declarer:
        raise RulesError(f"auction: position {holder} won it, but the declarer is position "
                         f"{declarer}")
    con, b = ((CONTRACT_MISERE, 0) if level == MISERE else (CONTRACT_ZWABBER, 0)
              if level == ZWABBER else (CONTRACT_BOONAAK, 0) if level == BOONAAK
              else (CONTRACT_POINTS, LADDER[level]))
    if (con, b) != (contract, bid if contract == CONTRACT_POINTS else 0):
        want = str(bid) if contract == CONTRACT_POINTS else CONTRACTS[contract]
        raise RulesError(f"auction: it ends in {_level_name(level)}, but the contract is {want}")
    if sorted(joined) != sorted(joiners):
        raise RulesError(f"auction: positions {','.join(map(str, sorted(joined))) or 'none'} "
                         f"joined the misère, but the joiners are "
                         f"{','.join(map(str, sorted(joiners))) or 'none'}")
    return auction


def auction_model(tau=None, eps=None):
    """The bidder model the play query weighs its worlds by, in words."""
    tau = AUCTION_TAU if tau is None else tau
    eps = AUCTION_EPS if eps is None else eps
    return f"soft heuristic bidder (tau={tau:g}, floor {eps:g})"


def _positions(text, n, what):
    if text is None or (isinstance(text, str) and not text.strip()):
        return []
    vals = text.split(",") if isinstance(text, str) else list(text)   # "1 3" is no 13
    try:
        out = [int(v) for v in vals]
    except (TypeError, ValueError):
        raise RulesError(f"{what} must be positions separated by commas, got {text!r}") from None
    for v in out:
        if not 0 <= v < n:
            raise RulesError(f"{what}: position {v} is not 0..{n - 1}")
    if len(set(out)) != len(out):
        raise RulesError(f"{what}: a position is listed twice")
    return out


def revealed(card, led, trump, hi, preset):
    """Cards a player cannot hold, given that it legally played ``card`` to a trick led in
    ``led`` (−1: it led) whose highest trump so far is ``hi`` (−1: none): the engine's
    legality inverted (:func:`fastsim.boonaken_play_nb.revealed_nb`)."""
    return int(pq.revealed_nb(card, led, trump, hi, preset))


def _positions_of(n, position, declarer):
    """The player's and the declarer's positions, checked (one-line errors)."""
    return (position_arg(position, n, f"position must be 0..{n - 1} (0 = left of the dealer), "
                         f"got {position!r}"),
            position_arg(declarer, n, f"declarer must be a position 0..{n - 1}, got {declarer!r}"))


class BoonakenTable:
    """What every Boonaken state reads off its rules: ``n`` (players) and ``preset``."""
    __slots__ = ()

    @property
    def n(self):
        return self.rules.players

    @property
    def preset(self):
        return self.rules.preset_id


class BoonakenInfoState(BoonakenTable, TrickInfoState):
    """One player's information state in a Boonaken deal (immutable).

    Per position: ``won`` (tricks), ``cpts`` (card points taken), ``voids`` (the engine's
    suit bits: led suits not followed, for pimc), ``played_by``; ``vlog`` holds every
    shown void as ``(position, trick, cards it could not hold)``; ``draws`` counts the
    draw rounds so far (seed preset). ``stock`` is the stock's order when known (a
    full-information deal), else ``my_draws`` lists my draws in order."""
    game = GAME
    DECK = 32
    __slots__ = ("rules", "position", "hand", "contract", "bid", "decl", "in_mis", "trump",
                 "named", "open", "taken", "discarded", "roem", "tricks", "leader", "current",
                 "won", "cpts", "voids", "vlog", "played", "played_by", "draws", "stock",
                 "my_draws", "first_hand", "sim_known", "sim_pinned", "auction")

    @property
    def layout(self):
        return table_layout(self.preset, self.n)

    @property
    def rest_at(self):
        o, b = self.layout
        return 6 * self.n + o + b

    @property
    def draw_rounds(self):
        return (32 - self.rest_at) // self.n if self.preset == PRESET_SEED else 0

    @property
    def n_tricks(self):
        return 6 + self.draw_rounds

    @property
    def stock_pos(self):
        return self.rest_at + self.n * self.draws

    @classmethod
    def initial(cls, rules, position, hand, declarer, contract, trump, open_cards, taken=None,
                discarded=0, joiners=(), roem=None, stock=None, my_draws=(), sim_known=None,
                sim_pinned=None, notation="en", auction=()):
        """The state before the first card. ``hand``: my hand at the start of play (the
        declarer's after the exchange); ``trump``: a suit index, ``None`` (no trump) or
        ``"first"`` (the declarer's first card decides); ``auction``: the auction as
        ``(position, ladder level or -1 for a pass)`` pairs in order, as the engine records
        it (only the strong policy reads it; empty: not known)."""
        s = cls.__new__(cls)
        n = rules.players
        s.rules = rules
        s.position, s.decl = _positions_of(n, position, declarer)
        s.hand = _mask(hand, notation, "hand")
        if bin(s.hand).count("1") != 6 or s.hand & ~FULL:
            raise RulesError(f"hand of the wrong size: {bin(s.hand).count('1')} cards at the "
                             "start of play; a Boonaken hand has 6 of the 32-card deck")
        s.contract, s.bid = parse_contract(contract) if not isinstance(contract, tuple) else contract
        joiners = list(joiners)
        if joiners and s.contract != CONTRACT_MISERE:
            raise RulesError("misère joiners are given but the contract is not a misère")
        if s.decl in joiners:
            raise RulesError("the declarer is the first misère bidder, not a joiner")
        s.in_mis = tuple(s.contract == CONTRACT_MISERE and (q == s.decl or q in joiners)
                         for q in range(n))
        preset = rules.preset_id
        joined = s.contract == CONTRACT_MISERE and len(joiners) > 0
        needs = (s.contract in (CONTRACT_POINTS, CONTRACT_BOONAAK)
                 or (s.contract == CONTRACT_MISERE and preset == PRESET_LEIMUIDEN and not joined))
        if isinstance(trump, str) and trump.strip().lower() == "first":
            if s.contract not in (CONTRACT_POINTS, CONTRACT_BOONAAK):
                raise RulesError("trump 'first' (the declarer's first card) applies to point "
                                 "bids and boonaak only")
            s.trump, s.named = -1, False
        elif trump is None or (isinstance(trump, (int, np.integer)) and trump < 0):
            if needs:
                raise RulesError(f"{CONTRACTS[s.contract]} is played with a trump: give a suit, "
                                 "or 'first' when the declarer named none")
            s.trump, s.named = -1, True
        else:
            if not needs:
                what = "a joined misère" if joined else CONTRACTS[s.contract]
                raise RulesError(f"{what} is played without trump in this preset")
            s.trump, s.named = int(trump), True
        o, b = table_layout(preset, n)
        s.open = _mask(open_cards, notation, "open cards")
        if bin(s.open).count("1") != o or s.open & ~FULL:
            raise RulesError(f"the table has {o} face-up cards in this preset, got "
                             f"{bin(s.open).count('1')}")
        if preset == PRESET_SEED:
            s.taken = _mask(taken, notation, "taken")
            if s.taken & ~s.open:
                raise RulesError("the declarer can only take face-up table cards")
        else:
            if taken:
                raise RulesError("in this preset the declarer takes every table card; "
                                 "--taken applies to the seed preset")
            s.taken = None
        s.discarded = _mask(discarded, notation, "discarded")
        if s.discarded and s.position != s.decl:
            raise RulesError("only the declarer knows the discards")
        if s.position == s.decl:
            if s.taken and s.taken & ~s.hand:
                raise CardError("the declarer's hand lacks a face-up card it took")
            if s.discarded & s.hand:
                raise CardError("a discarded card is also in the hand")
            k = (bin(s.taken).count("1") if preset == PRESET_SEED else o + b)
            if s.discarded and bin(s.discarded).count("1") != k:
                raise RulesError(f"the declarer discarded {k} cards, got "
                                 f"{bin(s.discarded).count('1')}")
            if preset == PRESET_SEED and s.discarded & s.open:
                raise CardError("in the seed preset the discards come from the hand")
        else:
            if s.hand & s.open:
                c = _bits(s.hand & s.open)[0]
                raise CardError(f"{card_str(c, notation)} is a table card; only the declarer "
                                "can hold it")
        if roem is not None:
            if isinstance(roem, bool) or int(roem) != roem or not 0 <= roem <= MAX_ROEM:
                raise RulesError(f"roem must be an integer 0..{MAX_ROEM} (the most 6 cards "
                                 f"can meld), got {roem!r}")
            roem = int(roem)
        s.roem = roem
        s.tricks = ()
        s.leader = s.decl
        s.current = ()
        s.won = (0,) * n
        s.cpts = (0,) * n
        s.voids = (0,) * n
        s.vlog = ()
        s.played = 0
        s.played_by = (0,) * n
        s.draws = 0
        s.stock = None if stock is None else tuple(int(c) for c in stock)
        s.my_draws = tuple(my_draws)
        s.first_hand = s.hand
        if sim_known is None:
            sim_known = (s.open & ~(s.taken or 0)) if preset == PRESET_SEED else (s.open & s.discarded)
            if s.position == s.decl:
                sim_known |= s.discarded & ~s.open
        if sim_pinned is None:
            sim_pinned = (s.taken or 0) if preset == PRESET_SEED else 0
        s.sim_known, s.sim_pinned = int(sim_known), int(sim_pinned)
        s.auction = tuple((int(q), int(a)) for q, a in auction)
        return s

    @classmethod
    def from_inputs(cls, players, preset, hand, position, declarer, contract, trump=None,
                    open_cards="", taken="", history="", joiners="", drawn="", discarded="",
                    roem=None, notation="en", require_turn=True, auction=None):
        """From the CLI-style inputs (``hand``: the cards held now; ``auction``: the
        ``--auction`` notation of :func:`parse_auction`, or None); raises
        :class:`RulesError` / :class:`CardError` with a one-line message."""
        rules = build_rules(4 if players is None else players, "seed" if preset is None else preset)
        n = rules.players
        position, declarer = _positions_of(n, position, declarer)
        con = parse_contract(contract)
        if isinstance(trump, str):
            t = trump.strip().lower()
            tr = None if t in ("none", "-", "") else ("first" if t == "first" else parse_suit(trump, notation))
        else:
            tr = trump
        codes = parse_cards(hand, notation, deck=32) if isinstance(hand, str) else [int(c) for c in hand]
        if not codes:
            raise CardError("--hand is empty")
        if len(set(codes)) != len(codes):
            raise CardError("--hand lists a card twice")
        tricks = parse_tricks(history, n, notation, deck=32)
        # my own cards in the history (winners need only trump)
        ftrump = -1 if tr in (None, "first") else tr
        if tr == "first" and tricks and tricks[0]:
            ftrump = tricks[0][0] >> 4
        leader, mine = declarer, []
        for tt in tricks:
            mine += [c for j, c in enumerate(tt) if (leader + j) % n == position]
            if len(tt) == n:
                wj, _ = pq.trick_result_nb(np.array(tt + [0] * (5 - n), dtype=np.int64), n, ftrump)
                leader = (leader + int(wj)) % n
        check_own_cards(codes, mine, position, notation)
        dr = parse_cards(drawn, notation, deck=32) if isinstance(drawn, str) else [int(c) for c in (drawn or ())]
        if len(set(dr)) != len(dr):
            raise CardError("--drawn lists a card twice")
        for c in dr:
            if c not in codes and c not in mine:
                raise CardError(f"--drawn: {card_str(c, notation)} is neither in the hand nor "
                                "played by me")
        start = [c for c in codes + mine if c not in dr]
        if len(start) != 6:
            hint = (" (seed preset: list the cards you drew with --drawn)"
                    if len(start) > 6 and rules.preset_id == PRESET_SEED else "")
            raise RulesError(f"hand of the wrong size: {len(codes)} cards held, {len(mine)} "
                             f"played and {len(dr)} drawn make {len(start)} at the start of "
                             f"play, not 6{hint}")
        joined = _positions(joiners, n, "joiners")
        auc = ()
        if auction is not None and not (isinstance(auction, str) and not auction.strip()):
            auc = check_auction(auction, n, declarer, con[0], con[1], joined)
        s = cls.initial(rules, position, start, declarer, con, tr, open_cards, taken, discarded,
                        joined, roem, None, dr, notation=notation, auction=auc)
        s = replay(s, tricks, position, notation, require_turn, "deal")
        if s.draws < len(dr):
            raise RulesError(f"--drawn lists {len(dr)} cards but only {s.draws} draws have "
                             "happened")
        return s

    @property
    def is_terminal(self):
        return self.t >= self.n_tricks

    def _tc(self):
        a = np.zeros(5, dtype=np.int64)
        a[:len(self.current)] = self.current
        return a

    def held_count(self, q):
        """How many cards position ``q`` holds now."""
        return 6 + self.draws - bin(self.played_by[q]).count("1")

    def active_forbid(self, q):
        """Cards ``q`` surely does not hold now (voids shown with no draw since; table
        cards only the declarer can hold)."""
        f = 0
        for p, t, m in self.vlog:
            if p == q and t >= self.draws:
                f |= m
        return f

    def public_out(self):
        """Cards every player knows are out of play (the seed preset's untaken face-up cards)."""
        return self.open & ~self.taken if self.preset == PRESET_SEED else 0

    def unseen_mask(self):
        return FULL & ~(self.hand | self.played | self.public_out() | self.discarded)

    def _cannot_hold(self, q):
        """Cards position ``q`` (not me) cannot hold as far as I know."""
        m = self.active_forbid(q)
        if q != self.decl:
            m |= self.open
        return m

    def _own_legal_mask(self):
        return int(pq.legal_here_nb(np.int64(self.hand), self._tc(), len(self.current),
                                    self.trump, self.preset))

    def _illegal_why(self, cs):
        duty = "trump in" if self.preset != PRESET_LEIMUIDEN else "trump duties"
        return f"may not play {cs} here (follow suit; {duty} when void)"

    def apply(self, card, notation="en"):
        """A new state with ``card`` played by :attr:`to_move` (validated)."""
        card, cs, p = self._card_to_play(card, notation)
        bit = 1 << card
        tn = len(self.current)
        trump = self.trump
        if self.t == 0 and tn == 0 and not self.named:
            trump = card >> 4
        led, winner, wj, hi, _ = pq.trick_state_nb(self._tc(), tn, trump)
        if p != self.position:
            if self.discarded & bit:
                raise CardError(f"{cs} was discarded by the declarer")
            if self.public_out() & bit:
                raise CardError(f"{cs} lies face up out of play")
            if p != self.decl and self.open & bit:
                raise CardError(f"{cs} is a table card; only the declarer (position "
                                f"{self.decl}) can play it")
            holds = self.taken & ~self.played & ~bit if (self.taken and p == self.decl) else 0
            if revealed(card, led, trump, hi, self.preset) & holds:
                c = _bits(revealed(card, led, trump, hi, self.preset) & holds)[0]
                raise RulesError(f"position {p} holds {card_str(c, notation)} (taken from the "
                                 f"table), so it may not play {cs} here")
            f = self.active_forbid(p)
            if f & bit:
                suit = card >> 4
                shown = any(q == p and t >= self.draws and m & SUIT[suit] == SUIT[suit] & FULL
                            for q, t, m in self.vlog)
                why = (f"showed earlier it has no {SUIT_NAMES[suit]}" if shown else
                       "showed by an earlier play (trumping duties) that it does not hold it")
                raise RulesError(f"position {p} {why}, so it cannot play {cs}")
        s = self._copy()
        s.trump = trump
        record_card(s, self, p, card, led)
        if p != self.position:
            f = revealed(card, led, trump, hi, self.preset)
            if f:
                s.vlog = self.vlog + ((p, self.t, f & FULL),)
        cur = self.current + (card,)
        if len(cur) == self.n:
            a = np.zeros(5, dtype=np.int64)
            a[:len(cur)] = cur
            wj, pts = pq.trick_result_nb(a, len(cur), trump)
            w = (self.leader + int(wj)) % self.n
            cp = list(self.cpts)
            cp[w] += int(pts)
            s.cpts = tuple(cp)
            self._close_trick(s, cur, w)
            if self.preset == PRESET_SEED and 32 - self.stock_pos >= self.n:
                j = (self.position - self.leader) % self.n
                if self.stock is not None:
                    got = self.stock[self.stock_pos - self.rest_at + j]
                elif self.draws < len(self.my_draws):
                    got = self.my_draws[self.draws]
                else:
                    raise RulesError(f"--drawn: the card I drew after trick {self.t + 1} is "
                                     "needed (seed preset: one per trick while the stock lasts)")
                gb = 1 << got
                if (s.hand | s.played | self.public_out()) & gb or (
                        self.position != self.decl and self.open & gb):
                    raise CardError(f"drawn card {card_str(got, notation)} was already seen")
                s.hand |= gb
                s.draws = self.draws + 1
        else:
            s.current = cur
        return s

    # ------------------------------------------------------------------ kernels

    def sizes(self):
        return np.array([self.held_count(q) for q in range(self.n)] + [0] * (5 - self.n),
                        dtype=np.int64)

    def decl_roem_for_pimc(self):
        """The roem the engine's pimc gives the declarer (its kept cards, trump as named
        at the start of play)."""
        if self.contract != CONTRACT_POINTS or not self.named or self.trump < 0 \
                or self.position != self.decl:
            return 0
        lm = 1 if self.preset == PRESET_LEIMUIDEN else 0
        f = pq.best_meld_nb if self.preset == PRESET_SEED else pq.roem_sum_nb
        return int(f(np.int64(self.first_hand), self.trump, lm))

    def kernel_args(self):
        n = self.n
        played_at = np.full(64, -1, dtype=np.int64)
        played_pos = np.full(64, -1, dtype=np.int64)
        for t, (ld, cards, _) in enumerate(self.tricks + ((self.leader, self.current, -1),)):
            for j, c in enumerate(cards):
                played_at[c] = t
                played_pos[c] = (ld + j) % n
        nv = len(self.vlog)
        vq = np.array([x[0] for x in self.vlog] + [0], dtype=np.int64)
        vt = np.array([x[1] for x in self.vlog] + [0], dtype=np.int64)
        vf = np.array([x[2] for x in self.vlog] + [0], dtype=np.int64)

        def arr(vals, size=5):
            a = np.zeros(size, dtype=np.int64)
            a[:len(vals)] = vals
            return a
        return {"hand": np.int64(self.hand), "played": np.int64(self.played),
                "tc": self._tc(), "tn": len(self.current), "t": self.t,
                "won": arr(self.won), "cpts": arr(self.cpts), "voids": arr(self.voids),
                "played_by": arr(self.played_by), "in_mis": np.array(
                    list(self.in_mis) + [False] * (5 - n), dtype=np.bool_),
                "played_at": played_at, "played_pos": played_pos, "vq": vq, "vt": vt,
                "vf": vf, "nv": nv}

    def sampler_args(self):
        """What the hidden-card sampler needs: unseen, capacities, per-holder forbids,
        the declarer's known table cards, the pagat/leimuiden discard weighting."""
        n, me = self.n, self.position
        pinned = 0
        if self.preset == PRESET_SEED and me != self.decl:
            pinned = self.taken & ~self.played
        unseen = self.unseen_mask() & ~pinned
        cap = np.zeros(REST + 1, dtype=np.int64)
        forbid = np.zeros(n + 1, dtype=np.int64)
        for q in range(n):
            if q != me:
                cap[q] = self.held_count(q) - (bin(pinned).count("1") if q == self.decl else 0)
                forbid[q] = self._cannot_hold(q) & unseen
        cap[n] = 32 - self.stock_pos if self.preset == PRESET_SEED else 0
        cap[REST] = bin(unseen).count("1") - int(cap[:n + 1].sum())
        if cap[REST] < 0 or (cap[:n + 1] < 0).any():
            raise RulesError("the history does not fit the deal: too many cards for the hands")
        o, b = self.layout
        weigh = self.preset != PRESET_SEED and not (me == self.decl and self.discarded)
        return {"unseen": np.int64(unseen), "cap": cap, "forbid": forbid,
                "pinned": np.int64(pinned), "open_rest": np.int64(self.open if weigh else 0),
                "table_k": np.int64(o + b if weigh else -1)}

    def decide(self, policy="heuristic", seed=0, deal=0, worlds=PIMC_WORLDS):
        """The card the built-in ``policy`` plays here, exactly as the simulator would
        (``deal``: the simulator's global deal index, for random and pimc)."""
        p = self._my_turn(policy, POLICIES)
        a = self.kernel_args()
        auc = np.array(list(self.auction) or [(0, -1)], dtype=np.int64).reshape(-1, 2)
        if policy == "heuristic":
            return int(pq.decide_heuristic_nb(self.n, p, a["hand"], self.trump, a["tc"], a["tn"],
                                              a["played"], self.contract, a["in_mis"],
                                              self.leader, self.preset))
        return int(pq.decide_card_nb(POLICIES[policy], check_seed(seed), np.int64(deal), self.n,
                                     self.preset, p, a["hand"], self.sizes(), self.trump,
                                     self.named, self.t, self.leader, a["tc"], a["tn"],
                                     a["played"], np.int64(self.stock_pos),
                                     np.int64(self.sim_known),
                                     np.int64(self.sim_pinned & ~self.played), self.decl,
                                     self.contract, self.bid, self.decl_roem_for_pimc(),
                                     a["in_mis"], a["won"], a["cpts"], a["voids"].copy(),
                                     np.int64(worlds), np.int64(self.open),
                                     np.int64(self.rest_at), auc, np.int64(len(self.auction)),
                                     a["played_at"], a["played_pos"]))

    def strong_worlds(self, count, seed=0, deal=0, tau=None, eps=None):
        """The first ``count`` candidate worlds of the strong policy's decision here (as
        the simulator's deal ``deal`` of run ``seed`` draws them): ``(worlds, auction_hands,
        logw)``; ``worlds[i, q]``: position q's hand now (``worlds[i, n]``: the stock),
        ``auction_hands[i, q]``: the hand q bid with, ``logw[i]``: the auction's log
        likelihood (the bidder model of :mod:`fastsim.boonaken_strong_nb`; for tests)."""
        cand = np.zeros((count, 6), dtype=np.int64)
        ah = np.zeros((count, 5), dtype=np.int64)
        logw = np.zeros(count, dtype=np.float64)
        pq.strong_worlds_nb(*self._strong_args(seed, deal, tau, eps), np.int64(count), cand, ah,
                            logw)
        return cand, ah, logw

    def _strong_args(self, seed, deal, tau, eps):
        """The arguments :meth:`strong_worlds` and :meth:`strong_kept` pass first: this
        decision as the simulator's deal ``deal`` of run ``seed`` sees it, and the bidder
        model (default strong's)."""
        from fastsim import boonaken_strong_nb as sn
        a = self.kernel_args()
        auc = np.array(list(self.auction) or [(0, -1)], dtype=np.int64).reshape(-1, 2)
        return (check_seed(seed), np.int64(deal), self.n, self.preset, self.position,
                a["hand"], self.sizes(), self.t, a["played"], np.int64(self.stock_pos),
                np.int64(self.sim_known), np.int64(self.sim_pinned & ~self.played), self.decl,
                a["voids"].copy(), np.int64(self.open), np.int64(self.rest_at), auc,
                np.int64(len(self.auction)), a["played_at"], a["played_pos"],
                sn.AUCTION_TAU if tau is None else float(tau),
                sn.AUCTION_EPS if eps is None else float(eps))


    def strong_kept(self, worlds, seed=0, deal=0, tau=None, eps=None):
        """The worlds the strong policy's card decision here keeps (as the simulator's deal
        ``deal`` of run ``seed`` draws and resamples them, ``worlds`` of them; ``tau``,
        ``eps``: the bidder model, default strong's; ``tau = eps = 0``: the heuristic
        bidder exactly): ``(idx, candidates, auction_hands, logw, ess)``, the kept indices
        into the candidates (see :meth:`strong_worlds`) and the Kish effective sample size
        (0.0: no candidate fits, they are kept evenly). For tests and tools."""
        from fastsim import boonaken_strong_nb as sn
        m = sn.CANDIDATES * worlds
        idx = np.zeros(worlds, dtype=np.int64)
        cand = np.zeros((m, 6), dtype=np.int64)
        ah = np.zeros((m, 5), dtype=np.int64)
        logw = np.zeros(m, dtype=np.float64)
        ess = pq.strong_kept_nb(*self._strong_args(seed, deal, tau, eps), np.int64(worlds), idx,
                                cand, ah, logw)
        return idx, cand, ah, logw, float(ess)


class BoonakenDeal(Deal):
    """A full-information Boonaken deal played step by step (all hands and the stock
    order known). ``hands``: every position's hand at the start of play (the declarer's
    after the exchange); ``stock``: the stock in deal order (seed preset);
    ``kept_table``: the table cards the declarer kept (what the simulator's pimc is told);
    ``discarded``: the declarer's discards from its dealt hand; ``auction``: as
    :meth:`BoonakenInfoState.initial`."""
    game = GAME
    __slots__ = ()

    def __init__(self, rules, hands, declarer, contract, trump, open_cards, stock=(),
                 taken=None, discarded=0, joiners=(), roem=None, kept_table=None, blind=0,
                 notation="en", auction=()):
        from .infostate import dealt_masks
        masks = dealt_masks(hands, rules.players, notation, deck=32)
        self.rules = rules
        self.dealt = tuple(masks)
        open_m = _mask(open_cards, notation)
        disc = _mask(discarded, notation)
        kt = _mask(kept_table, notation) if kept_table is not None else None
        blind_m = _mask(blind, notation)
        states = []
        for p in range(rules.players):
            known = pinned = None
            if kt is not None:       # what the simulator's pimc is told
                known = (open_m & ~kt) | ((disc & ~blind_m & ~open_m) if p == declarer else 0)
                pinned = kt
            states.append(BoonakenInfoState.initial(
                rules, p, masks[p], declarer, contract, trump, open_m,
                taken if rules.preset_id == PRESET_SEED else None,
                disc if p == declarer else 0, joiners, roem,
                list(_bits_order(stock, notation)), (), known, pinned, notation, auction))
        self.states = tuple(states)

    def apply(self, action, notation="en"):
        """As :meth:`Deal.apply`; in the seed preset the declarer's standing meld becomes
        public once the first trick is over (every player knows ``roem`` from then on)."""
        d = super().apply(action, notation)
        s = d.states[0]
        if s.t == 1 and self.states[0].t == 0 and s.preset == PRESET_SEED \
                and s.contract == CONTRACT_POINTS and s.roem is None:
            roem = self.standing_roem()
            d.states = tuple(_with_roem(st, roem) for st in d.states)
        return d

    def standing_roem(self):
        """The declarer's counted roem (seed: its best meld unless another player shows a
        strictly higher one; pagat/leimuiden: every combination of its kept cards)."""
        s = self.states[0]
        if s.contract != CONTRACT_POINTS or s.trump < 0:
            return 0
        lm = 1 if s.preset == PRESET_LEIMUIDEN else 0
        first = [st.first_hand for st in self.states]
        if s.preset != PRESET_SEED:
            return int(pq.roem_sum_nb(np.int64(first[s.decl]), s.trump, lm))
        mine = int(pq.best_meld_nb(np.int64(first[s.decl]), s.trump, lm))
        return mine if all(int(pq.best_meld_nb(np.int64(first[q]), s.trump, lm)) <= mine
                           for q in range(s.n) if q != s.decl) else 0

    def scores(self):
        """Per position: +1 made, −1 failed, 0 for players without a contract."""
        s = self.states[0]
        if not s.is_terminal:
            raise RulesError("the deal is not over yet")
        n = s.n
        out = [0] * n
        if s.contract == CONTRACT_POINTS:
            out[s.decl] = 1 if s.cpts[s.decl] + self.standing_roem() >= s.bid else -1
        elif s.contract == CONTRACT_MISERE:
            for q in range(n):
                if s.in_mis[q]:
                    out[q] = 1 if s.won[q] == 0 else -1
        else:
            out[s.decl] = 1 if s.won[s.decl] == s.t else -1
        return out


def _with_roem(state, roem):
    s = copy_state(state)
    s.roem = roem
    return s


def _bits_order(cards, notation):
    if isinstance(cards, str):
        return parse_cards(cards, notation, deck=32)
    return [parse_card(c, notation, deck=32) if isinstance(c, str) else int(c) for c in cards]


def deal_from_record(rec, notation="en"):
    """A :class:`BoonakenDeal` from one ``--record-play`` object (not a redeal)."""
    if rec.get("void"):
        raise RulesError("record: everyone passed; the deal was not played")
    n, dealer = rec["players"], rec["dealer"]
    rules = build_rules(n, rec["preset"], dealer)
    pos = lambda seat: (seat - dealer - 1) % n  # noqa: E731
    decl = pos(rec["declarer"])
    taken = mask_of(parse_cards(rec["exchange"]["taken"], notation, deck=32))
    disc = mask_of(parse_cards(rec["exchange"]["discarded"], notation, deck=32))
    table = mask_of(parse_cards(rec["table"]["open"] + rec["table"]["blind"], notation, deck=32))
    if rec["preset"] != "seed":      # every table card not kept was put away too
        disc |= table & ~taken
    hands = []
    for p in range(n):
        m = mask_of(parse_cards(rec["hands"][(dealer + 1 + p) % n], notation, deck=32))
        if p == decl:
            m = (m & ~disc) | taken
        hands.append(m)
    contract = rec["contract"] if rec["contract"] != "points" else rec["bid"]
    if rec["trump"] is None:
        trump = None
    elif not rec["trump_named"]:
        trump = "first"
    else:
        trump = SUITS.index(rec["trump"])
    joiners = [pos(s) for s in rec["misere_players"][1:]] if rec["contract"] == "misere" else []
    auction = [(pos(seat), -1 if a == "pass" else LADDER.index(a))
               for seat, a in rec.get("auction", ())]
    return BoonakenDeal(rules, hands, decl, contract, trump, rec["table"]["open"],
                        rec["table"]["stock"], taken, disc, joiners, None, taken,
                        rec["table"]["blind"], notation, auction)


def positions_from_record(rec, notation="en"):
    """Yield ``(info_state, card_played)`` for every card of a recorded deal."""
    yield from deal_from_record(rec, notation).replay_record(rec, notation)


def _auction_args(state, policy="heuristic", tau=None, eps=None):
    """What the kernels' auction weighting reads: ``(auc, nauc, tau, eps)``; ``nauc = 0``
    (nothing weighed) without an auction or under the random policy (random bidders)."""
    use = bool(state.auction) and policy != "random"
    auc = np.array(list(state.auction) if use else [(0, -1)], dtype=np.int64).reshape(-1, 2)
    return (auc, np.int64(len(state.auction) if use else 0),
            float(AUCTION_TAU if tau is None else tau),
            float(AUCTION_EPS if eps is None else eps))


def sample_worlds(state, count, seed=0, start=0, policy="heuristic", tau=None, eps=None,
                  auction_hands=False):
    """The hidden cards the play query samples: ``(worlds, logw)``; ``worlds[i, q]`` is
    the mask position q holds now, ``worlds[i, n]`` the stock (seed preset); ``logw``
    includes the auction's log likelihood when the state carries an auction (``tau``,
    ``eps``: the bidder model, default strong's). ``auction_hands``: also return the hands
    each position bid with in each world (zeros without an auction)."""
    a, s = state.kernel_args(), state.sampler_args()
    n = state.n
    auc, nauc, tau, eps = _auction_args(state, policy, tau, eps)
    out_w = np.zeros((count, n + 1), dtype=np.int64)
    out_l = np.zeros(count, dtype=np.float64)
    out_a = np.zeros((count, 5), dtype=np.int64)
    pq.sample_worlds_nb(check_seed(seed), n, state.position, a["hand"], s["unseen"], s["cap"],
                        s["forbid"], s["pinned"], state.decl, s["open_rest"], s["table_k"],
                        a["played_at"], a["played_pos"], a["vq"], a["vt"], a["vf"], a["nv"],
                        state.draws, np.int64(start), np.int64(count), out_w, out_l,
                        state.preset, np.int64(state.open), np.int64(state.stock_pos),
                        np.int64(state.rest_at), a["played_by"], auc, nauc, tau, eps, out_a)
    return (out_w, out_l, out_a) if auction_hands else (out_w, out_l)


def _determined(state, policy, s):
    cap = s["cap"]
    n, me = state.n, state.position
    if all(cap[q] == 0 for q in range(n) if q != me):
        return True
    if policy != "heuristic":
        return False
    if cap[n] >= 2 and cap[n] >= n:
        return False
    holders = [q for q in range(n + 1) if q != me and cap[q] > 0] + ([REST] if cap[REST] > 0 else [])
    x = int(s["unseen"])
    for c in _bits(x):
        if sum(1 for q in holders if q == REST or q == n or not s["forbid"][q] >> c & 1) > 1:
            return False
    return True


def _roem_mode(state):
    """(mode, given value, note) of the declarer's roem in a point contract."""
    if state.contract != CONTRACT_POINTS:
        return ROEM_GIVEN, 0, None
    if state.roem is not None:
        return ROEM_GIVEN, state.roem, None
    if state.preset != PRESET_SEED:
        return ROEM_SUM, 0, None
    if state.draws == 0:
        return ROEM_MELD, 0, None
    return ROEM_GIVEN, 0, ("the declarer's roem is taken as 0: give --roem (the meld that "
                              "stood at the first trick)")


def play_query(players=4, preset="seed", hand=None, position=None, declarer=None, contract=None,
               trump=None, open_cards="", taken="", history="", joiners="", drawn="",
               discarded="", roem=None, samples=None, policy="heuristic",
               worlds=PIMC_WORLDS, seed=0, threads=None, notation="en", state=None,
               auction=None, auction_tau=None, auction_eps=None):
    """Score every legal card of the player to move; a JSON-able dict shaped like the
    other games' play queries (``value`` = expected mark, see the module doc).
    ``auction``: the bidding (:func:`parse_auction`; a ``state`` carries its own): every
    sampled world is then weighted by its likelihood under the soft heuristic bidder
    (``auction_tau``/``auction_eps``: its scale and floor, default the strong policy's)."""
    samples, seed_u = play_args(samples, policy, POLICIES, DEFAULT_SAMPLES, worlds, seed)
    state, cards = query_state(state, lambda: BoonakenInfoState.from_inputs(
        players, preset, hand, position, declarer, contract, trump, open_cards, taken, history,
        joiners, drawn, discarded, roem, notation, auction=auction))
    n = state.n
    K = len(cards)
    k = query_kernels(pq, threads, K * samples, policy)
    a, sa = state.kernel_args(), state.sampler_args()
    mode, given, note = _roem_mode(state)
    lw = np.empty(samples, dtype=np.float64)
    made = np.zeros((samples, K), dtype=np.bool_)
    pts = np.zeros((samples, K), dtype=np.int16)
    val = np.zeros((samples, K), dtype=np.int8)
    known_pub = state.public_out()
    decl_known = state.discarded
    auc, nauc, tau, eps = _auction_args(state, policy, auction_tau, auction_eps)
    kernel = k.play_query_nb if policy == "heuristic" else k.play_query_policy_nb
    # in slices, for the progress bar (every world is drawn from its own key)
    sliced(samples, "world", lambda z: kernel(
        seed_u, n, state.preset, state.position, a["hand"], cards, state.trump,
        state.named, state.t, state.leader, a["tc"], a["tn"], a["played"], a["played_by"],
        np.int64(state.stock_pos), sa["unseen"], sa["cap"], sa["forbid"], sa["pinned"],
        state.decl, sa["open_rest"], sa["table_k"], a["played_at"], a["played_pos"],
        a["vq"], a["vt"], a["vf"], a["nv"], state.draws, state.contract, state.bid, mode,
        given, a["in_mis"], a["won"], a["cpts"], a["voids"], np.int64(known_pub),
        np.int64(decl_known), POLICIES[policy], np.int64(worlds), np.int64(z.start),
        np.int64(z.stop - z.start), np.int64(CHUNK), lw[z], made[z], pts[z], val[z],
        np.int64(state.open), np.int64(state.rest_at), auc, nauc, tau, eps),
        desc="worlds played")
    ok = np.isfinite(lw)
    if not ok.any():
        raise RulesError("no deal of the unseen cards is consistent with the history"
                         + (" and the auction under the bidder model" if nauc else ""))
    w = np.exp(np.round(lw[ok] - lw[ok].max(), 9))
    made, pts, val = (x[ok].astype(np.float64) for x in (made, pts, val))
    exact = _determined(state, policy, sa)
    # exact: every world gives the same outcome, so its weight (the auction's) cannot
    # matter; equal weights keep the value free of rounding
    ws = np.ones_like(w) if exact else w
    out_cards = []
    for k in range(K):
        v = weighted_summary(val[:, k], ws, made[:, k] > 0, exact=exact)
        sc = weighted_summary(pts[:, k], ws, exact=exact)
        out_cards.append({"card": card_str(cards[k], notation), "value": v["mean"],
                          "value_ci": v["mean_ci"], "p_make": v["p"], "p_make_ci": v["p_ci"],
                          "expected_score": sc["mean"], "expected_score_ci": sc["mean_ci"]})
    choice = card_str(state.decide(policy=policy, seed=seed, worlds=worlds), notation)
    best = recommended(out_cards, choice)
    out = {
        "game": GAME,
        "players": n,
        "preset": state.rules.preset,
        "position": state.position,
        "to_move": state.to_move,
        "declarer": state.decl,
        "contract": CONTRACTS[state.contract],
        "bid": state.bid if state.contract == CONTRACT_POINTS else None,
        "misere_players": [q for q in range(n) if state.in_mis[q]],
        "trump": SUITS[state.trump] if state.trump >= 0 else None,
        "hand": [card_str(c, notation) for c in state.hand_cards],
        "history": state.history_str(notation),
        "trick": [card_str(c, notation) for c in state.current],
        "tricks_won": list(state.won),
        "card_points_so_far": list(state.cpts),
        "recommended": best["card"],
        "policy_choice": choice,
        "cards": out_cards,
        "value_is": "expected mark: +1 when my contract is made / the others' fail, -1 otherwise",
        "score_is": "the declarer's points: card points, plus the counted roem in a point contract",
        "exact": exact,
        "samples": int(ok.sum()),
        "effective_samples": float(ess(w)),
        "worlds_drawn": int(samples),
        "policy": policy,
        "pimc_worlds": int(worlds),
        "seed": seed,
        "variants": {},
        "auction": auction_str(state.auction) if state.auction else None,
        "auction_model": auction_model(tau, eps) if nauc else None,
    }
    if not state.auction:
        what = "auction not given: worlds not weighed by it"
    elif not nauc:
        what = "random bidders: the auction says nothing about the hands"
    else:
        what = f"the auction weighed by the {out['auction_model']}"
    out["note"] = f"{note}; {what}" if note else what
    return finish_play(out, w, val)
