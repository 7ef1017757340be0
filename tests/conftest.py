import json
import os
import tempfile

# Before any QApplication exists: CI has no display. The offscreen screen is a classroom
# projector's, 1920 × 1080, so full-screen presentation is laid out as in front of a class.
_SCREEN = os.path.join(tempfile.mkdtemp(prefix="attnviz-test-screen-"), "screen.json")
with open(_SCREEN, "w") as _f:
    json.dump({"screens": [{"name": "projector", "x": 0, "y": 0, "width": 1920, "height": 1080,
                            "logicalDpi": 96, "dpr": 1}]}, _f)
os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_SCREEN}"
# Autosaves and error logs of test runs go to a throwaway folder, never the user's.
os.environ.setdefault("ATTNVIZ_DATA_DIR", tempfile.mkdtemp(prefix="attnviz-test-data-"))

import pytest  # noqa: E402 (after the environment above, as every test module's imports are)

from attnviz.core import lm  # noqa: E402
from attnviz.core.lm import allocator, catalog  # noqa: E402

# Every thread's memory from one heap, as `attnviz` starts (lm/allocator.py): a model loaded on a pool's
# threads would otherwise leave arenas of their own that a later pass's threads take, and give back
# what those free (the test of a second pass's faults counts them).
allocator.one_heap()

# ---------------------------------------------------------------- the real models' tests, counted
# A test that runs a real model is marked @pytest.mark.real_model("smollm2") or ("gemma3"): skipped,
# saying how to install it, where the model is not installed; counted at the end of the run. A marked
# test skipped although its model is installed is listed there with its reason (a handout's fixture
# skips what a lesson has not, a comparison); one that says a model is not installed fails the run: its
# own check disagrees with what is installed, and it would hide what it guards.
REAL_MODELS = {"smollm2": ("SmolLM2-135M (the built-in model)", lm.bundled_model, "make installs it"),
               "gemma3": ("Gemma 3 270M", catalog.gemma_chunks, catalog.GEMMA_INSTALL)}
_real_outcomes: dict[str, dict[str, list]] = {name: {"ran": [], "skipped": []} for name in REAL_MODELS}


def pytest_configure(config):
    config.addinivalue_line("markers", "real_model(name): runs a real model (smollm2 or gemma3); skipped "
                                       "without it, counted at the end of the run")


def _installed(name: str) -> bool:
    return REAL_MODELS[name][1]() is not None


def _real_model_of(item) -> str | None:
    mark = item.get_closest_marker("real_model")
    if mark is None:
        return None
    if mark.args[0] not in REAL_MODELS:
        raise pytest.UsageError(f"{item.nodeid}: real_model({mark.args[0]!r}) is not one of {sorted(REAL_MODELS)}")
    return mark.args[0]


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = _real_model_of(item)
        if name is not None and not _installed(name):
            title, _, install = REAL_MODELS[name]
            item.add_marker(pytest.mark.skip(reason=f"{title} is not installed ({install})"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    name = _real_model_of(item)
    if name is not None and (report.when == "call" or report.skipped):
        _real_outcomes[name]["skipped" if report.skipped else "ran"].append((item.nodeid, report))


def _skipped_installed() -> list:
    """The marked tests skipped although their model is installed: (nodeid, the skip's reason)."""
    return [(nodeid, report.longrepr[-1] if isinstance(report.longrepr, tuple) else str(report.longrepr))
            for name in REAL_MODELS if _installed(name) for nodeid, report in _real_outcomes[name]["skipped"]]


def _hidden() -> list:
    """Those of them that say a model is not installed: a check of their own that is wrong here."""
    return [(nodeid, reason) for nodeid, reason in _skipped_installed() if "not installed" in reason]


def _required_missing() -> list[str]:
    """The real models ATTNVIZ_REQUIRE_MODELS names (CI: smollm2) that are not installed: the run fails,
    rather than pass having skipped what guards them."""
    names = [n for n in os.environ.get("ATTNVIZ_REQUIRE_MODELS", "").split(",") if n]
    unknown = [n for n in names if n not in REAL_MODELS]
    if unknown:
        raise pytest.UsageError(f"ATTNVIZ_REQUIRE_MODELS: {unknown} not among {sorted(REAL_MODELS)}")
    return [n for n in names if not _installed(n)]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish(session, exitstatus):
    """The run's last lines: how many tests each real model ran (after pytest's own summary)."""
    if (_hidden() or _required_missing()) and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    result = yield
    terminal = session.config.pluginmanager.get_plugin("terminalreporter")
    if terminal is not None:
        _summarise(terminal)
    return result


def _summarise(terminal) -> None:
    terminal.section("real models", sep="-")
    for name, (title, _, install) in REAL_MODELS.items():
        ran, skipped = _real_outcomes[name]["ran"], _real_outcomes[name]["skipped"]
        if not _installed(name):
            terminal.write_line(f"{title}: not installed ({install}): {len(skipped)} tests skipped")
        else:
            terminal.write_line(f"{title}: {len(ran)} tests ran")
    for name in _required_missing():
        terminal.write_line(f"FAILED: {REAL_MODELS[name][0]} is required here (ATTNVIZ_REQUIRE_MODELS) but not "
                            f"installed ({REAL_MODELS[name][2]})", red=True, bold=True)
    hidden = _hidden()
    for nodeid, reason in _skipped_installed():
        failed = (nodeid, reason) in hidden
        terminal.write_line(f"{'FAILED: ' if failed else ''}{nodeid} was skipped although its model is installed: "
                            f"{reason}", red=failed, bold=failed)
