"""Boonaken's ``strong`` policy: the auction, the exchange and the trump searched; pimc card
play over more worlds, equivalent cards once.

**Before the play** (the end of this module): every auction turn scores pass, bidding on
up to each of the next point levels, and the special calls, the declarer's exchange its
options of six kept cards (with a trump), and then the trump for the six kept, each on
the same worlds of the deal weighted by the auction, finished by the heuristic for
everyone; objective: the player's own score of the deal (docs/boonaken.md, "The strong
policy").

**Cards.** ``strong`` plays its cards as ``pimc`` does (:func:`fastsim.boonaken_nb.pimc_card_nb`: every
legal card scored over sampled deals of what the player cannot see, each finished by the
heuristic for everyone, common random numbers) but over ``STRONG_CARD_FACTOR × worlds``
worlds, and scores cards that are exactly equivalent only once (the lowest of them is
played): two legal cards of one suit, both worth no card points and adjacent in that suit's
order once the cards between them are played or in the same hand (the plain 7 8 9 and the
trump 7 8 — where the rank order of a trump suit is the natural one), win and lose the same
tricks and points in every continuation.

**Worlds weighted by the auction.** A decision draws ``CANDIDATES`` times its worlds from the
pimc sampler, weights each candidate by the likelihood of the auction under a soft
heuristic bidder (:func:`auction_loglik_nb`) evaluated on the hands the other players held
when they spoke (:func:`auction_hands_nb`), and keeps its worlds by systematic resampling
(:func:`fastsim.pimc_nb.resample_nb`, which also gives the Kish effective sample size).
The exact model is in ``docs/inference.md`` (Boonaken).

Keys: auction turn ``k`` draws candidate ``i`` from ``deal_key(deal_key(deal key,
KEY_STRONG_BID + KEY_BK_AUCTION + k), i)``, the exchange and trump from ``deal_key(deal key,
KEY_STRONG_BID + KEY_BK_EXCHANGE)`` (fastsim.boonaken_schema); a card decision of ``me`` at
trick ``t`` draws candidate ``i`` from
``deal_key(base, i)``, ``base = deal_key(deal key, KEY_STRONG_PLAY + 8·t + me)``
(fastsim.rng), the random past of a candidate's draws from the same key, and the
resampling offset from ``deal_key(base, RESAMPLE_OFFSET)``, so results are bit-identical
for any thread count. Compiled; numpy arrays and scalars in, a card out.
"""
import numpy as np
from ._jit import njit

from .bits import lowest_nb, popcount_nb, suit_mask_nb
from .boonaken_nb import (FULL32, NO_WISH, apply_call_nb, auction_next_nb, best_trump_nb,
                          declarer_roem_nb, estimate_nb, fewest_suit_nb, heuristic_call_nb,
                          heuristic_exchange_nb, next_level_nb, rollout_nb, value_nb,
                          wanted_call_nb, wants_nb, world_capacity_nb, world_scores_nb)
from .boonaken_schema import (AUCTION_EPS, AUCTION_TAU, BOONAAK, CONTRACT_BOONAAK,  # noqa: F401
                              CONTRACT_MISERE, CONTRACT_POINTS, CONTRACT_ZWABBER, KEY_BK_AUCTION,
                              KEY_BK_EXCHANGE, LADDER_VALUE, LAYOUT_BLIND, LAYOUT_OPEN, MISERE,
                              PLAIN_STRENGTH, PRESET_LEIMUIDEN, PRESET_PAGAT, PRESET_SEED,
                              STRONG_AUCTION_FACTOR, STRONG_EXCHANGE_FACTOR, ZWABBER)
from .pimc_nb import best_index_nb, distinct_cards_nb, draw_world_nb, list_cards_nb, resample_nb
from .refs_nb import borrow_nb, keep_nb
from .play_nb import hand_of_cards_nb
from .rng import KEY_STRONG_BID, KEY_STRONG_PLAY, below_nb, deal_key_nb, run_key_nb, shuffle_nb

CANDIDATES = 4         # candidate worlds drawn per world kept
RESAMPLE_OFFSET = 1 << 30   # deal_key(base, this): the resampling key (above every candidate)
CTR_PAST = 5000        # counters of a candidate's random past of draws (5000 + 8·k + q)

# the zero-point cards whose order is the natural rank order: plain 7 8 9 (ranks 5..7) and
# trump 7 8 (ranks 5, 6) of every suit
LOW_PLAIN = np.int64(0xE0) * np.int64(0x0001000100010001)
LOW_TRUMP = np.int64(0x60)


@njit(cache=True)
def strong_cards_nb(legal, unseen, trump, tc, tn, out):
    """The legal cards to score, in increasing code, into ``out``: of equivalent zero-point
    low cards (see the module) only the lowest; ``unseen``: every card that may lie in
    another hand (or the stock); a card on the table (``tc[:tn]``) between two cards
    separates them too (with the 8 on the table the 7 and the 9 are not equivalent).
    Returns how many."""
    low = LOW_PLAIN
    if trump >= 0:
        low = (low & ~suit_mask_nb(trump)) | (LOW_TRUMP << (16 * trump))
    eq = legal & low
    k = distinct_cards_nb(eq, unseen | hand_of_cards_nb(tc, 0, tn), out)
    rest = np.empty(15, dtype=np.int64)
    m = list_cards_nb(legal & ~eq, rest)
    for i in range(m):          # merge, keeping increasing code
        j = k
        while j > 0 and out[j - 1] > rest[i]:
            out[j] = out[j - 1]
            j -= 1
        out[j] = rest[i]
        k += 1
    return k


