"""What the exact 1-card Boerenbridge enumerations of the bid and play query tests share."""
import itertools

SUITS = "SHDC"


def one_card_deals(n, my_card, turned, position):
    """Every 1-card deal for ``n`` players with ``my_card`` at ``position`` and ``turned``
    turned up: each assignment of the unseen cards to the other positions, as the hands
    (card strings) by position."""
    unseen = [c for c in (r + s for s in SUITS for r in "23456789TJQKA")
              if c not in (my_card, turned)]
    others = [p for p in range(n) if p != position]
    for cards in itertools.permutations(unseen, n - 1):
        hands = dict(zip(others, cards))
        hands[position] = my_card
        yield [hands[p] for p in range(n)]
