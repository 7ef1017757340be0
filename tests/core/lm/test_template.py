"""A chat template is the model file's code: it runs with a budget of steps, of time and of size, and
whatever it does past them is refused in one line, never a hang or gigabytes (issue 45)."""
import resource
import time

import pytest

from attnviz.core.lm import template
from attnviz.core.lm.template import OverBudget, render

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
        render(HOSTILE[name])
    assert len(steps) <= template.STEPS + 1
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # KiB, the peak's growth
    assert grown < 200 * 1024, grown


def test_the_clock_stops_a_template_whose_steps_are_slow(monkeypatch):
    """Past SECONDS of wall clock it stops, however few steps it ran (the clock read every 4,096)."""
    clock = iter(range(0, 10**9, 1))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    with pytest.raises(OverBudget, match="longer than"):
        render(HOSTILE["loops that write nothing"])


def test_the_output_is_measured_as_it_is_written():
    with pytest.raises(OverBudget, match="its output"):
        render("{% for i in range(100000) %}{{ 'x' * 100 }}{% endfor %}")


def test_a_template_raising_its_own_exception_says_its_words():
    from jinja2.exceptions import TemplateError
    with pytest.raises(TemplateError, match="only user and assistant"):
        render("{{ raise_exception('only user and assistant') }}")


def test_cancel_stops_a_running_template_as_it_runs():
    """The window's Cancel during a template that would run its whole budget: stopped at the next look."""
    from attnviz.core.lm import Cancelled
    asked = []
    with pytest.raises(Cancelled):
        render(HOSTILE["loops that write nothing"], cancelled=lambda: asked.append(1) or len(asked) > 2)
    assert len(asked) == 3
