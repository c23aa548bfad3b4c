"""Slow, obvious reference engine for Boonaken (presets `seed`, `pagat`, `leimuiden`).

This module follows docs/boonaken.md (and docs/rules.md §4) to the letter and
uses only the Python standard library plus the plain helpers of tests/naive_common.py
(card codes, the counter-based random numbers, the shuffle, the trick winner and the
trick loop). Cards are plain strings such as "JH" (jack of hearts) or "TD" (ten of
diamonds); hands are lists of such strings. A trump is a suit letter "S", "H", "D", "C",
or None (no trump: every suit plain). Nothing here is meant to be fast: it is meant to be
easy to check by reading, so that the compiled engine (fastsim/boonaken_nb.py) can be
compared with it card by card.

Record of `play_deal` (per-seat lists have one entry per seat of the table):
    players, preset, dealer, hands (as dealt, sorted by card code), table {open, blind,
    stock, sleeping} (deal order), trump_card (None), bids (None), auction ([seat, action]:
    "pass", a point value, "misere" (a bid or a join), "zwabber", "boonaak"), void; and,
    None in a void deal: contract, bid (point value or None), declarer, misere_players (in
    bidding order), exchange {taken: table cards kept, discarded: dealt hand cards not
    kept} (the net exchange, sorted), trump, trump_named (False exactly when the declarer
    named "none"), roem (counted; 0 unless a point contract), tricks [{leader, cards,
    winner}], draws (seed: one list per trick; [] otherwise), tricks_won, card_points,
    results ([seat, made]), scores (+1 / -1 / 0).

Readings of docs/boonaken.md where the text leaves room are marked "READING:" below.
"""

import naive_common as nc
# DECK_CODES, DECK: the 32-card deck in deck order (spades 7..A, hearts 7..A, diamonds,
# clubs), as codes and as card strings; rank_of: the rank character ("J", "9", ...).
from naive_common import DECK32 as DECK, DECK32_CODES as DECK_CODES
from naive_common import below, card_code, card_str, deal_key, sort_cards, suit_of
from naive_common import rank_char as rank_of

SUITS = "SHDC"  # suit index 0 .. 3
PRESETS = ("seed", "pagat", "leimuiden")
POLICIES = ("random", "heuristic")

# ---------------------------------------------------------------------------
# The bid ladder
# ---------------------------------------------------------------------------

LADDER = []
for _v in range(25, 101, 5):
    LADDER.append(_v)
LADDER.append("misere")
for _v in range(105, 126, 5):
    LADDER.append(_v)
LADDER.append("zwabber")
for _v in range(130, 381, 5):
    LADDER.append(_v)
LADDER.append("boonaak")
del _v

MISERE = 16
ZWABBER = 22
BOONAAK = 74
assert len(LADDER) == 75
assert LADDER[MISERE] == "misere" and LADDER[ZWABBER] == "zwabber"
assert LADDER[BOONAAK] == "boonaak"


def is_point_level(level):
    return level not in (MISERE, ZWABBER, BOONAAK)


# ---------------------------------------------------------------------------
# Orders and points
# ---------------------------------------------------------------------------

TRUMP_ORDER = ["7", "8", "T", "Q", "K", "A", "9", "J"]  # low to high
PLAIN_ORDER = ["7", "8", "9", "T", "J", "Q", "K", "A"]  # low to high (natural order)
NATURAL_ORDER = ["7", "8", "9", "T", "J", "Q", "K", "A"]  # for runs, in every suit

TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 3, "Q": 2, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 3, "Q": 2, "J": 1, "9": 0, "8": 0, "7": 0}


ORDERS = nc.SuitOrders(TRUMP_ORDER, PLAIN_ORDER, TRUMP_POINTS, PLAIN_POINTS)
is_trump = nc.is_trump  # trump: a suit letter, or None (every suit plain)
# card_points(card, trump): card points of a card under the trump (None: every suit plain).
card_points = ORDERS.card_points
# strength(card, trump): place in its suit's order from the bottom (0 .. 7), plus 8 for a
# trump.
strength = ORDERS.strength
# trick_winner(cards, trump): index into cards (play order) of the winner: strongest trump,
# else strongest of the suit led.
trick_winner = ORDERS.trick_winner


