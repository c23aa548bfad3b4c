"""The machine line every benchmark prints with its figures (CPU model, cores, memory,
Python), so that a figure in the README can name the machine it came from."""
import os
import platform
import time


def cpu_model():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return model


def machine(memory=False):
    """``"<cpu>, <n> cores[, <m> GiB], Python <x.y.z>"``."""
    mem = ""
    if memory:
        mem = f", {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB"
    return f"{cpu_model()}, {os.cpu_count()} cores{mem}, Python {platform.python_version()}"


def best_rate(fn, count, repeats=3):
    """The best of ``repeats`` runs of ``fn()`` as ``count`` per second."""
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = max(best, count / (time.perf_counter() - t))
    return best
