"""Slow, obvious reference engine for Klaverjassen (Rotterdam rules).

This module follows docs/klaverjassen.md (and docs/rules.md §2) to the
letter and uses only the Python standard library plus the plain helpers of
tests/naive_common.py (card codes, the counter-based random numbers, the shuffle, the
trick winner and the trick loop). Cards are plain strings such as "JH" (jack of hearts)
or "TD" (ten of diamonds); hands are Python lists of such strings; a trick is the list of its card
strings in play order. Nothing here is meant to be fast: it is meant to be easy to
check by reading, so that the compiled engine (fastsim/klaverjassen_nb.py) can be
compared with it card by card.

Names used by `legal_cards` (the obligation that applied), see that function:
    "lead", "follow", "trump-led", "trump-led-under", "must-trump", "overtrump",
    "discard", "undertrump", "undertrump-forced", "amsterdam-partner", "any".

Roem items returned by `roem` (only items worth points are listed):
    ("run", n, points)        n = 3 (20) or 4 (50) consecutive cards of one suit
    ("stuk", 20)              king and queen of trump
    ("four", rank, points)    four cards of rank char `rank` ("A", "T", "K", "Q": 100,
                              "J": 200; with all_100 every rank 100; "9", "8", "7": no
                              item without all_100)
The points of an item are always its last element.
"""

import naive_common as nc
# RANK_CHARS: "23456789TJQKA", rank index 0 .. 12. DECK_CODES, DECK: the 32-card deck in
# deck order (spades 7..A, hearts 7..A, diamonds, clubs), as codes and as card strings;
# rank_of: the rank character ("J", "9", ...).
from naive_common import DECK32 as DECK, DECK32_CODES as DECK_CODES, RANK_CHARS  # noqa: F401
from naive_common import below, card_code, card_str, sort_cards, suit_of  # noqa: F401
from naive_common import rank_char as rank_of

PLAYERS = 4
HAND_SIZE = 8
SUITS = "SHDC"  # suit index 0 .. 3

# ---------------------------------------------------------------------------
# Orders and points
# ---------------------------------------------------------------------------

TRUMP_ORDER = ["7", "8", "Q", "K", "T", "A", "9", "J"]  # low to high
PLAIN_ORDER = ["7", "8", "9", "J", "Q", "K", "T", "A"]  # low to high
NATURAL_ORDER = ["7", "8", "9", "T", "J", "Q", "K", "A"]  # for runs, in every suit

TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

LAST_TRICK_BONUS = 10
DEAL_POINTS = 162

ORDERS = nc.SuitOrders(TRUMP_ORDER, PLAIN_ORDER, TRUMP_POINTS, PLAIN_POINTS)
is_trump = nc.is_trump
# card_points(card, trump): card points of a card under the given trump suit.
card_points = ORDERS.card_points
# strength(card, trump): place in its suit's order from the bottom (0 = the 7 .. 7), plus 8
# for a trump.
strength = ORDERS.strength
# trick_winner(cards, trump): index into cards (play order) of the winning card: highest
# trump, else highest of the suit led.
trick_winner = ORDERS.trick_winner


# ---------------------------------------------------------------------------
# Roem
# ---------------------------------------------------------------------------

FOUR_POINTS = {"A": 100, "T": 100, "K": 100, "Q": 100, "J": 200, "9": 0, "8": 0, "7": 0}


def roem(cards, trump, all_100=False):
    """Roem of the cards of one trick (or of a partial trick). Returns (total, items)."""
    items = []
    # Runs: the longest chain of consecutive natural ranks within one suit.
    for s in SUITS:
        present = [NATURAL_ORDER.index(rank_of(c)) for c in cards if suit_of(c) == s]
        longest = 0
        for start in present:
            length = 1
            while start + length in present:
                length += 1
            if length > longest:
                longest = length
        if longest >= 4:
            items.append(("run", 4, 50))
        elif longest == 3:
            items.append(("run", 3, 20))
    # Stuk: king and queen of trump together.
    if ("K" + trump) in cards and ("Q" + trump) in cards:
        items.append(("stuk", 20))
    # Four of a kind.
    if len(cards) == 4:
        ranks = [rank_of(c) for c in cards]
        if ranks[0] == ranks[1] == ranks[2] == ranks[3]:
            if all_100:
                points = 100
            else:
                points = FOUR_POINTS[ranks[0]]
            if points > 0:
                items.append(("four", ranks[0], points))
    total = 0
    for item in items:
        total += item[-1]
    return total, items


def roem_points(cards, trump, all_100=False):
    return roem(cards, trump, all_100)[0]


# ---------------------------------------------------------------------------
# Play obligations
# ---------------------------------------------------------------------------