def low(cards, trump):
    """The card of lowest strength; ties to the lowest card code."""
    return nc.first_by(cards, lambda c: (strength(c, trump), card_code(c)))


def high(cards, trump):
    """The card of highest strength; ties to the lowest card code."""
    return nc.first_by(cards, lambda c: (-strength(c, trump), card_code(c)))


# ---------------------------------------------------------------------------
# Roem
# ---------------------------------------------------------------------------

FOUR_POINTS = {"J": 200, "Q": 100, "K": 100, "A": 100, "T": 0, "9": 0, "8": 0, "7": 0}
STUK_POINTS = 20


def runs(cards):
    """The maximal runs (lists of cards, natural order ascending) of length >= 3.

    Suits in index order S, H, D, C; within a suit the runs from low to high.
    """
    result = []
    for s in SUITS:
        current = []
        for r in NATURAL_ORDER:
            card = r + s
            if card in cards:
                current.append(card)
            else:
                if len(current) >= 3:
                    result.append(current)
                current = []
        if len(current) >= 3:
            result.append(current)
    return result


def run_points(length, preset):
    """3: 20, 4: 50, 5: 100, 6: 200 (leimuiden 100).

    READING: runs longer than 6 cards never occur in the engine (roem is only ever taken
    of 6 cards); here they are worth the 6-card value.
    """
    if length < 3:
        return 0
    if length == 3:
        return 20
    if length == 4:
        return 50
    if length == 5:
        return 100
    if preset == "leimuiden":
        return 100
    return 200


def has_stuk(cards, trump):
    return trump is not None and ("K" + trump) in cards and ("Q" + trump) in cards


def fours(cards):
    """The values of the four-of-a-kinds held (only those worth points)."""
    values = []
    for r in NATURAL_ORDER:
        if all((r + s) in cards for s in SUITS) and FOUR_POINTS[r] > 0:
            values.append(FOUR_POINTS[r])
    return values


def roem_sum(cards, trump, preset):
    """All runs + all four-of-a-kinds + the stuk."""
    total = 0
    for run in runs(cards):
        total += run_points(len(run), preset)
    for v in fours(cards):
        total += v
    if has_stuk(cards, trump):
        total += STUK_POINTS
    return total


def best_meld(cards, trump, preset):
    """The largest single meld: a maximal run (+20 when it holds the trump K and Q), a four
    of a kind, or a lone stuk (20). 0 when there is none."""
    best = 0
    for run in runs(cards):
        v = run_points(len(run), preset)
        if trump is not None and ("K" + trump) in run and ("Q" + trump) in run:
            v += STUK_POINTS
        best = max(best, v)
    for v in fours(cards):
        best = max(best, v)
    if has_stuk(cards, trump):
        # a lone stuk; when K and Q are in one run that run's meld is larger anyway
        best = max(best, STUK_POINTS)
    return best


def counted_roem(cards, trump, preset):
    """`best_meld` in `seed`, `roem_sum` otherwise (the heuristic's hand value)."""
    if preset == "seed":
        return best_meld(cards, trump, preset)
    return roem_sum(cards, trump, preset)


# ---------------------------------------------------------------------------
# Play obligations
# ---------------------------------------------------------------------------


def legal_cards(hand, trick, trump, preset):
    """Legal cards of the hand, sorted by card code.

    trick: the card strings played to this trick so far (play order).
    """
    hand = sort_cards(hand)
    if not trick:
        return hand
    led = suit_of(trick[0])
    same = [c for c in hand if suit_of(c) == led]
    if trump is None:  # no-trump contracts: follow suit if able, else any card
        if same:
            return same
        return hand
    trumps = [c for c in hand if is_trump(c, trump)]
    if preset in ("seed", "pagat"):
        if same:
            return same
        if trumps:
            return trumps
        return hand
    # leimuiden
    holding_trump = any(c != "J" + trump for c in trumps)
    if led == trump:
        if holding_trump:
            return trumps  # the jack included; no duty to overtrump
        return hand
    if same:
        legal = sort_cards(same + trumps)  # follow, or trump in
    else:
        legal = hand
    trick_trumps = [c for c in trick if is_trump(c, trump)]
    if trick_trumps:
        hi = max(strength(c, trump) for c in trick_trumps)
        reduced = [c for c in legal if not (is_trump(c, trump) and strength(c, trump) < hi)]
        if reduced:
            legal = reduced
    return legal


