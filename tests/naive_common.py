"""Plain helpers shared by the slow reference engines (tests/naive_*.py).

Standard library only, and nothing from fastsim/: card strings and card codes, the
counter-based random numbers of docs/rules.md, the deck shuffle, seats and positions, the
trick winner, picking a card by a sort key and the loop that plays one trick. Each engine
keeps its own rules (orders, points, legality, policies, scoring) and passes them in, so
that every rule can still be checked by reading one engine.

Cards are plain strings such as "AS" (ace of spades) or "TH" (ten of hearts).
"""

# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------

RANK_CHARS = "23456789TJQKA"  # rank index 0 .. 12
SUIT_CHARS = "SHDC"  # suit index 0 .. 3


def card_code(card):
    """Card string -> card code 16 * suit + rank (e.g. "AS" -> 12, "TH" -> 24)."""
    rank = RANK_CHARS.index(card[0])
    suit = SUIT_CHARS.index(card[1])
    return 16 * suit + rank


def card_str(code):
    """Card code -> card string (e.g. 12 -> "AS", 24 -> "TH")."""
    suit = code // 16
    rank = code % 16
    if suit < 0 or suit > 3 or rank > 12:
        raise ValueError("not a card code: %r" % (code,))
    return RANK_CHARS[rank] + SUIT_CHARS[suit]


def rank_char(card):
    """Rank character of a card string ("A", "T", "9", ...)."""
    return card[0]


def suit_of(card):
    """Suit letter "S", "H", "D" or "C" of a card string."""
    return card[1]


def sort_cards(cards):
    """The cards as a new list, sorted by increasing card code."""
    return sorted(cards, key=card_code)


def is_trump(card, trump):
    """trump: a suit letter, or None (no trump: every suit plain)."""
    return trump is not None and suit_of(card) == trump


# The 32-card deck (Klaverjassen, Boonaken) in deck order: spades 7..A, hearts 7..A,
# diamonds, clubs (codes, and card strings).
DECK32_CODES = [16 * s + r for s in range(4) for r in range(5, 13)]
DECK32 = [card_str(c) for c in DECK32_CODES]


# ---------------------------------------------------------------------------
# Counter-based random numbers (all arithmetic modulo 2**64)
# ---------------------------------------------------------------------------

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
DEALK = 0xD1B54A32D192ED03


def mix64(z):
    z = z & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def run_key(seed):
    return mix64((seed * GOLDEN + 1) & MASK64)


def deal_key(seed, deal):
    return mix64(run_key(seed) ^ ((deal * DEALK) & MASK64))


def rand(dkey, counter):
    return mix64((dkey + (counter + 1) * GOLDEN) & MASK64)


def below(dkey, counter, m):
    """An integer in [0, m) decided by the counter."""
    return ((rand(dkey, counter) >> 32) * m) >> 32


# ---------------------------------------------------------------------------
# Deal, seats, policies
# ---------------------------------------------------------------------------


def shuffled(deck, dkey, places):
    """A copy of the deck with its first `places` places shuffled.

    For i in 0 .. places - 1: j = i + below(dkey, i, len(deck) - i) (counter i), swap
    places i and j.
    """
    deck = list(deck)
    for i in range(places):
        j = i + below(dkey, i, len(deck) - i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seat_of_position(p, dealer, players):
    """Position p counts from the dealer's left: position 0 sits at dealer + 1."""
    return (dealer + 1 + p) % players


def position_of_seat(seat, dealer, players):
    return (seat - dealer - 1) % players


def deal_hands(deck, dealer, players, hand_size):
    """Hands per seat (card strings sorted by card code) from a shuffled deck of codes:
    position p receives deck[p * hand_size : (p + 1) * hand_size]."""
    hands = [None] * players
    for p in range(players):
        seat = seat_of_position(p, dealer, players)
        hands[seat] = sort_cards([card_str(c) for c in deck[p * hand_size:(p + 1) * hand_size]])
    return hands


def check_policies(policies, players, names=("random", "heuristic")):
    if len(policies) != players:
        raise ValueError("need one policy per seat")
    for name in policies:
        if name not in names:
            raise ValueError("unknown policy: %r" % (name,))


# ---------------------------------------------------------------------------
# Choosing a card, tricks
# ---------------------------------------------------------------------------


def first_by(cards, key):
    """The card with the smallest key (the first such card); None when there are none."""
    best = None
    for c in cards:
        if best is None or key(c) < key(best):
            best = c
    return best


def trick_winner(cards, trump, order):
    """Index into cards (play order) of the card that wins the trick.

    The highest trump wins; with no trump in the trick, the highest card of the suit
    led. trump: a suit letter or None; order(card): the card's place in its suit's order
    (higher wins).
    """
    trumps = [i for i in range(len(cards)) if is_trump(cards[i], trump)]
    if trumps:
        candidates = trumps
    else:
        led = suit_of(cards[0])
        candidates = [i for i in range(len(cards)) if suit_of(cards[i]) == led]
    best = candidates[0]
    for i in candidates:
        if order(cards[i]) > order(cards[best]):
            best = i
    return best


def play_trick(seats, in_hand, played, choose):
    """Play one trick. seats: the seats in play order (the leader first).

    choose(i, seat, trick) -> (legal cards, card): the i-th player's legal cards and the
    card their policy plays, given the cards of the trick so far. The card must be legal;
    it leaves the seat's hand and joins the trick and `played`. Returns (the trick's cards,
    its record [[seat, card], ...]), both in play order.
    """
    trick = []
    record = []
    for i, seat in enumerate(seats):
        legal, card = choose(i, seat, trick)
        if card not in legal:
            raise AssertionError("policy played an illegal card")
        in_hand[seat].remove(card)
        trick.append(card)
        played.append(card)
        record.append([seat, card])
    return trick, record


def play_record(players, hand_size, dealer, hands, trump_card, trump, bids, **rest):
    """A deal's play record: the shared shape of docs/boerenbridge.md ("Play records"),
    then the game's own keys `rest`, in that order."""
    record = {
        "players": players,
        "hand_size": hand_size,
        "dealer": dealer,
        "hands": hands,
        "trump_card": trump_card,
        "trump": trump,
        "bids": bids,
    }
    record.update(rest)
    return record


class SuitOrders:
    """The card orders and card points of a 32-card game (Klaverjassen, Boonaken).

    trump_order / plain_order: rank characters from low to high; trump_points /
    plain_points: rank character -> card points. A trump is a suit letter, or None
    (no trump: every suit plain).
    """

    def __init__(self, trump_order, plain_order, trump_points, plain_points):
        self.trump_order = trump_order
        self.plain_order = plain_order
        self.trump_points = trump_points
        self.plain_points = plain_points

    def card_points(self, card, trump):
        if is_trump(card, trump):
            return self.trump_points[rank_char(card)]
        return self.plain_points[rank_char(card)]

    def strength(self, card, trump):
        """Place in its suit's order from the bottom (0 .. 7), plus 8 for a trump."""
        if is_trump(card, trump):
            return self.trump_order.index(rank_char(card)) + 8
        return self.plain_order.index(rank_char(card))

    def trick_winner(self, cards, trump):
        """Index into cards (play order) of the winner: strongest trump, else strongest of led."""
        return trick_winner(cards, trump, lambda c: self.strength(c, trump))
