"""AttnViz runs numpy's BLAS on one thread (measured faster: core/blas.py), unless the user chose."""
import os
import subprocess
import sys

import pytest

SCRIPT = """
import sys
import numpy
from threadpoolctl import threadpool_info, threadpool_limits
if len(sys.argv) > 1:
    threadpool_limits(2, user_api="blas")   # as on a machine with two cores or more
from attnviz.cli import main
main(["presets"])
print([i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"], file=sys.stderr)
"""


@pytest.mark.parametrize("chosen, expected", [(None, "[1]"), ("2", f"[{min(2, os.cpu_count())}]")])
def test_the_command_line_runs_blas_on_one_thread_unless_the_user_chose(chosen, expected):
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                                            "MKL_NUM_THREADS")}
    if chosen:
        env["OPENBLAS_NUM_THREADS"] = chosen
    result = subprocess.run([sys.executable, "-c", SCRIPT] + ([] if chosen else ["two"]),
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines()[-1] == expected


WORKER = """
import threading
from threadpoolctl import threadpool_info
from attnviz.core.blas import model_threads, one_blas_thread, use_one_thread

def blas_threads():
    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]

use_one_thread()                      # as `attnviz` starts, on the main thread
seen = {}
def worker():                         # the window's model worker
    with model_threads():
        seen["pass"] = blas_threads()
    seen["after"] = blas_threads()
    with one_blas_thread():
        seen["rows"] = blas_threads()
thread = threading.Thread(target=worker)
thread.start()
thread.join()
with model_threads():
    seen["main"] = blas_threads()
print(seen["pass"], seen["after"], seen["rows"], seen["main"], blas_threads())
"""


def test_a_model_pass_on_another_thread_gets_the_blas_threads_it_asks_for():
    """threadpoolctl ≥ 3.8 lets only the first thread that sets OpenBLAS's limit set it again: the
    window's worker would run every pass on the one thread the main thread set at start."""
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                                            "MKL_NUM_THREADS")}
    result = subprocess.run([sys.executable, "-c", WORKER], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    every = f"[{os.cpu_count()}]"
    assert result.stdout.split() == [every, "[1]", "[1]", every, "[1]"]