# ---------------------------------------------------------------------------
# Heuristic evaluation
# ---------------------------------------------------------------------------


def win_bonus(card, trump, n):
    """4 * (n - 1) for each trump J, 9, A and each plain A."""
    if is_trump(card, trump):
        if rank_of(card) in ("J", "9", "A"):
            return 4 * (n - 1)
        return 0
    if rank_of(card) == "A":
        return 4 * (n - 1)
    return 0


def hand_value(cards, trump, n, preset):
    """V(cards, t): points + win bonuses + roem (best_meld in seed, roem_sum otherwise)."""
    total = 0
    for c in cards:
        total += card_points(c, trump) + win_bonus(c, trump, n)
    return total + counted_roem(cards, trump, preset)


def best_six(holding, trump, n):
    """The 6 cards with the largest points + bonus; ties to the higher strength, then
    the lower card code."""
    ordered = sorted(holding, key=lambda c: (-(card_points(c, trump) + win_bonus(c, trump, n)),
                                              -strength(c, trump), card_code(c)))
    return sort_cards(ordered[:6])


def suit_values(holding, n, preset):
    """E(t) for t in S, H, D, C (in suit index order)."""
    return [hand_value(best_six(holding, t, n), t, n, preset) for t in SUITS]


def wants_boonaak(hand):
    for s in SUITS:
        if ("J" + s) in hand and ("9" + s) in hand and ("A" + s) in hand:
            others = [c for c in hand if c not in ("J" + s, "9" + s, "A" + s)]
            if all(suit_of(c) == s or rank_of(c) == "A" for c in others):
                return True
    return False


def wants_zwabber(hand):
    for c in hand:
        if rank_of(c) == "A":
            continue
        for r in PLAIN_ORDER[PLAIN_ORDER.index(rank_of(c)) + 1:]:
            if (r + suit_of(c)) not in hand:
                return False
    return True


def wants_misere(hand):
    nines = 0
    for c in hand:
        if rank_of(c) not in ("7", "8", "9"):
            return False
        if rank_of(c) == "9":
            nines += 1
    return nines <= 1


def heuristic_auction_action(hand, open_cards, standing, has_bid_misere, n, preset):
    """The heuristic's auction action: a ladder level (a join is MISERE) or None (pass).

    standing: the standing level, -1 when there is none.
    """
    if standing < BOONAAK and wants_boonaak(hand):
        return BOONAAK
    if standing < ZWABBER and wants_zwabber(hand):
        return ZWABBER
    misere_allowed = standing < MISERE or (standing == MISERE and not has_bid_misere)
    if misere_allowed and wants_misere(hand):
        return MISERE
    E = max(suit_values(list(hand) + list(open_cards), n, preset))
    for level in range(standing + 1, len(LADDER)):
        if is_point_level(level):
            if LADDER[level] <= E * 4 // 5:
                return level
            return None  # only the lowest point level above the standing one is considered
    return None


def random_auction_action(dkey, k, standing, has_bid_misere):
    """The random policy's auction action at turn k: a ladder level or None (pass)."""
    if below(dkey, 64 + k, 2) == 0:
        return None
    actions = []
    if standing == MISERE and not has_bid_misere:
        actions.append(MISERE)  # the join
    for level in range(standing + 1, len(LADDER)):
        actions.append(level)
    if not actions:
        return None
    return actions[below(dkey, 2000 + k, len(actions))]


