"""Boerenbridge's learned card model (issue #14, sixth push): a conditional-logit model of
how a searching player (``strong``) chooses its card, fitted to strong's self-play by
``tools/cardmodel.py`` and used as a policy of its own (``learned``: the highest-scoring
legal card) and inside strong's rollouts (``strongl``: the players of the rollouts play the
learned card instead of the heuristic's).

A card ``c`` of the player to act gets the score ``W[ctx] · f(c)``: ``ctx`` one of
:data:`N_CTX` situations (the need state — over the bid, on it, short of it, or needing
every trick left — times the role — leading, following suit before the last, following
suit as the last, void in the led suit), ``f(c)`` the :data:`N_FEAT` features below, all
computed from what the player sees: its hand, the cards played and the turned card, the
trick so far, the bids and the tricks taken (public). No hidden card is read.

Features of a legal card ``c`` (in this order, :data:`FEATURES`):

0. ``heur``: ``c`` is the heuristic's card;
1. ``wins``: ``c`` beats the trick's current winner (0 when leading);
2. ``sure``: ``c`` takes the trick whatever is unseen (leading or winning: no unseen card
   of its suit is higher, and it is a trump or no trump is unseen; the last to play:
   ``wins``);
3. ``top``: no unseen card of its suit is higher;
4. ``trump``: ``c`` is a trump;
5. ``rank``: rank index / 12;
6. ``above``: unseen cards of its suit above it, capped at 4, / 4;
7. ``lowest``: the lowest card held of its suit;
8. ``highest``: the highest card held of its suit;
9. ``len``: cards held of its suit / 8;
10. ``single``: the only card held of a non-trump suit (playing it makes a void);
11. ``out``: unseen cards of its suit, capped at 8, / 8;
12. ``takes_needy``: ``wins`` and the current winner still needs a trick;
13. ``takes_over``: ``wins`` and the current winner is at or over its bid.

The weights are generated (``fastsim/cardmodel_weights.py``); compiled constants. strongl,
strong whose rollouts play this model, is :func:`fastsim.boerenbridge_strong_nb.strong_card_nb`
with a rollout mode.

A second set of weights of the same model (``fastsim/cardmodel_weights_ismcts.py``, issue
#14's seventh push) is fitted to OpenSpiel IS-MCTS 1000's card decisions recorded through
the bridge (``tools/cardmodel.py ismcts``); ``strongi`` is strong whose rollouts play that
model for the other players. Both sets are stacked in :data:`W`; the kernels take a model
index.
"""
import numpy as np
from ._jit import njit

from .bits import popcount_nb, lowest_nb, highest_nb, suit_mask_nb
from .boerenbridge_schema import MAX_SEATS
from .cardmodel_weights import CARD_WEIGHTS
from .cardmodel_weights_ismcts import CARD_WEIGHTS as ISMCTS_CARD_WEIGHTS
from .play_nb import FULL52, above_nb, heuristic_play_nb

FEATURES = ("heur", "wins", "sure", "top", "trump", "rank", "above", "lowest", "highest",
            "len", "single", "out", "takes_needy", "takes_over")
N_FEAT = len(FEATURES)
NEED_STATES = ("over", "exact", "short", "all")
ROLES = ("lead", "follow", "follow_last", "void")
N_CTX = len(NEED_STATES) * len(ROLES)
# the models, stacked (``W[model]``; the kernels take a model index): 0 fitted to strong's
# self-play (learned, strongl), 1 to OpenSpiel IS-MCTS 1000's cards through the bridge
# (strongi, issue #14's seventh push)
MODEL_STRONG = 0
MODEL_ISMCTS = 1
W = np.stack((CARD_WEIGHTS, ISMCTS_CARD_WEIGHTS))



@njit(cache=True, inline="always")
def context_nb(need, left, j, n, follows):
    """The situation index: need state × role."""
    if need < 0:
        s = 0
    elif need == 0:
        s = 1
    elif need < left:
        s = 2
    else:
        s = 3
    if j == 0:
        r = 0
    elif not follows:
        r = 3
    elif j == n - 1:
        r = 2
    else:
        r = 1
    return s * 4 + r