@njit(cache=True)
def action_prob_nb(wb, wz, wm, est, standing, can_join, action, tau, eps):
    """P(action) of a bidder whose hand wants boonaak / zwabber / misère (``wb``, ``wz``,
    ``wm``: :func:`fastsim.boonaken_nb.wants_nb`) and has the estimate ``est``, at the standing level
    ``standing`` (-1: none; ``can_join``: a misère stands that it may join) under the soft
    heuristic bidder: ``eps + (1 − 2·eps)·p``, p the heuristic's choice made soft: a wanted
    boonaak / zwabber / misère is taken with p = 1 (every other action p = 0); otherwise
    the next point level with p = σ((est − value + ½)/tau) and a pass with 1 − that
    (no point level left: a pass with p = 1); every other action p = 0. ``tau <= 0`` with
    ``eps = 0``: the heuristic bidder itself (probability 1 or 0: the exact model)."""
    star = wanted_call_nb(wb, wz, wm, standing, can_join)
    p = 0.0
    if star != NO_WISH:
        p = 1.0 if action == star else 0.0
    else:
        lvl = next_level_nb(standing)
        pb = 0.0
        if lvl >= 0:
            x = est - LADDER_VALUE[lvl] + 0.5
            if tau <= 0.0:          # the heuristic itself: it bids when value <= est
                pb = 1.0 if x > 0 else 0.0
            else:
                pb = 1.0 / (1.0 + np.exp(-x / tau))
        if action == -1:
            p = 1.0 - pb
        elif lvl >= 0 and action == lvl:
            p = pb
    return eps + (1.0 - 2.0 * eps) * p


@njit(cache=True)
def auction_loglik_nb(n, preset, me, ahands, open_mask, auc, nauc, tau, eps):
    """log likelihood of the auction ``auc[:nauc]`` ((position, level or -1 = pass) rows,
    as the engine records them; a misère row while a misère stands is a join) given the
    auction hands ``ahands`` of everyone but ``me``: the sum of log
    :func:`action_prob_nb` over their actions, replaying the standing level and the misère
    players as the engine does; the estimate is the heuristic's,
    ``(4·E) // 5`` with E the best value of six of hand + open table cards."""
    est = np.zeros(5, dtype=np.int64)
    wants = np.zeros((5, 3), dtype=np.bool_)
    for q in range(n):
        if q != me:
            est[q] = estimate_nb(ahands[q], open_mask, n, preset)
            wants[q, 0], wants[q, 1], wants[q, 2] = wants_nb(ahands[q])
    in_mis = np.zeros(5, dtype=np.bool_)
    passed = np.zeros(5, dtype=np.bool_)
    mis = np.empty(5, dtype=np.int64)
    standing = -1
    holder = -1
    n_mis = 0
    ll = 0.0
    for k in range(nauc):
        q = auc[k, 0]
        a = auc[k, 1]
        if q != me:
            can_join = standing == MISERE and not in_mis[q]
            ll += np.log(action_prob_nb(wants[q, 0], wants[q, 1], wants[q, 2], est[q], standing,
                                        can_join, a, tau, eps))
        standing, holder, n_mis = apply_call_nb(n, q, a, passed, in_mis, mis, standing, holder,
                                                n_mis)
    return ll


@njit(cache=True)
def auction_hands_nb(wkey, n, preset, me, world, open_mask, stock_pos, rest_at,
                     played_at, played_by, out):
    """The hand each other position held in the auction, as far as the world ``world``
    tells: the cards it holds now and has played, less (seed preset) the cards it drew —
    one random past per world: the draw after trick k (k from the last draw down to 0) is
    a uniform choice, keyed ``(wkey, CTR_PAST + 8·k + q)``, among its cards not yet chosen
    that it played after trick k or holds now (never an open table card: the declarer took it).
    The declarer's is its hand after the exchange (for the heuristic declarer of the seed
    preset, whose best six of hand + open cards that is, the same estimate). ``played_by[q]``:
    the cards q has played; ``played_at[c]``: the trick card c was played in (-1: not)."""
    draws = (stock_pos - rest_at) // n if preset == PRESET_SEED else 0
    cards = np.empty(16, dtype=np.int64)
    for q in range(n):
        out[q] = 0
        if q == me:
            continue
        h = world[q] | played_by[q]
        for k in range(draws - 1, -1, -1):
            m = 0
            x = h
            while x:
                c = lowest_nb(x)
                x &= x - 1
                if (played_at[c] < 0 or played_at[c] > k) and not (open_mask >> c) & 1:
                    cards[m] = c
                    m += 1
            if m == 0:
                break
            h &= ~(np.int64(1) << cards[below_nb(wkey, CTR_PAST + 8 * k + q, m)])
        out[q] = h


@njit(cache=True)
def candidates_nb(base, n, preset, me, hand, hands, stock_pos, unseen, cap, pinned, decl, voids,
                  open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps, m, cand,
                  ahands, logw):
    """``m`` candidate worlds (``cand[i, q]``: position q's hand now, ``cand[i, n]``: the
    stock) drawn by the pimc sampler from keys ``deal_key(base, i)`` (the declarer keeps the
    table cards it took), their auction hands ``ahands[i]`` and log weights ``logw[i]``
    (the auction's log likelihood; 0 for every candidate when ``nauc`` is 0). The
    arguments and the scratch (one allocation) are borrowed: no reference counts per
    candidate (fastsim.refs_nb)."""
    hands, cap, voids, auc = borrow_nb(hands), borrow_nb(cap), borrow_nb(voids), borrow_nb(auc)
    played_at, played_pos = borrow_nb(played_at), borrow_nb(played_pos)
    cand, ahands, logw = borrow_nb(cand), borrow_nb(ahands), borrow_nb(logw)
    own = np.zeros(8 + 8 + 5 + 5, dtype=np.int64)
    buf = borrow_nb(own)
    world, vv = buf[0:8], buf[8:16]
    ah = buf[16:21]
    played_by = buf[21:26]     # per position: the cards it has played
    for q in range(n):
        vv[q] = voids[q]
    for c in range(64):
        if played_pos[c] >= 0:
            played_by[played_pos[c]] |= np.int64(1) << c
    for i in range(m):
        wkey = deal_key_nb(base, i)
        draw_world_nb(wkey, n + 1, me, hand, unseen, cap, vv, world)
        if decl != me:
            world[decl] |= pinned & hands[decl]
        for q in range(n + 1):
            cand[i, q] = world[q]
        if nauc > 0:
            auction_hands_nb(wkey, n, preset, me, world, open_mask, stock_pos,
                             rest_at, played_at, played_by, ah)
            logw[i] = auction_loglik_nb(n, preset, me, ah, open_mask, auc, nauc, tau, eps)
        else:
            logw[i] = 0.0
        for q in range(n):
            ahands[i, q] = ah[q]
    keep_nb(own)


