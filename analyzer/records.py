"""Turn recorded deals into the shared ``--record-play`` JSON shape.

One object per deal: ``players``, ``hand_size``, ``dealer`` (seat), ``hands`` (per seat, card
strings sorted by card code), ``trump_card``, ``trump`` (suit letter or null), ``bids``,
``tricks`` (each ``{"leader", "cards": [[seat, card], ...], "winner"}``, seats),
``tricks_won`` and ``scores`` (per seat). Other games extend this shape.
"""
import json

import numpy as np

from fastsim.cards import SUITS, card_str, codes_of


def _rows(result, start, stop, n=4):
    """Rows ``start:stop`` of a result made with ``record=True``: ``(row, dealer, seat)``
    with ``seat`` mapping a position (0 = left of the dealer) to its seat."""
    if result.play is None:
        raise ValueError("the simulation was not run with record=True")
    d = result.deals
    stop = len(d["deal"]) if stop is None else stop
    for r in range(start, stop):
        dealer = int(d["dealer"][r])
        yield r, dealer, lambda p, dealer=dealer: (dealer + 1 + int(p)) % n


def _hands(d, r, n, notation):
    """Every seat's dealt hand of row ``r`` as card strings sorted by code."""
    return [[card_str(c, notation) for c in codes_of(d["hands"][r, s])] for s in range(n)]


def deal_records(result, start=0, stop=None, notation="en"):
    """Yield the record dicts of rows ``start:stop`` of a result made with ``record=True``."""
    d, play = result.deals, result.play
    n = result.rules.players
    for r, dealer, seat in _rows(result, start, stop, n):
        h = int(d["hand_size"][r])
        tricks = _tricks(play, r, h, seat, notation, n)
        trump = int(d["trump"][r])
        yield {
            "players": n,
            "hand_size": h,
            "dealer": dealer,
            "hands": _hands(d, r, n, notation),
            "trump_card": card_str(d["trump_card"][r], notation),
            "trump": SUITS[trump] if trump >= 0 else None,
            "bids": [int(x) for x in d["bids"][r]],
            "tricks": tricks,
            "tricks_won": [int(x) for x in d["tricks"][r]],
            "scores": [int(x) for x in d["scores"][r]],
        }


def _tricks(play, r, n_tricks, seat, notation, n=4):
    """The recorded tricks of row ``r`` as ``{"leader", "cards", "winner"}`` (seats)."""
    out = []
    for t in range(n_tricks):
        lead = int(play["leader"][r, t])
        out.append({"leader": seat(lead),
                    "cards": [[seat(lead + j), card_str(play["cards"][r, t, j], notation)]
                              for j in range(n)],
                    "winner": seat(play["winner"][r, t])})
    return out


def bonken_records(result, start=0, stop=None, notation="en"):
    """Bonken rounds in the shared shape plus ``contract``, ``chooser`` and, for Domino,
    ``moves`` (``[seat, card]`` in turn order, ``null`` for a pass) and ``out_order``."""
    from fastsim.bonken_schema import CONTRACTS, TRUMP_S, NO_TRUMP, DOMINO
    d, play = result.deals, result.play
    for r, dealer, seat in _rows(result, start, stop):
        c = int(d["contract"][r])
        moves, out_order = [], []
        if c == DOMINO:
            for m in range(int(play["n_moves"][r])):
                pos, card = play["moves"][r, m]
                moves.append([seat(pos), None if card < 0 else card_str(card, notation)])
            out_order = [seat(p) for p in play["out"][r]]
        yield {
            "players": 4,
            "hand_size": 13,
            "dealer": dealer,
            "hands": _hands(d, r, 4, notation),
            "trump_card": None,
            "trump": SUITS[c - TRUMP_S] if TRUMP_S <= c < NO_TRUMP else None,
            "bids": None,
            "contract": CONTRACTS[c],
            "chooser": (dealer + 2) % 4,
            "tricks": _tricks(play, r, int(d["n_tricks"][r]), seat, notation),
            "moves": moves,
            "out_order": out_order,
            "tricks_won": [int(x) for x in d["tricks"][r]],
            "scores": [int(x) for x in d["scores"][r]],
        }


def klaverjassen_records(result, start=0, stop=None, notation="en"):
    """Klaverjassen deals in the shared shape plus ``calls``, ``playing_team``, per-trick
    ``points`` and ``roem``, and ``team_scores``, ``card_points``, ``roem``, ``nat``, ``pit``
    (``scores`` per seat = the seat's team's banked score)."""
    d, play = result.deals, result.play
    for r, dealer, seat in _rows(result, start, stop):
        tricks = _tricks(play, r, 8, seat, notation)
        for t, tr in enumerate(tricks):
            tr["points"] = int(play["points"][r, t])
            tr["roem"] = int(play["roem"][r, t])
        calls = [[seat(q), "pass" if c < 0 else SUITS[c]]
                 for q, c in enumerate(play["calls"][r, :int(play["n_calls"][r])])]
        if len(calls) == 5:   # the forced call is made by position 0 again
            calls[4][0] = seat(0)
        ts = [int(x) for x in d["team_scores"][r]]
        pit = int(d["pit"][r])
        yield {
            "players": 4,
            "hand_size": 8,
            "dealer": dealer,
            "hands": _hands(d, r, 4, notation),
            "trump_card": None,
            "trump": SUITS[int(d["trump"][r])],
            "bids": None,
            "calls": calls,
            "playing_team": int(d["playing_team"][r]),
            "tricks": tricks,
            "tricks_won": [int(x) for x in d["tricks"][r]],
            "team_scores": ts,
            "card_points": [int(x) for x in d["card_points"][r]],
            "roem": [int(x) for x in d["roem"][r]],
            "nat": bool(d["nat"][r]),
            "pit": None if pit < 0 else pit,
            "scores": [ts[s % 2] for s in range(4)],
        }


