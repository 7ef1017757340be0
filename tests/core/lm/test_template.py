"""A chat template is the model file's code: it runs in a child process with a budget of steps, of time
and of size, and whatever it does past them is refused in one line, never a hang or gigabytes (issue 45)."""
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attnviz.core.lm import template
from attnviz.core.lm.template import OverBudget, render, render_here

REAL = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
        "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
HOSTILE = {
    "loops that write nothing": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "loops that write": "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}",
    "a doubling namespace": "{% set ns = namespace(s='ab') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}"
                            "{% endfor %}{{ ns.s|length }}",
    "a doubling macro": "{% macro f(s, n) %}{% if n %}{{ f(s ~ s, n - 1) }}{% else %}{{ s|length }}{% endif %}"
                        "{% endmacro %}{{ f('ab', 40) }}",
    "a string times a billion": "{{ ('x' * 1000000000)|length }}",
    "a list plus itself": "{% set ns = namespace(l=[1]) %}{% for i in range(60) %}{% set ns.l = ns.l + ns.l %}"
                          "{% endfor %}",
    "a huge power": "{{ (7 ** 10000000) % 10 }}",
    "center": "{{ 'x'|center(1000000000) }}",
    "ljust": "{{ 'x'.ljust(1000000000)|length }}",
    "a format width": "{{ '%1000000000s' % 'x' }}",
    "str.format width": "{{ '{:1000000000}'.format('x')|length }}",
    "replace": "{% set s = 'a' * 2000000 %}{{ s|replace('a', s)|length }}",
    "join": "{% set s = 'a' * 3000000 %}{{ [s, s, s]|join|length }}",
    "indent": "{% set s = 'a\n' * 1000000 %}{{ s|indent(100)|length }}",
}


def test_a_real_chat_template_renders_as_jinja_would():
    out = render(REAL, messages=[{"role": "user", "content": "Hi"}], add_generation_prompt=True)
    assert out == "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_template_is_refused_within_its_budget(name, monkeypatch):
    """Refused, and the work done counted: at most the step budget, no more memory than the size budget."""
    steps = []
    real = template._Budget.line

    def counted(self, *a):
        steps.append(1)
        return real(self, *a)
    monkeypatch.setattr(template._Budget, "line", counted)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(OverBudget):
        render_here(HOSTILE[name])
    assert len(steps) <= template.STEPS + 1
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # KiB, the peak's growth
    assert grown < 200 * 1024, grown


def test_the_clock_stops_a_template_whose_steps_are_slow(monkeypatch):
    """Past SECONDS of wall clock it stops, however few steps it ran (the clock read every 4,096)."""
    clock = iter(range(0, 10**9, 1))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    with pytest.raises(OverBudget, match="longer than"):
        render_here(HOSTILE["loops that write nothing"])


def test_the_output_is_measured_as_it_is_written():
    with pytest.raises(OverBudget, match="its output"):
        render_here("{% for i in range(100000) %}{{ 'x' * 100 }}{% endfor %}")


def test_a_template_raising_its_own_exception_says_its_words():
    from jinja2.exceptions import TemplateError
    with pytest.raises(TemplateError, match="only user and assistant"):
        render("{{ raise_exception('only user and assistant') }}")