def legal_cards(hand, trick, trump, partner_winning, amsterdam=False, undertrump_forced=False):
    """Legal cards of the hand (sorted by card code) and the name of the rule that applied.

    trick: the card strings played to this trick so far (play order); partner_winning:
    the partner's card is the current winner of the trick so far.

    Rule names:
      "lead"              leading: any card
      "follow"            1. holding the led suit (not trump): any card of it
      "trump-led"         2. trump led, holding a trump above the highest: those trumps
      "trump-led-under"   2. trump led, no higher trump held: any trump
      "must-trump"        3. void, no trump in the trick, holding trumps: any trump
      "overtrump"         3. void, trump in the trick, holding a higher one: the higher ones
      "discard"           3. void, no higher trump, holding non-trumps: the non-trumps
      "undertrump"        3. void, no higher trump, only trumps held: any trump
      "undertrump-forced" 3. variant undertrump=forced: no higher trump but holding
                             non-trumps: any trump
      "amsterdam-partner" 3. variant amsterdam, partner winning: the non-trumps plus the
                             trumps above the highest (only trumps held: any trump)
      "any"               4. void in the led suit and holding no trump: any card
    """
    hand = sort_cards(hand)
    if not trick:
        return hand, "lead"
    led = suit_of(trick[0])
    trumps = [c for c in hand if is_trump(c, trump)]
    non_trumps = [c for c in hand if not is_trump(c, trump)]
    trick_trumps = [c for c in trick if is_trump(c, trump)]
    if trick_trumps:
        hi = max(strength(c, trump) for c in trick_trumps)
        higher = [c for c in trumps if strength(c, trump) > hi]
    else:
        higher = list(trumps)  # any trump beats a trick without trump

    if led != trump:
        same = [c for c in hand if suit_of(c) == led]
        if same:
            return same, "follow"  # 1.
    else:
        if trumps:  # 2.
            if higher:
                return higher, "trump-led"
            return trumps, "trump-led-under"
        return hand, "any"  # 4. (trump led, no trump held)

    if not trumps:
        return hand, "any"  # 4.

    # 3. void in the led suit, holding trumps
    if amsterdam and partner_winning:
        if not non_trumps:
            return trumps, "amsterdam-partner"
        return sort_cards(non_trumps + higher), "amsterdam-partner"
    if higher:
        if trick_trumps:
            return higher, "overtrump"
        return higher, "must-trump"
    if undertrump_forced:
        if non_trumps:
            return trumps, "undertrump-forced"
        return trumps, "undertrump"
    if non_trumps:
        return non_trumps, "discard"
    return trumps, "undertrump"


# ---------------------------------------------------------------------------
# Naming trump
# ---------------------------------------------------------------------------

THRESHOLD = [95, 90, 90, 85]
CALL_TRUMP_VALUE = {"J": 45, "9": 35, "A": 25, "T": 20, "K": 15, "Q": 12, "8": 10, "7": 10}


def call_value(hand, s):
    """value(s) of the hand with suit s as trump."""
    value = 0
    n_trumps = 0
    for c in hand:
        if suit_of(c) == s:
            value += CALL_TRUMP_VALUE[rank_of(c)]
            n_trumps += 1
    if n_trumps > 3:
        value += 10 * (n_trumps - 3)
    for side in SUITS:
        if side == s:
            continue
        if ("A" + side) in hand:
            value += 20
        if ("T" + side) in hand:
            if ("A" + side) in hand:
                value += 10
            else:
                value += 5
        if ("K" + side) in hand:
            value += 2
    return value


def heuristic_call(hand, position, forced):
    """Suit letter named by the heuristic, or None for a pass (never None when forced)."""
    best = None
    best_value = None
    for s in SUITS:  # lowest suit index first and strict >, so ties go to it
        v = call_value(hand, s)
        if best is None or v > best_value:
            best = s
            best_value = v
    if forced:
        return best
    if best_value >= THRESHOLD[position]:
        return best
    return None


# ---------------------------------------------------------------------------
# The heuristic play
# ---------------------------------------------------------------------------


def pick_max(cards, value, trump):
    """The card of largest value; ties to the lowest strength, then lowest card code."""
    return nc.first_by(cards, lambda c: (-value(c), strength(c, trump), card_code(c)))


def pick_min(cards, value, trump):
    """The card of smallest value; ties to the lowest strength, then lowest card code."""
    return pick_max(cards, lambda c: -value(c), trump)


def defends_for_nat(my_team, playing_team, card_points_by_team, roem_by_team):
    """The defenders' nat rule is on: my team defends and the playing team's card points
    plus roem so far (completed tricks) are at most half of 162 plus all roem made so far."""
    if my_team == playing_team:
        return False
    P = playing_team
    D = 1 - playing_team
    playing_so_far = card_points_by_team[P] + roem_by_team[P]
    in_play = DEAL_POINTS + roem_by_team[P] + roem_by_team[D]
    return 2 * playing_so_far <= in_play