def boonaken_records(result, start=0, stop=None, notation="en"):
    """Boonaken deals: the shared shape plus ``preset``, ``table``, ``auction``, ``void``,
    ``contract``, ``bid``, ``declarer``, ``misere_players``, ``exchange``, ``trump_named``,
    ``roem``, ``draws``, ``card_points`` and ``results`` (see docs/boonaken.md)."""
    from fastsim import boonaken_nb as bnb
    from fastsim.boonaken_schema import (CONTRACTS, LADDER, LAYOUT_BLIND, LAYOUT_OPEN,
                                         PRESET_PAGAT, PRESET_SEED)
    if result.play is None:
        raise ValueError("the simulation was not run with record=True")
    d, play = result.deals, result.play
    n = result.rules.players
    preset = result.rules.preset_id
    dealer = result.rules.first_dealer
    seat = lambda p: (dealer + 1 + int(p)) % n  # noqa: E731
    cs = lambda codes: [card_str(c, notation) for c in codes]  # noqa: E731
    stop = len(d["info"]) if stop is None else stop
    n_open, n_blind = int(LAYOUT_OPEN[preset, n]), int(LAYOUT_BLIND[preset, n])
    for r in range(start, stop):
        info = d["info"][r]
        deck = [int(x) for x in play["deck"][r]]
        base = 6 * n
        if preset == PRESET_PAGAT and n <= 4:
            blind, opn = deck[base:base + n_blind], deck[base + n_blind:base + n_blind + n_open]
        else:
            opn, blind = deck[base:base + n_open], deck[base + n_open:base + n_open + n_blind]
        rest = deck[base + n_open + n_blind:]
        table = {"open": cs(opn), "blind": cs(blind),
                 "stock": cs(rest) if preset == PRESET_SEED else [],
                 "sleeping": [] if preset == PRESET_SEED else cs(rest)}
        auction = []
        for k in range(int(info[bnb.I_NAUCTION])):
            q, a = play["auction"][r, k]
            auction.append([seat(q), "pass" if a < 0 else LADDER[int(a)]])
        rec = {"players": n, "preset": result.rules.preset, "dealer": dealer,
               "hands": [cs(codes_of(d["hands"][r, s])) for s in range(n)], "table": table,
               "trump_card": None, "bids": None, "auction": auction,
               "void": bool(info[bnb.I_VOID])}
        keys = ["contract", "bid", "declarer", "misere_players", "exchange", "trump",
                "trump_named", "roem", "roem_claims", "tricks", "draws", "tricks_won", "card_points",
                "results", "scores"]
        if rec["void"]:
            rec.update({k: None for k in keys})
            yield rec
            continue
        contract = int(info[bnb.I_CONTRACT])
        trump = int(info[bnb.I_TRUMP])
        nt = int(info[bnb.I_NTRICKS])
        tricks = _tricks(play, r, nt, seat, notation, n)
        draws = []
        if preset == PRESET_SEED:
            for t in range(nt):
                lead = int(play["leader"][r, t])
                got = [[seat(lead + j), card_str(play["draws"][r, t, j], notation)]
                       for j in range(n) if play["draws"][r, t, j] >= 0]
                draws.append(got)
        results = [[s, bool(d["result"][r, s] == 1)] for s in range(n) if d["result"][r, s] >= 0]
        if contract == 1:
            order = [int(x) for x in d["misere"][r] if x >= 0]
            results.sort(key=lambda x: order.index(x[0]))
        claims = []
        if contract == 0:
            lm = 1 if preset == 2 else 0
            d_seat = seat(info[bnb.I_DECL])
            kept = (int(d["hands"][r, d_seat]) & ~int(info[bnb.I_DISCARDED])) | int(info[bnb.I_TAKEN])
            if preset == PRESET_SEED:     # every player shows their best meld at the first trick
                for j in range(n):
                    s_ = (d_seat + j) % n
                    h_ = kept if s_ == d_seat else int(d["hands"][r, s_])
                    claims.append([s_, int(bnb.best_meld_nb(np.int64(h_), trump, lm))])
            else:
                claims.append([d_seat, int(bnb.roem_sum_nb(np.int64(kept), trump, lm))])
        rec.update({
            "contract": CONTRACTS[contract],
            "bid": int(info[bnb.I_BID]) if contract == 0 else None,
            "declarer": seat(info[bnb.I_DECL]),
            "misere_players": [int(x) for x in d["misere"][r] if x >= 0] if contract == 1 else [],
            "exchange": {"taken": cs(codes_of(info[bnb.I_TAKEN])),
                         "discarded": cs(codes_of(info[bnb.I_DISCARDED]))},
            "trump": SUITS[trump] if trump >= 0 else None,
            "trump_named": bool(info[bnb.I_NAMED]),
            "roem": int(info[bnb.I_ROEM]),
            "roem_claims": claims,
            "tricks": tricks,
            "draws": draws,
            "tricks_won": [int(x) for x in d["tricks"][r]],
            "card_points": [int(x) for x in d["card_points"][r]],
            "results": results,
            "scores": [0 if d["result"][r, s] < 0 else (1 if d["result"][r, s] == 1 else -1)
                       for s in range(n)],
        })
        yield rec


def write_jsonl(records, path, force=False):
    """Write records one JSON object per line, atomically (a temp file then rename); never
    over a special file, nor over an existing file without ``force``."""
    from .storage import atomic_path, check_output
    check_output(path, force)
    count = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec, separators=(",", ":")))
            f.write("\n")
            count += 1
    return count
