"""Simulation results → tidy pandas DataFrames (one row per deal and seat).

Columns (dtypes are kept through Parquet):

=============  ========  ====================================================
game           category  game name ("boerenbridge")
players        int8      number of players
deal           int64     global deal index (the RNG key)
game_index     int64     game number within the run
deal_no        int16     deal number within the game (0-based)
hand_size      int8
dealer         int8      dealer's seat
seat           int8
position       int8      0 = left of the dealer … players−1 = dealer
policy         category  the seat's policy
trump          category  trump suit S/H/D/C, or NT in a no-trump deal
trump_card     int8      card code of the turned card
forbidden      int8      the dealer's forbidden bid, −1 if none
hand           int64     the dealt hand as a bit mask
bid, tricks    int8
score          int16
exact          bool      bid == tricks
trump_count    int8      trumps held (0 in a no-trump deal)
high_trumps    int8      trump J, Q, K, A held
aces, kings    int8      aces / kings held (any suit)
voids          int8      non-trump suits without a card
longest_suit   int8      length of the longest suit
strength       float32   the heuristic's hand value in tricks (docs/boerenbridge.md)
=============  ========  ====================================================
"""
import numpy as np
import pandas as pd

from fastsim.features_nb import (RANK_MASK, SMALL_FEATURES, boerenbridge_rows_nb,
                                 hand_features_2d_nb, hand_features_nb)
from fastsim.boerenbridge_schema import GAME, POLICY_NAMES
from .summary import positions_of

SUIT_LABELS = ["S", "H", "D", "C", "NT"]


def hand_features(hands, trumps):
    """Feature columns of hands (int64 masks) under their trump suit (−1 = none)."""
    small, strength = hand_features_nb(np.ascontiguousarray(hands, dtype=np.int64),
                                       np.ascontiguousarray(trumps, dtype=np.int64))
    return dict(zip(SMALL_FEATURES, small)) | {"strength": strength}


def tidy(result):
    """A simulation result of any game → its tidy DataFrame (the game's registry entry)."""
    from .games import of_result
    return of_result(result).tidy(result)


def arrow_table(cols):
    """Columns (numpy arrays; ``pd.Categorical`` for the categories) → a pyarrow Table of
    exactly the types ``pa.Table.from_pandas(pd.DataFrame(cols))`` gives, without building
    the DataFrame (numeric columns are not copied)."""
    import pyarrow as pa
    arrays = {}
    for name, v in cols.items():
        if isinstance(v, pd.Categorical):
            codes = v.codes
            missing = codes < 0
            arrays[name] = pa.DictionaryArray.from_arrays(
                pa.array(codes, mask=missing if missing.any() else None), pa.array(v.categories))
        elif isinstance(v, pd.arrays.BooleanArray):
            arrays[name] = pa.array(v._data, mask=v._mask if v._mask.any() else None)
        else:
            arrays[name] = pa.array(v)
    return pa.table(arrays).replace_schema_metadata(_pandas_metadata(cols))


_PANDAS_META = {}


def _pandas_metadata(cols):
    """pandas' own schema metadata of the frame of ``cols`` (dtypes such as the nullable
    boolean, the categories), taken from the empty frame, so that the table reads back
    exactly as the DataFrame. It depends on the names, dtypes and categories only, and
    costs ~8 ms (pandas and pyarrow's bridge), so it is kept per such signature: a
    streamed run's chunks and row groups all share one."""
    key = tuple((name, str(v.dtype), tuple(v.categories) if isinstance(v, pd.Categorical)
                 else None, v.ordered if isinstance(v, pd.Categorical) else None)
                for name, v in cols.items())
    meta = _PANDAS_META.get(key)
    if meta is None:
        import pyarrow as pa
        empty = pd.DataFrame({name: v[:0] for name, v in cols.items()})
        meta = pa.Schema.from_pandas(empty, preserve_index=False).metadata
        if len(_PANDAS_META) > 64:      # a long-lived process with many set-ups
            _PANDAS_META.clear()
        _PANDAS_META[key] = meta
    return meta


