"""The Japanese translation is complete and its compiled .qm is the one the app loads."""
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402

TS = ROOT / "attnviz" / "resources" / "translations" / "attnviz_ja.ts"


def messages(ts):
    return {m.find("source").text: m.find("translation") for m in ET.parse(ts).getroot().iter("message")}


@pytest.fixture(scope="module")
def fresh_ts(tmp_path_factory):
    """What lupdate finds in the code today, merged into a copy of the committed .ts."""
    copy = tmp_path_factory.mktemp("ts") / "attnviz_ja.ts"
    shutil.copy(TS, copy)
    translations.update(copy)
    return copy


def test_every_string_in_the_interface_is_in_the_translation_file(fresh_ts):
    assert set(messages(fresh_ts)) == set(messages(TS)), "run python tools/translations.py"


def test_every_string_has_a_japanese_translation(fresh_ts):
    unfinished = [source for source, t in messages(fresh_ts).items()
                  if not (t.text or "").strip() or t.get("type") in ("unfinished", "vanished", "obsolete")]
    assert unfinished == []


def test_the_committed_qm_is_compiled_from_the_committed_ts(tmp_path):
    compiled = translations.release(TS, tmp_path / "attnviz_ja.qm")
    assert compiled.read_bytes() == TS.with_suffix(".qm").read_bytes(), "run python tools/translations.py"