@njit(cache=True, inline="always")
def beats_nb(c, winner, trump):
    """Does ``c`` beat the trick's current winning card ``winner``?"""
    cs = c >> 4
    ws = winner >> 4
    return (cs == ws and c > winner) or (cs == trump and ws != trump)


@njit(cache=True, inline="always")
def feature_values_nb(c, hand, j, n, winner, win_need, trump, tmask, unseen, heur):
    """The :data:`N_FEAT` features of card ``c`` (module docstring), in order, as a tuple:
    the one place they are computed (:func:`card_features_nb` stores them,
    :func:`card_score_nb` weighs them); ``win_need``: the current winner's bid minus its
    tricks (ignored when leading), ``tmask`` the trump suit's mask (0: no trump)."""
    s = c >> 4
    smask = suit_mask_nb(s)
    held = hand & smask
    un_s = unseen & smask
    un_above = popcount_nb(above_nb(c) & un_s)
    is_trump = trump >= 0 and s == trump
    no_trump_out = (unseen & tmask) == 0
    top = un_above == 0
    wins = j > 0 and beats_nb(c, winner, trump)
    if j == 0:
        sure = top and (is_trump or no_trump_out)
    elif j == n - 1:
        sure = wins
    else:
        sure = wins and top and (is_trump or no_trump_out)
    ln = popcount_nb(held)
    return (1.0 if c == heur else 0.0,
            1.0 if wins else 0.0,
            1.0 if sure else 0.0,
            1.0 if top else 0.0,
            1.0 if is_trump else 0.0,
            (c & 15) / 12.0,
            min(un_above, 4) / 4.0,
            1.0 if lowest_nb(held) == c else 0.0,
            1.0 if highest_nb(held) == c else 0.0,
            ln / 8.0,
            1.0 if (ln == 1 and not is_trump) else 0.0,
            min(popcount_nb(un_s), 8) / 8.0,
            1.0 if (wins and win_need > 0) else 0.0,
            1.0 if (wins and win_need <= 0) else 0.0)


@njit(cache=True)
def card_features_nb(c, hand, j, n, led, winner, win_need, trump, unseen, heur, f):
    """The features of card ``c`` into ``f[:N_FEAT]`` (:func:`feature_values_nb`)."""
    tmask = suit_mask_nb(trump) if trump >= 0 else np.int64(0)
    x = feature_values_nb(c, hand, j, n, winner, win_need, trump, tmask, unseen, heur)
    for i in range(N_FEAT):
        f[i] = x[i]


@njit(cache=True)
def decision_features_nb(hand, legal, j, n, led, winner, win_need, trump, need, left, played,
                         cards, feats):
    """Every legal card (increasing code) into ``cards`` and its features into
    ``feats[k, :N_FEAT]``; returns (number of legal cards, situation index)."""
    unseen = FULL52 & ~(hand | played)
    heur = heuristic_play_nb(hand, j, n, led, winner, trump, need, unseen)
    follows = j > 0 and (hand & suit_mask_nb(led)) != 0
    ctx = context_nb(need, left, j, n, follows)
    k = 0
    m = legal
    while m:
        c = lowest_nb(m)
        m &= m - 1
        cards[k] = c
        card_features_nb(c, hand, j, n, led, winner, win_need, trump, unseen, heur, feats[k])
        k += 1
    return k, ctx


@njit(cache=True, inline="always")
def winner_pos_nb(tc, j, leader, n, winner):
    """The position that played ``winner`` to the trick ``tc[:j]`` led by ``leader``."""
    for k in range(j):
        if tc[k] == winner:
            p = leader + k
            return p - n if p >= n else p
    return leader


@njit(cache=True, inline="always")
def card_score_nb(c, hand, j, n, winner, win_need, trump, tmask, unseen, heur, ctx, model):
    """``W[model, ctx] · f(c)`` without storing ``f``: :func:`feature_values_nb`'s features, each
    product added in order (the tests hold the policy to the argmax of the stored
    features)."""
    x = feature_values_nb(c, hand, j, n, winner, win_need, trump, tmask, unseen, heur)
    v = 0.0           # unrolled: a tuple indexed by a loop variable is slower
    v += W[model, ctx, 0] * x[0]
    v += W[model, ctx, 1] * x[1]
    v += W[model, ctx, 2] * x[2]
    v += W[model, ctx, 3] * x[3]
    v += W[model, ctx, 4] * x[4]
    v += W[model, ctx, 5] * x[5]
    v += W[model, ctx, 6] * x[6]
    v += W[model, ctx, 7] * x[7]
    v += W[model, ctx, 8] * x[8]
    v += W[model, ctx, 9] * x[9]
    v += W[model, ctx, 10] * x[10]
    v += W[model, ctx, 11] * x[11]
    v += W[model, ctx, 12] * x[12]
    v += W[model, ctx, 13] * x[13]
    return v


