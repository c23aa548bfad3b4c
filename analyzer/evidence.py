"""How much the queries' answers can be trusted: bid models, weighted sampling and the
warnings every query prints (docs/inference.md). numpy only.

*Bid models.* Earlier bids (Boerenbridge) and passes (Klaverjassen) say something about
the hidden hands. The queries weight every sampled deal by the likelihood of what was
bid under a model of the bidders:

* ``soft`` (default): the engine's heuristic bidder, softened so that every legal bid has
  positive probability — Boerenbridge ``P(b | hand) ∝ exp(−λ·|b − heuristic bid|)`` with
  ``λ = BID_SLOPE``; Klaverjassen ``P(pass | hand) = 1 / (1 + exp((v − T + ½)/τ))`` for the
  hand's best call value ``v`` and the heuristic's threshold ``T``, ``τ = PASS_SCALE``.
  Any real bidding sequence is conditioned on (importance weighting), none rejected.
* ``exact``: the heuristic bidder itself: only deals in which it would have bid exactly
  what was bid count (weights 0 or 1: rejection sampling), as before.

Under the ``random`` policy a bid says nothing about a hand and nothing is weighted.

*Sampling.* Deals are drawn in order (deal 0, 1, …) and weighted by a cheap compiled pass;
drawing stops at the first prefix whose weights would give the requested ``--samples``
with every deal thinned to the largest weight (Σw / max w ≥ the request: rejection
sampling for 0/1 weights), or whose effective sample size (Kish, (Σw)²/Σw²) reaches
``RAW_FACTOR`` × the request, or at the draw budget. The deals to *play* are then thinned: a deal of weight
``w`` below a threshold ``c`` is played with probability ``w/c`` and then weighs ``c``
(unbiased; ``c`` the largest that keeps the expected effective size at the request), so
the expensive play-outs are spent where the weight is.

*Warnings* (:func:`warnings`): fewer than ``MIN_EFFECTIVE`` effective samples; a
recommendation whose 95% interval overlaps the runner-up's; and intervals from fewer than
``MIN_FOR_INTERVAL`` effective samples are not shown as intervals (``None`` in JSON).
"""
import math

import numpy as np

BID_MODELS = ("soft", "exact")
DEFAULT_BID_MODEL = "soft"
BID_SLOPE = 1.0         # Boerenbridge: log-probability lost per trick a bid is off the heuristic's
PASS_SCALE = 10.0       # Klaverjassen: logistic scale of a pass, in call-value points
RAW_FACTOR = 2.0        # raw effective samples drawn per requested sample before thinning
THIN_MARGIN = 1.05      # thin to an expected effective size of this × the request
MIN_EFFECTIVE = 1000    # fewer effective samples than this: a warning
MIN_FOR_INTERVAL = 30   # fewer than this: no interval is shown
NA = "n/a (too few effective samples)"
RECOMMENDED = "  <- recommended"

__all__ = ["BID_MODELS", "check_bid_model", "bid_slope", "pass_scale", "describe_model",
           "weight_stats", "draw_weights", "thin", "warnings", "interval_ok", "fmt_ci",
           "gate_ci", "sample_line", "finish_play", "MIN_EFFECTIVE", "MIN_FOR_INTERVAL", "NA"]


def check_bid_model(bid_model):
    from fastsim.common import RulesError
    m = DEFAULT_BID_MODEL if bid_model is None else str(bid_model).strip().lower()
    if m not in BID_MODELS:
        raise RulesError(f"unknown bid model {bid_model!r}; known: {', '.join(BID_MODELS)}")
    return m


def bid_slope(bid_model, policy):
    """Boerenbridge: the soft bidder's slope λ (inf: exact; 0: random, no information)."""
    if policy == "random":
        return 0.0
    return math.inf if check_bid_model(bid_model) == "exact" else BID_SLOPE


def pass_scale(bid_model):
    """Klaverjassen: the soft passer's logistic scale τ (0: exact)."""
    return 0.0 if check_bid_model(bid_model) == "exact" else PASS_SCALE


