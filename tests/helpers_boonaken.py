"""The soft heuristic bidder of the Boonaken auction, written from the slow reference
engine's bidder (tests/naive_boonaken.py), for the tests that check the compiled auction
weights (the strong policy's and the play query's)."""
import math

from fastsim.boonaken_strong_nb import AUCTION_EPS, AUCTION_TAU


def bits(x):
    return [c for c in range(64) if x >> c & 1]


def soft_prob(hand, open_cards, standing, has_bid_misere, action, n, preset, tau, eps):
    """P(action) of the soft heuristic bidder (naive_boonaken.heuristic_auction_action):
    a wanted boonaak / zwabber / misère is its action for sure; otherwise the next point
    level with probability 1 / (1 + exp(−(E·4//5 − level + ½) / tau)) and a pass with the
    rest; every action then gets eps + (1 − 2·eps)·p. tau = 0: the reference bidder itself
    (p is 0 or 1)."""
    import naive_boonaken as nb
    h = [nb.card_str(c) for c in bits(hand)]
    star = None
    if standing < nb.BOONAAK and nb.wants_boonaak(h):
        star = nb.BOONAAK
    elif standing < nb.ZWABBER and nb.wants_zwabber(h):
        star = nb.ZWABBER
    elif (standing < nb.MISERE or (standing == nb.MISERE and not has_bid_misere)) \
            and nb.wants_misere(h):
        star = nb.MISERE
    if star is not None:
        p = float(action == star)
    else:
        nxt = next((lv for lv in range(standing + 1, len(nb.LADDER))
                    if nb.is_point_level(lv)), None)
        if tau == 0:
            want = nb.heuristic_auction_action(h, [nb.card_str(c) for c in open_cards
                                                   if not hand >> c & 1],
                                               standing, has_bid_misere, n, preset)
            pb = float(want is not None)
        else:
            holding = [nb.card_str(c) for c in bits(hand | sum(1 << c for c in open_cards))]
            est = max(nb.suit_values(holding, n, preset)) * 4 // 5
            pb = 0.0 if nxt is None else 1.0 / (1.0 + math.exp(
                -(est - nb.LADDER[nxt] + 0.5) / tau))
        p = pb if action == nxt else (1.0 - pb if action == -1 else 0.0)
    return eps + (1.0 - 2.0 * eps) * p


def auction_turns(auction):
    """The auction's calls ``(position, ladder level or −1)`` in order, each with what
    stood before it: ``(position, call, standing level, positions in the standing misère)``
    (a misère while a misère stands: a join)."""
    import naive_boonaken as nb
    standing, in_mis = -1, set()
    for q, a in auction:
        yield q, a, standing, frozenset(in_mis)
        if a == -1:
            continue
        if a == nb.MISERE and standing == nb.MISERE and q not in in_mis:
            in_mis.add(q)
        else:
            standing, in_mis = a, ({q} if a == nb.MISERE else set())


def auction_loglik(auction, ahands, me, open_cards, n, preset, tau=AUCTION_TAU, eps=AUCTION_EPS):
    """The auction's log likelihood given every other position's auction hand, replayed
    call by call."""
    ll = 0.0
    for q, a, standing, in_mis in auction_turns(auction):
        if q != me:
            p = soft_prob(ahands[q], open_cards, standing, q in in_mis, a, n, preset, tau, eps)
            ll += math.log(p) if p > 0 else -math.inf
    return ll
