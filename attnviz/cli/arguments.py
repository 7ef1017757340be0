"""What every command shares: bad input as one line (UsageError), the argument types, opening a
scenario or one layer of a model's file, and the limit on numbers printed as text."""
from __future__ import annotations

import argparse
import ipaddress
import os

from ..core.messages import cut
from ..core.numbers import NumberError, parse_number
from ..core.presets import open_named
from ..core.text import terminal_safe

PROG = "attnviz"
LANGUAGES = ["ja", "en"]
# Numbers written as text take time (a float's repr: under a million a second on a busy two-core
# machine, see bench/limits.py): a command that prints them refuses more than it writes within
# 30 s. Binary .npz (export -o FILE.npz) has no such limit.
MAX_PRINTED = 2 ** 23   # weights (or rollout) printed as JSON or CSV: 2 heads of 2,048 tokens
MAX_CSV_ROWS = 2 ** 21  # rows of `attnviz export -o FILE.csv`, one per number, five fields each


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print the usage and exit itself
        raise UsageError(f"{message} (see '{self.prog} --help')")


def open_scenario(name: str, layer: int | None = None, lang: str | None = None):
    """A preset id (its version in `lang`; None: the Japanese original) or a path to a scenario
    file -> Scenario (ScenarioError if neither works)."""
    return open_layer(name, layer, lang)[0]


def open_layer(name: str, layer: int | None, lang: str | None = None):
    """(scenario, source) of layer `layer` of a model's file (layer 0 by default); a scenario with
    no layers has only layer 0, a scenario saved from one layer only that one. A preset in `lang`."""
    opened = open_named(name, layer or 0, lang)
    scenario = opened[0]
    if layer is not None:
        have = scenario.layer
        if have is None and layer != 0:
            raise UsageError(f"--layer {layer}: {name} has no layers")
        if have is not None and have[0] != layer:
            raise UsageError(f"--layer {layer}: {name} holds layer {have[0]} of the model only")
    return opened


def check_output(output: str, *inputs) -> None:
    """-o is not a file the command reads (it would be replaced by what is made of it) nor a link to a file of
    another kind (run.npz -> model.gguf would write the run over the model)."""
    for given in inputs:
        if given and os.path.exists(output) and os.path.exists(given) and os.path.samefile(output, given):
            raise UsageError(f"-o {terminal_safe(cut(output))}: is the file being read; give another name")
    target = os.path.realpath(output)
    if os.path.islink(output) and os.path.splitext(target)[1].lower() != os.path.splitext(output)[1].lower():
        raise UsageError(f"-o {terminal_safe(cut(output))}: is a link to {terminal_safe(cut(target))}, a file of "
                         "another kind; give the file itself")


def check_printed(name: str, count: int, limit: int, advice: str) -> None:
    """Refuse, before computing, more numbers than can be written as text within 30 s."""
    if count > limit:
        raise UsageError(f"{name}: {count:,} numbers is more than the {limit:,} written as text at once: {advice}")


def head_indices(head, n_heads: int) -> list[int]:
    if head is None:
        return list(range(n_heads))
    if not 0 <= head < n_heads:
        have = "only head 0" if n_heads == 1 else f"heads 0 to {n_heads - 1}"
        raise UsageError(f"--head {head}: this scenario has {have}")
    return [head]


# ---------------------------------------------------------------- argument types

def temperature(text: str) -> float:
    try:
        value = parse_number(text)
    except NumberError:
        value = None
    if value is None or not 0.01 <= value <= 100:
        raise argparse.ArgumentTypeError(
            f"'{terminal_safe(cut(text))}' is not a temperature: give a number from 0.01 to 100")
    return value


def _whole(text: str) -> bool:
    """Plain digits 0-9 (str.isdigit() also takes "³" and "٣", which int() refuses)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def index(what: str):
    """An argparse type: a head, query or layer number (0, 1, 2, ...)."""
    def parse(text: str) -> int:
        if not _whole(text):
            raise argparse.ArgumentTypeError(f"'{terminal_safe(cut(text))}' is not a {what} number (0, 1, 2, ...)")
        return int(text)
    return parse


def count(what: str, high: int, low: int = 1):
    """An argparse type: a whole number from `low` to `high`."""
    def parse(text: str) -> int:
        if not _whole(text) or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"'{terminal_safe(cut(text))}' is not a number from {low} to {high}")
        return int(text)
    return parse


def address(text: str) -> str:
    """An argparse type: an IP address (v4 or v6), as written."""
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{terminal_safe(cut(text))}' is not an IP address (such as "
                                         "192.168.1.20)") from None
    if ip.is_multicast or ip == ipaddress.ip_address("255.255.255.255"):  # Linux binds them; no device reaches them
        raise argparse.ArgumentTypeError(f"'{text}' is a multicast or broadcast address, which no device can open "
                                         "a page on: give this machine's address on the room's network")
    return text


def pixels(what: str, high: int):
    """An argparse type: a whole number of pixels from 200 to `high`."""
    def parse(text: str) -> int:
        if not _whole(text) or not 200 <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"'{terminal_safe(cut(text))}' is not a {what} in pixels from 200 to "
                                             f"{high}")
        return int(text)
    return parse


def add_memory(parser) -> None:
    """--memory: how a real model's weights are kept (core/lm/memory.py)."""
    from ..core.lm.memory import WAYS
    parser.add_argument("--memory", choices=WAYS, default="auto",
                        help="how the model's weights are kept: compact (a GGUF file's weights stay in the file, "
                             "each layer dequantised when the pass reaches it: about the file's size in memory), "
                             "fast (every weight in float32: 4 bytes a parameter) or auto (fast when that takes at "
                             "most 60 %% of the free memory; the default). `attnviz models --format json` says what "
                             "each takes; a model that would not fit is refused before loading")