def describe_model(bid_model, policy, what="bids", used=True):
    """One line naming the bidder model assumed, e.g. for the text output."""
    if not used:
        return f"no earlier {what} to condition on"
    if policy == "random":
        return f"random bidders: the {what} say nothing about the hands"
    if check_bid_model(bid_model) == "exact":
        return f"exact heuristic: only deals in which the heuristic makes exactly these {what}"
    if what == "passes":
        return f"soft heuristic (a pass weighs 1/(1+exp((value-threshold+0.5)/{PASS_SCALE:g})))"
    return f"soft heuristic (a bid k tricks off the heuristic's weighs exp(-{BID_SLOPE:g}*k))"


def _weights(logw):
    logw = np.asarray(logw, dtype=np.float64)
    fin = np.isfinite(logw)
    w = np.zeros(len(logw))
    if fin.any():
        w[fin] = np.exp(logw[fin] - logw[fin].max())
    return w


def weight_stats(weights):
    """``{"effective_samples", "top1_weight_share"}`` of (non-negative) weights: Kish's
    effective sample size and the share of the total weight on the heaviest 1% of the
    samples (at least one sample)."""
    w = np.asarray(weights, dtype=np.float64)
    s, s2 = float(w.sum()), float((w * w).sum())
    if s <= 0:
        return {"effective_samples": 0.0, "top1_weight_share": 1.0}
    k = max(1, int(math.ceil(0.01 * len(w))))
    top = float(np.sort(w)[::-1][:k].sum())
    return {"effective_samples": min(s * s / s2, float(len(w))),
            "top1_weight_share": top / s}


def _stop(w, target):
    """Length of the first prefix of ``w`` at which drawing stops, or None: when the
    weights so far would already give the request with every deal thinned to the largest
    weight (Σw / max w ≥ the request, × ``THIN_MARGIN`` unless all are equal; for 0/1
    weights this is rejection sampling), or when their effective size reaches
    ``RAW_FACTOR`` × the request."""
    cs, cs2 = np.cumsum(w), np.cumsum(w * w)
    with np.errstate(invalid="ignore", divide="ignore"):
        ess = np.where(cs2 > 0, cs * cs / np.where(cs2 > 0, cs2, 1), 0.0)
    pos = w > 0
    wmax = np.maximum.accumulate(w)
    wmin = np.minimum.accumulate(np.where(pos, w, np.inf))
    uniform = wmin >= wmax * (1 - 1e-9)
    with np.errstate(invalid="ignore", divide="ignore"):
        flat = np.where(wmax > 0, cs / np.where(wmax > 0, wmax, 1), 0.0)
    need = np.where(uniform, target - 1e-6, THIN_MARGIN * target)
    hit = np.flatnonzero((flat >= need) | (ess >= RAW_FACTOR * target))
    return int(hit[0]) + 1 if len(hit) else None


def interval(ci, spec, na=NA):
    """A 95% interval as text, ``[lo, hi]`` with both ends in the format ``spec``; ``na``
    when there is none (too few effective samples)."""
    return na if ci is None else f"[{ci[0]:{spec}}, {ci[1]:{spec}}]"


def mark(choice, recommended):
    """The recommended row's mark in a query's table ("" on every other row)."""
    return RECOMMENDED if choice == recommended else ""


def draw_weights(kernel, target, budget, first=None):
    """Draw deals 0, 1, … in batches, ``kernel(start, count) -> (logw, u)`` weighing them,
    until the stop rule (module doc) or ``budget`` deals; returns ``(logw, u)`` of the
    deals drawn (the same prefix whatever the batch sizes)."""
    lw_parts, u_parts = [], []
    drawn = 0
    batch = min(budget, target if first is None else first)
    while True:
        lw, u = kernel(drawn, batch)
        lw_parts.append(lw)
        u_parts.append(u)
        drawn += batch
        logw = np.concatenate(lw_parts)
        # weights relative to a fixed reference (the first finite weight would change
        # the prefix's scale only, which the stop rule does not see)
        w = _weights(logw)
        n = _stop(w, target)
        if n is not None:
            return logw[:n], np.concatenate(u_parts)[:n]
        if drawn >= budget:
            return logw, np.concatenate(u_parts)
        st = weight_stats(w)
        rate = max(st["effective_samples"] / drawn, 1e-3)
        batch = int(min(budget - drawn, max(256, (RAW_FACTOR * target - st["effective_samples"]) / rate * 1.1)))


