"""The `attnviz` command line. `attnviz [SCENARIO]` opens the window; the other commands are

{commands}

(this list is made from their parsers, as `attnviz --help` shows it). Each command is one module
of this folder, with its parser (`add`) and what it does (`run`); COMMANDS lists them.

SCENARIO is a preset id or a path to a scenario file. Bad input exits with status 2
and one line on stderr; the commands that need no window never start Qt (`weights` reads the
system's language with QtCore alone).
"""
from __future__ import annotations

import io
import os
import sys
import textwrap

from ..core.blas import use_one_thread
from ..core.lm.allocator import one_heap
from ..core.scenario import ScenarioError
from ..core.text import visible
from . import (
    attribute,
    export,
    heads,
    lens,
    lesson,
    lessons,
    model,
    models,
    patch,
    presets,
    screenshot,
    stats,
    sweep,
    weights,
    window,
)
from .arguments import PROG, Parser, UsageError

COMMANDS = (presets, lessons, lesson, weights, stats, models, model, patch, lens, attribute, sweep, heads, export,
            screenshot)  # in `attnviz --help`'s order


def build_parsers():
    """(the commands' parser, the window's parser, {command: what it does})."""
    commands = Parser(prog=PROG, description="AttnViz command line.")
    sub = commands.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in COMMANDS:
        command.add(sub)
    listed = {action.dest: action.help for action in sub._choices_actions}  # each command's help=
    epilog = f"Other commands (see '{PROG} COMMAND --help'):\n{command_list(listed, '  ')}"
    return commands, window.parser(epilog), listed


def command_list(commands: dict, indent: str) -> str:
    """One line per command, its name and what it does (wrapped beneath it): the list in
    `attnviz --help` and in this module's docstring."""
    width = max(map(len, commands)) + len(PROG) + 3
    return "\n".join(textwrap.fill(what or "", 79, initial_indent=f"{indent}{PROG} {name}".ljust(len(indent) + width),
                                   subsequent_indent=" " * (len(indent) + width))
                     for name, what in commands.items())


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    out = Output(_utf8_stdout())
    try:  # a Ctrl+C from the first line on is exit 130, with no traceback
        one_heap()  # before any thread of AttnViz's own (lm/allocator.py)
        use_one_thread()
        commands, window_parser, names = build_parsers()
        parser = commands if argv and argv[0] in names else window_parser
        args = parser.parse_args(argv)
        code = args.run(args, out)
        out.flush()  # what is still buffered, written while a failure can still be said
        return code
    except (UsageError, ScenarioError) as e:
        print(f"{PROG}: error: {visible(str(e))}", file=sys.stderr)  # one line, whatever a file name holds
        return 2
    except MemoryError:
        print(f"{PROG}: error: not enough memory for this", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `attnviz presets | head`
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        _flush_quietly(out)


def _utf8_stdout():
    """Japanese tokens print on any console, whatever its locale."""
    try:
        sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]  # a TextIOWrapper, else the except
    except (AttributeError, ValueError):
        pass
    return sys.stdout


class Output(io.TextIOBase):
    """Standard output as the commands write it: one that cannot be written (a full disk, /dev/full, a stream
    closed before AttnViz started) is one line, not a traceback; a closed pipe stays BrokenPipeError."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        return self._done(lambda: self.stream.write(text))

    def flush(self) -> None:
        self._done(lambda: self.stream.flush())

    def writable(self) -> bool:
        return True

    def _done(self, step):
        if self.stream is None:
            raise UsageError("standard output: it is closed, nothing can be written to it")
        try:
            return step()
        except BrokenPipeError:
            raise
        except OSError as e:
            _to_devnull()  # what is still buffered is not tried again as Python exits
            raise UsageError(f"standard output: could not be written ({e.strerror or e})") from None


def _flush_quietly(out) -> None:
    try:
        out.flush()
    except (BrokenPipeError, ValueError, UsageError):
        _to_devnull()


def _to_devnull() -> None:
    """Standard output made /dev/null (as Python's documentation does for a closed pipe): nothing else
    writes to where it failed, the buffered rest included."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, AttributeError, ValueError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (Python's own stream until it exits)


if __doc__:  # None under python -OO
    __doc__ = __doc__.replace("{commands}", command_list(build_parsers()[2], "    "))


if __name__ == "__main__":
    sys.exit(main())