def heuristic_card(hand, legal, trick, trump, played, avoid, n, feed=None):
    """The heuristic's card. played: every card played this deal so far (this trick's
    cards included); avoid: I am a misère player; feed: I defend against a misère —
    "winning" (a misère player wins the trick so far), "after" (one plays after me) or
    "done" (neither): the defenders try to hand the misère players a trick."""
    def beats(c):
        return trick_winner(list(trick) + [c], trump) == len(trick)

    if feed is not None:
        if not trick:
            return low(legal, trump)            # lead low
        not_beating = [c for c in legal if not beats(c)]
        if feed == "winning":                   # let him keep it, unloading high cards
            return high(not_beating or legal, trump)
        if feed == "after":                     # keep the card he must beat low
            return high(not_beating, trump) if not_beating else low(legal, trump)
        return high(legal, trump)               # lost for him: unload the highest

    if avoid:
        if not trick:
            return low(hand, trump)
        not_beating = [c for c in legal if not beats(c)]
        if not_beating:
            return high(not_beating, trump)
        if len(trick) == n - 1:
            return high(legal, trump)
        return low(legal, trump)

    def most_points(cards):
        return sorted(cards, key=lambda c: (-card_points(c, trump), strength(c, trump),
                                            card_code(c)))[0]

    def fewest_points(cards):
        return sorted(cards, key=lambda c: (card_points(c, trump), strength(c, trump),
                                            card_code(c)))[0]

    if not trick:
        unseen = [c for c in DECK if c not in hand and c not in played]
        tops = []
        for c in hand:
            top = True
            for u in unseen:
                if suit_of(u) == suit_of(c) and strength(u, trump) > strength(c, trump):
                    top = False
            if top:
                tops.append(c)
        if tops:
            return most_points(tops)
        return fewest_points(hand)
    winning = [c for c in legal if beats(c)]
    if winning:
        return low(winning, trump)
    return fewest_points(legal)


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------


def shuffled_deck(dkey):
    """The 32-card deck order shuffled: for i in 0..30, j = i + below(dkey, i, 32 - i)."""
    return [card_str(c) for c in nc.shuffled(DECK_CODES, dkey, 31)]


def deal_layout(deck, n, preset):
    """(hands by position, table) from a shuffled deck (card strings)."""
    by_position = [deck[6 * p:6 * p + 6] for p in range(n)]
    m = 6 * n
    table = {"open": [], "blind": [], "stock": [], "sleeping": []}
    if preset == "seed":
        table["open"] = deck[m:m + 2]
        table["stock"] = deck[m + 2:]
    elif preset == "pagat":
        if n <= 4:
            table["blind"] = deck[m:m + 2]
            table["open"] = deck[m + 2:m + 4]
            table["sleeping"] = deck[m + 4:]
        else:
            table["open"] = deck[30:32]
    else:  # leimuiden
        b = 1 if n <= 4 else 0
        table["open"] = deck[m:m + 2]
        table["blind"] = deck[m + 2:m + 2 + b]
        table["sleeping"] = deck[m + 2 + b:]
    return by_position, table


def check_args(players, policies, preset):
    if preset not in PRESETS:
        raise ValueError("unknown preset: %r" % (preset,))
    if not 2 <= players <= 5:
        raise ValueError("Boonaken needs 2..5 players")
    nc.check_policies(policies, players, POLICIES)


def run_auction(dkey, n, seats, hands, open_cards, policies, preset):
    """The auction. seats[p] is the seat at position p.

    Returns (auction, standing level or -1, holder position or None, misère positions in
    bidding order, void flag).
    """
    passed = [False] * n
    standing = -1
    holder = None
    misere = []  # positions that bid misère while misère is the standing bid
    auction = []

    def current(p):
        return p == holder or (standing == MISERE and p in misere)

    pos = 0
    k = 0
    while True:
        if all(passed):
            return auction, -1, None, [], True
        if standing >= 0 and all(passed[p] or current(p) for p in range(n)):
            return auction, standing, holder, list(misere), False
        p = None
        for step in range(n):
            q = (pos + step) % n
            if not passed[q] and not current(q):
                p = q
                break
        assert p is not None
        seat = seats[p]
        if policies[seat] == "random":
            level = random_auction_action(dkey, k, standing, p in misere)
        else:
            level = heuristic_auction_action(hands[seat], open_cards, standing, p in misere,
                                             n, preset)
        if level is None:
            passed[p] = True
            auction.append([seat, "pass"])
        elif level == MISERE and standing == MISERE:
            misere.append(p)  # a join
            auction.append([seat, "misere"])
        else:
            assert level > standing
            standing = level
            holder = p
            if level == MISERE:
                misere = [p]
            else:
                misere = []  # a bid above misère ends it
            auction.append([seat, LADDER[level]])
        pos = (p + 1) % n
        k += 1


