"""The learned card model of issue #14's sixth push (fastsim/cardmodel_nb.py): its data, its
fit and the duplicate duels that measured it.

    PYTHONPATH=$PWD python tools/cardmodel.py data --deals 4000 --seed 1406 --out tools/cardmodel_record.npz
    PYTHONPATH=$PWD python tools/cardmodel.py fit tools/cardmodel_record.npz [--write]
    PYTHONPATH=$PWD python tools/cardmodel.py duel 5 3 --deals 2000 --seed 1
    PYTHONPATH=$PWD python tools/cardmodel.py ismcts [RECORD ...] [--write]

``data``: strong self-play (4 × 8 cards, dutch scoring, every seat strong, one thread),
recorded: the bids and the cards by position (the record kept in the repository,
tools/cardmodel_record.npz, about 4 minutes of CPU to make; reproducible from the seed: the
simulator's results are bit-identical for a seed, tests/test_cardmodel.py checks a prefix).

``fit``: every card decision of the record with more than one legal card replayed as its
player saw it (the hands dealt again from the seed): the legal cards, their features
(fastsim.cardmodel_nb.card_features_nb: nothing the player cannot see) and the card strong
played; then a conditional-logit model (softmax over the legal cards of ``W[situation] ·
features``), L2-penalised, fitted by L-BFGS on the first 80% of the deals; the hold-out
accuracy (the argmax, ties to the lowest card, is strong's card) beside the heuristic's
agreement with strong on the same decisions. ``--write`` regenerates
fastsim/cardmodel_weights.py (weights rounded to 4 decimals).

``ismcts``: the same model fitted to OpenSpiel IS-MCTS 1000's card decisions (issue #14's
seventh push, a model of the opponent): bridge records (``benchmarks/bench_openspiel.py
--record F``, JSON lines, gzipped or not; default the committed
tools/cardmodel_ismcts_record.jsonl.gz) replayed as the players saw them, the rows of the
IS-MCTS positions kept, the last 20% of the deals (both seatings of a deal together) held
out; beside the model's hold-out accuracy, how often the heuristic and strong's model
(fastsim/cardmodel_weights.py) pick IS-MCTS's card. Also IS-MCTS's bids (and, for
comparison, strong's in the same deals) against the soft bidder of strong's inference
(``model_bid_nb`` with a shift, slope ``lam``): the mean log likelihood on a grid, the best
pair against strong's (30, 1.0). ``--write`` regenerates fastsim/cardmodel_weights_ismcts.py.

``duel A B``: duplicate duel of two Boerenbridge policy codes in the simulator (4 × 8,
dutch; A in seats 0 and 2, B in 1 and 3, then swapped, the same deals): the paired
difference A − B per deal with its 95% interval, exact bids, mean bid and tricks, and the
CPU time of each seating. Codes: 1 heuristic, 2 pimc, 3 strong, 4 learned, 5 strongl
(learned rollouts for the others), 6 (others and my own later cards), 7 strongi (the
others play the model of IS-MCTS). (The experiment's
codes 7 and 8, the bids' rollouts modelled too, were measured not to pay and removed; they
are on the branch helper-str6, commit 5379174; code 7 is now strongi.)
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

N, H = 4, 8
L2 = 1e-4            # penalty on the squared weights (loss per decision)
WEIGHTS_FILE = ROOT / "fastsim" / "cardmodel_weights.py"
ISMCTS_WEIGHTS_FILE = ROOT / "fastsim" / "cardmodel_weights_ismcts.py"
ISMCTS_RECORD = "tools/cardmodel_ismcts_record.jsonl.gz"


def rules():
    from fastsim import boerenbridge as bb
    return bb.build_rules(players=N, hand_size=H, variants=["scoring=dutch"])


def make_record(deals, seed):
    """Strong self-play: (the record to keep: seed, deals, bids and cards by position,
    CPU seconds)."""
    from fastsim import boerenbridge as bb
    from fastsim.boerenbridge_schema import POLICY_STRONG
    t0 = time.process_time()
    res = bb.simulate(rules(), deals, seed=seed, threads=1, record=True,
                      policies=np.full(N, POLICY_STRONG, dtype=np.int8))
    cpu = time.process_time() - t0
    d = res.deals
    seats = (d["dealer"][:, None].astype(np.int64) + 1 + np.arange(N)[None, :]) % N
    bids = np.take_along_axis(d["bids"], seats, axis=1).astype(np.int8)
    return {"seed": seed, "deals": deals, "bids": bids, "cards": res.play["cards"]}, cpu


def _row_arrays(deals):
    """Empty decision rows for ``deals`` deals (at most one per card played)."""
    from fastsim.cardmodel_nb import N_FEAT
    rows = deals * H * N
    return {"cards": np.full((rows, H), -1, np.int64),
            "feats": np.zeros((rows, H, N_FEAT), np.float64),
            "ctx": np.zeros(rows, np.int64), "nlegal": np.zeros(rows, np.int64),
            "choice": np.zeros(rows, np.int64), "pos": np.zeros(rows, np.int64),
            "trick": np.zeros(rows, np.int64), "heur": np.zeros(rows, np.int64),
            "deal": np.zeros(rows, np.int64)}


def _replay_deal(out, r, hands, trump, turned, bids, cards, deal):
    """One deal's decision rows into ``out`` from row ``r`` (hands and bids by position,
    ``cards[t, j]`` the ``j``-th card of trick ``t``); returns how many."""
    from fastsim.cardmodel_nb import replay_features_nb
    k = replay_features_nb(N, H, hands, np.int64(trump), np.int64(turned), bids,
                           cards.astype(np.int64), out["cards"][r:], out["feats"][r:],
                           out["ctx"][r:], out["nlegal"][r:], out["choice"][r:],
                           out["pos"][r:], out["trick"][r:], out["heur"][r:])
    out["deal"][r:r + k] = deal
    return k


def replay(record):
    """The decision rows of a record (:func:`make_record`): the hands, the turned card and
    trump are the seed's deals (the same whatever the policies: dealt from the deal key)."""
    from fastsim import boerenbridge as bb
    deals = int(record["deals"])
    d = bb.simulate(rules(), deals, seed=int(record["seed"]), threads=1).deals
    out = _row_arrays(deals)
    r = 0
    hands = np.zeros(8, np.int64)
    bids = np.zeros(8, np.int64)
    for i in range(deals):
        dealer = int(d["dealer"][i])
        for p in range(N):
            hands[p] = d["hands"][i, (dealer + 1 + p) % N]
            bids[p] = record["bids"][i, p]
        r += _replay_deal(out, r, hands, d["trump"][i], d["trump_card"][i], bids,
                          record["cards"][i], i)
    out = {k: v[:r] for k, v in out.items()}
    assert (out["choice"] >= 0).all(), "a recorded card was not among the legal cards"
    return out