def tidy_boerenbridge(result):
    """A :class:`fastsim.boerenbridge.Result` → tidy DataFrame (see the module doc)."""
    return pd.DataFrame(columns_boerenbridge(result))


def arrow_boerenbridge(result):
    """The same table as :func:`tidy_boerenbridge`, straight into Arrow (the streamed
    results path)."""
    return arrow_table(columns_boerenbridge(result))


def tidy_bonken(result):
    """Bonken's tidy DataFrame (:func:`columns_bonken`)."""
    return pd.DataFrame(columns_bonken(result))


def tidy_klaverjassen(result):
    """Klaverjassen's tidy DataFrame (:func:`columns_klaverjassen`)."""
    return pd.DataFrame(columns_klaverjassen(result))


def tidy_boonaken(result):
    """Boonaken's tidy DataFrame of single deals (:func:`columns_boonaken`)."""
    return pd.DataFrame(columns_boonaken(result))


def _bb_policy_categories(policies):
    """The policy column's categories: the four every game has (random, heuristic, pimc,
    strong), and Boerenbridge's own codes of issue #14's sixth push (learned, strongl, the
    experiment's unnamed codes) only up to the highest one a seat plays, so that a run of
    the four keeps its table's schema."""
    k = max(4, int(np.max(policies)) + 1) if len(policies) else 4
    return [POLICY_NAMES.get(i, f"code{i}") for i in range(k)]


def columns_boerenbridge(result):
    """The tidy table's columns, as a dict of arrays (see the module doc): the per-row
    columns and the hand features compiled (:mod:`fastsim.features_nb`)."""
    d = result.deals
    n = result.rules.players
    rows = len(d["deal"])
    m = rows * n
    (deal, game, deal_no, hand_size, dealer, seat, position, trump, trump_card, forbidden,
     exact) = boerenbridge_rows_nb(d["deal"], d["game"], d["deal_no"], d["hand_size"],
                                   d["dealer"], d["trump"], d["trump_card"], d["forbidden"],
                                   d["bids"], d["tricks"])
    small, strength = hand_features_2d_nb(d["hands"], d["trump"])
    cols = {
        "game": pd.Categorical.from_codes(np.zeros(m, dtype=np.int8), categories=[GAME]),
        "players": np.full(m, n, dtype=np.int8),
        "deal": deal,
        "game_index": game,
        "deal_no": deal_no,
        "hand_size": hand_size,
        "dealer": dealer,
        "seat": seat,
        "position": position,
        "policy": pd.Categorical.from_codes(
            np.tile(result.policies.astype(np.int8), rows),
            categories=_bb_policy_categories(result.policies)),
        "trump": pd.Categorical.from_codes(trump, categories=SUIT_LABELS),
        "trump_card": trump_card,
        "forbidden": forbidden,
        "hand": d["hands"].ravel(),
        "bid": d["bids"].ravel(),
        "tricks": d["tricks"].ravel(),
        "score": d["scores"].ravel(),
        "exact": exact,
    }
    cols.update(zip(SMALL_FEATURES, small))
    cols["strength"] = strength
    return cols


def bonken_features(hands):
    """Bonken hand features of (rows, 4) ``hands`` (int64 masks), flattened row by row:
    hearts, aces, kings, queens, jacks held, king_of_hearts, longest_suit, voids, trick
    strength at no trump (the heuristic's hand value in tricks), and the Domino spread
    (sum of |rank − 8| in rank steps); one compiled pass (``fastsim.features_nb``)."""
    from fastsim.features_nb import BONKEN_FEATURES, bonken_features_nb
    hands = np.asarray(hands, dtype=np.int64)
    small, strength, spread = bonken_features_nb(hands if hands.ndim == 2 else hands[:, None])
    out = dict(zip(BONKEN_FEATURES, small))
    out["king_of_hearts"] = out["king_of_hearts"].view(np.bool_)
    order = ("hearts", "aces", "kings", "queens", "jacks", "king_of_hearts", "longest_suit",
             "voids")
    return {**{k: out[k] for k in order}, "strength": strength, "domino_spread": spread}