@njit(cache=True)
def kept_worlds_nb(base, n, preset, me, hand, hands, stock_pos, unseen, cap, pinned, decl, voids,
                   open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps, worlds, idx,
                   cand, ahands, logw):
    """``CANDIDATES × worlds`` candidates (:func:`candidates_nb`, into ``cand``, their
    auction hands into ``ahands`` and log weights into ``logw``) resampled to ``worlds``
    indices ``idx`` (increasing, repeats adjacent); returns the Kish effective sample size
    of the weights (0.0: no candidate fits, they are kept evenly, unweighted)."""
    m = CANDIDATES * worlds
    candidates_nb(base, n, preset, me, hand, hands, stock_pos, unseen, cap, pinned, decl, voids,
                  open_mask, rest_at, auc, nauc, played_at, played_pos, tau, eps, m, cand,
                  ahands, logw)
    return resample_nb(deal_key_nb(base, RESAMPLE_OFFSET), logw, m, worlds, idx)


@njit(cache=True)
def strong_card_nb(dkey, n, preset, me, hand, legal, hands, deck, stock_pos, trump, t, leader,
                   tc, tn, played, known_out, pinned, decl, contract, bid, my_roem, in_mis, won,
                   cpts, voids, worlds, open_mask, rest_at, auc, nauc, played_at, played_pos):
    """The strong policy's card for position ``me``: the arguments of
    :func:`fastsim.boonaken_nb.pimc_card_nb`, ``worlds`` already multiplied by the
    engine (``STRONG_CARD_FACTOR``), then what the auction weighting reads: the open table
    cards, where the stock starts, the auction ``auc[:nauc]`` and per card the trick
    (``played_at``) and position (``played_pos``) it was played by (-1: not played)."""
    # the arguments and the scratch, borrowed: no reference counts per world (fastsim.refs_nb)
    tc, in_mis, won, cpts = borrow_nb(tc), borrow_nb(in_mis), borrow_nb(won), borrow_nb(cpts)
    own = np.zeros(3 * 15 + worlds, dtype=np.int64)     # cards, totals, v, idx
    buf = borrow_nb(own)
    cards, totals, v, idx = buf[0:15], buf[15:30], buf[30:45], buf[45:]
    unseen = FULL32 & ~(hand | played | known_out | pinned)
    n_legal = strong_cards_nb(legal, unseen | (pinned & ~hand), trump, tc, tn, cards)
    if n_legal == 1:
        c = cards[0]
        keep_nb(own)
        return c
    cap = world_capacity_nb(n, preset, me, hands, stock_pos, pinned, decl, unseen)
    base = deal_key_nb(dkey, KEY_STRONG_PLAY + t * 8 + me)
    cand_own = np.zeros((CANDIDATES * worlds, 6), dtype=np.int64)
    cand = borrow_nb(cand_own)
    kept_worlds_nb(base, n, preset, me, hand, hands, stock_pos, unseen, cap, pinned, decl, voids,
                   open_mask, rest_at, auc, nauc, played_at, played_pos, AUCTION_TAU,
                   AUCTION_EPS, worlds, idx, cand,
                   np.zeros((CANDIDATES * worlds, 5), dtype=np.int64),
                   np.empty(CANDIDATES * worlds, dtype=np.float64))
    deck2_own = deck.copy()
    deck2 = borrow_nb(deck2_own)
    for j in range(worlds):
        i = idx[j]
        if j == 0 or i != idx[j - 1]:     # a repeated world scores the same
            world_scores_nb(deal_key_nb(base, i), cand[i], n, preset, me, hand, cards, n_legal,
                            deck2, stock_pos, trump, t, leader, tc, tn, played, decl, contract,
                            bid, my_roem, in_mis, won, cpts, v)
        for k in range(n_legal):
            totals[k] += v[k]
    c = cards[best_index_nb(totals, n_legal)]
    keep_nb(own)
    keep_nb(cand_own)
    keep_nb(deck2_own)
    return c


# ----------------------------------------------------------------------------- before the play
# The auction and the exchange searched. A decision before the play draws worlds of the
# deal as the player may imagine it (:func:`table_world_nb`: the cards it has not seen,
# shuffled and dealt in deck order, so the seed preset's stock lies in a random drawing
# order), weights them by the auction so far under the same soft heuristic bidder as the
# card worlds (:func:`auction_loglik_nb`, on the hands the world deals), resamples, and
# scores every option on the same worlds by finishing the deal with the heuristic for
# everyone (:func:`play_out_nb`; the auction first by the heuristic bidder for the others,
# :func:`finish_auction_nb`). Objective: the player's own score of the deal (+1 made, −1
# failed, 0 without a contract), the tournaments' unit; ties go to the first option (pass;
# the heuristic's exchange and trump).

