"""Slow, obvious reference engine for Boerenbridge.

This module follows docs/boerenbridge.md to the letter and uses only the Python
standard library and the plain helpers of tests/naive_common.py (cards, random numbers,
the shuffle, the trick loop). Cards are plain strings such as "AS" (ace of spades) or "TH"
(ten of hearts); hands are Python lists of such strings. Nothing here is meant
to be fast: it is meant to be easy to check by reading, so that the compiled
engine in fastsim/ can be compared with it card by card.
"""

import naive_common as nc
from naive_common import (DEALK, GOLDEN, MASK64, RANK_CHARS, SUIT_CHARS,  # noqa: F401
                          below, card_code, card_str, deal_key, is_trump, mix64,
                          position_of_seat, rand, run_key, seat_of_position, sort_cards,
                          suit_of)

# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------

# card_code, card_str, suit_of, sort_cards: tests/naive_common.py


def rank_of(card):
    """Rank index 0 (two) .. 12 (ace) of a card string."""
    return RANK_CHARS.index(card[0])


def deck_order():
    """The 52-card deck in the spec's deck order: spades 2..A, hearts, diamonds, clubs."""
    deck = []
    for s in range(4):
        for r in range(13):
            deck.append(16 * s + r)
    return deck


# ---------------------------------------------------------------------------
# Counter-based random numbers: mix64, run_key, deal_key, rand, below in
# tests/naive_common.py
# ---------------------------------------------------------------------------

# Counters, tied to the decision they make.
def shuffle_counter(i):
    return i


def bid_counter(p):
    return 64 + p


def card_counter(t, p):
    return 128 + 8 * t + p


# ---------------------------------------------------------------------------
# Deal
# ---------------------------------------------------------------------------


def shuffled_deck(dkey, players, hand_size):
    """Deck order with the first n*h + 1 places shuffled (codes; the counter of place i is i)."""
    return nc.shuffled(deck_order(), dkey, players * hand_size + 1)


# seat_of_position(p, dealer, players), position_of_seat(seat, dealer, players):
# tests/naive_common.py


# ---------------------------------------------------------------------------
# Rules helpers
# ---------------------------------------------------------------------------


def forbidden_bid(hand_size, bids_so_far):
    """The bid the dealer may not make, given the other players' bids; None if none is."""
    f = hand_size - sum(bids_so_far)
    if 0 <= f <= hand_size:
        return f
    return None


def legal_cards(hand, led_suit):
    """Cards of the hand that may be played (sorted by card code).

    led_suit is the suit letter of the first card of the trick, or None when leading.
    """
    if led_suit is None:
        return sort_cards(hand)
    same_suit = [c for c in hand if suit_of(c) == led_suit]
    if same_suit:
        return sort_cards(same_suit)
    return sort_cards(hand)


def trick_winner(cards, trump):
    """Index into cards (play order) of the card that wins the trick.

    The highest trump wins; with no trump in the trick, the highest card of the
    suit led (by rank). trump is a suit letter or None (no-trump deal).
    """
    return nc.trick_winner(cards, trump, rank_of)


def deal_score(bid, tricks, scoring="standard"):
    """Score of one player in one deal, without bonus or doubling."""
    if bid == tricks:
        return 10 + 2 * tricks
    miss = abs(tricks - bid)
    if scoring == "standard":
        return 0
    if scoring == "hard":
        return -miss
    if scoring == "dutch":
        return -2 * miss
    raise ValueError("unknown scoring: %r" % (scoring,))


def game_winners(totals, exact, best):
    """Seats that win: highest total, then most exact bids, then best single-deal score."""
    keys = []
    for s in range(len(totals)):
        keys.append((totals[s], exact[s], best[s]))
    top = max(keys)
    return sorted(s for s in range(len(totals)) if keys[s] == top)


# ---------------------------------------------------------------------------
# Policies
# ---------------------------------------------------------------------------

TRUMP_VALUE = [25, 25, 25, 25, 25, 25, 25, 30, 40, 55, 70, 85, 100]


def low(cards):
    """The card of lowest rank; ties to the lowest suit index."""
    return nc.first_by(cards, lambda c: (rank_of(c), SUIT_CHARS.index(suit_of(c))))


def high(cards):
    """The card of highest rank; ties to the lowest suit index."""
    return nc.first_by(cards, lambda c: (-rank_of(c), SUIT_CHARS.index(suit_of(c))))


# is_trump(card, trump): tests/naive_common.py


