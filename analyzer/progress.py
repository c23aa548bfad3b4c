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