LIMITS = 16            # the auction's point options: bid on up to each of the next LIMITS levels
KEEPS_PER_TRUMP = 4    # exchange options per trump (point bids, boonaak), the heuristic's first
KEEPS_PLAIN = 8        # exchange options of misère and zwabber besides the heuristic's
MAX_OPTIONS = 24


@njit(cache=True, inline="always")
def layout_nb(n, preset):
    """(open_at, n_open, blind_at, n_blind, rest_at): where the engine deals the table."""
    base = 6 * n
    n_open = LAYOUT_OPEN[preset, n]
    n_blind = LAYOUT_BLIND[preset, n]
    if preset == PRESET_PAGAT and n <= 4:      # pagat: blind cards first, then the open ones
        blind_at = base
        open_at = base + n_blind
    else:
        open_at = base
        blind_at = base + n_open
    return open_at, n_open, blind_at, n_blind, base + n_open + n_blind


@njit(cache=True, inline="always")
def contract_of_nb(level):
    if level == MISERE:
        return CONTRACT_MISERE
    if level == ZWABBER:
        return CONTRACT_ZWABBER
    if level == BOONAAK:
        return CONTRACT_BOONAAK
    return CONTRACT_POINTS


@njit(cache=True)
def table_world_nb(wkey, n, preset, me, hand, open_mask, blind, blind_known, pool, deck, hands):
    """One world of the deal before the play as ``me`` (holding ``hand``) may imagine it:
    the cards it has not seen (not its hand, the open cards, nor the blind when
    ``blind_known``) in increasing code, shuffled with key ``wkey`` (counters 0..) and dealt
    in deck order: the other positions' six cards, the blind when not known, the rest (the
    seed preset's stock in its drawing order). Writes ``deck`` and ``hands[:n]`` (as
    dealt); returns the blind."""
    seen = hand | open_mask | (blind if blind_known else np.int64(0))
    u = list_cards_nb(FULL32 & ~seen, pool)
    shuffle_nb(wkey, 0, pool, 0, u - 1, u)
    open_at, n_open, blind_at, n_blind, rest_at = layout_nb(n, preset)
    q = 0
    for p in range(n):
        if p == me:
            list_cards_nb(hand, deck[6 * p:])
            hands[p] = hand
        else:
            m = np.int64(0)
            for k in range(6 * p, 6 * p + 6):
                deck[k] = pool[q]
                m |= np.int64(1) << pool[q]
                q += 1
            hands[p] = m
    list_cards_nb(open_mask, deck[open_at:])
    b = np.int64(0)
    if blind_known:
        list_cards_nb(blind, deck[blind_at:])
        b = blind
    else:
        for k in range(blind_at, blind_at + n_blind):
            deck[k] = pool[q]
            b |= np.int64(1) << pool[q]
            q += 1
    for k in range(rest_at, 32):
        deck[k] = pool[q]
        q += 1
    return b


@njit(cache=True)
def table_worlds_nb(base, n, preset, me, hand, open_mask, blind, blind_known, auc, nauc, tau,
                    eps, worlds, idx, logw):
    """The worlds of a decision before the play: ``CANDIDATES × worlds`` candidates
    (:func:`table_world_nb`, candidate i keyed ``deal_key(base, i)``), each weighted by the
    auction ``auc[:nauc]`` (every other position's call under the soft bidder ``tau``,
    ``eps`` on the hand the world deals it; log weights into ``logw``), resampled to
    ``worlds`` indices ``idx`` (increasing, repeats adjacent). Without a call of another
    position the first ``worlds`` candidates, unweighted. Returns the Kish effective sample
    size of the weights (0.0: no candidate fits; they are kept evenly, unweighted)."""
    others = 0
    for k in range(nauc):
        if auc[k, 0] != me:
            others += 1
    if others == 0:
        for j in range(worlds):
            idx[j] = j
            logw[j] = 0.0
        return float(worlds)
    m = CANDIDATES * worlds
    pool = np.empty(32, dtype=np.int64)
    deck = np.empty(32, dtype=np.int64)
    hands = np.zeros(5, dtype=np.int64)
    for i in range(m):
        table_world_nb(deal_key_nb(base, i), n, preset, me, hand, open_mask, blind, blind_known,
                       pool, deck, hands)
        logw[i] = auction_loglik_nb(n, preset, me, hands, open_mask, auc, nauc, tau, eps)
    return resample_nb(deal_key_nb(base, RESAMPLE_OFFSET), logw, m, worlds, idx)


@njit(cache=True)
def replay_auction_nb(n, auc, nauc, passed, in_mis, mis):
    """The auction's state after the calls ``auc[:nauc]``, kept as the engine keeps it:
    writes ``passed``, ``in_mis`` and ``mis`` (the misère players in order); returns
    (standing level, its holder, number of misère players, turn)."""
    for p in range(5):
        passed[p] = False
        in_mis[p] = False
    standing = -1
    holder = -1
    n_mis = 0
    turn = 0
    for k in range(nauc):
        q = auc[k, 0]
        standing, holder, n_mis = apply_call_nb(n, q, auc[k, 1], passed, in_mis, mis,
                                                standing, holder, n_mis)
        turn = q + 1
    return standing, holder, n_mis, turn