def beats(card, winner, trump):
    """Does card beat the trick's current winning card?"""
    if is_trump(card, trump) and not is_trump(winner, trump):
        return True
    return suit_of(card) == suit_of(winner) and rank_of(card) > rank_of(winner)


def hand_value(hand, trump):
    """The heuristic hand value E (hundredths of a trick) before the position and
    earlier-bid adjustments: the card sum plus the long-trump and void bonuses.

    trump: a suit letter, or None for no trump (also used by tests/naive_bonken.py).
    """
    E = 0
    for c in hand:
        r = rank_of(c)
        if is_trump(c, trump):
            E += TRUMP_VALUE[r]
        else:
            length = len([x for x in hand if suit_of(x) == suit_of(c)])
            if r == 12:
                E += 85
            elif r == 11:
                E += 45 if length >= 2 else 20
            elif r == 10:
                E += 20 if length >= 3 else 5
    nt = len([c for c in hand if is_trump(c, trump)])
    if nt > 3:
        E += 30 * (nt - 3)
    if nt >= 1:
        voids = 0
        for s in SUIT_CHARS:
            if s != trump and not any(suit_of(c) == s for c in hand):
                voids += 1
        E += 30 * min(voids, nt)
    return E


def heuristic_bid(hand, position, players, hand_size, trump, bids_so_far,
                  dealer_rule, blind):
    n = players
    h = hand_size
    if blind:
        E = 100 // n
    else:
        E = hand_value(hand, trump)
    if position == 0:
        E += 10
    k = position
    S = sum(bids_so_far)
    if 100 * S * n > 100 * h * k + 50 * n:
        E -= 25
    if 100 * S * n < 100 * h * k - 50 * n:
        E += 25
    bid = (E + 50) // 100
    bid = max(0, min(h, bid))
    if position == n - 1 and dealer_rule:
        f = forbidden_bid(h, bids_so_far)
        if f is not None and bid == f:
            if E >= 100 * bid and bid + 1 <= h:
                bid = bid + 1
            elif bid - 1 >= 0:
                bid = bid - 1
            else:
                bid = bid + 1
    return bid


def heuristic_card(hand, legal, trick_cards, trump, played, turned, need, last):
    """The heuristic policy's card.

    hand: my cards now; legal: my legal cards; trick_cards: cards of this trick so
    far in play order; played: every card played in this deal so far (this trick
    included); turned: the turned card; need: bid - tricks won so far; last: am I
    the last to play to this trick.
    """
    trumps = [c for c in hand if is_trump(c, trump)]
    non_trumps = [c for c in hand if not is_trump(c, trump)]

    if not trick_cards:  # leading
        if need > 0:
            def is_top(card):
                for r in range(rank_of(card) + 1, 13):
                    higher = RANK_CHARS[r] + suit_of(card)
                    if higher not in hand and higher not in played and higher != turned:
                        return False  # an unseen higher card exists
                return True

            top_trumps = [c for c in trumps if is_top(c)]
            top_non_trumps = [c for c in non_trumps if is_top(c)]
            if top_trumps:
                return high(top_trumps)
            if top_non_trumps:
                return high(top_non_trumps)
            if non_trumps:
                longest_suit = None
                longest_len = 0
                for s in SUIT_CHARS:  # lowest suit index first, so ties go to it
                    if s == trump:
                        continue
                    length = len([c for c in non_trumps if suit_of(c) == s])
                    if length > longest_len:
                        longest_suit = s
                        longest_len = length
                return low([c for c in non_trumps if suit_of(c) == longest_suit])
            return low(hand)
        if non_trumps:
            return low(non_trumps)
        return low(hand)

    winner = trick_cards[trick_winner(trick_cards, trump)]
    led = suit_of(trick_cards[0])
    following = any(suit_of(c) == led for c in hand)

    if following:
        L = legal
        W = [c for c in L if beats(c, winner, trump)]
        if need > 0:
            if W:
                return low(W) if last else high(W)
            return low(L)
        U = [c for c in L if c not in W]
        if U:
            return high(U)
        return high(L) if last else low(L)

    # void in the led suit
    if need > 0:
        W = [c for c in trumps if beats(c, winner, trump)]
        if W:
            return low(W)
        if non_trumps:
            return low(non_trumps)
        return low(hand)
    if non_trumps:
        return high(non_trumps)
    U = [c for c in trumps if not beats(c, winner, trump)]
    if U:
        return high(U)
    return low(hand)


# ---------------------------------------------------------------------------
# One deal
# ---------------------------------------------------------------------------


