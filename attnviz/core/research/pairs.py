"""A dataset of prompt pairs from a file, for `attnviz patch --pairs FILE`: JSON lines
({"clean": …, "corrupted": …, "answer": …, "against": …} a line) or CSV with those four columns named in
its first row. Checked at the door: a regular file of at most 16 MB, UTF-8, every pair whole."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ..files import problem, read_limited
from ..formats.scenario_json import Twice, once
from ..messages import QT_TR_NOOP, cut
from .given import MOST_PAIRS

MOST_BYTES = 16 << 20
KEYS = ("clean", "corrupted", "answer", "against")


def read_pairs(path) -> list[tuple[str, str, str, str]]:
    data = read_limited(path, MOST_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise problem(path, QT_TR_NOOP("is not UTF-8 text")) from None
    rows = _csv_rows(path, text) if Path(path).suffix.lower() == ".csv" else _json_rows(path, text)
    if not 1 <= len(rows) <= MOST_PAIRS:
        raise problem(path, QT_TR_NOOP("holds {0:,} pairs; give from 1 to {1:,}"), len(rows), MOST_PAIRS)
    return [_pair(path, line, row) for line, row in rows]


def _json_rows(path, text: str) -> list[tuple[int, object]]:
    rows: list[tuple[int, object]] = []
    # only \n ends a line: U+2028, a form feed or a lone CR may stand inside a JSON text
    for line, content in enumerate(text.split("\n"), 1):
        content = content.removesuffix("\r")
        if content.strip():
            try:
                rows.append((line, json.loads(content, object_pairs_hook=once)))
            except Twice as e:  # which of the two was meant, no one can tell
                raise problem(path, QT_TR_NOOP("line {0} gives \"{1}\" twice"), line, cut(e.key, 40)) from None
            except (ValueError, RecursionError):
                raise problem(path, QT_TR_NOOP("line {0} is not a JSON object of clean, corrupted, answer and "
                                               "against (a .csv file is read as CSV)"), line) from None
        if len(rows) > MOST_PAIRS:
            break
    return rows


def _csv_rows(path, text: str) -> list[tuple[int, object]]:
    fetched = [0]  # lines handed to csv: its own line_num leaves out the line whose field is past its limit

    def lines():
        for line in io.StringIO(text, newline=None):  # \r\n, \n, and an old Mac's lone \r each end a line
            fetched[0] += 1
            yield line
    reader = csv.DictReader(lines())
    rows: list[tuple[int, object]] = []
    try:
        if reader.fieldnames is None or not set(KEYS) <= set(reader.fieldnames):
            raise problem(path, QT_TR_NOOP("its first row must name the columns clean, corrupted, answer and "
                                           "against"))
        twice = next((key for key in KEYS if reader.fieldnames.count(key) > 1), None)
        if twice is not None:  # csv keeps the last of two columns of one name silently
            raise problem(path, QT_TR_NOOP("its first row names the column \"{0}\" twice"), twice)
        for row in reader:
            rows.append((reader.line_num, row))
            if len(rows) > MOST_PAIRS:
                break
    except csv.Error as e:  # a field past csv's limit of 131,072 characters: a text no model here reads
        raise problem(path, QT_TR_NOOP("line {0} is not CSV that AttnViz reads: {1}"), fetched[0],
                      cut(str(e), 80)) from None
    return rows


def _pair(path, line: int, row) -> tuple[str, str, str, str]:
    if not isinstance(row, dict) or not all(isinstance(row.get(key), str) and row[key] for key in KEYS):
        raise problem(path, QT_TR_NOOP("line {0} does not give clean, corrupted, answer and against as texts: {1}"),
                      line, cut(json.dumps(row, ensure_ascii=False) if isinstance(row, (dict, list)) else str(row)))
    return (row["clean"], row["corrupted"], row["answer"], row["against"])