def read_bridge_record(paths, who="openspiel:ismcts"):
    """The deals of bridge records (``bench_openspiel.py --record F``, JSON lines, or
    ``.gz``) as a record of :func:`replay_rows`: per deal (each seating a deal of its own,
    numbered so that both seatings of a troef deal come together) the hands, bids and cards
    by position, the turned card, trump, and which positions the entrant whose name starts
    with ``who`` held."""
    import gzip
    import json
    from analyzer.openspiel_bridge import from_os
    recs = []
    for path in paths:
        op = gzip.open if str(path).endswith(".gz") else open
        with op(path, "rt") as f:
            recs += [json.loads(line) for line in f if line.strip()]
    keys = sorted({(r["seed"], r["deal"]) for r in recs})
    unit = {k: i for i, k in enumerate(keys)}
    recs.sort(key=lambda r: (unit[(r["seed"], r["deal"])], r["seating"]))
    m = len(recs)
    out = {"hands": np.zeros((m, 8), np.int64), "bids": np.zeros((m, 8), np.int64),
           "cards": np.zeros((m, H, N), np.int64), "turned": np.zeros(m, np.int64),
           "trump": np.zeros(m, np.int64), "mine": np.zeros((m, 8), bool),
           "unit": np.zeros(m, np.int64), "returns": np.zeros((m, N))}
    for i, r in enumerate(recs):
        n, dealer = len(r["hands"]), r["dealer"]
        assert n == N and r["history"][0] == H, "the records are 4 x 8 deals"
        post = r["history"][2 + n * H + 1:]
        for p in range(n):
            seat = (dealer + 1 + p) % n
            out["hands"][i, p] = r["hands"][seat]
            out["bids"][i, p] = post[p] - 52
            out["mine"][i, p] = r["seating"][seat].startswith(who)
            out["returns"][i, p] = r["returns"][seat]
        out["cards"][i] = np.array([from_os(a) for a in post[n:]]).reshape(H, n)
        out["turned"][i] = r["turned"]
        out["trump"][i] = r["turned"] >> 4
        out["unit"][i] = unit[(r["seed"], r["deal"])]
    return out


