"""Round six, Jinja: a path in the model (``game.folder``, a ``Source``'s file, an add-on's folder) is printable, and
nothing more. Jinja's sandboxes let a template call any public method of an object they are given, and a path's
methods read, write and delete any file on the machine (``game.folder.joinpath('/etc/passwd').read_text()``)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from jinja2 import StrictUndefined
from jinja2.exceptions import SecurityError

from generator.errors import ContentError
from generator.jinja_sandbox import BoundedImmutableSandbox, BoundedSandbox
from generator.layout.cardface import _Compiled
from generator.load.game import load_game
from generator.load.rules import load_rules

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"
#: what content wrote to reach outside its folder, each given the file to write or read (``{file}``)
ESCAPES = ["{{ folder.joinpath('{file}').write_text('pwned') }}",
           "{{ folder.parent.joinpath('{file}').write_text('pwned') }}",
           "{{ (folder / '{file}').write_text('pwned') }}",
           "{{ folder.joinpath('{file}').touch() }}",
           "{{ folder.joinpath('{file}').read_text() }}"]


@pytest.mark.parametrize("template", ESCAPES)
@pytest.mark.parametrize("sandbox", [BoundedSandbox, BoundedImmutableSandbox])
def test_jinja_cannot_use_a_path(tmp_path, template, sandbox):
    env = sandbox(undefined=StrictUndefined)
    target = tmp_path / "outside.txt"
    target.write_text("secret")
    with pytest.raises(SecurityError):
        env.render(env.from_string(template.replace("{file}", str(target))), {"folder": tmp_path / "game"})
    assert target.read_text() == "secret"


@pytest.mark.parametrize("template", ESCAPES)
def test_a_layout_expression_cannot_use_a_path(tmp_path, template):
    """The layouts' closures (generator.layout.expressions) ask the sandbox for anything of a path, as Jinja does."""
    target = tmp_path / "outside.txt"
    target.write_text("secret")
    with pytest.raises(SecurityError):
        _Compiled(template.replace("{file}", str(target)), frozenset({"folder"})).run({"folder": tmp_path / "game"})
    assert target.read_text() == "secret"


def test_a_path_is_still_printed(tmp_path):
    """(Round seven: printed as text, its name alone where no game folder is known, never the absolute path; one read
    from the model is such text already: tests/test_hostile7_jinja.py.)"""
    assert _Compiled("at {{ folder }}", frozenset({"folder"})).run({"folder": tmp_path}) == f"at {tmp_path.name}"


def test_rules_md_cannot_write_outside_the_game(tmp_path):
    shutil.copytree(MINI, tmp_path / "mini")
    target = tmp_path / "pwned.txt"
    (tmp_path / "mini" / "rules.md").write_text(
        f"# Rules\n\n{{{{ game.folder.joinpath('{target}').write_text('x') }}}}\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"rules.md:3.*'str object' has no attribute 'joinpath'"):
        load_rules(load_game(tmp_path / "mini"))
    assert not target.exists()


def test_rules_md_cannot_read_a_file_by_a_source(tmp_path):
    shutil.copytree(MINI, tmp_path / "mini")
    (tmp_path / "mini" / "rules.md").write_text("# Rules\n\n{{ game.source.file.read_text() }}\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"rules.md:3.*'str object' has no attribute 'read_text'"):
        load_rules(load_game(tmp_path / "mini"))


#: what a layout wrote to change the game for every stage after it: emptied a deck (the build's traceback,
#: IndexError), its colours (KeyError), or every deck (a build of nothing, while the check saw the game)
CHANGES = ["{{ deck.cards.clear() or 1 }}", "{{ card.values.clear() or 1 }}", "{{ game.decks.clear() or 1 }}",
           "{{ game.routes.append(1) or 1 }}", "{{ deck.cards.pop() and 1 }}", "{{ game.palette.update(a=1) or 1 }}"]


@pytest.mark.parametrize("text", CHANGES)
def test_a_layout_cannot_change_the_game(text):
    cards, values, routes = [1, 2], {"color": "red"}, []
    scope = {"deck": type("D", (), {"cards": cards})(), "card": type("C", (), {"values": values})(),
             "game": type("G", (), {"decks": {"a": 1}, "routes": routes, "palette": {"red": 1}})()}
    with pytest.raises(SecurityError):
        _Compiled(text, frozenset(scope)).run(scope)
    assert cards == [1, 2] and values == {"color": "red"} and routes == []
    env = BoundedSandbox(undefined=StrictUndefined)
    with pytest.raises(SecurityError):
        env.render(env.from_string(text), scope)
    assert cards == [1, 2] and values == {"color": "red"} and routes == []


def test_a_layout_changes_the_lists_it_made(tmp_path):
    assert _Compiled("{% set l = [] %}{% set d = {} %}{% set m = [0] * 2 %}{{ l.append(1) or d.update(a=2) or "
                     "m.append(3) or '' }}{{ l }} {{ d }} {{ m }}", frozenset()).run({}) == "[1] {'a': 2} [0, 0, 3]"
    assert _Compiled("{{ (cards + []).append(3) or cards }}", frozenset({"cards"})).run({"cards": [1]}) == [1]


def test_a_built_game_is_not_changed_by_its_layout(tmp_path):
    """The build's traceback (IndexError: an emptied deck) is a finding at the layout's line."""
    from generator.check import run_checks
    shutil.copytree(MINI, tmp_path / "mini")
    (tmp_path / "mini" / "layouts").mkdir()
    (tmp_path / "mini" / "layouts" / "ttr-train.yaml").write_text(
        'elements:\n  - text: {x: 0, y: 0, w: 40, h: 5, text: "{{ deck.cards.clear() or 1 }}"}\n', encoding="utf-8")
    game = load_game(tmp_path / "mini")
    findings = [f for f in run_checks(game) if f.code == "PNP703"]
    assert findings and "'clear' of 'list' object is unsafe" in findings[0].message
    assert len(game.decks["trains"].cards) == 3
