"""A scenario saved as JSON: indented, a row of numbers to a line, so people can read and diff it.

Reading checks the size of the file, then counts the lists and values it opens before Python
builds them, and bounds every integer's digits while it is parsed; the document is then checked
field by field (document.py). A scenario too large for JSON is saved as .npz (scenario_npz.py).
"""
from __future__ import annotations

import json
from pathlib import Path

from ..files import atomic_write, problem, read_limited
from ..messages import QT_TR_NOOP, Phrase, cut
from ..numbers import RANGE_TEXT
from ..scenario import Scenario, ScenarioError, count_values
from .document import meta_of, scenario_from_dict, scenario_to_dict

MAX_FILE_BYTES = 100 * 1024 * 1024  # a JSON scenario; AttnViz writes JSON only far below this
JSON_MAX_VALUES = 2_000_000  # ≈ 50 MB of JSON text; larger scenarios are saved as .npz
# Lists and objects a JSON file may open, and values it may separate: counted in its bytes before
# Python builds them (a 100 MB file of "[0]," would otherwise become gigabytes of lists). An
# AttnViz file holds at most JSON_MAX_VALUES numbers and some text; this leaves room to spare.
MAX_JSON_ITEMS = 6_000_000
MAX_DIGITS = 24              # an integer in a JSON file (Python refuses more than 4,300 anyway)



class Twice(ValueError):
    """A JSON object that gives one key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def once(pairs: list[tuple[str, object]]) -> dict:
    """json's object_pairs_hook for files people write: each key given once (json keeps the last of two)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise Twice(key)
        seen.add(key)
    return dict(pairs)

def save(s: Scenario, path, meta: dict | None = None, private: bool = False, replace=None) -> None:
    """Save as JSON; `meta` (an autosave's source and time) travels in the document. Refuses a
    scenario too large to open again as JSON. `replace(tmp, path)` puts the written file in place
    (see atomic_write)."""
    if too_large_for_json(s):
        raise problem(path, ScenarioError(
            QT_TR_NOOP("this scenario holds {0:,} numbers, too many for a .json file: save it as .npz "
            "(the compact scenario format)"), count_values(s)))
    document = scenario_to_dict(s)
    if meta:
        document["autosave"] = meta
    atomic_write(path, to_json_text(document).encode("utf-8"), private, replace)


def too_large_for_json(s: Scenario) -> bool:
    return count_values(s) > JSON_MAX_VALUES


def to_json_text(document) -> str:
    """Indented JSON with each list of scalars (a row of numbers, the tokens) on one line,
    so people can read and diff it."""
    return _json(document, "") + "\n"


def _json(value, indent: str) -> str:
    inner = indent + " "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value):
        return "[\n" + ",\n".join(inner + _json(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def load(path: Path) -> tuple[Scenario, dict]:
    """(the scenario, the document's "autosave" entry or {})."""
    document = parse_json(read_limited(path, MAX_FILE_BYTES), path)
    return scenario_from_dict(document), meta_of(document)


# What Python's JSON parser says of a broken file, marked so that it is translated too.
JSON_SAYS = (QT_TR_NOOP("Expecting value"), QT_TR_NOOP("Expecting ',' delimiter"),
             QT_TR_NOOP("Expecting ':' delimiter"), QT_TR_NOOP("Expecting property name enclosed in double quotes"),
             QT_TR_NOOP("Extra data"), QT_TR_NOOP("Unterminated string starting at"),
             QT_TR_NOOP("Invalid control character at"), QT_TR_NOOP("Invalid \\escape"),
             QT_TR_NOOP("Illegal trailing comma before end of object"),
             QT_TR_NOOP("Illegal trailing comma before end of array"))


def parse_json(data: bytes, path) -> dict:
    """A JSON document (a scenario, a session, a scenario .npz's header), refused as a FileProblem
    naming `path` when it is broken or far larger than any of them."""
    items = data.count(b",") + data.count(b"[") + data.count(b"{")
    if items > MAX_JSON_ITEMS:
        raise problem(path, QT_TR_NOOP("holds {0:,} values and lists, far more than a scenario (at most {1:,} "
                                       "numbers) has"), items, JSON_MAX_VALUES)
    try:
        return json.loads(data.decode("utf-8-sig"), parse_int=_bounded_int,  # -sig: Windows editors add a BOM
                          object_pairs_hook=once)
    except Twice as e:  # which of the two was meant, no one can tell (json keeps the last silently)
        raise problem(path, QT_TR_NOOP("gives \"{0}\" twice in one object"), cut(e.key, 40)) from None
    except UnicodeDecodeError:
        raise problem(path, QT_TR_NOOP("not a text file (it is not UTF-8)")) from None
    except json.JSONDecodeError as e:
        said = Phrase(e.msg) if e.msg in JSON_SAYS else e.msg
        raise problem(path, QT_TR_NOOP("broken JSON at line {0}, column {1}: {2}"), e.lineno, e.colno, said) from None
    except RecursionError:
        raise problem(path, QT_TR_NOOP("nested far too deeply to be a scenario")) from None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ScenarioError(QT_TR_NOOP("holds an integer of {0:,} digits; numbers must lie {1}"),
                            len(text.lstrip('-')), RANGE_TEXT)
    return int(text)