def contract_of(level):
    if level == MISERE:
        return "misere"
    if level == ZWABBER:
        return "zwabber"
    if level == BOONAAK:
        return "boonaak"
    return "points"


def do_exchange(dkey, policy, hand, table, contract, lone_misere, n, preset):
    """The declarer's exchange and trump. Returns (kept 6 cards, taken, discarded, trump
    choice) where the trump choice is a suit letter, "none" (name none) or None (no trump).
    taken: the table cards kept; discarded: the dealt hand cards not kept (both sorted)."""
    hand = list(hand)
    original = list(hand)
    names_trump = contract in ("points", "boonaak") or (contract == "misere" and lone_misere
                                                        and preset == "leimuiden")
    if preset == "seed":
        table_cards = list(table["open"])
    else:
        table_cards = list(table["open"]) + list(table["blind"])
    choice = None
    if policy == "random":
        if preset == "seed":
            for i in range(len(table_cards)):
                if below(dkey, 1100 + 2 * i, 2) == 1:
                    # READING: "the hand" is the current 6-card hand (at step 1 it may hold
                    # the open card taken at step 0, which may then be put down again)
                    ordered = sort_cards(hand)
                    d = ordered[below(dkey, 1101 + 2 * i, 6)]
                    hand.remove(d)
                    hand.append(table_cards[i])
        else:
            holding = hand + table_cards
            for i in range(len(table_cards)):
                # READING: size = the current holding (6 + k - i cards)
                ordered = sort_cards(holding)
                d = ordered[below(dkey, 1100 + i, len(ordered))]
                holding.remove(d)
            hand = holding
        if names_trump:
            if contract == "misere":
                choice = SUITS[below(dkey, 1120, 4)]
            else:
                x = below(dkey, 1120, 5)
                choice = SUITS[x] if x < 4 else "none"
    else:
        holding = hand + table_cards
        if contract in ("points", "boonaak"):
            values = suit_values(holding, n, preset)
            t_best = 0
            for t in range(4):
                if values[t] > values[t_best]:
                    t_best = t
            choice = SUITS[t_best]
            kept = best_six(holding, choice, n)
        elif contract == "misere":
            kept = sorted(holding, key=lambda c: (strength(c, None), card_code(c)))[:6]
            if names_trump:
                counts = [sum(1 for c in kept if suit_of(c) == s) for s in SUITS]
                t_best = 0
                for t in range(4):
                    if counts[t] < counts[t_best]:
                        t_best = t
                choice = SUITS[t_best]
        else:  # zwabber
            kept = sorted(holding, key=lambda c: (-strength(c, None), card_code(c)))[:6]
        hand = list(kept)
    assert len(hand) == 6
    # The record shows the net exchange: the table cards now held and the dealt hand cards
    # given up (a table card picked up and put down again appears in neither list).
    taken = [c for c in table_cards if c in hand]
    discarded = [c for c in original if c not in hand]
    assert len(taken) == len(discarded)
    return sort_cards(hand), sort_cards(taken), sort_cards(discarded), choice


