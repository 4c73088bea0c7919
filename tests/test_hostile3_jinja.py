"""Round three, Jinja: what a template adds to its own lists and dicts (append, extend, insert, update,
setdefault — a layout's sandbox lets it) counts against MAX_JINJA_SEQUENCE for the whole evaluation."""
from __future__ import annotations

import pytest
from jinja2 import StrictUndefined

from generator import limits
from generator.jinja_sandbox import BoundedImmutableSandbox, BoundedSandbox, JinjaLimitError
from generator.layout.cardface import _Compiled


def _render(source: str, env=None) -> str:
    env = env or BoundedSandbox(undefined=StrictUndefined)
    return env.render(env.from_string(source), {})


@pytest.mark.parametrize("source", [
    "{% set l = [0] %}{% for i in range(40) %}{{ l.extend(l) or '' }}{% endfor %}",          # doubles: 2**40 items
    "{% set l = ['a'] %}{% for i in range(30) %}{{ l.insert(0, l[0] ~ l[0]) or '' }}{% endfor %}",
    "{% set l = [] %}{% for i in range(9999) %}{{ l.extend(range(9999)) or '' }}{% endfor %}",  # 10**8 numbers
    "{% set l = [] %}{% for i in range(9999) %}{{ l.append('x' * 9999) or '' }}{% endfor %}",  # 10**8 characters
    "{% set d = {} %}{% for i in range(99999) %}{{ d.update({i: 'x' * 99}) or '' }}{% endfor %}",
    "{% set d = {} %}{% for i in range(99999) %}{{ d.setdefault(i, 'x' * 99) }}{% endfor %}",
])
def test_growing_a_list_or_dict_in_a_loop_is_bounded(source):
    with pytest.raises(JinjaLimitError, match="to lists or dicts.*MAX_JINJA_SEQUENCE"):
        _render(source)


def test_a_list_built_up_as_layouts_do_still_works():
    assert _render("{% set l = [] %}{% for i in range(1000) %}{{ l.append(i) or '' }}{% endfor %}"
                   "{% set d = {} %}{{ d.update(a=1) or '' }}{{ d.setdefault('b', [1, 2]) }} {{ l|length }} {{ d }}") \
        == "[1, 2] 1000 {'a': 1, 'b': [1, 2]}"


def test_the_count_starts_again_for_each_evaluation():
    env = BoundedSandbox(undefined=StrictUndefined)
    template = env.from_string("{% set l = [] %}{{ l.append('x' * 600000) or '' }}ok")
    assert env.render(template, {}) == env.render(template, {}) == "ok"   # 600,000 each time, not 1.2 million


@pytest.mark.parametrize("text", ["{% set l = [0] * 400000 %}{% for i in range(40) %}{{ l.extend(l) or '' }}{% endfor %}",
                                  "{{ (l + []).extend(l) or (l + []).extend(l) }}"])   # one expression: compiled, not Jinja's
def test_a_layout_expression_that_doubles_a_list_is_refused(text):
    """(Round six: a layout changes only lists it made itself, ``[0] * 400000`` or ``l + []``.)"""
    with pytest.raises(JinjaLimitError, match=f"more than {limits.MAX_JINJA_SEQUENCE:,}"):
        _Compiled(text, frozenset({"l"})).run({"l": [0] * 600_000})


def test_rules_cannot_change_a_list_at_all():
    with pytest.raises(Exception, match="unsafe"):
        _render("{% set l = [] %}{{ l.append(1) }}", BoundedImmutableSandbox(undefined=StrictUndefined))