def replay_rows(rec):
    """The card decisions of :func:`read_bridge_record`'s deals with more than one legal
    card, only those of the positions ``rec["mine"]`` marks (the rows of :func:`replay`,
    ``deal`` the deal's unit so that a hold-out keeps both seatings together)."""
    m = len(rec["unit"])
    out = _row_arrays(m)
    keep = np.zeros(len(out["ctx"]), bool)
    r = 0
    for i in range(m):
        k = _replay_deal(out, r, rec["hands"][i], rec["trump"][i], rec["turned"][i],
                         rec["bids"][i], rec["cards"][i], rec["unit"][i])
        keep[r:r + k] = rec["mine"][i][out["pos"][r:r + k]]
        r += k
    out = {k: v[:r][keep[:r]] for k, v in out.items()}
    assert (out["choice"] >= 0).all(), "a recorded card was not among the legal cards"
    return out


def model_accuracy(W, data, sel=None):
    """How often the argmax of ``W`` (ties to the lowest card) is the recorded card."""
    sel = np.ones(len(data["choice"]), bool) if sel is None else sel
    s = np.einsum("rkf,rf->rk", data["feats"][sel], W[data["ctx"][sel]])
    s = np.where(_mask(data["nlegal"][sel]), s, -np.inf)
    return float((s.argmax(1) == data["choice"][sel]).mean())


def bid_rows(rec):
    """Every recorded bid of the marked positions with what the soft bidder of strong's
    inference sees: (bid, hand value, position, sum of the earlier bids, forbidden bid)."""
    from fastsim.boerenbridge_nb import forbidden_bid_nb
    from fastsim.play_nb import hand_value_nb
    rv = rules().flags
    out = []
    for i in range(len(rec["unit"])):
        s = 0
        for p in range(N):
            b = int(rec["bids"][i, p])
            f = int(forbidden_bid_nb(H, s, rv)) if p == N - 1 else -1
            if rec["mine"][i, p]:
                out.append((b, int(hand_value_nb(rec["hands"][i, p], rec["trump"][i])), p,
                            s, f))
            s += b
    return np.array(out, np.int64)


def bid_fit(rows, shifts=range(-100, 101, 5), lams=(0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0)):
    """The log likelihood per bid of the soft bidder (fastsim.boerenbridge_strong_nb.
    model_bid_nb with ``shift``, slope ``lam``) for every pair of the grid, and how often
    its mode is the bid: {(shift, lam): (mean log lik, exact share)}."""
    from fastsim.bidmodel_nb import bid_loglik_nb
    from fastsim.boerenbridge_nb import bid_of_value_nb
    out = {}
    for sh in shifts:
        hb = np.array([bid_of_value_nb(v + sh, N, H, p, s, f) for _, v, p, s, f in rows])
        for lam in lams:
            ll = np.mean([bid_loglik_nb(b, x, H, f, lam)
                          for (b, _, _, _, f), x in zip(rows, hb)])
            out[(sh, lam)] = (float(ll), float((hb == rows[:, 0]).mean()))
    return out


def _mask(nlegal):
    return np.arange(H)[None, :] < nlegal[:, None]


def fit(data, l2=L2, train_frac=0.8):
    """Fit W (N_CTX × N_FEAT) on the first ``train_frac`` of the deals; returns W and the
    report dict."""
    from scipy.optimize import minimize
    from fastsim.cardmodel_nb import N_CTX, N_FEAT
    X, ctx, nl, y = data["feats"], data["ctx"], data["nlegal"], data["choice"]
    cut = int(data["deal"].max() * train_frac)
    tr = data["deal"] < cut
    te = ~tr
    M = _mask(nl)

    def scores(W, sel):
        return np.einsum("rkf,rf->rk", X[sel], W[ctx[sel]])

    def loss_grad(w, sel):
        W = w.reshape(N_CTX, N_FEAT)
        s = scores(W, sel)
        s = np.where(M[sel], s, -np.inf)
        s = s - s.max(1, keepdims=True)
        e = np.exp(s)
        p = e / e.sum(1, keepdims=True)
        m = sel.sum()
        ll = np.log(p[np.arange(m), y[sel]] + 1e-300)
        g = p.copy()
        g[np.arange(m), y[sel]] -= 1.0
        gx = np.einsum("rk,rkf->rf", g, X[sel])
        G = np.zeros((N_CTX, N_FEAT))
        np.add.at(G, ctx[sel], gx)
        return -ll.sum() / m + l2 * (w ** 2).sum(), G.ravel() / m + 2 * l2 * w

    w0 = np.zeros(N_CTX * N_FEAT)
    w0.reshape(N_CTX, N_FEAT)[:, 0] = 1.0
    r = minimize(loss_grad, w0, args=(tr,), jac=True, method="L-BFGS-B",
                 options={"maxiter": 500})
    W = r.x.reshape(N_CTX, N_FEAT)

    def acc(W, sel):
        s = np.where(M[sel], scores(W, sel), -np.inf)
        return float((s.argmax(1) == y[sel]).mean())

    rep = {"decisions": int(len(y)), "train": int(tr.sum()), "holdout": int(te.sum()),
           "deals": int(data["deal"].max() + 1),
           "model_train": acc(W, tr), "model_holdout": acc(W, te),
           "heuristic_train": float((data["heur"][tr] == y[tr]).mean()),
           "heuristic_holdout": float((data["heur"][te] == y[te]).mean()),
           "loss_train": float(r.fun), "iterations": int(r.nit), "l2": l2}
    rep["holdout_by_context"] = {}
    for c in range(N_CTX):
        sel = te & (ctx == c)
        if sel.sum():
            rep["holdout_by_context"][c] = (int(sel.sum()), acc(W, sel),
                                            float((data["heur"][sel] == y[sel]).mean()))
    return W, rep


