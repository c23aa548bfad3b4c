"""Slow, obvious reference engine for Bonken.

This module follows docs/bonken.md (and the parts of docs/boerenbridge.md it reuses)
to the letter and uses only the Python standard library plus the Boerenbridge
reference engine (tests/naive_boerenbridge.py) for cards, random numbers, `low`,
`high`, the trick winner, the hand value and the Boerenbridge heuristic card, and the
plain helpers of tests/naive_common.py (shuffle, deal, the trick loop). Cards are plain
strings such as "AS" or "TH"; hands are Python lists of such strings. Nothing here
is meant to be fast: it is meant to be easy to check by reading, so that the
compiled engine in fastsim/ can be compared with it move by move.
"""

import naive_boerenbridge as bb
import naive_common as nc

PLAYERS = 4
HAND_SIZE = 13

CONTRACTS = ["ducking", "no-hearts", "no-men", "no-queens", "no-king-of-hearts", "no-last",
             "domino", "spades", "hearts", "diamonds", "clubs", "no-trump"]  # index = id

DUCKING, NO_HEARTS, NO_MEN, NO_QUEENS, NO_KING_OF_HEARTS, NO_LAST, DOMINO = range(7)
SPADES, HEARTS, DIAMONDS, CLUBS, NO_TRUMP = range(7, 12)

NEGATIVE_IDS = [0, 1, 2, 3, 4, 5, 6]
TRUMP_IDS = [7, 8, 9, 10, 11]

# The contracts with the hearts-lead rule, and those that stop early (D-6).
HEARTS_LEAD_IDS = [NO_HEARTS, NO_KING_OF_HEARTS]
EARLY_STOP_IDS = [NO_HEARTS, NO_MEN, NO_QUEENS, NO_KING_OF_HEARTS]

# Random-number counters (docs/bonken.md), tied to the decision they make.
CHOICE_COUNTER = 60


def card_counter(t, p):
    return 128 + 8 * t + p


def domino_counter(m):
    return 256 + m


# Short names for the Boerenbridge helpers we reuse.
card_str = bb.card_str
card_code = bb.card_code
rank_of = bb.rank_of
suit_of = bb.suit_of
sort_cards = bb.sort_cards
low = bb.low
high = bb.high
below = bb.below
SUIT_CHARS = bb.SUIT_CHARS
RANK_CHARS = bb.RANK_CHARS


def contract_trump(contract):
    """Trump suit letter of a contract id, or None (negative contracts, no-trump)."""
    if SPADES <= contract <= CLUBS:
        return SUIT_CHARS[contract - SPADES]
    return None


def seat_of_position(p, dealer):
    return nc.seat_of_position(p, dealer, PLAYERS)


def position_of_seat(seat, dealer):
    return nc.position_of_seat(seat, dealer, PLAYERS)


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------


def shuffled_deck(dkey):
    """Deck order shuffled: for i in 0..50, j = i + below(dkey, i, 52 - i), swap."""
    return nc.shuffled(bb.deck_order(), dkey, 51)


def deal_hands(dkey, dealer):
    """Hands per seat (card strings sorted by card code): position p gets deck[13p:13p+13]."""
    return nc.deal_hands(shuffled_deck(dkey), dealer, PLAYERS, HAND_SIZE)


# ---------------------------------------------------------------------------
# Contract choice
# ---------------------------------------------------------------------------

RISK = [5, 5, 5, 5, 10, 15, 20, 25, 35, 45, 60, 75, 90]  # by rank index 2 .. A
BASELINE = [1625, 1625, 3000, 3000, 1250, 1250, 1250]  # ids 0 .. 6


# The Boerenbridge heuristic hand value E (hundredths of a trick) of the hand with the
# trump (a suit letter, or None for no trump): the card sum plus the long-trump and void
# bonuses; no position or earlier-bid adjustments (docs/boerenbridge.md).
hand_value = bb.hand_value