@njit(cache=True)
def finish_auction_nb(n, me, first, limit, est, wants, passed, in_mis, mis, standing, holder,
                      n_mis, turn):
    """The auction played on from its state (``passed``, ``in_mis``, ``mis``, changed in
    place; ``standing``, ``holder``, ``n_mis``, ``turn``), ``me`` to act: ``me`` calls
    ``first`` (-1: pass, else a level; 16 while a misère stands that it has not bid: a join),
    and at its later turns bids the next point level while that level's value is at most
    ``limit`` (``limit < 0``: acts as the heuristic bidder); everyone else is the
    heuristic bidder (``est``, ``wants`` per position; as the engine's auction).
    Returns (void, holder, standing, n_mis)."""
    first_turn = True
    while True:
        q = auction_next_nb(n, passed, in_mis, standing, holder, turn)
        if q < 0:
            return q == -2, holder, standing, n_mis
        can_join = standing == MISERE and not in_mis[q]
        if q == me and first_turn:
            action = first
            first_turn = False
        elif q == me and limit >= 0:
            lvl = next_level_nb(standing)
            action = lvl if lvl >= 0 and LADDER_VALUE[lvl] <= limit else -1
        else:
            action = heuristic_call_nb(wants[q, 0], wants[q, 1], wants[q, 2], est[q], standing,
                                       can_join)
        standing, holder, n_mis = apply_call_nb(n, q, action, passed, in_mis, mis, standing,
                                                holder, n_mis)
        turn = q + 1


@njit(cache=True)
def play_out_nb(n, preset, deck, dealt, open_mask, blind, rest_at, decl, standing, mis, n_mis,
                keep, trump, me, h2, won, cpts, in_mis, tc):
    """The deal ``deck`` (hands as ``dealt``) finished after an auction won by ``decl`` at
    ``standing`` (misère players ``mis[:n_mis]``): the declarer keeps ``keep`` and names
    ``trump`` (``keep < 0``: the heuristic's exchange and trump), then everyone plays the
    heuristic (the seed preset drawing from ``deck[rest_at:]``), judged as the engine
    judges it. Returns ``me``'s result: 1 made, 0 failed, -1 ``me`` plays no contract.
    ``h2``, ``won``, ``cpts``, ``in_mis``, ``tc``: scratch."""
    contract = contract_of_nb(standing)
    if keep < 0:
        table = open_mask | (blind if preset != PRESET_SEED else np.int64(0))
        keep, trump = heuristic_exchange_nb(dealt[decl] | table, contract, n, preset, n_mis, -2)
    for q in range(5):
        h2[q] = dealt[q] if q < n else 0
        won[q] = 0
        cpts[q] = 0
        in_mis[q] = False
    h2[decl] = keep
    if contract == CONTRACT_MISERE:
        for i in range(n_mis):
            in_mis[mis[i]] = True
    roem = 0
    if contract == CONTRACT_POINTS:
        roem = declarer_roem_nb(n, preset, decl, keep, h2, keep, trump)
    leader = decl if contract != CONTRACT_MISERE else mis[0]
    rollout_nb(n, preset, h2, deck, rest_at, trump, 0, leader, tc, 0, np.int64(0), contract,
               in_mis, won, cpts)
    if contract == CONTRACT_MISERE:
        if not in_mis[me]:
            return -1
        return 1 if won[me] == 0 else 0
    if me != decl:
        return -1
    if contract == CONTRACT_POINTS:
        return 1 if cpts[decl] + roem >= LADDER_VALUE[standing] else 0
    t = 0
    for q in range(n):
        t += won[q]
    return 1 if won[decl] == t else 0


@njit(cache=True)
def bid_options_nb(standing, can_join, first, limit):
    """The options of an auction turn at the standing level ``standing`` into ``first``
    (the call now) and ``limit`` (the value up to which it bids on later; -1: later the
    heuristic): pass; the next point level, bidding on up to each of the next ``LIMITS``
    point levels; misère (a bid, or a join while a misère stands that it may join),
    zwabber and boonaak while they are above the standing level. Returns how many."""
    first[0] = -1
    limit[0] = -1
    k = 1
    nxt = next_level_nb(standing)
    lvl = nxt
    for _ in range(LIMITS):
        if lvl < 0:
            break
        first[k] = nxt
        limit[k] = LADDER_VALUE[lvl]
        k += 1
        lvl = next_level_nb(lvl)
    if standing < MISERE or can_join:
        first[k] = MISERE
        limit[k] = -1
        k += 1
    if standing < ZWABBER:
        first[k] = ZWABBER
        limit[k] = -1
        k += 1
    if standing < BOONAAK:
        first[k] = BOONAAK
        limit[k] = -1
        k += 1
    return k


