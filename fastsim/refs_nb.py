"""Borrowed arrays: a view of an array that numba does not reference-count (compiled).

numba counts the references to every array it allocated (its *meminfo*): each time an
array is passed to a compiled function that is not inlined, taken out of a tuple, bound to
the argument of an inlined function or sliced, the count goes up, and down again when that
name is done with. Each step is an atomic instruction (``lock incq`` / ``lock decq``) in a
function call; in the search policies' inner loops, where the same few scratch arrays go
down several calls for every card of every world, they were about a fifth of the time
(``perf``), and most of the ``random`` policy's.

:func:`borrow_nb` returns the same array (data, shape, strides, type) without its meminfo,
as numba's arrays of global constants are: numba's reference counting skips such an array
(``NRT_incref`` and ``NRT_decref`` return at once on a null meminfo), and so does every view
and slice of it. The memory stays owned by the original array, so a borrowed array must not
outlive it:

* a kernel may borrow its **arguments** (the caller holds them for the whole call) and pass
  the borrowed arrays down, put them in tuples and slice them freely;
* a borrowed array of a **local** allocation is used only while the owner is alive: numba
  frees an array after the last use of its name, so the owner is named once more, in
  :func:`keep_nb`, after the last use of anything borrowed from it;
* a borrowed array is never returned, nor stored anywhere that outlives the call.

Nothing else changes: the same reads and writes of the same memory, so the same results.
"""
from llvmlite import ir

from ._jit import intrinsic, types


@intrinsic
def borrow_nb(typingctx, arr):
    """``arr`` without its meminfo (and without its Python parent): not reference-counted."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        out = context.make_array(arr)(context, builder)
        for name in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(out, name, getattr(src, name))
        out.meminfo = ir.Constant(src.meminfo.type, None)
        out.parent = ir.Constant(src.parent.type, None)
        return out._getvalue()

    return arr(arr), codegen


@intrinsic
def keep_nb(typingctx, arr):
    """Nothing, but a use of ``arr``: the owner of borrowed arrays lives at least to here."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(arr), codegen