def write_weights(W, rep, deals, seed):
    _write(W, f"data --deals {deals} --seed {seed}; fit --write",
           f"FIT = {{'deals': {deals}, 'seed': {seed}, 'decisions': {rep['decisions']}, "
           f"'holdout_accuracy': {rep['model_holdout']:.4f}, "
           f"'heuristic_holdout_agreement': {rep['heuristic_holdout']:.4f}}}", WEIGHTS_FILE)


def write_ismcts_weights(W, rep, records):
    _write(W, f"ismcts {' '.join(records)} --write; OpenSpiel IS-MCTS 1000's cards",
           f"FIT = {{'records': {list(records)!r}, 'deals': {rep['deals']}, "
           f"'decisions': {rep['decisions']}, "
           f"'holdout_accuracy': {rep['model_holdout']:.4f}, "
           f"'heuristic_holdout_agreement': {rep['heuristic_holdout']:.4f}, "
           f"'strong_model_holdout_agreement': {rep['strong_model_holdout']:.4f}}}",
           ISMCTS_WEIGHTS_FILE)


def _write(W, made_by, fit_line, path):
    from fastsim.cardmodel_nb import FEATURES, NEED_STATES, ROLES
    lines = [f'"""Generated by tools/cardmodel.py ({made_by}): do not edit.',
             "",
             "The weights of fastsim.cardmodel_nb's card model, one row per situation (need",
             f"state {'/'.join(NEED_STATES)} × role {'/'.join(ROLES)}), one column per feature",
             f"({', '.join(FEATURES)}).",
             '"""',
             "import numpy as np",
             "",
             fit_line,
             "CARD_WEIGHTS = np.array(["]
    for row in np.round(W, 4):
        lines.append("    [" + ", ".join(f"{v:.4f}" for v in row) + "],")
    lines.append("], dtype=np.float64)")
    path.write_text("\n".join(lines) + "\n")


def fit_ismcts(paths, l2=L2):
    """The card model fitted to the IS-MCTS positions of bridge records (``fit`` on
    :func:`replay_rows`, the last 20% of the deals held out), with the agreement of strong's
    model (fastsim/cardmodel_weights.py) on the same hold-out, and the bids' check."""
    from fastsim.cardmodel_weights import CARD_WEIGHTS
    rec = read_bridge_record(paths)
    data = replay_rows(rec)
    W, rep = fit(data, l2)
    te = data["deal"] >= int(data["deal"].max() * 0.8)
    rep["strong_model_holdout"] = model_accuracy(CARD_WEIGHTS, data, te)
    rep["strong_model_all"] = model_accuracy(CARD_WEIGHTS, data)
    rep["heuristic_all"] = float((data["heur"] == data["choice"]).mean())
    rep["bids"] = {}
    for who, mine in (("ismcts", rec["mine"]), ("strong", ~rec["mine"])):
        rows = bid_rows({**rec, "mine": mine & (np.arange(8)[None, :] < N)})
        g = bid_fit(rows)
        best = max(g, key=lambda k: g[k][0])
        rep["bids"][who] = {"bids": len(rows), "mean_bid": float(rows[:, 0].mean()),
                            "best": best, "best_fit": g[best], "strong_assumes": g[(30, 1.0)],
                            "heuristic": g[(0, 1.0)]}
    return W, rep