def heuristic_card(hand, legal, trick, trump, played, my_team_plays, all_100=False,
                   nat_defence=False):
    """The heuristic policy's card.

    hand: my cards now; legal: my legal cards; trick: the cards of this trick so far
    (play order); played: every card played in this deal so far, this trick included;
    my_team_plays: my team is the playing team; nat_defence: `defends_for_nat` now.
    """
    unseen = [c for c in DECK if c not in hand and c not in played]

    def is_top(card):
        for u in unseen:
            if suit_of(u) == suit_of(card) and strength(u, trump) > strength(card, trump):
                return False
        return True

    def points(c):
        return card_points(c, trump)

    trumps = [c for c in hand if is_trump(c, trump)]
    non_trumps = [c for c in hand if not is_trump(c, trump)]

    if not trick:  # leading
        if my_team_plays and trumps and any(is_trump(u, trump) for u in unseen):
            highest = pick_max(trumps, lambda c: strength(c, trump), trump)
            if is_top(highest):
                return highest
        top_non_trumps = [c for c in non_trumps if is_top(c)]
        if top_non_trumps:
            return pick_max(top_non_trumps, points, trump)
        if non_trumps:
            return pick_min(non_trumps, points, trump)
        return pick_min(trumps, lambda c: strength(c, trump), trump)

    i = len(trick)  # my place in the trick (1, 2 or 3)

    def P(c):
        return sum(card_points(x, trump) for x in trick) + points(c)

    def R(c):
        return roem_points(trick + [c], trump, all_100)

    def win(c):
        return trick_winner(trick + [c], trump) == i

    if i == 3:  # last to play
        def v(c):
            w = trick_winner(trick + [c], trump)
            if w % 2 == i % 2:  # me (3) or my partner (1)
                return P(c) + R(c)
            return -(P(c) + R(c))
        return pick_max(legal, v, trump)

    if i >= 2 and trick_winner(trick, trump) == i - 2 and is_top(trick[i - 2]):
        def keep(c):
            value = points(c) + R(c)
            if is_trump(c, trump):
                value -= 30
            return value
        return pick_max(legal, keep, trump)

    winning = [c for c in legal if win(c)]
    if winning:
        led = suit_of(trick[0])
        following = any(suit_of(c) == led for c in legal)
        if nat_defence and led != trump and following:
            # defending for nat: win with a card nobody else can beat in its suit if I can
            sure = [c for c in winning if is_top(c)]
            if sure:
                return pick_min(sure, lambda c: strength(c, trump), trump)
        return pick_min(winning, lambda c: strength(c, trump), trump)
    return pick_min(legal, lambda c: points(c) + R(c), trump)


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


def score_deal(card_points_by_team, roem_by_team, playing_team, tricks_by_team):
    """Banked scores of one deal: {"team_scores": [t0, t1], "nat": bool, "pit": team or None}."""
    cp = list(card_points_by_team)
    rm = list(roem_by_team)
    P = playing_team
    D = 1 - playing_team
    tot = [cp[0] + rm[0], cp[1] + rm[1]]
    banked = [0, 0]
    if tot[P] > tot[D]:
        nat = False
        banked[P] = tot[P]
        banked[D] = tot[D]
    else:
        nat = True
        banked[P] = 0
        banked[D] = DEAL_POINTS + rm[P] + rm[D]
    pit = None
    for t in range(2):
        if tricks_by_team[t] == HAND_SIZE:
            pit = t
            banked[t] += 100
    return {"team_scores": banked, "nat": nat, "pit": pit}


# ---------------------------------------------------------------------------
# One deal
# ---------------------------------------------------------------------------


def seat_of_position(p, dealer):
    return nc.seat_of_position(p, dealer, PLAYERS)


def position_of_seat(seat, dealer):
    return nc.position_of_seat(seat, dealer, PLAYERS)


def team_of(seat):
    return seat % 2


def shuffled_deck(dkey):
    """The 32-card deck order shuffled: for i in 0..30, j = i + below(dkey, i, 32 - i), swap."""
    return nc.shuffled(DECK_CODES, dkey, 31)


def deal_hands(dkey, dealer):
    """Hands per seat (sorted by card code): position p gets deck[8p : 8p + 8]."""
    return nc.deal_hands(shuffled_deck(dkey), dealer, PLAYERS, HAND_SIZE)


def check_policies(policies):
    nc.check_policies(policies, PLAYERS)


