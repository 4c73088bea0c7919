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
    assert _Compiled("{{ folder }}", frozenset({"folder"})).run({"folder": tmp_path}) == tmp_path
    assert _Compiled("at {{ folder }}", frozenset({"folder"})).run({"folder": tmp_path}) == f"at {tmp_path}"


def test_rules_md_cannot_write_outside_the_game(tmp_path):
    shutil.copytree(MINI, tmp_path / "mini")
    target = tmp_path / "pwned.txt"
    (tmp_path / "mini" / "rules.md").write_text(
        f"# Rules\n\n{{{{ game.folder.joinpath('{target}').write_text('x') }}}}\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"rules.md:3.*'joinpath' of 'PosixPath' object is unsafe"):
        load_rules(load_game(tmp_path / "mini"))
    assert not target.exists()


def test_rules_md_cannot_read_a_file_by_a_source(tmp_path):
    shutil.copytree(MINI, tmp_path / "mini")
    (tmp_path / "mini" / "rules.md").write_text("# Rules\n\n{{ game.source.file.read_text() }}\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"rules.md:3.*'read_text' of 'PosixPath' object is unsafe"):
        load_rules(load_game(tmp_path / "mini"))
