"""Soft bidder models: the likelihood of an observed bid, pass or call given a hand.

The queries condition the hidden hands on what the other players bid (Boerenbridge) or
that they passed (Klaverjassen). The modelled bidder is the engine's deterministic
heuristic; matching its bid exactly (rejection) treats every bid a person makes that the
heuristic would not as impossible. These functions soften it so that every legal action
has positive probability (docs/inference.md):

* Boerenbridge bid ``b`` of a player whose heuristic bid is ``hb``:
  ``P(b) ∝ exp(−λ·|b − hb|)`` over the legal bids 0..h (the dealer's forbidden bid left
  out). ``λ = inf``: the exact heuristic (probability 1 at ``hb``); ``λ = 0``: uniform
  (the random bidder).
* Klaverjassen pass of a player whose best call value is ``v`` against the heuristic's
  threshold ``T`` (it names trump when ``v >= T``): ``P(pass) = 1 / (1 + exp((v − T + ½)/τ))``.
  ``τ = 0``: the exact heuristic.

Compiled; scalars in, a log likelihood out (−inf: impossible).
"""
import numpy as np
from ._jit import njit

CTR_THIN = 9_000_001   # counter of a sample's thinning uniform (no engine decision uses it)


@njit(cache=True)
def bid_loglik_nb(bid, hb, h, forbidden, lam):
    """log P(bid | the heuristic bids ``hb``) under the soft bidder with slope ``lam``
    (per trick of difference) over the legal bids 0..h other than ``forbidden`` (−1:
    none). ``lam = inf``: 0 when ``bid == hb``, else −inf."""
    if bid < 0 or bid > h or bid == forbidden:
        return -np.inf
    if lam == np.inf:
        return 0.0 if bid == hb else -np.inf
    z = 0.0
    for b in range(h + 1):
        if b != forbidden:
            d = b - hb if b > hb else hb - b
            z += np.exp(-lam * d)
    d = bid - hb if bid > hb else hb - bid
    return -lam * d - np.log(z)


@njit(cache=True)
def pass_loglik_nb(value, threshold, tau):
    """log P(pass | best call value ``value``) for a heuristic that calls when
    ``value >= threshold``, softened by the logistic scale ``tau`` (value points).
    ``tau = 0``: 0 when ``value < threshold``, else −inf."""
    if tau <= 0.0:
        return 0.0 if value < threshold else -np.inf
    x = (value - threshold + 0.5) / tau
    # log(1 / (1 + e^x)), stable for large |x|
    if x > 0:
        return -x - np.log1p(np.exp(-x))
    return -np.log1p(np.exp(x))


@njit(cache=True, inline="always")
def uniform_nb(r):
    """A uniform in (0, 1) from 64 random bits."""
    return ((r >> np.uint64(11)) + 0.5) / 9007199254740992.0