def columns_bonken(result):
    """A :class:`fastsim.bonken.Result` → tidy columns: one row per (round, seat) with
    game, deal, game_index, round, dealer, seat, position (0 leads, 1 chooses, 3 deals),
    chooser, policy, contract, n_tricks, hand, tricks, score, domino_loser and the features
    of :func:`bonken_features`."""
    from fastsim.bonken_schema import CONTRACTS, GAME as BGAME, POLICY_NAMES as BNAMES
    from fastsim.common import POLICY_NAMES as SHARED_NAMES
    d = result.deals
    rows = len(d["deal"])
    rep = lambda a: np.repeat(a, 4)  # noqa: E731
    seats = np.tile(np.arange(4, dtype=np.int8), rows)
    pos = positions_of(d, 4).astype(np.int8).ravel()
    hands = d["hands"]
    cols = {
        "game": pd.Categorical.from_codes(np.zeros(rows * 4, dtype=np.int8), categories=[BGAME]),
        "players": np.full(rows * 4, 4, dtype=np.int8),
        "deal": rep(d["deal"]),
        "game_index": rep(d["game"]),
        "round": rep(d["round"]),
        "dealer": rep(d["dealer"]),
        "seat": seats,
        "position": pos,
        "chooser": pos == 1,
        # the shared policy names, and Bonken's own (strong) only in a run that seats it
        # (as a policy of your own: agents.tidy_named), so the other runs' frames are unchanged
        "policy": pd.Categorical.from_codes(
            np.tile(result.policies.astype(np.int64), rows),
            categories=[BNAMES[i] for i in sorted(BNAMES)
                        if i in SHARED_NAMES or i in set(result.policies.astype(int).tolist())]),
        "contract": pd.Categorical.from_codes(rep(d["contract"]).astype(np.int64),
                                              categories=CONTRACTS),
        "n_tricks": rep(d["n_tricks"]),
        "hand": hands.ravel(),
        "tricks": d["tricks"].ravel(),
        "score": d["scores"].ravel(),
        "domino_loser": rep(d["loser"]) == seats,
    }
    cols.update(bonken_features(hands))
    return cols


def columns_klaverjassen(result):
    """A :class:`fastsim.klaverjassen.Result` → tidy columns, one row per (deal, seat): game, deal,
    game_index, deal_no, dealer, seat, position (0 names first), team, policy, trump,
    playing (the seat's team plays), caller, forced, hand, tricks, team_score, margin (team
    score − the other team's), card_points, roem (the team's), nat (the team played and went
    nat), pit (the team took every trick), and the hand's features under the deal's trump:
    trump_count, trump_jack, trump_nine, aces (non-trump), call_value."""
    from fastsim import klaverjassen_nb as knb
    from fastsim.klaverjassen_schema import GAME as KGAME, POLICY_NAMES as KNAMES
    d = result.deals
    rows = len(d["deal"])
    rep = lambda a: np.repeat(a, 4)  # noqa: E731
    seats = np.tile(np.arange(4, dtype=np.int8), rows)
    team = seats % 2
    ridx = np.repeat(np.arange(rows), 4)
    hands = d["hands"].ravel()
    trump = rep(d["trump"]).astype(np.int64)
    ts = d["team_scores"].astype(np.int64)
    tr_ranks = (hands >> (16 * trump)) & RANK_MASK
    aces = sum(((hands >> (16 * s + 12)) & 1) * (trump != s) for s in range(4))
    playing = rep(d["playing_team"]) == team
    cols = {
        "game": pd.Categorical.from_codes(np.zeros(rows * 4, dtype=np.int8), categories=[KGAME]),
        "deal": rep(d["deal"]),
        "game_index": rep(d["game"]),
        "deal_no": rep(d["deal_no"]),
        "dealer": rep(d["dealer"]),
        "seat": seats,
        "position": positions_of(d, 4).astype(np.int8).ravel(),
        "team": team.astype(np.int8),
        "policy": pd.Categorical.from_codes(np.tile(result.policies.astype(np.int64), rows),
                                            categories=[KNAMES[i] for i in sorted(KNAMES)]),
        "trump": pd.Categorical.from_codes(trump, categories=SUIT_LABELS[:4]),
        "playing": playing,
        "caller": rep(d["caller"]) == seats,
        "forced": rep(d["forced"]),
        "hand": hands,
        "tricks": d["tricks"].ravel(),
        "team_score": ts[ridx, team].astype(np.int16),
        "margin": (ts[ridx, team] - ts[ridx, 1 - team]).astype(np.int16),
        "card_points": d["card_points"][ridx, team],
        "roem": d["roem"][ridx, team],
        "nat": playing & rep(d["nat"]),
        "pit": rep(d["pit"]) == team,
        "trump_count": np.bitwise_count(tr_ranks).astype(np.int8),
        "trump_jack": ((tr_ranks >> 9) & 1).astype(bool),
        "trump_nine": ((tr_ranks >> 7) & 1).astype(bool),
        "aces": aces.astype(np.int8),
        "call_value": knb.call_values_serial_nb(hands, trump).astype(np.int16),
    }
    return cols