@njit(cache=True)
def model_card_nb(model, hand, legal, j, n, h, t, led, winner, win_need, trump, need, played):
    """The card of model ``model`` (:data:`MODEL_STRONG`, :data:`MODEL_ISMCTS`): the legal
    card of the highest score ``W[model, ctx] · f(c)`` (ties: the lowest code)."""
    if (legal & (legal - 1)) == 0:
        return lowest_nb(legal)
    unseen = FULL52 & ~(hand | played)
    heur = heuristic_play_nb(hand, j, n, led, winner, trump, need, unseen)
    follows = j > 0 and (hand & suit_mask_nb(led)) != 0
    ctx = context_nb(need, h - t, j, n, follows)
    tmask = suit_mask_nb(trump) if trump >= 0 else np.int64(0)
    best = -1
    best_v = 0.0
    m = legal
    while m:
        c = lowest_nb(m)
        m &= m - 1
        v = card_score_nb(c, hand, j, n, winner, win_need, trump, tmask, unseen, heur, ctx,
                          model)
        if best < 0 or v > best_v:
            best = c
            best_v = v
    return best


@njit(cache=True)
def learned_card_nb(hand, legal, j, n, h, t, led, winner, win_need, trump, need, played):
    """The learned policy's card: :func:`model_card_nb` of the model fitted to strong."""
    return model_card_nb(MODEL_STRONG, hand, legal, j, n, h, t, led, winner, win_need, trump,
                         need, played)


@njit(cache=True)
def replay_features_nb(n, h, hands, trump, turned, bids, cards, f_cards, f_feats,
                       f_ctx, f_nlegal, f_choice, f_pos, f_trick, f_heur):
    """Every card decision of one recorded deal with more than one legal card, as its
    player saw it: ``hands`` by position as dealt, ``cards[t, j]`` the ``j``-th card of
    trick ``t`` (position 0 leads the first trick, each trick's winner the next). Row ``r``: the legal cards
    ``f_cards[r]`` (-1 padded), their features ``f_feats[r]``, the situation, how many,
    the index of the card played, the position, the trick, and the index of the
    heuristic's card (-1: none). Returns the rows written."""
    cur = hands.copy()
    won = np.zeros(MAX_SEATS, dtype=np.int64)
    played = np.int64(1) << turned
    r = 0
    leader = 0
    for t in range(h):
        led = -1
        winner = -1
        win_pos = leader
        for j in range(n):
            p = (leader + j) % n
            hand = cur[p]
            c = cards[t, j]
            legal = hand
            if j > 0 and (hand & suit_mask_nb(led)) != 0:
                legal = hand & suit_mask_nb(led)
            if popcount_nb(legal) > 1:
                wn = bids[win_pos] - won[win_pos] if j > 0 else 0
                k, ctx = decision_features_nb(hand, legal, j, n, led, winner, wn, trump,
                                              bids[p] - won[p], h - t, played,
                                              f_cards[r], f_feats[r])
                f_ctx[r] = ctx
                f_nlegal[r] = k
                f_pos[r] = p
                f_trick[r] = t
                f_choice[r] = -1
                f_heur[r] = -1
                for i in range(k):
                    if f_cards[r, i] == c:
                        f_choice[r] = i
                    if f_feats[r, i, 0] > 0.5:
                        f_heur[r] = i
                r += 1
            if j == 0:
                led = c >> 4
                winner = c
                win_pos = p
            elif beats_nb(c, winner, trump):
                winner = c
                win_pos = p
            cur[p] = hand & ~(np.int64(1) << c)
            played |= np.int64(1) << c
        won[win_pos] += 1
        leader = win_pos
    return r