def play_deal(seed, deal_index, players, hand_size, dealer, policies, *, notrump=False,
              scoring="standard", bauer_bonus=False, dealer_rule=True, blind_one_card=False):
    n = players
    h = hand_size
    if n < 2:
        raise ValueError("need at least 2 players")
    if h < 1 or n * h + 1 > 52:
        raise ValueError("hand size %r impossible for %r players" % (h, n))
    nc.check_policies(policies, n)
    if scoring not in ("standard", "hard", "dutch"):
        raise ValueError("unknown scoring: %r" % (scoring,))
    if not 0 <= dealer < n:
        raise ValueError("dealer seat out of range")

    dkey = deal_key(seed, deal_index)
    deck = shuffled_deck(dkey, n, h)

    # Deal: position p receives deck[p*h : (p+1)*h]; the next card is turned.
    hands = nc.deal_hands(deck, dealer, n, h)  # per seat
    turned = card_str(deck[n * h])
    trump = None if notrump else suit_of(turned)
    blind = blind_one_card and h == 1

    # Bidding, positions 0 .. n-1.
    bids = [None] * n  # per seat
    bids_in_order = []
    forbidden = None
    for p in range(n):
        seat = seat_of_position(p, dealer, n)
        is_dealer = (p == n - 1)
        f = None
        if is_dealer and dealer_rule:
            f = forbidden_bid(h, bids_in_order)
            forbidden = f
        if policies[seat] == "random":
            choices = [b for b in range(h + 1) if b != f]
            bid = choices[below(dkey, bid_counter(p), len(choices))]
        else:
            bid = heuristic_bid(hands[seat], p, n, h, trump, bids_in_order, dealer_rule, blind)
        if f is not None and bid == f:
            raise AssertionError("policy made the forbidden bid")
        bids[seat] = bid
        bids_in_order.append(bid)

    # Play.
    in_hand = [list(hands[s]) for s in range(n)]
    tricks_won = [0] * n
    played = []
    tricks = []
    leader = seat_of_position(0, dealer, n)
    for t in range(h):
        def choose(i, seat, trick_cards):
            p = position_of_seat(seat, dealer, n)
            led_suit = suit_of(trick_cards[0]) if trick_cards else None
            legal = legal_cards(in_hand[seat], led_suit)
            if policies[seat] == "random":
                return legal, legal[below(dkey, card_counter(t, p), len(legal))]
            need = bids[seat] - tricks_won[seat]
            return legal, heuristic_card(in_hand[seat], legal, trick_cards, trump, played,
                                         turned, need, i == n - 1)

        seats = [(leader + i) % n for i in range(n)]
        trick_cards, trick_record = nc.play_trick(seats, in_hand, played, choose)
        winner = seats[trick_winner(trick_cards, trump)]
        tricks_won[winner] += 1
        tricks.append({"leader": leader, "cards": trick_record, "winner": winner})
        leader = winner

    # Scoring.
    scores = [0] * n
    for seat in range(n):
        score = deal_score(bids[seat], tricks_won[seat], scoring)
        if (bauer_bonus and seat == dealer and forbidden is not None
                and bids[seat] != tricks_won[seat] and tricks_won[seat] == forbidden):
            score += 5
        if blind:
            score *= 2
        scores[seat] = score

    return nc.play_record(n, h, dealer, hands, turned, trump, bids,
                          tricks=tricks, tricks_won=tricks_won, scores=scores)


# ---------------------------------------------------------------------------
# A whole game
# ---------------------------------------------------------------------------


def play_game(seed, game_index, players, schedule, policies, *, first_dealer=0,
              notrump_deals=(), scoring="standard", bauer_bonus=False, dealer_rule=True,
              blind_one_card=False):
    n = players
    schedule = list(schedule)
    notrump_set = set(notrump_deals)
    deals = []
    totals = [0] * n
    exact = [0] * n
    best = [None] * n
    for k, h in enumerate(schedule):
        record = play_deal(seed, game_index * len(schedule) + k, n, h, (first_dealer + k) % n,
                           policies, notrump=(k in notrump_set), scoring=scoring,
                           bauer_bonus=bauer_bonus, dealer_rule=dealer_rule,
                           blind_one_card=blind_one_card)
        deals.append(record)
        for s in range(n):
            totals[s] += record["scores"][s]
            if record["bids"][s] == record["tricks_won"][s]:
                exact[s] += 1
            if best[s] is None or record["scores"][s] > best[s]:
                best[s] = record["scores"][s]
    if not schedule:
        best = [0] * n
    return {
        "deals": deals,
        "totals": totals,
        "exact": exact,
        "best": best,
        "winners": game_winners(totals, exact, best),
    }