def play_deal(seed, deal_index, players, dealer, policies, *, preset="seed", active=None):
    """Play one deal; returns the record described in the module docstring.

    players: the number of seats; policies: one name per seat. active (an extension for
    leimuiden matches): the seats taking part, default all; positions are then counted
    among them (position p = the p-th active seat after the dealer), the deal uses the
    table row for len(active) players, and per-seat lists keep one entry per seat (empty
    hand / 0 for seats that sit out).
    """
    check_args(players, policies, preset)
    if active is None:
        active = list(range(players))
    active = sorted(active)
    n = len(active)
    if not 2 <= n <= players:
        raise ValueError("need 2 or more active players")
    if dealer not in active:
        raise ValueError("the dealer must be an active seat")
    d_idx = active.index(dealer)
    seats = [active[(d_idx + 1 + p) % n] for p in range(n)]  # seat at position p
    position = {seats[p]: p for p in range(n)}

    dkey = deal_key(seed, deal_index)
    deck = shuffled_deck(dkey)
    by_position, table = deal_layout(deck, n, preset)
    hands = [[] for _ in range(players)]
    for p in range(n):
        hands[seats[p]] = sort_cards(by_position[p])

    auction, level, holder, misere_pos, void = run_auction(
        dkey, n, seats, hands, table["open"], policies, preset)

    record = {
        "players": players,
        "preset": preset,
        "dealer": dealer,
        "hands": hands,
        "table": {"open": list(table["open"]), "blind": list(table["blind"]),
                  "stock": list(table["stock"]), "sleeping": list(table["sleeping"])},
        "trump_card": None,
        "bids": None,
        "auction": auction,
        "void": void,
        "contract": None,
        "bid": None,
        "declarer": None,
        "misere_players": None,
        "exchange": None,
        "trump": None,
        "trump_named": None,
        "roem": None,
        "tricks": None,
        "draws": None,
        "tricks_won": None,
        "card_points": None,
        "results": None,
        "scores": None,
    }
    if void:
        return record

    contract = contract_of(level)
    declarer = seats[holder]
    misere_players = [seats[p] for p in misere_pos] if contract == "misere" else []
    if contract == "misere":
        assert misere_players[0] == declarer
    lone_misere = contract == "misere" and len(misere_players) == 1

    kept, taken, discarded, choice = do_exchange(
        dkey, policies[declarer], hands[declarer], table, contract, lone_misere, n, preset)

    in_hand = [list(h) for h in hands]
    in_hand[declarer] = list(kept)
    # READING: trump_named is False exactly when the declarer named "none"; it is True
    # otherwise, also in the no-trump contracts (misère, zwabber), where trump is None.
    if choice is None:
        trump = None
        trump_named = True
        pending = False
    elif choice == "none":
        trump = None  # decided by the declarer's first card
        trump_named = False
        pending = True
    else:
        trump = choice
        trump_named = True
        pending = False

    hands_at_first_trick = [list(h) for h in in_hand]
    stock = list(table["stock"]) if preset == "seed" else []
    played = []
    tricks = []
    draws = []
    tricks_won = [0] * players
    points_won = [0] * players
    leader = declarer
    t = 0
    while in_hand[leader]:
        def choose(i, seat, trick):
            nonlocal trump, pending
            if pending and trick:
                # "none": the suit of the declarer's first card (the lead of the first
                # trick) is trump from the next card on
                trump = suit_of(trick[0])
                pending = False
            legal = legal_cards(in_hand[seat], trick, trump, preset)
            if policies[seat] == "random":
                return legal, legal[below(dkey, 1200 + 8 * t + position[seat], len(legal))]
            assert not pending, "a heuristic declarer always names a suit"
            feed = None
            if misere_players and seat not in misere_players:
                if trick and seats_now[trick_winner(trick, trump)] in misere_players:
                    feed = "winning"
                elif any(s in misere_players for s in seats_now[i + 1:]):
                    feed = "after"
                else:
                    feed = "done"
            return legal, heuristic_card(in_hand[seat], legal, trick, trump, played,
                                         seat in misere_players, n, feed)

        seats_now = [active[(active.index(leader) + i) % n] for i in range(n)]
        trick, trick_record = nc.play_trick(seats_now, in_hand, played, choose)
        w = seats_now[trick_winner(trick, trump)]
        tricks_won[w] += 1
        tricks.append({"leader": leader, "cards": trick_record, "winner": w})
        if preset == "seed":
            drawn = []
            if len(stock) >= n:
                for seat, _card in trick_record:
                    c = stock.pop(0)
                    in_hand[seat].append(c)
                    drawn.append([seat, c])
            draws.append(drawn)
        leader = w
        t += 1
    for tr in tricks:
        for _seat, c in tr["cards"]:
            points_won[tr["winner"]] += card_points(c, trump)

    # Roem and results
    roem = 0
    if contract == "points":
        if preset == "seed":
            mine = best_meld(hands_at_first_trick[declarer], trump, preset)
            stands = True  # only a strictly higher meld cancels it (docs/rules.md §4): a tie stands
            for seat in active:
                if seat != declarer:
                    if best_meld(hands_at_first_trick[seat], trump, preset) > mine:
                        stands = False
            roem = mine if stands else 0
        else:
            roem = roem_sum(kept, trump, preset)
    results = []
    if contract == "points":
        results.append([declarer, points_won[declarer] + roem >= LADDER[level]])
    elif contract == "misere":
        for seat in misere_players:
            results.append([seat, tricks_won[seat] == 0])
    else:
        results.append([declarer, tricks_won[declarer] == t])
    scores = [0] * players
    for seat, made in results:
        scores[seat] = 1 if made else -1

    record.update({
        "contract": contract,
        "bid": LADDER[level] if contract == "points" else None,
        "declarer": declarer,
        "misere_players": misere_players,
        "exchange": {"taken": taken, "discarded": discarded},
        "trump": trump,
        "trump_named": trump_named,
        "roem": roem,
        "tricks": tricks,
        "draws": draws,
        "tricks_won": tricks_won,
        "card_points": points_won,
        "results": results,
        "scores": scores,
    })
    return record