def duel(a, b, deals, seed):
    from fastsim import boerenbridge as bb
    diff = np.zeros(deals)
    st = {c: np.zeros(7) for c in (a, b)}
    cpu = []
    for rot in range(2):
        pol = np.array([(a, b)[(s + rot) % 2] for s in range(N)], dtype=np.int8)
        t = time.process_time()
        res = bb.simulate(rules(), deals, seed=seed, policies=pol, threads=1)
        cpu.append(time.process_time() - t)
        sc = res.deals["scores"].astype(float)
        bids = res.deals["bids"].astype(float)
        tr = res.deals["tricks"].astype(float)
        diff += (sc[:, pol == a].mean(1) - sc[:, pol == b].mean(1)) / 2
        for c in (a, b):
            m = pol == c
            st[c] += [m.sum() * deals, (bids[:, m] == tr[:, m]).sum(), sc[:, m].sum(),
                      bids[:, m].sum(), tr[:, m].sum(), (tr[:, m] > bids[:, m]).sum(),
                      (tr[:, m] < bids[:, m]).sum()]
        print(f"  seating {pol.tolist()}: {cpu[-1]:.1f} s CPU", flush=True)
    d = diff.mean()
    se = diff.std(ddof=1) / np.sqrt(deals)
    print(f"code {a} - code {b}: {d:+.3f} [{d - 1.96 * se:+.3f}, {d + 1.96 * se:+.3f}] "
          f"points per deal ({deals} deals x 2 seatings, {N} x {H}, dutch, seed {seed})")
    for c in (a, b):
        s = st[c]
        print(f"  code {c}: exact {s[1] / s[0]:.3f}  mean score {s[2] / s[0]:.2f}  mean bid "
              f"{s[3] / s[0]:.3f}  mean tricks {s[4] / s[0]:.3f}  over {s[5] / s[0]:.3f}  "
              f"under {s[6] / s[0]:.3f}")
    return d, se


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("data")
    p.add_argument("--deals", type=int, default=4000)
    p.add_argument("--seed", type=int, default=1406)
    p.add_argument("--out", required=True)
    p = sub.add_parser("fit")
    p.add_argument("data")
    p.add_argument("--l2", type=float, default=L2)
    p.add_argument("--write", action="store_true")
    p = sub.add_parser("ismcts")
    p.add_argument("records", nargs="*", default=[ISMCTS_RECORD])
    p.add_argument("--l2", type=float, default=L2)
    p.add_argument("--write", action="store_true")
    p = sub.add_parser("duel")
    p.add_argument("a", type=int)
    p.add_argument("b", type=int)
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    if a.cmd == "data":
        rec, cpu = make_record(a.deals, a.seed)
        np.savez_compressed(a.out, **rec)
        print(f"{a.deals} deals of strong self-play (seed {a.seed}, {cpu:.0f} s CPU) -> {a.out}")
    elif a.cmd == "fit":
        z = np.load(a.data)
        record = {k: z[k] for k in z.files}
        data = replay(record)
        W, rep = fit(data, a.l2)
        for k, v in rep.items():
            if k != "holdout_by_context":
                print(f"  {k}: {v}")
        print("  hold-out by situation (decisions, model, heuristic):")
        for c, v in rep["holdout_by_context"].items():
            print(f"    {c:2d}: {v[0]:6d}  {v[1]:.3f}  {v[2]:.3f}")
        if a.write:
            write_weights(W, rep, int(record["deals"]), int(record["seed"]))
            print(f"  wrote {WEIGHTS_FILE.relative_to(ROOT)}")
    elif a.cmd == "ismcts":
        W, rep = fit_ismcts(a.records, a.l2)
        for k, v in rep.items():
            if k not in ("holdout_by_context", "bids"):
                print(f"  {k}: {v}")
        print("  hold-out by situation (decisions, model, heuristic):")
        for c, v in rep["holdout_by_context"].items():
            print(f"    {c:2d}: {v[0]:6d}  {v[1]:.3f}  {v[2]:.3f}")
        print("  bids (soft bidder around model_bid_nb: mean log likelihood a bid, share "
              "of bids at its mode; grid shift -100..100 by 5, slope 0.5..3):")
        for who, b in rep["bids"].items():
            print(f"    {who}: {b['bids']} bids, mean {b['mean_bid']:.3f}; best (shift, "
                  f"slope) {b['best']}: {b['best_fit'][0]:.4f} / {b['best_fit'][1]:.3f}; "
                  f"strong's (30, 1.0): {b['strong_assumes'][0]:.4f} / "
                  f"{b['strong_assumes'][1]:.3f}; heuristic's (0, 1.0): "
                  f"{b['heuristic'][0]:.4f} / {b['heuristic'][1]:.3f}")
        if a.write:
            write_ismcts_weights(W, rep, a.records)
            print(f"  wrote {ISMCTS_WEIGHTS_FILE.relative_to(ROOT)}")
    else:
        duel(a.a, a.b, a.deals, a.seed)


if __name__ == "__main__":
    main()
