"""The core stays free of Qt: scripts and the command line use it without a GUI stack."""
import subprocess
import sys


def test_importing_the_core_and_running_it_loads_no_qt_or_pyqtgraph():
    code = ("import sys, attnviz.core as c; c.compute(c.load_preset('gpt2-small-shape')); "
            "import attnviz.cli; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