@njit(cache=True)
def bid_values_nb(dkey, n, preset, me, hand, open_mask, auc, nauc, worlds, first, limit, n_opt,
                  totals):
    """``totals[o]``: the summed score (+1 made, −1 failed, 0 no contract of mine) of
    option ``o`` over the auction turn's ``STRONG_AUCTION_FACTOR × worlds`` worlds (see
    :func:`strong_bid_nb`); returns their Kish effective sample size."""
    w = STRONG_AUCTION_FACTOR * worlds
    base = deal_key_nb(dkey, KEY_STRONG_BID + KEY_BK_AUCTION + nauc)
    idx = np.empty(w, dtype=np.int64)
    logw = np.empty(CANDIDATES * w, dtype=np.float64)
    ess = table_worlds_nb(base, n, preset, me, hand, open_mask, np.int64(0), False, auc, nauc,
                          AUCTION_TAU, AUCTION_EPS, w, idx, logw)
    passed0 = np.zeros(5, dtype=np.bool_)
    in_mis0 = np.zeros(5, dtype=np.bool_)
    mis0 = np.zeros(5, dtype=np.int64)
    standing0, holder0, n_mis0, turn0 = replay_auction_nb(n, auc, nauc, passed0, in_mis0, mis0)
    open_at, n_open, blind_at, n_blind, rest_at = layout_nb(n, preset)
    passed = np.zeros(5, dtype=np.bool_)
    in_mis = np.zeros(5, dtype=np.bool_)
    mis = np.zeros(5, dtype=np.int64)
    pool = np.empty(32, dtype=np.int64)
    deck = np.empty(32, dtype=np.int64)
    dealt = np.zeros(5, dtype=np.int64)
    est = np.zeros(5, dtype=np.int64)
    wants = np.zeros((5, 3), dtype=np.bool_)
    h2 = np.zeros(5, dtype=np.int64)
    won = np.zeros(5, dtype=np.int64)
    cpts = np.zeros(5, dtype=np.int64)
    im2 = np.zeros(5, dtype=np.bool_)
    tc = np.empty(5, dtype=np.int64)
    vals = np.zeros(MAX_OPTIONS, dtype=np.int64)
    o_decl = np.zeros(MAX_OPTIONS, dtype=np.int64)     # per option: the outcome played out
    o_level = np.zeros(MAX_OPTIONS, dtype=np.int64)    # (-1: none of mine)
    o_mis = np.zeros((MAX_OPTIONS, 5), dtype=np.int64)
    o_nmis = np.zeros(MAX_OPTIONS, dtype=np.int64)
    for o in range(n_opt):
        totals[o] = 0
    for j in range(w):
        i = idx[j]
        if j == 0 or i != idx[j - 1]:       # a repeated world scores the same
            blind = table_world_nb(deal_key_nb(base, i), n, preset, me, hand, open_mask,
                                   np.int64(0), False, pool, deck, dealt)
            for q in range(n):
                est[q] = estimate_nb(dealt[q], open_mask, n, preset)
                wants[q, 0], wants[q, 1], wants[q, 2] = wants_nb(dealt[q])
            for o in range(n_opt):
                vals[o] = 0
                o_level[o] = -1
                if first[o] < 0:
                    continue
                for p in range(5):
                    passed[p] = passed0[p]
                    in_mis[p] = in_mis0[p]
                    mis[p] = mis0[p]
                void, decl, level, n_mis = finish_auction_nb(n, me, first[o], limit[o], est,
                                                             wants, passed, in_mis, mis,
                                                             standing0, holder0, n_mis0, turn0)
                if void or not (decl == me or (level == MISERE and in_mis[me])):
                    continue
                o_decl[o] = decl
                o_level[o] = level
                o_nmis[o] = n_mis
                for p in range(n_mis):
                    o_mis[o, p] = mis[p]
                done = -1
                for o2 in range(o):          # the same outcome is played out once
                    if o_level[o2] == level and o_decl[o2] == decl and o_nmis[o2] == n_mis:
                        same = True
                        for p in range(n_mis):
                            if o_mis[o2, p] != mis[p]:
                                same = False
                        if same:
                            done = o2
                            break
                if done >= 0:
                    vals[o] = vals[done]
                else:
                    r = play_out_nb(n, preset, deck, dealt, open_mask, blind, rest_at, decl,
                                    level, mis, n_mis, np.int64(-1), -1, me, h2, won, cpts,
                                    im2, tc)
                    vals[o] = 2 * r - 1
        for o in range(n_opt):
            totals[o] += vals[o]
    return ess


@njit(cache=True)
def strong_bid_nb(dkey, n, preset, me, hand, open_mask, auc, nauc, worlds):
    """The strong policy's call at auction turn ``nauc`` (the calls so far ``auc[:nauc]``,
    as the engine records them) of position ``me`` holding ``hand``: every option of
    :func:`bid_options_nb` scored on the same ``STRONG_AUCTION_FACTOR × worlds`` worlds
    weighted by the auction so far, each finished by the heuristic (the auction by the
    heuristic bidder for the others, ``me`` bidding on as the option says); the best total
    of its own score wins (ties: the first: pass, then the lower limit). Returns -1 (pass)
    or a level."""
    passed = np.zeros(5, dtype=np.bool_)
    in_mis = np.zeros(5, dtype=np.bool_)
    mis = np.zeros(5, dtype=np.int64)
    standing, holder, n_mis, turn = replay_auction_nb(n, auc, nauc, passed, in_mis, mis)
    first = np.empty(MAX_OPTIONS, dtype=np.int64)
    limit = np.empty(MAX_OPTIONS, dtype=np.int64)
    n_opt = bid_options_nb(standing, standing == MISERE and not in_mis[me], first, limit)
    if n_opt == 1:
        return -1
    totals = np.zeros(MAX_OPTIONS, dtype=np.int64)
    bid_values_nb(dkey, n, preset, me, hand, open_mask, auc, nauc, worlds, first, limit, n_opt,
                  totals)
    return first[best_index_nb(totals, n_opt)]


@njit(cache=True)
def _keep_score_nb(sub, mode, t, n, preset):
    if mode == 0:
        return value_nb(sub, t, n, preset)
    s = 0
    x = sub
    while x:
        s += PLAIN_STRENGTH[lowest_nb(x) & 15]
        x &= x - 1
    return -s if mode == 1 else s