def columns_boonaken(result):
    """A :class:`fastsim.boonaken.Result` → tidy columns, one row per (deal, seat): game, preset, players,
    deal, dealer, seat, position, policy, void, contract, bid (point value, 0 otherwise),
    trump, declarer (this seat declares), misere_player, made (this seat's result; missing
    for non-declarers), tricks, card_points, roem (the declarer's counted roem), hand (as
    dealt), hand_points (card points of the dealt hand under the deal's trump)."""
    from fastsim import boonaken_nb as bnb
    from fastsim.boonaken_schema import CONTRACTS, GAME as OGAME, POLICY_NAMES as ONAMES
    d = result.deals
    info = d["info"]
    n = result.rules.players
    rows = len(info)
    dealer = result.rules.first_dealer
    rep = lambda a: np.repeat(a, n)  # noqa: E731
    seats = np.tile(np.arange(n, dtype=np.int8), rows)
    hands = d["hands"].ravel()
    trump = rep(info[:, bnb.I_TRUMP])
    void = rep(info[:, bnb.I_VOID]).astype(bool)
    res = d["result"].ravel()
    decl_seat = (dealer + 1 + info[:, bnb.I_DECL]) % n
    mis = d["misere"]
    hp = bnb.mask_points_serial_nb(hands, trump).astype(np.int16)
    contract = np.where(void, 0, rep(info[:, bnb.I_CONTRACT]))
    return {
        "game": pd.Categorical.from_codes(np.zeros(rows * n, dtype=np.int8), categories=[OGAME]),
        "preset": pd.Categorical.from_codes(np.full(rows * n, ["seed", "pagat", "leimuiden"].index(result.rules.preset), dtype=np.int8),
                                            categories=["seed", "pagat", "leimuiden"]),
        "players": np.full(rows * n, n, dtype=np.int8),
        "deal": np.repeat(np.arange(rows, dtype=np.int64) + result.start, n),
        "dealer": np.full(rows * n, dealer, dtype=np.int8),
        "seat": seats,
        "position": ((seats.astype(np.int64) - dealer - 1) % n).astype(np.int8),
        "policy": pd.Categorical.from_codes(np.tile(result.policies.astype(np.int64), rows),
                                            categories=[ONAMES[i] for i in sorted(ONAMES)]),
        "void": void,
        "contract": pd.Categorical.from_codes(np.where(void, -1, contract), categories=CONTRACTS),
        "bid": np.where(void, 0, rep(info[:, bnb.I_BID])).astype(np.int16),
        "trump": pd.Categorical.from_codes(np.where(void | (trump < 0), -1, trump),
                                           categories=SUIT_LABELS[:4]),
        "declarer": ~void & (rep(decl_seat) == seats),
        "misere_player": ~void & (np.repeat(mis, n, axis=0) == seats[:, None]).any(axis=1),
        "made": pd.arrays.BooleanArray(res == 1, res < 0),
        "tricks": d["tricks"].ravel().astype(np.int8),
        "card_points": d["card_points"].ravel().astype(np.int16),
        "roem": np.where(rep(decl_seat) == seats, rep(info[:, bnb.I_ROEM]), 0).astype(np.int16),
        "hand": hands,
        "hand_points": hp,
    }