# What the sandbox cannot measure from inside: one call of Jinja's or of C that runs long or builds much.
# The child's memory limit or the parent's clock stops each; none may reach the user as a hang or GBs.
UNMEASURED = {
    "wordwrap(1)": "{{ ('x ' * 1500000) | wordwrap(1) | length }}",
    "sort of millions": "{{ ((range(99999) | list) * 40) | sort | unique | list | length }}",
    "a chain of powers": "{{ ((((((2**64)**64)**64)**64)**64)**64) > 1 }}",
    "tojson of a nested list": "{% set a = ['x' * 3000000] * 3 %}{% set b = [a] * 100 %}{{ (b | tojson) | length }}",
    "a named % width": "{{ ('%(a)999999999s' % {'a': 'x'}) | length }}",
    "expandtabs by keyword": "{{ ('\\t' * 1000).expandtabs(tabsize=3999999) | length }}",
    "join of a generator": "{{ (('y' * 1000) | map('string')) | join('x' * 3000000) | length }}",
    "output of nested lists": "{% set a = ['x' * 3000000] * 3 %}{% set b = [a] * 100 %}{{ [b] * 100 }}",
}
PEAKS = """
import json, resource, sys
from attnviz.core.lm.template import OverBudget, render
said = {}
for name, text in json.loads(sys.argv[1]).items():
    try:
        said[name] = "rendered: " + render(text)[:40]
    except OverBudget as e:
        said[name] = str(e)
print(json.dumps({"said": said, "peak": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def test_what_the_sandbox_cannot_measure_is_stopped_by_the_childs_limits():
    """Each case refused with its reason in words, and the largest child's peak memory at most MEMORY more
    than a child that renders a real template (counted by the system for the child processes it waited)."""
    out = subprocess.run([sys.executable, "-c", PEAKS, json.dumps(UNMEASURED)], capture_output=True, text=True)
    base = subprocess.run([sys.executable, "-c", PEAKS, json.dumps({"real": REAL})], capture_output=True, text=True)
    said, peak = json.loads(out.stdout)["said"], json.loads(out.stdout)["peak"]
    assert all(s.startswith(("it needed more than 200 MB", "it ran longer than 2 s")) for s in said.values()), said
    assert peak - json.loads(base.stdout)["peak"] <= template.MEMORY // 1024 * 1.05, peak


def test_a_template_raising_its_own_exception_says_its_words_through_the_child():
    from jinja2.exceptions import TemplateError
    with pytest.raises(TemplateError, match="^only user and assistant$"):
        render("{{ raise_exception('only user and assistant') }}")


def test_a_child_that_outlives_the_clock_is_killed(monkeypatch):
    """The parent's clock (here one second a look) kills the child however little it asks of the sandbox."""
    clock = iter(range(0, 10**9, 1))
    monkeypatch.setattr(template.time, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(template, "STEPS", 10**12)
    children = _watched(monkeypatch)
    with pytest.raises(OverBudget, match="longer than 2 s"):
        render(HOSTILE["loops that write nothing"])
    assert children[0].returncode < 0  # killed, not finished


def test_cancel_stops_a_running_template_and_its_child():
    """The window's Cancel during a template that would run its whole budget: the child killed at the next look."""
    from attnviz.core.lm import Cancelled
    asked = []
    with pytest.raises(Cancelled):
        render(HOSTILE["loops that write nothing"], cancelled=lambda: asked.append(1) or len(asked) > 2)
    assert len(asked) == 3


def test_the_standalone_folder_runs_the_child_through_its_own_executable(monkeypatch, tmp_path):
    """Frozen, there is no Python to run this file: the executable (main.py inside it) answers CHILD."""
    main = Path(__file__).parents[3] / "main.py"
    executable = tmp_path / "AttnViz"
    executable.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{main}" "$@"\n')
    executable.chmod(0o755)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(executable))
    children = _watched(monkeypatch)
    assert render(REAL, messages=[{"role": "user", "content": "猫"}], add_generation_prompt=True) == \
        "<|im_start|>user\n猫<|im_end|>\n<|im_start|>assistant\n"
    assert children[0].args == [str(executable), template.CHILD]


def _watched(monkeypatch) -> list:
    children, real = [], subprocess.Popen

    def popen(*args, **kwargs):
        children.append(real(*args, **kwargs))
        return children[-1]
    monkeypatch.setattr(template.subprocess, "Popen", popen)
    return children


def test_a_request_past_the_pipes_64_kb_reaches_the_child_whole():
    """A user's text of 300,000 characters (or a template of 1 MB): the child reads all of it (a retried
    communicate() stopped writing at 64 KB and the child waited out the clock)."""
    text = "猫" * 300_000
    assert render("{{ messages[0]['content']|length }}", messages=[{"role": "user", "content": text}]) == "300000"
    assert render("{# " + "x" * 900_000 + " #}ok") == "ok"


def test_what_transformers_chat_templates_use_renders_as_transformers_renders_it():
    """Its environment: loop controls, {% generation %}, strftime_now, and a tojson that is json.dumps
    (no HTML escaping, non-ASCII as it is)."""
    template = ("{% for m in messages %}{% if loop.index > 1 %}{% break %}{% endif %}{{ m['content'] }}{% endfor %}"
                "|{% generation %}G{% endgeneration %}|{{ strftime_now('%Y')|length }}|{{ {'a': '<猫>'}|tojson }}")
    assert render(template, messages=[{"content": "a"}, {"content": "b"}]) == 'a|G|4|{"a": "<猫>"}'
    with pytest.raises(OverBudget):
        render_here("{{ [1]|tojson(indent=100000000) }}")


# attacker round 40: transformers' sandbox keeps no name beginning with _ in a namespace; AttnViz's rendered it
@pytest.mark.parametrize("source", ["{% set ns = namespace(_x=1) %}{{ ns._x }}",
                                    "{% set ns = namespace() %}{% set ns._y = 2 %}{{ ns._y }}"])
def test_a_namespace_keeps_no_name_that_begins_with_an_underscore(source):
    from jinja2.exceptions import SecurityError
    with pytest.raises(SecurityError, match="begins with _"):
        render_here(source)
    assert render_here("{% set ns = namespace(x=1) %}{% set ns.y = 2 %}{{ ns.x + ns.y }}") == "3"