@njit(cache=True)
def _top_keeps_nb(holding, mode, t, n, preset, skip, count, keeps, trumps, k, lone):
    """Append to ``keeps``/``trumps`` (from index ``k``) the ``count`` six-card subsets of
    ``holding`` with the best static score (mode 0: the heuristic's hand value under
    trump ``t``; 1: the weakest plain cards; 2: the strongest), ``skip`` left out, in
    decreasing score (ties: the earlier subset of the enumeration); each with trump ``t``
    (``lone``: a lone leimuiden misère, the suit it keeps fewest of). Returns the new k."""
    cards = np.empty(16, dtype=np.int64)
    h = list_cards_nb(holding, cards)
    best = np.empty(KEEPS_PLAIN, dtype=np.int64)
    score = np.empty(KEEPS_PLAIN, dtype=np.int64)
    got = 0
    for mask in range(1 << h):
        if popcount_nb(np.int64(mask)) != 6:
            continue
        sub = np.int64(0)
        for i in range(h):
            if (mask >> i) & 1:
                sub |= np.int64(1) << cards[i]
        if sub == skip:
            continue
        v = _keep_score_nb(sub, mode, t, n, preset)
        if got == count and v <= score[got - 1]:
            continue
        j = got if got < count else count - 1
        while j > 0 and score[j - 1] < v:
            best[j] = best[j - 1]
            score[j] = score[j - 1]
            j -= 1
        best[j] = sub
        score[j] = v
        if got < count:
            got += 1
    for i in range(got):
        keeps[k] = best[i]
        trumps[k] = fewest_suit_nb(best[i]) if lone else t
        k += 1
    return k


@njit(cache=True)
def exchange_options_nb(holding, contract, n, preset, n_mis, keeps, trumps):
    """The exchange's options (six kept, trump): the heuristic's first; point bids and
    boonaak: for each trump the ``KEEPS_PER_TRUMP`` best other sixes by the heuristic's
    hand value; misère and zwabber: the ``KEEPS_PLAIN`` next-weakest / next-strongest
    sixes. Returns how many."""
    hk, ht = heuristic_exchange_nb(holding, contract, n, preset, n_mis, -2)
    keeps[0] = hk
    trumps[0] = ht
    k = 1
    if contract == CONTRACT_POINTS or contract == CONTRACT_BOONAAK:
        for t in range(4):
            k = _top_keeps_nb(holding, 0, t, n, preset, hk if t == ht else np.int64(-1),
                              KEEPS_PER_TRUMP, keeps, trumps, k, False)
    else:
        lone = contract == CONTRACT_MISERE and preset == PRESET_LEIMUIDEN and n_mis == 1
        k = _top_keeps_nb(holding, 1 if contract == CONTRACT_MISERE else 2, -1, n, preset, hk,
                          KEEPS_PLAIN, keeps, trumps, k, lone)
    return k


@njit(cache=True)
def exchange_values_nb(dkey, n, preset, me, hand, open_mask, blind, standing, mis, n_mis, auc,
                       nauc, worlds, keeps, trumps, n_opt, totals):
    """``totals[o]``: how often the contract is made with the declarer ``me`` keeping
    ``keeps[o]`` and naming ``trumps[o]``, over the exchange's ``STRONG_EXCHANGE_FACTOR ×
    worlds`` worlds (the other hands and the rest unseen, weighted by the whole auction),
    each finished by the heuristic. Returns the Kish effective sample size."""
    w = STRONG_EXCHANGE_FACTOR * worlds
    base = deal_key_nb(dkey, KEY_STRONG_BID + KEY_BK_EXCHANGE)
    idx = np.empty(w, dtype=np.int64)
    logw = np.empty(CANDIDATES * w, dtype=np.float64)
    ess = table_worlds_nb(base, n, preset, me, hand, open_mask, blind, True, auc, nauc,
                          AUCTION_TAU, AUCTION_EPS, w, idx, logw)
    open_at, n_open, blind_at, n_blind, rest_at = layout_nb(n, preset)
    pool = np.empty(32, dtype=np.int64)
    deck = np.empty(32, dtype=np.int64)
    dealt = np.zeros(5, dtype=np.int64)
    h2 = np.zeros(5, dtype=np.int64)
    won = np.zeros(5, dtype=np.int64)
    cpts = np.zeros(5, dtype=np.int64)
    im2 = np.zeros(5, dtype=np.bool_)
    tc = np.empty(5, dtype=np.int64)
    vals = np.zeros(MAX_OPTIONS, dtype=np.int64)
    for o in range(n_opt):
        totals[o] = 0
    for j in range(w):
        i = idx[j]
        if j == 0 or i != idx[j - 1]:
            table_world_nb(deal_key_nb(base, i), n, preset, me, hand, open_mask, blind, True,
                           pool, deck, dealt)
            for o in range(n_opt):
                vals[o] = play_out_nb(n, preset, deck, dealt, open_mask, blind, rest_at, me,
                                      standing, mis, n_mis, keeps[o], trumps[o], me, h2, won,
                                      cpts, im2, tc)
        for o in range(n_opt):
            totals[o] += vals[o]
    return ess


@njit(cache=True)
def strong_exchange_nb(dkey, n, preset, me, hand, open_mask, blind, contract, standing, mis,
                       n_mis, auc, nauc, worlds):
    """The six cards the strong declarer ``me`` keeps of its dealt ``hand`` and the table
    (``open_mask``, and in pagat/leimuiden the ``blind`` it picked up): the options of
    :func:`exchange_options_nb` scored on the same worlds (:func:`exchange_values_nb`);
    the most made wins (ties: the earlier option, the heuristic's first)."""
    keeps = np.empty(MAX_OPTIONS, dtype=np.int64)
    trumps = np.empty(MAX_OPTIONS, dtype=np.int64)
    table = open_mask | (blind if preset != PRESET_SEED else np.int64(0))
    n_opt = exchange_options_nb(hand | table, contract, n, preset, n_mis, keeps, trumps)
    totals = np.zeros(MAX_OPTIONS, dtype=np.int64)
    exchange_values_nb(dkey, n, preset, me, hand, open_mask, blind, standing, mis, n_mis, auc,
                       nauc, worlds, keeps, trumps, n_opt, totals)
    return keeps[best_index_nb(totals, n_opt)]