def name_trump(dkey, dealer, hands, policies):
    """The calls in order, the trump suit and the playing team."""
    calls = []
    for p in range(PLAYERS):
        seat = seat_of_position(p, dealer)
        if policies[seat] == "random":
            k = below(dkey, 64 + p, 5)
            suit = SUITS[k] if k < 4 else None
        else:
            suit = heuristic_call(hands[seat], p, False)
        if suit is None:
            calls.append([seat, "pass"])
        else:
            calls.append([seat, suit])
            return calls, suit, team_of(seat)
    # all four passed: position 0 must name a suit
    seat = seat_of_position(0, dealer)
    if policies[seat] == "random":
        suit = SUITS[below(dkey, 68, 4)]
    else:
        suit = heuristic_call(hands[seat], 0, True)
    calls.append([seat, suit])
    return calls, suit, team_of(seat)


def play_deal(seed, deal_index, dealer, policies, *, trump=None, playing_team=None,
              amsterdam=False, undertrump_forced=False, all_100=False):
    """Play one deal; returns the play record of docs/klaverjassen.md."""
    check_policies(policies)
    if not 0 <= dealer < PLAYERS:
        raise ValueError("dealer seat out of range")
    if trump is not None and trump not in SUITS:
        raise ValueError("not a suit: %r" % (trump,))
    if playing_team is not None and playing_team not in (0, 1):
        raise ValueError("playing team must be 0 or 1")

    dkey = nc.deal_key(seed, deal_index)
    hands = deal_hands(dkey, dealer)

    if trump is None:
        calls, trump, playing_team = name_trump(dkey, dealer, hands, policies)
    else:
        calls = []
        if playing_team is None:
            playing_team = 0

    in_hand = [list(h) for h in hands]
    played = []
    tricks = []
    tricks_won = [0] * PLAYERS
    card_points_by_team = [0, 0]
    roem_by_team = [0, 0]
    leader = seat_of_position(0, dealer)
    for t in range(HAND_SIZE):
        def choose(i, seat, trick):
            p = position_of_seat(seat, dealer)
            partner_winning = i >= 2 and trick_winner(trick, trump) == i - 2
            legal, _rule = legal_cards(in_hand[seat], trick, trump, partner_winning,
                                       amsterdam, undertrump_forced)
            if policies[seat] == "random":
                return legal, legal[below(dkey, 128 + 8 * t + p, len(legal))]
            nat_defence = defends_for_nat(team_of(seat), playing_team, card_points_by_team,
                                          roem_by_team)
            return legal, heuristic_card(in_hand[seat], legal, trick, trump, played,
                                         team_of(seat) == playing_team, all_100, nat_defence)

        seats = [(leader + i) % PLAYERS for i in range(PLAYERS)]
        trick, trick_record = nc.play_trick(seats, in_hand, played, choose)
        winner = seats[trick_winner(trick, trump)]
        points = sum(card_points(c, trump) for c in trick)
        if t == HAND_SIZE - 1:
            points += LAST_TRICK_BONUS
        trick_roem = roem_points(trick, trump, all_100)
        tricks_won[winner] += 1
        card_points_by_team[team_of(winner)] += points
        roem_by_team[team_of(winner)] += trick_roem
        tricks.append({"leader": leader, "cards": trick_record, "winner": winner,
                       "points": points, "roem": trick_roem})
        leader = winner

    tricks_by_team = [tricks_won[0] + tricks_won[2], tricks_won[1] + tricks_won[3]]
    result = score_deal(card_points_by_team, roem_by_team, playing_team, tricks_by_team)
    team_scores = result["team_scores"]

    return nc.play_record(PLAYERS, HAND_SIZE, dealer, hands, None, trump, None,
                          calls=calls,
                          playing_team=playing_team,
                          tricks=tricks,
                          tricks_won=tricks_won,
                          team_scores=team_scores,
                          card_points=card_points_by_team,
                          roem=roem_by_team,
                          nat=result["nat"],
                          pit=result["pit"],
                          scores=[team_scores[team_of(s)] for s in range(PLAYERS)])


# ---------------------------------------------------------------------------
# A whole game (boompje)
# ---------------------------------------------------------------------------

GAME_DEALS = 16
MAX_DEALS = 32


def play_boompje(seed, game_index, policies, *, first_dealer=0, amsterdam=False,
                 undertrump_forced=False, all_100=False):
    """16 deals, then extra deals while the team totals are equal (32 deals at most)."""
    check_policies(policies)
    deals = []
    totals = [0, 0]
    k = 0
    while k < GAME_DEALS or (totals[0] == totals[1] and k < MAX_DEALS):
        record = play_deal(seed, 1024 * game_index + k, (first_dealer + k) % PLAYERS, policies,
                           amsterdam=amsterdam, undertrump_forced=undertrump_forced,
                           all_100=all_100)
        deals.append(record)
        totals[0] += record["team_scores"][0]
        totals[1] += record["team_scores"][1]
        k += 1
    if totals[0] > totals[1]:
        winners = [0]
    elif totals[1] > totals[0]:
        winners = [1]
    else:
        winners = [0, 1]
    return {"deals": deals, "totals": totals, "winners": winners}
