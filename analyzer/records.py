"""Turn recorded deals into the shared ``--record-play`` JSON shape.

One object per deal: ``players``, ``hand_size``, ``dealer`` (seat), ``hands`` (per seat, card
strings sorted by card code), ``trump_card``, ``trump`` (suit letter or null), ``bids``,
``tricks`` (each ``{"leader", "cards": [[seat, card], ...], "winner"}``, seats),
``tricks_won`` and ``scores`` (per seat). Other games extend this shape.
"""
import json

from fastsim.cards import SUITS, card_str, codes_of


def deal_records(result, start=0, stop=None, notation="en"):
    """Yield the record dicts of rows ``start:stop`` of a result made with ``record=True``."""
    if result.play is None:
        raise ValueError("the simulation was not run with record=True")
    d, play = result.deals, result.play
    n = result.rules.players
    stop = len(d["deal"]) if stop is None else stop
    for r in range(start, stop):
        dealer = int(d["dealer"][r])
        h = int(d["hand_size"][r])
        seat = lambda p: (dealer + 1 + int(p)) % n  # noqa: E731  position -> seat
        tricks = _tricks(play, r, h, seat, notation, n)
        trump = int(d["trump"][r])
        yield {
            "players": n,
            "hand_size": h,
            "dealer": dealer,
            "hands": [[card_str(c, notation) for c in codes_of(d["hands"][r, s])]
                      for s in range(n)],
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
    if result.play is None:
        raise ValueError("the simulation was not run with record=True")
    d, play = result.deals, result.play
    stop = len(d["deal"]) if stop is None else stop
    for r in range(start, stop):
        dealer = int(d["dealer"][r])
        seat = lambda p: (dealer + 1 + int(p)) % 4  # noqa: E731
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
            "hands": [[card_str(x, notation) for x in codes_of(d["hands"][r, s])] for s in range(4)],
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
    if result.play is None:
        raise ValueError("the simulation was not run with record=True")
    d, play = result.deals, result.play
    stop = len(d["deal"]) if stop is None else stop
    for r in range(start, stop):
        dealer = int(d["dealer"][r])
        seat = lambda p: (dealer + 1 + int(p)) % 4  # noqa: E731
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
            "hands": [[card_str(x, notation) for x in codes_of(d["hands"][r, s])] for s in range(4)],
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


def write_jsonl(records, path):
    """Write records one JSON object per line, atomically (a temp file then rename)."""
    import os
    tmp = f"{path}.part"
    count = 0
    with open(tmp, "w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec, separators=(",", ":")))
            f.write("\n")
            count += 1
    os.replace(tmp, path)
    return count
