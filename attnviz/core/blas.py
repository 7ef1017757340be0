"""One BLAS thread for AttnViz's own small matrices, every core for a real model's pass.

AttnViz multiplies small matrices (a head is n × 64): measured on a shared two-core machine (`make
bench`, "BLAS threads"), OpenBLAS's second thread makes every one of them slower (a 128 × 12
recompute 16 → 21 ms median and 16 → 76 ms at the 90th percentile): the threads wait for each other
and for the window. A real model's products at hundreds of tokens are large enough to share
(model_threads). A user's own OPENBLAS_NUM_THREADS, OMP_NUM_THREADS or MKL_NUM_THREADS is left as it is."""
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
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return False
    threadpool_limits(1, user_api="blas")
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
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()


def one_blas_thread():
    """One BLAS thread while the caller's own threads share the cores (each a BLAS call of its own)."""
    return model_threads(shared_out=True)