# ---------------------------------------------------------------------------
# Matches
# ---------------------------------------------------------------------------

MAX_DEALS = 500


def play_match(seed, match_index, players, policies, *, preset="seed", first_dealer=0):
    """A match: seed/pagat first to two +; leimuiden the walk to +2/-2.

    Returns {"deals", "winner", "status", "plus", "walk"}:
      seed/pagat: winner = the seat (or None after 500 deals without one); status per
        seat "won" / "lost" (or all "undecided" without a winner); plus = the count of +
        per seat; walk = None.
      leimuiden: winner = None; status per seat "safe" (left at +2), "pays" (left at -2)
        or "undecided" (still at the table when the session ended); walk = the final walk
        value per seat; plus = None.
    """
    check_args(players, policies, preset)
    if not 0 <= first_dealer < players:
        raise ValueError("dealer seat out of range")
    deals = []
    if preset in ("seed", "pagat"):
        plus = [0] * players
        dealer = first_dealer
        winner = None
        k = 0
        while k < MAX_DEALS:
            record = play_deal(seed, 1024 * match_index + k, players, dealer, policies,
                               preset=preset)
            deals.append(record)
            k += 1
            if record["void"]:
                continue
            for seat, made in record["results"]:
                if made:
                    plus[seat] += 1
            reached = [s for s in range(players) if plus[s] >= 2]
            if reached:
                # nearest the dealer's left: the lowest position in this deal
                winner = min(reached, key=lambda s: (s - dealer - 1) % players)
                break
            dealer = (dealer + 1) % players
        if winner is None:
            status = ["undecided"] * players
        else:
            status = ["won" if s == winner else "lost" for s in range(players)]
        return {"deals": deals, "winner": winner, "status": status, "plus": plus,
                "walk": None}

    # leimuiden
    walk = [0] * players
    status = ["undecided"] * players
    dealer = first_dealer
    k = 0
    while k < MAX_DEALS and status.count("undecided") > 1:
        active = [s for s in range(players) if status[s] == "undecided"]
        record = play_deal(seed, 1024 * match_index + k, players, dealer, policies,
                           preset=preset, active=active)
        deals.append(record)
        k += 1
        if record["void"]:
            continue
        if record["contract"] == "misere" and len(record["misere_players"]) > 1:
            for seat, made in record["results"]:  # O-2
                walk[seat] += 1 if made else -1
        else:
            seat, made = record["results"][0]
            for s in active:
                if s == seat:
                    walk[s] += 1 if made else -1
                else:
                    walk[s] += -1 if made else 1
        for s in active:
            if walk[s] >= 2:
                status[s] = "safe"
            elif walk[s] <= -2:
                status[s] = "pays"
        # the deal passes to the next active player clockwise of this dealer
        for step in range(1, players + 1):
            s = (dealer + step) % players
            if status[s] == "undecided":
                dealer = s
                break
    return {"deals": deals, "winner": None, "status": status, "plus": None, "walk": walk}
