"""One BLAS thread for AttnViz's own small matrices, every core for a real model's pass.

AttnViz multiplies small matrices (a head is n × 64): measured on a shared two-core machine (`make
bench`, "BLAS threads"), OpenBLAS's second thread makes every one of them slower (a 128 × 12
recompute 16 → 21 ms median and 16 → 76 ms at the 90th percentile): the threads wait for each other
and for the window. A real model's products at hundreds of tokens are large enough to share
(model_threads). A user's own OPENBLAS_NUM_THREADS, OMP_NUM_THREADS or MKL_NUM_THREADS is left as it is.

OpenBLAS (threads of its own, not OpenMP) has one limit for the whole process, and threadpoolctl ≥ 3.8
lets only one Python thread set it: the first that does, until its `with` ends; any other thread's
limit is ignored without a word. A limit set for the whole process has no `with` to end, so
use_one_thread hands that right back at once (_release): otherwise the thread that starts AttnViz
would keep it for ever, and a model's pass on the window's worker thread would run on one BLAS
thread where the same pass on the command line runs on every core, its sums split differently
(different last bits on CPUs whose kernels split them by thread) and, for short texts, slower."""
from __future__ import annotations

import os
from contextlib import contextmanager
from functools import lru_cache

CHOSEN_BY_USER = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def use_one_thread() -> bool:
    """Limit numpy's BLAS to one thread for this process; False when the user chose otherwise
    or threadpoolctl is missing (then nothing changes)."""
    if any(os.environ.get(name) for name in CHOSEN_BY_USER):
        return False
    controller = _controller()
    if controller is None:
        return False
    controller.limit(limits=1, user_api="blas")
    _release()
    return True


@contextmanager
def model_threads(shared_out: bool = False):
    """BLAS for a real model's forward pass: every core for its products, or, when the pass shares
    its rows out to the cores itself (`shared_out`: lm.blocks.by_rows), one thread per call. The
    limit set before is back afterwards. Nothing changes when the user chose the threads or
    threadpoolctl is missing."""
    controller = _controller()
    if controller is None:
        yield
        return
    with controller.limit(limits=1 if shared_out else os.cpu_count() or 1, user_api="blas"):
        yield


@lru_cache(maxsize=1)
def _controller():
    """threadpoolctl's view of the loaded BLAS, found once (finding it walks every loaded library:
    milliseconds a time, too long to repeat at every layer)."""
    if any(os.environ.get(name) for name in CHOSEN_BY_USER):
        return None
    try:
        from threadpoolctl import ThreadpoolController  # optional: absent, the user's BLAS setting stands
    except ImportError:
        return None
    return ThreadpoolController()


def _release() -> None:
    """This thread gives up its right to set OpenBLAS's limit (threadpoolctl ≥ 3.8; before it, any
    thread may set it and there is nothing to give up)."""
    import threadpoolctl  # asked only where ThreadpoolController was found
    openblas = getattr(threadpoolctl, "OpenBLASController", None)
    clear = getattr(openblas, "clear_controlling_thread", None)
    if clear is not None:
        clear()


def one_blas_thread():
    """One BLAS thread while the caller's own threads share the cores (each a BLAS call of its own)."""
    return model_threads(shared_out=True)
