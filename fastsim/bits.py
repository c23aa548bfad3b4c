"""Bitboard primitives (compiled).

A hand, a trick or a set of played cards is an ``int64`` bit mask over card codes
(see :mod:`fastsim.cards`): card ``c`` is bit ``1 << c``. Suit ``s`` occupies bits
``16*s .. 16*s + 12``; bit 63 is never used, so masks stay non-negative.

The three counting primitives map straight onto LLVM's ``ctpop``/``cttz``/``ctlz``
instructions through numba intrinsics, so they cost a single machine instruction.

The helpers are not inlined by numba (``inline="always"`` copies a function's IR into
every caller before typing, which is most of a kernel's first compile): each compiles
once, and LLVM inlines these few instructions into every kernel that calls them (the
same machine code, the same speed; a cold ``troef simulate boerenbridge`` compiles
about 15% faster).
"""
from ._jit import njit, types
from ._jit import intrinsic

SUIT_BITS = 16
RANK_MASK = 0x1FFF  # 13 ranks, 2..A


def _count_intrinsic(name, emit):
    """An ``int64 -> int64`` intrinsic called ``name`` whose body is ``emit(context, builder, x)``."""
    def typer(typingctx, x):
        def codegen(context, builder, signature, args):
            return emit(context, builder, args[0])
        return types.int64(types.int64), codegen
    typer.__name__ = typer.__qualname__ = name
    return intrinsic(typer)


def _zero_defined(context):
    """cttz/ctlz's is-zero-poison flag, off: a zero argument gives 64, not an undefined value."""
    return context.get_constant(types.boolean, False)


_ctpop = _count_intrinsic("_ctpop", lambda context, builder, x: builder.ctpop(x))
_cttz = _count_intrinsic("_cttz", lambda context, builder, x: builder.cttz(x, _zero_defined(context)))
_ctlz = _count_intrinsic("_ctlz", lambda context, builder, x: builder.ctlz(x, _zero_defined(context)))


@njit(cache=True)
def popcount_nb(mask):
    """Number of cards in ``mask``."""
    return _ctpop(mask)


@njit(cache=True)
def lowest_nb(mask):
    """Card code of the lowest set bit (``mask`` must be non-zero)."""
    return _cttz(mask)


@njit(cache=True)
def highest_nb(mask):
    """Card code of the highest set bit (``mask`` must be non-zero)."""
    return 63 - _ctlz(mask)


@njit(cache=True)
def suit_mask_nb(suit):
    """All 13 card bits of ``suit``."""
    return RANK_MASK << (SUIT_BITS * suit)


@njit(cache=True)
def suit_ranks_nb(mask, suit):
    """The 13-bit rank set of ``suit`` in ``mask`` (bit r = rank index r)."""
    return (mask >> (SUIT_BITS * suit)) & RANK_MASK


@njit(cache=True)
def nth_card_nb(mask, k):
    """Card code of the ``k``-th set bit of ``mask`` in increasing order (0-based)."""
    for _ in range(k):
        mask &= mask - 1
    return _cttz(mask)


SUIT_LOWS = 0x0001000100010001  # bit 16*s for every suit s


@njit(cache=True)
def low_card_nb(mask):
    """Lowest-ranked card in ``mask``, ties to the lowest suit index (-1 for an empty mask).
    Branch-free: the lowest rank held in any suit, then the lowest suit holding it."""
    if mask == 0:
        return -1
    ranks = (mask | (mask >> 16) | (mask >> 32) | (mask >> 48)) & RANK_MASK
    rank = _cttz(ranks)
    return (_cttz((mask >> rank) & SUIT_LOWS) & ~15) + rank


@njit(cache=True)
def high_card_nb(mask):
    """Highest-ranked card in ``mask``, ties to the lowest suit index (-1 for an empty
    mask). Branch-free, as :func:`low_card_nb`."""
    if mask == 0:
        return -1
    ranks = (mask | (mask >> 16) | (mask >> 32) | (mask >> 48)) & RANK_MASK
    rank = 63 - _ctlz(ranks)
    return (_cttz((mask >> rank) & SUIT_LOWS) & ~15) + rank
