"""Progress bars on stderr (tqdm) for work that may run longer than a couple of seconds."""
import sys


def bar(total, unit, progress=None, desc=None):
    """A bar when ``progress`` (None: stderr is a terminal), else None; it appears only
    once the work has run for 2 seconds, so quick runs print nothing."""
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm
    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, delay=2.0,
                dynamic_ncols=True, smoothing=0.1, desc=desc)


def sliced(total, unit, run, desc=None, progress=None):
    """Call ``run(z)`` for slices ``z`` of ``range(total)``: one slice without a bar, 20
    with one (each advancing it). For work whose items are independent of one another (a
    deal or world keyed by its own index), so the slicing changes no result."""
    b = bar(total, unit, progress, desc)
    step = max(1, total) if b is None else max(1, -(-total // 20))
    for a in range(0, total, step):
        z = slice(a, min(a + step, total))
        run(z)
        if b is not None:
            b.update(z.stop - z.start)
    if b is not None:
        b.close()