def draw_consistent(kernel, target, budget, refused):
    """:func:`draw_weights` then :func:`thin`: ``(deals, weights, drawn, accepted)`` with
    the number of deals drawn and of those of positive likelihood; when none has any,
    ``RulesError(refused.format(drawn=drawn))`` (one line)."""
    from fastsim.common import RulesError
    logw, u = draw_weights(kernel, target, budget)
    drawn = len(logw)
    accepted = int(np.isfinite(logw).sum())
    if accepted == 0:
        raise RulesError(refused.format(drawn=drawn))
    deals, w = thin(logw, u, target)
    return deals, w, drawn, accepted


def thin(logw, u, target):
    """Which drawn deals to play and their weights: ``(index, weight)`` (module doc).
    With fewer effective samples than ``target`` every deal of positive weight is played."""
    w = _weights(logw)
    pos = np.flatnonzero(w > 0)
    if len(pos) == 0:
        return pos, np.zeros(0)
    wp = w[pos]
    st = weight_stats(wp)
    if st["effective_samples"] <= THIN_MARGIN * target:
        return pos, wp
    goal = THIN_MARGIN * target
    srt = np.sort(wp)
    total = float(srt.sum())
    if total / srt[-1] >= goal:           # every deal thinned to the largest weight
        c = srt[-1]
    else:
        # ESS(c) = total² / (Σ_{w≥c} w² + c·Σ_{w<c} w) falls continuously as c grows: with
        # the k smallest weights below c (k = 1..len), solve ESS(c) = goal
        pre = np.cumsum(srt)                                   # pre[k-1]: k smallest
        suf2 = np.concatenate([np.cumsum((srt * srt)[::-1])[::-1][1:], [0.0]])  # from k on
        cand = (total * total / goal - suf2) / pre
        hi = np.concatenate([srt[1:], [srt[-1]]])
        ok = np.flatnonzero((cand > srt) & (cand <= hi))
        c = float(cand[ok[-1]]) if len(ok) else float(srt[0])
    keep = (wp >= c) | (u[pos] < wp / c)
    return pos[keep], np.maximum(wp[keep], c)


def interval_ok(effective, exact=False):
    return exact or effective >= MIN_FOR_INTERVAL


def gate_ci(ci, effective, exact=False):
    """The interval, or None when too few effective samples stand behind it."""
    return [float(ci[0]), float(ci[1])] if interval_ok(effective, exact) else None


def fmt_ci(ci, fmt="{:6.2f}"):
    """``[lo, hi]`` formatted, or the n/a text."""
    if ci is None:
        return NA
    return "[" + fmt.format(ci[0]) + ", " + fmt.format(ci[1]) + "]"


def sample_line(r, noun="deals", fit="the earlier bids", seed=None):
    """The text line saying how many samples stand behind the answer, e.g. ``"24,036
    sampled deals played (effective 21,342; the top 1% carry 3.0% of the weight; weighted
    by the earlier bids, 168,124 drawn), seed 0"``."""
    seed = r.get("seed") if seed is None else seed
    ess = r.get("effective_samples", r["samples"])
    parts = [f"effective {ess:,.0f}"]
    share = r.get("top1_weight_share")
    if share is not None:
        parts.append(f"the top 1% carry {share:.1%} of the weight")
    drawn = r.get("drawn")
    if r.get("bid_model") == "soft":
        parts.append(f"weighted by {fit}, {drawn:,} drawn")
    elif drawn is not None and drawn != r["samples"]:
        parts.append(f"{r['acceptance_rate']:.1%} of {drawn:,} drawn fit {fit}")
    return f"{r['samples']:,} sampled {noun} played ({'; '.join(parts)}), seed {seed}"


