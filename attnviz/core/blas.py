"""One BLAS thread. AttnViz multiplies small matrices (a head is n × 64) and a 135M-parameter
model one sentence at a time; measured on a shared two-core machine (`make bench`, "BLAS
threads"), OpenBLAS's second thread makes every one of them slower (a 128 × 12 recompute
16 → 21 ms median and 16 → 76 ms at the 90th percentile; the model's forward pass 0.24 → 0.54 s):
the threads wait for each other and for the window. A user's own OPENBLAS_NUM_THREADS,
OMP_NUM_THREADS or MKL_NUM_THREADS is left as it is."""
from __future__ import annotations

import os

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
