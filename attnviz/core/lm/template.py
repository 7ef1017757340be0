"""A model's chat template, run with a budget.

A template is code from the model's file. Jinja's immutable sandbox keeps it from touching anything
but its own values; it does not keep it from running for ever (nested loops that write nothing) or
building a string of gigabytes (a doubling `~` in a macro, `"x" * n`, `|center(n)`). Here every line
the template runs is counted (sys.settrace on its own frames only), the clock is read as it goes,
and every string or list it builds is measured before it is built: any of them over its limit stops
the template, which is refused in one line with its reason.

Those measures cannot see inside one call that Jinja makes in C or in its own filters (`sort` of
millions, `wordwrap(1)`, `tojson` of a nested list, a chain of `**`), so the template runs in a
child process of its own (this file run as a script, `python -I template.py`, about 60 ms): its
address space limited to MEMORY more than it starts with, killed at SECONDS of wall clock or when
the user cancels. That is what makes the promise hold for any template: at most SECONDS and MEMORY.
This file imports nothing of AttnViz at its top, so that the child starts with Jinja alone.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from datetime import datetime

from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.environment import Environment
from jinja2.exceptions import SecurityError, TemplateError
from jinja2.ext import Extension
from jinja2.nodes import EvalContext
from jinja2.runtime import Context, Namespace
from jinja2.sandbox import ImmutableSandboxedEnvironment

STEPS = 1_000_000     # lines of the template run: a real chat template runs a few hundred
SECONDS = 2.0         # wall clock, the child's start included, whatever the machine
MEMORY = 200 * 2**20  # bytes the child may take beyond what it starts with (Linux; elsewhere the clock)
CHILD = "--chat-template-child"  # how the standalone AttnViz (no Python there) runs this file's child
MAX_CHARS = 4_000_000  # any string or list the template builds, its output too (the text read is at most 800,000)
_WIDE = re.compile(r"%[-+ #0]*\*|%[-+ #0]*\d{7,}|\{[^{}]*:[^{}]*(\d{7,}|\{)")  # widths of millions, or given


class OverBudget(TemplateError):
    """The template ran too long or built too much."""


def render(template: str, cancelled=None, **values) -> str:
    """The template rendered with `values` (JSON values) in a child process; OverBudget, or Jinja's own
    TemplateError, when it cannot be; `cancelled()`, asked as it runs, stops it with lm.Cancelled."""
    request = json.dumps({"template": template, "values": values, "steps": STEPS, "seconds": SECONDS})
    with subprocess.Popen(_child_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0)) as child:
        reply = _answer(child, request.encode(), time.monotonic() + SECONDS - 0.1, cancelled)
    if "text" in reply:
        return reply["text"]
    raise (OverBudget if reply.get("over") else TemplateError)(reply.get("error", ""))


def _child_command() -> list[str]:
    if getattr(sys, "frozen", False):  # the standalone folder: its executable runs main.py, which knows CHILD
        return [sys.executable, CHILD]
    return [sys.executable, "-I", os.path.abspath(__file__)]  # -I: no environment, no user site, no cwd


def _answer(child: subprocess.Popen, request: bytes, ends: float, cancelled) -> dict:
    """The child's reply, read while the clock and `cancelled` are watched; the child killed past either.
    The request is written and the reply read by two threads (a request past the pipe's 64 KB, a long
    text, would block a single writer while the child's reply waits to be read)."""
    got: list[bytes] = []
    feeding = threading.Thread(target=_feed, args=(child.stdin, request), daemon=True)
    reading = threading.Thread(target=lambda: got.append(child.stdout.read()), daemon=True)  # type: ignore[union-attr]
    feeding.start()
    reading.start()
    while reading.is_alive():
        reading.join(0.05)
        if reading.is_alive() and cancelled is not None and cancelled():
            child.kill()
            from .run import Cancelled  # here, not at the top: the child runs this file alone
            raise Cancelled()
        if reading.is_alive() and time.monotonic() > ends:
            child.kill()
            raise OverBudget(f"it ran longer than {SECONDS:g} s")
    try:
        return json.loads(got[0] if got else b"")
    except ValueError:  # killed by the system (its memory or CPU limit): no reply
        return {"over": True, "error": "it stopped without an answer, past its memory or time"}


def _feed(pipe, request: bytes) -> None:
    try:
        pipe.write(request)
        pipe.close()
    except OSError:  # the child is gone (killed, or past its limits): its answer says so
        pass


def child() -> int:
    """The child's work: one request on stdin, one reply on stdout, both JSON."""
    request = json.load(sys.stdin)
    global STEPS, SECONDS  # the parent's budget (a test's, too): this process renders one template only
    STEPS, SECONDS = request["steps"], request["seconds"]
    _limit()
    reply: dict[str, str | bool]
    try:
        reply = {"text": render_here(request["template"], **request["values"])}
    except OverBudget as e:
        reply = {"over": True, "error": str(e)}
    except MemoryError:
        reply = {"over": True, "error": f"it needed more than {MEMORY // 2**20} MB"}
    except Exception as e:  # a template is the file's code: whatever it raises is its fault
        reply = {"error": str(e)[:200] or type(e).__name__}
    json.dump(reply, sys.stdout)
    return 0


def _limit() -> None:
    """MEMORY more address space than now, and CPU time that ends the child if no one is left to kill it."""
    try:
        import resource  # Unix only (ImportError below: the clock alone bounds it elsewhere)
        resource.setrlimit(resource.RLIMIT_CPU, (int(SECONDS) + 2, int(SECONDS) + 3))
        with open("/proc/self/statm") as statm:
            now = os.sysconf("SC_PAGE_SIZE") * int(statm.read().split()[0])
        resource.setrlimit(resource.RLIMIT_AS, (now + MEMORY, now + MEMORY))
    except (ImportError, OSError, ValueError):  # not Linux: the parent's clock alone bounds it
        pass


def render_here(template: str, cancelled=None, **values) -> str:
    """The template rendered with `values` in this process, within the step, clock and size budgets."""
    env = _Environment(trim_blocks=True, lstrip_blocks=True)
    budget = _Budget(cancelled)
    with budget.watching():
        compiled = env.from_string(template)
        out, size = [], 0
        for part in compiled.generate(**values):
            size += len(part)
            _fits(size, "its output")
            out.append(part)
    return "".join(out)


def _fits(size: int, what: str) -> None:
    if size > MAX_CHARS:
        raise OverBudget(f"{what} would hold more than {MAX_CHARS:,} characters")


def _length(value) -> int:
    return len(value) if isinstance(value, (str, list, tuple, dict)) else len(str(value))


class _Budget:
    """Counts the template's lines and reads the clock; stops it past either limit."""

    def __init__(self, cancelled=None):
        self.steps = 0
        self.ends = time.monotonic() + SECONDS * 0.8  # the rest: the child's start and its reply
        self.cancelled = cancelled

    @contextmanager
    def watching(self):
        before = sys.gettrace()
        sys.settrace(self.call)
        try:
            yield
        finally:
            sys.settrace(before)

    def call(self, frame, event, arg):
        """Only the template's own frames are followed line by line (Jinja's and Python's run untraced)."""
        return self.line if frame.f_code.co_filename == "<template>" else None

    def line(self, frame, event, arg):
        self.steps += 1
        if self.steps > STEPS:
            raise OverBudget(f"it ran more than {STEPS:,} steps")
        if self.steps % 4096 == 0:
            self._look_up()
        return self.line

    def _look_up(self) -> None:
        if time.monotonic() > self.ends:
            raise OverBudget(f"it ran longer than {SECONDS:g} s")
        if self.cancelled is not None and self.cancelled():
            from .run import Cancelled  # not at the top: the child runs this file alone
            raise Cancelled()


class _Namespace(Namespace):
    """`namespace()`: what a loop keeps from one turn to the next, measured as it is kept; no name that
    begins with _ (transformers' sandbox refuses them)."""

    def __init__(*args, **kwargs):  # Namespace's own signature: `namespace(self=...)` still works
        self, args = args[0], args[1:]
        attrs = dict(*args, **kwargs)
        for name in attrs:
            _Namespace._check(name)
        Namespace.__init__(self, attrs)

    def __setitem__(self, name, value):
        _Namespace._check(name)
        _fits(_length(value), f"namespace.{name}")
        super().__setitem__(name, value)

    @staticmethod
    def _check(name) -> None:
        if isinstance(name, str) and name.startswith("_"):
            raise SecurityError(f"a namespace keeps no name that begins with _ ({name[:40]!r})")


class _CodeGenerator(CodeGenerator):
    """`a ~ b` measured before it is joined (Jinja joins it with a function no environment sees)."""

    def visit_Concat(self, node, frame):
        self.write("environment.joined((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class _Environment(ImmutableSandboxedEnvironment):
    code_generator_class = _CodeGenerator
    intercepted_binops = frozenset({"+", "*", "**", "%"})

    def __init__(self, **options):
        super().__init__(extensions=[_Generation, "jinja2.ext.loopcontrols"], **options)  # as transformers'
        self.globals["namespace"] = _Namespace
        self.globals["raise_exception"] = _refuse
        self.globals["strftime_now"] = lambda form: datetime.now().strftime(str(form)[:100])
        self.filters["tojson"] = _tojson
        for name in ("center", "indent", "wordwrap", "truncate", "join", "replace", "format"):
            self.filters[name] = _measured(name, self.filters[name])

    def joined(self, parts) -> str:
        texts = [str(p) for p in parts]
        _fits(sum(map(len, texts)), "a string joined with ~")
        return "".join(texts)

    def call_binop(self, context, operator, left, right):
        _fits(_binop_size(operator, left, right), f"'{operator}'")
        return super().call_binop(context, operator, left, right)

    def wrap_str_format(self, value):
        """`'...'.format(...)`: Jinja hands back its own sandboxed formatter, measured here first."""
        formatter = super().wrap_str_format(value)
        if formatter is None:
            return None
        text = value.__self__

        def measured(*args, **kwargs):
            _fits(_formatted_size(text, (*args, *kwargs.values())), "str.format")
            return formatter(*args, **kwargs)
        return measured

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja's names)
        _fits(_call_size(__obj, args, kwargs), getattr(__obj, "__name__", "a call"))
        return super().call(__context, __obj, *args, **kwargs)


class _Generation(Extension):
    """`{% generation %}…{% endgeneration %}`: transformers marks the assistant's part with it; the text is
    written as it is (transformers' AssistantTracker, without the mask it keeps for training)."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return nodes.CallBlock(self.call_method("_as_is"), [], [], body).set_lineno(lineno)

    def _as_is(self, caller):
        return caller()


def _tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False) -> str:
    """transformers' tojson (plain json.dumps, not Jinja's HTML-escaping one), measured first."""
    if isinstance(indent, int) and not isinstance(indent, bool):
        _fits(abs(indent), "|tojson's indent")
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def _refuse(message):
    raise TemplateError(message)


def _binop_size(operator: str, left, right) -> int:
    """How large the result would be, from the operands alone."""
    if operator == "**":
        big = isinstance(right, int) and abs(right) > 64 and isinstance(left, int) and abs(left) > 1
        return MAX_CHARS + 1 if big else 0
    if operator == "*":
        for seq, n in ((left, right), (right, left)):
            if isinstance(seq, (str, list, tuple)) and isinstance(n, int):
                return len(seq) * max(n, 0)
        return 0
    if operator == "+" and isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
        return len(left) + len(right)
    if operator == "%" and isinstance(left, str):
        return _formatted_size(left, right if isinstance(right, (tuple, list)) else (right,))
    return 0


# What str methods and filters would make, measured from their arguments (the two share these).

def _formatted_size(text: str, values) -> int:
    """`text % values` or `text.format(*values)`: a width of millions (or one given as an argument) is refused."""
    return MAX_CHARS + 1 if _WIDE.search(text) else len(text) + sum(_length(v) for v in values)


def _joined_size(items, separator: str) -> int:
    items = list(items) if isinstance(items, (list, tuple, str)) else []
    return sum(_length(i) for i in items) + len(separator) * len(items)


def _replaced_size(text: str, old: str, new: str) -> int:
    return len(text) + (text.count(old) if old else len(text) + 1) * len(new)


def _numbers(values) -> list[int]:
    """The whole numbers among `values`: a width or a count of millions is refused before it is made."""
    numbers = [a for a in values if isinstance(a, int) and not isinstance(a, bool)]
    return [MAX_CHARS + 1] if any(abs(n) > MAX_CHARS for n in numbers) else numbers


def _call_size(obj, args, kwargs) -> int:
    """A call's result, from its arguments; a str method's by what it does."""
    numbers = _numbers((*args, *kwargs.values()))
    owner, name = getattr(obj, "__self__", None), getattr(obj, "__name__", "")
    if not isinstance(owner, str) or numbers == [MAX_CHARS + 1]:
        return sum(numbers)
    if name == "join" and args:
        return _joined_size(args[0], owner)
    if name == "replace" and len(args) >= 2:
        return _replaced_size(owner, str(args[0]), str(args[1]))
    if name == "expandtabs":
        return len(owner) * (args[0] if args and isinstance(args[0], int) else 8)
    return sum(numbers)


def _measured(name: str, act):
    """A filter that measures what it would make before making it."""
    def filtered(*args, **kwargs):
        values = [a for a in args if not isinstance(a, (Environment, EvalContext, Context))]  # passed by Jinja
        _fits(_filter_size(name, values, kwargs), f"|{name}")
        return act(*args, **kwargs)
    if hasattr(act, "jinja_pass_arg"):  # how Jinja knows to pass its environment or context
        setattr(filtered, "jinja_pass_arg", act.jinja_pass_arg)  # noqa: B010 (an attribute a function lacks)
    return filtered


def _filter_size(name: str, values: list, kwargs: dict) -> int:
    numbers = _numbers((*values[1:], *kwargs.values()))
    if not values or numbers == [MAX_CHARS + 1]:
        return sum(numbers)
    first = values[0]
    if name == "join":
        return _joined_size(first, str(values[1]) if len(values) > 1 else "")
    if name == "replace" and len(values) >= 3:
        return _replaced_size(str(first), str(values[1]), str(values[2]))
    if name == "format":
        return _formatted_size(str(first), values[1:])
    if name == "indent":
        return _length(first) * (1 + (numbers[0] if numbers else 4))
    return _length(first) + sum(numbers)


if __name__ == "__main__":
    sys.exit(child())