@njit(cache=True)
def strong_trump_nb(dkey, n, preset, me, hand, open_mask, blind, contract, standing, mis, n_mis,
                    auc, nauc, worlds, keep):
    """The strong declarer's trump for the six it kept (``keep``): the heuristic's trump
    (point bids and boonaak: the suit of the best estimate of hand and table; a lone
    leimuiden misère: the suit it keeps fewest of) and then the other suits, each scored
    on the exchange's worlds; the most made wins (ties: the earlier). Naming none is not
    searched (in the rollouts it is the suit of the first card named)."""
    table = open_mask | (blind if preset != PRESET_SEED else np.int64(0))
    if contract == CONTRACT_MISERE:
        h = fewest_suit_nb(keep)
    else:
        h, e = best_trump_nb(hand | table, n, preset)
    keeps = np.empty(MAX_OPTIONS, dtype=np.int64)
    trumps = np.empty(MAX_OPTIONS, dtype=np.int64)
    keeps[0] = keep
    trumps[0] = h
    k = 1
    for t in range(4):
        if t != h:
            keeps[k] = keep
            trumps[k] = t
            k += 1
    totals = np.zeros(MAX_OPTIONS, dtype=np.int64)
    exchange_values_nb(dkey, n, preset, me, hand, open_mask, blind, standing, mis, n_mis, auc,
                       nauc, worlds, keeps, trumps, k, totals)
    return trumps[best_index_nb(totals, k)]


# ----------------------------------------------------------------------------- for Python

@njit(cache=True)
def decide_bid_nb(seed, deal, n, preset, me, hand, open_mask, auc, nauc, worlds):
    """The strong call exactly as the simulator's deal ``deal`` of run ``seed`` makes it."""
    return strong_bid_nb(deal_key_nb(run_key_nb(seed), deal), n, preset, me, hand, open_mask,
                         auc, nauc, worlds)


@njit(cache=True)
def decide_exchange_nb(seed, deal, n, preset, me, hand, open_mask, blind, standing, mis, n_mis,
                       auc, nauc, worlds):
    """The strong exchange (the six kept) exactly as the simulator makes it."""
    return strong_exchange_nb(deal_key_nb(run_key_nb(seed), deal), n, preset, me, hand,
                              open_mask, blind, contract_of_nb(standing), standing, mis, n_mis,
                              auc, nauc, worlds)


@njit(cache=True)
def decide_trump_nb(seed, deal, n, preset, me, hand, open_mask, blind, standing, mis, n_mis, auc,
                    nauc, worlds, keep):
    """The strong trump for the six kept, exactly as the simulator names it."""
    return strong_trump_nb(deal_key_nb(run_key_nb(seed), deal), n, preset, me, hand, open_mask,
                           blind, contract_of_nb(standing), standing, mis, n_mis, auc, nauc,
                           worlds, keep)


@njit(cache=True)
def prep_worlds_nb(seed, deal, exchange, n, preset, me, hand, open_mask, blind, auc, nauc, tau,
                   eps, worlds, idx, logw, out):
    """The worlds a strong auction turn ``nauc`` (``exchange``: the declarer's exchange)
    would search, with the bidder model ``tau``, ``eps``: kept indices into ``idx``, the
    candidates' log weights into ``logw``, and per kept world the dealt hands
    (``out[j, :n]``) and the blind (``out[j, 5]``). Returns the Kish effective sample size
    (for tests and tools; ``worlds``: the number kept, the engine keeping
    ``STRONG_AUCTION_FACTOR`` / ``STRONG_EXCHANGE_FACTOR`` × its ``worlds``)."""
    dkey = deal_key_nb(run_key_nb(seed), deal)
    off = KEY_BK_EXCHANGE if exchange else KEY_BK_AUCTION + nauc
    base = deal_key_nb(dkey, KEY_STRONG_BID + off)
    ess = table_worlds_nb(base, n, preset, me, hand, open_mask, blind, exchange, auc, nauc, tau,
                          eps, worlds, idx, logw)
    pool = np.empty(32, dtype=np.int64)
    deck = np.empty(32, dtype=np.int64)
    hands = np.zeros(5, dtype=np.int64)
    for j in range(worlds):
        b = table_world_nb(deal_key_nb(base, idx[j]), n, preset, me, hand, open_mask, blind,
                           exchange, pool, deck, hands)
        for q in range(n):
            out[j, q] = hands[q]
        out[j, 5] = b
    return ess


@njit(cache=True)
def finish_deal_nb(n, preset, deck, dealt, open_mask, blind, rest_at, auc, nauc, me, first, limit):
    """For tests: the auction ``auc[:nauc]`` played on by :func:`finish_auction_nb` (me
    calling ``first``, then bidding up to ``limit``; the others the heuristic) and the deal
    finished by :func:`play_out_nb`. Returns (void, declarer, level, me's result)."""
    passed = np.zeros(5, dtype=np.bool_)
    in_mis = np.zeros(5, dtype=np.bool_)
    mis = np.zeros(5, dtype=np.int64)
    standing, holder, n_mis, turn = replay_auction_nb(n, auc, nauc, passed, in_mis, mis)
    est = np.zeros(5, dtype=np.int64)
    wants = np.zeros((5, 3), dtype=np.bool_)
    for q in range(n):
        est[q] = estimate_nb(dealt[q], open_mask, n, preset)
        wants[q, 0], wants[q, 1], wants[q, 2] = wants_nb(dealt[q])
    void, decl, level, n_mis = finish_auction_nb(n, me, first, limit, est, wants, passed,
                                                 in_mis, mis, standing, holder, n_mis, turn)
    if void:
        return True, -1, -1, -1
    r = play_out_nb(n, preset, deck, dealt, open_mask, blind, rest_at, decl, level, mis, n_mis,
                    np.int64(-1), -1, me, np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64),
                    np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.bool_),
                    np.empty(5, dtype=np.int64))
    return False, decl, level, r