def negative_cost(hand, contract):
    """The heuristic's expected cost of a negative contract (hundredths of points)."""
    if contract == DUCKING:
        return 5 * hand_value(hand, None)
    if contract == NO_HEARTS:
        return 5 * sum(RISK[rank_of(c)] for c in hand if suit_of(c) == "H")
    if contract == NO_MEN:
        cost = 0
        for c in hand:
            if rank_of(c) == 11:  # king
                cost += 20 * RISK[11]
            elif rank_of(c) == 9:  # jack
                cost += 10 * RISK[9]
        return cost
    if contract == NO_QUEENS:
        return sum(30 * RISK[10] for c in hand if rank_of(c) == 10)
    if contract == NO_KING_OF_HEARTS:
        if "KH" in hand:
            return 50 * RISK[11]
        return 0
    if contract == NO_LAST:
        return (50 * hand_value(hand, None)) // 13
    if contract == DOMINO:
        S = sum(abs(rank_of(c) - 6) for c in hand)
        return 50 * min(100, (25 * S) // 42)
    raise ValueError("not a negative contract: %r" % (contract,))


def check_available(available):
    ids = sorted(available)
    if not ids:
        raise ValueError("no contract available")
    if len(set(ids)) != len(ids):
        raise ValueError("contract listed twice: %r" % (available,))
    for i in ids:
        if not 0 <= i < len(CONTRACTS):
            raise ValueError("not a contract id: %r" % (i,))
    negative = all(i in NEGATIVE_IDS for i in ids)
    trumps = all(i in TRUMP_IDS for i in ids)
    if not negative and not trumps:
        raise ValueError("available mixes negative and trump contracts: %r" % (available,))
    return ids


def heuristic_choice(hand, available):
    """Contract id chosen by the heuristic from the chooser's 13 cards."""
    ids = check_available(available)
    best = None
    best_value = None
    if ids[0] in NEGATIVE_IDS:
        # smallest cost - baseline; ids in increasing order and strict <, so ties go low
        for i in ids:
            value = negative_cost(hand, i) - BASELINE[i]
            if best is None or value < best_value:
                best = i
                best_value = value
    else:
        # largest E(t); ties go to the lowest id
        for i in ids:
            value = hand_value(hand, contract_trump(i))
            if best is None or value > best_value:
                best = i
                best_value = value
    return best


def choose_contract(policy, hand, available, dkey):
    ids = check_available(available)
    if policy == "random":
        return ids[below(dkey, CHOICE_COUNTER, len(ids))]
    return heuristic_choice(hand, ids)


# ---------------------------------------------------------------------------
# Trick play
# ---------------------------------------------------------------------------


def penalty_cards(contract):
    """The contract's penalty cards P (empty for ducking, no-last and trump rounds)."""
    if contract == NO_HEARTS:
        return [r + "H" for r in RANK_CHARS]
    if contract == NO_MEN:
        return [r + s for s in SUIT_CHARS for r in "JK"]
    if contract == NO_QUEENS:
        return ["Q" + s for s in SUIT_CHARS]
    if contract == NO_KING_OF_HEARTS:
        return ["KH"]
    return []


def legal_cards(hand, trick_cards, contract, hearts_lead="restricted", hearts_broken=False):
    """Legal cards (sorted by card code) for the player to act in a trick contract.

    trick_cards: the cards of this trick so far; hearts_broken: some earlier trick of
    the round contained a heart (matters only with hearts_lead="after_broken").
    """
    if trick_cards:
        return bb.legal_cards(hand, suit_of(trick_cards[0]))
    cards = sort_cards(hand)
    if contract in HEARTS_LEAD_IDS:
        if hearts_lead == "after_broken" and hearts_broken:
            return cards
        non_hearts = [c for c in cards if suit_of(c) != "H"]
        if non_hearts:
            return non_hearts
    return cards


def trick_points(contract, trick_cards, t):
    """Points the winner of trick t (0-based) gets in a trick contract."""
    if contract in TRUMP_IDS:
        return 10
    if contract == DUCKING:
        return -5
    if contract == NO_LAST:
        if t == 12:
            return -50
        return 0
    points = 0
    for c in trick_cards:
        r = rank_of(c)
        if contract == NO_HEARTS and suit_of(c) == "H":
            points -= 5
        if contract == NO_MEN and r == 11:
            points -= 20
        if contract == NO_MEN and r == 9:
            points -= 10
        if contract == NO_QUEENS and r == 10:
            points -= 30
        if contract == NO_KING_OF_HEARTS and c == "KH":
            points -= 50
    return points


def heuristic_negative_card(hand, legal, trick_cards, contract, last):
    """The heuristic card in a negative trick round (ids 0..5)."""
    P = penalty_cards(contract)
    if not trick_cards:  # leading: legal = the cards I may lead
        safe = [c for c in legal if c not in P]
        if safe:
            return low(safe)
        return low(legal)
    led = suit_of(trick_cards[0])
    L = [c for c in hand if suit_of(c) == led]
    if L:  # following suit
        winner = trick_cards[bb.trick_winner(trick_cards, None)]
        W = [c for c in L if rank_of(c) > rank_of(winner)]
        U = [c for c in L if c not in W]
        if U:
            return high(U)
        if last:
            return high(L)
        return low(L)
    # void in the led suit
    dangerous = [c for c in hand if c in P]
    if dangerous:
        return high(dangerous)
    return high(hand)


def play_tricks(dkey, dealer, hands, policies, contract, hearts_lead, early_stop):
    """Play a trick contract. Returns (tricks, tricks_won, scores)."""
    trump = contract_trump(contract)
    P = penalty_cards(contract)
    in_hand = [list(h) for h in hands]
    played = []
    tricks = []
    tricks_won = [0] * PLAYERS
    scores = [0] * PLAYERS
    hearts_broken = False
    leader = seat_of_position(0, dealer)
    for t in range(HAND_SIZE):
        def choose(i, seat, trick_cards):
            p = position_of_seat(seat, dealer)
            legal = legal_cards(in_hand[seat], trick_cards, contract, hearts_lead, hearts_broken)
            last = (i == PLAYERS - 1)
            if policies[seat] == "random":
                return legal, legal[below(dkey, card_counter(t, p), len(legal))]
            if contract in TRUMP_IDS:
                # Boerenbridge heuristic card with need = 1, no turned card.
                return legal, bb.heuristic_card(in_hand[seat], legal, trick_cards, trump,
                                                played, None, 1, last)
            return legal, heuristic_negative_card(in_hand[seat], legal, trick_cards, contract,
                                                  last)

        seats = [(leader + i) % PLAYERS for i in range(PLAYERS)]
        trick_cards, trick_record = nc.play_trick(seats, in_hand, played, choose)
        winner = seats[bb.trick_winner(trick_cards, trump)]
        tricks_won[winner] += 1
        scores[winner] += trick_points(contract, trick_cards, t)
        tricks.append({"leader": leader, "cards": trick_record, "winner": winner})
        if any(suit_of(c) == "H" for c in trick_cards):
            hearts_broken = True
        leader = winner
        if early_stop and contract in EARLY_STOP_IDS:
            if all(c in played for c in P):
                break  # D-6: the last penalty card is taken
    return tricks, tricks_won, scores


# ---------------------------------------------------------------------------
# Domino
# ---------------------------------------------------------------------------


def domino_legal(hand, rows):
    """Legal Domino cards of the hand, sorted by card code.

    rows: dict suit letter -> (bottom, top) rank indices of that suit's open row;
    a suit that is missing (or maps to None) is not opened yet. Rank index 6 is the 8.
    """
    legal = []
    for c in hand:
        s = suit_of(c)
        r = rank_of(c)
        row = rows.get(s)
        if row is None:
            if r == 6:
                legal.append(c)
        else:
            bottom, top = row
            if top < 12 and r == top + 1:
                legal.append(c)
            if bottom > 0 and r == bottom - 1:
                legal.append(c)
    return sort_cards(legal)


def domino_heuristic(hand, legal):
    """The legal card whose suit holds most of my cards further out; ties to lowest code."""
    best = None
    best_value = -1
    for c in sort_cards(legal):
        s = suit_of(c)
        r = rank_of(c)
        others = [x for x in hand if suit_of(x) == s and x != c]
        if r == 6:
            value = len(others)
        elif r > 6:
            value = len([x for x in others if rank_of(x) > r])
        else:
            value = len([x for x in others if rank_of(x) < r])
        if value > best_value:
            best = c
            best_value = value
    return best


def play_domino(dkey, dealer, hands, policies):
    """Play Domino. Returns (moves, out_order, scores)."""
    in_hand = [list(h) for h in hands]
    rows = {}
    moves = []
    out_order = []
    m = 0  # turns of players still holding cards, passes included
    passes_in_a_row = 0
    seat = seat_of_position(0, dealer)
    while len(out_order) < PLAYERS - 1:
        if in_hand[seat]:  # players who are out are skipped
            legal = domino_legal(in_hand[seat], rows)
            if not legal:
                card = None
            elif policies[seat] == "random":
                card = legal[below(dkey, domino_counter(m), len(legal))]
            else:
                card = domino_heuristic(in_hand[seat], legal)
            m += 1
            moves.append([seat, card])
            if card is None:
                passes_in_a_row += 1
                if passes_in_a_row > PLAYERS:
                    raise AssertionError("Domino is stuck")
            else:
                passes_in_a_row = 0
                if card not in legal:
                    raise AssertionError("policy made an illegal Domino move")
                in_hand[seat].remove(card)
                s = suit_of(card)
                r = rank_of(card)
                if s not in rows:
                    rows[s] = (r, r)
                else:
                    bottom, top = rows[s]
                    rows[s] = (min(bottom, r), max(top, r))
                if not in_hand[seat]:
                    out_order.append(seat)
        seat = (seat + 1) % PLAYERS
    scores = [0] * PLAYERS
    for s in range(PLAYERS):
        if s not in out_order:
            scores[s] = -50
    return moves, out_order, scores


# ---------------------------------------------------------------------------
# One round
# ---------------------------------------------------------------------------


def check_policies(policies):
    nc.check_policies(policies, PLAYERS)


def play_round(seed, deal_index, dealer, policies, *, contract=None, available=None,
               hearts_lead="restricted", _early_stop=True):
    """Play one Bonken round.

    contract: a contract id (fixed), or None: then the chooser (position 1) picks one
    of `available` (ids; default every negative contract) with their policy.
    _early_stop: private, for tests; False plays all 13 tricks in every trick contract.
    """
    check_policies(policies)
    if not 0 <= dealer < PLAYERS:
        raise ValueError("dealer seat out of range")
    if hearts_lead not in ("restricted", "after_broken"):
        raise ValueError("unknown hearts_lead: %r" % (hearts_lead,))

    dkey = bb.deal_key(seed, deal_index)
    hands = deal_hands(dkey, dealer)
    chooser = seat_of_position(1, dealer)

    if contract is None:
        if available is None:
            available = NEGATIVE_IDS
        contract = choose_contract(policies[chooser], hands[chooser], available, dkey)
    elif not 0 <= contract < len(CONTRACTS):
        raise ValueError("not a contract id: %r" % (contract,))

    if contract == DOMINO:
        tricks = []
        tricks_won = [0] * PLAYERS
        moves, out_order, scores = play_domino(dkey, dealer, hands, policies)
    else:
        moves = []
        out_order = []
        tricks, tricks_won, scores = play_tricks(dkey, dealer, hands, policies, contract,
                                                 hearts_lead, _early_stop)

    return nc.play_record(PLAYERS, HAND_SIZE, dealer, hands, None, contract_trump(contract), None,
                          contract=CONTRACTS[contract], chooser=chooser, tricks=tricks,
                          moves=moves, out_order=out_order, tricks_won=tricks_won,
                          scores=scores)


# ---------------------------------------------------------------------------
# A whole game
# ---------------------------------------------------------------------------


def play_game(seed, game_index, policies, *, first_dealer=0, hearts_lead="restricted",
              fixed_order=False):
    check_policies(policies)
    rounds = []
    totals = [0] * PLAYERS
    played_ids = []
    for k in range(11):
        dealer = (first_dealer + k) % PLAYERS
        deal_index = 11 * game_index + k
        if fixed_order:
            record = play_round(seed, deal_index, dealer, policies, contract=k,
                                hearts_lead=hearts_lead)
        else:
            if k < 7:
                group = NEGATIVE_IDS
            else:
                group = TRUMP_IDS
            available = [i for i in group if i not in played_ids]
            record = play_round(seed, deal_index, dealer, policies, available=available,
                                hearts_lead=hearts_lead)
        played_ids.append(CONTRACTS.index(record["contract"]))
        rounds.append(record)
        for s in range(PLAYERS):
            totals[s] += record["scores"][s]
    top = max(totals)
    winners = sorted(s for s in range(PLAYERS) if totals[s] == top)
    return {"rounds": rounds, "totals": totals, "winners": winners}