def _overlap(a, b):
    return a is not None and b is not None and a[0] <= b[1] and b[0] <= a[1]


def warnings(effective, requested=None, best=None, runner=None, what="option",
             exact=False, equal=False, extra=(), models="--policy, --bid-model"):
    """The warning lines of a query's answer.

    ``effective``: its effective sample size; ``best``/``runner``: ``(name, ci)`` of the
    recommendation and the runner-up (by the quantity the recommendation maximises);
    ``exact``: the outcome is determined (no sampling error); ``equal``: the two did
    exactly equally well in every sample (a tie, not thin evidence); ``models``: the
    options that choose another opponents' model."""
    out = []
    if exact:
        return list(extra)
    if effective < MIN_FOR_INTERVAL:
        out.append(f"only {effective:,.0f} effective samples: too few for any interval "
                   f"(none is shown); use more --samples or another opponents' model ({models})")
    elif effective < MIN_EFFECTIVE:
        out.append(f"only {effective:,.0f} effective samples (fewer than {MIN_EFFECTIVE:,}): "
                   f"the figures are rough; use more --samples or another opponents' model ({models})")
    if best is not None and runner is not None and not equal and effective >= MIN_FOR_INTERVAL \
            and _overlap(best[1], runner[1]):
        out.append(f"the recommended {what} {best[0]} and the runner-up {runner[0]} are not "
                   "separated (their 95% intervals overlap): the difference may be noise; "
                   "use more --samples to decide")
    return out + list(extra)


CI_KEYS = ("value_ci", "p_make_ci", "p_last_ci", "expected_score_ci")


def finish_play(r, weights, values=None):
    """Complete a play query's answer ``r`` (its ``cards`` with ``value``/``value_ci``,
    ``recommended``, ``exact``): ``effective_samples`` and ``top1_weight_share`` of the
    worlds' ``weights``, intervals hidden (None) when too few effective samples stand
    behind them, and ``warnings``. ``values[i, k]``: card k's value in world i (two cards
    equal in every world are a tie, not thin evidence). Returns ``r``."""
    st = weight_stats(weights)
    n_eff = st["effective_samples"]
    r["effective_samples"] = n_eff
    r["top1_weight_share"] = st["top1_weight_share"]
    exact = bool(r.get("exact"))
    if not interval_ok(n_eff, exact):
        for c in r["cards"]:
            for k in CI_KEYS:
                if c.get(k) is not None:
                    c[k] = None
    names = [c["card"] for c in r["cards"]]
    kb = names.index(r["recommended"])
    v = None if values is None else np.asarray(values)
    # the runner-up: the best other card that did not do exactly as well in every world
    others = [k for k in range(len(names)) if k != kb
              and not (v is not None and np.array_equal(v[:, k], v[:, kb]))]
    best = (names[kb], r["cards"][kb]["value_ci"])
    runner = None
    if others:
        kr = max(others, key=lambda k: r["cards"][k]["value"])
        runner = (names[kr], r["cards"][kr]["value_ci"])
    models = "--policy, --bid-model" if r.get("game") == "boerenbridge" else "--policy"
    r["warnings"] = warnings(n_eff, r.get("samples"), best, runner, what="card", exact=exact,
                             models=models)
    return r


def with_rules(lines, r):
    """A query's text ``lines`` with a line naming the rules it assumed inserted after the
    first (the heading): the preset, the variants in force, or the standard rules."""
    v = r.get("variants") or {}
    parts = []
    if r.get("preset"):
        parts.append(f"preset {r['preset']}")
    parts += [k if val in ("", None, True) else f"{k}={val}" for k, val in v.items()]
    line = ("rules: " + ", ".join(parts) if parts else "rules: standard, no variants") \
        + " (docs/rules.md)"
    return list(lines[:1]) + [line] + list(lines[1:])
