"""Callbacks that run once numba comes into play (:mod:`fastsim._jit` imported); no numba."""
_callbacks = []
_ran = []


def on_jit(callback):
    """Call ``callback()`` once the kernels' numba is imported: now if it already is."""
    if _ran:
        callback()
    else:
        _callbacks.append(callback)


def run():
    _ran.append(True)
    while _callbacks:
        _callbacks.pop(0)()
