"""A game folder from anyone: pnpgen reads only that game (its add-ons, its templates) and writes only under --out.

Each hostile folder is a copy of tests/fixtures/mini with one trick in it: an id that would make a file
elsewhere, a layout, include or template that leads out of the folder (by name or by symbolic link). Each
must be refused by `check` and `build` with one error at the line that named it (exit 2), nothing written
outside --out, the outside file's text nowhere in the output, and the previous output byte-identical.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ContentError
from generator.limits import MAX_ID_BYTES
from generator.paths import inside, name_problem, plain_name
from tests.conftest import FIXTURES, ROOT

#: text of the files outside the game: it must never reach the output
SECRET = "SECRET-OUTSIDE-TEXT"


@pytest.fixture(scope="module")
def previous(tmp_path_factory) -> Path:
    """OUT/mini/ as a good build left it (built once for the module; each test copies it)."""
    out = tmp_path_factory.mktemp("previous")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        result = CliRunner().invoke(main, ["build", str(FIXTURES / "mini"), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out / "mini"


@pytest.fixture
def world(tmp_path, previous):
    """tmp/mini (the game to break), tmp/elsewhere (files outside it), tmp/out/mini (a previous build)."""
    shutil.copytree(FIXTURES / "mini", tmp_path / "mini")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "decks.yaml").write_text((FIXTURES / "mini" / "decks.yaml").read_text(encoding="utf-8")
                                          .replace("latin: Tickets", f"latin: {SECRET}"), encoding="utf-8")
    (elsewhere / "game.yaml").write_text((FIXTURES / "mini" / "game.yaml").read_text(encoding="utf-8")
                                         .replace("Mini game", SECRET), encoding="utf-8")
    (elsewhere / "secret.md").write_text(f"{SECRET}\n", encoding="utf-8")
    (elsewhere / "layouts").mkdir()
    layout = (ROOT / "templates" / "layouts" / "ttr-train.yaml").read_text(encoding="utf-8")
    (elsewhere / "layouts" / "ttr-train.yaml").write_text(layout, encoding="utf-8")
    (elsewhere / "x.yaml").write_text(layout, encoding="utf-8")
    shutil.copytree(previous, tmp_path / "out" / "mini")
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer contains {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _link(link: Path, target: Path) -> None:
    """A relative symbolic link, as a zip or a git clone would bring it."""
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.exists() or link.is_symlink():
        shutil.rmtree(link) if link.is_dir() and not link.is_symlink() else link.unlink()
    link.symlink_to(os.path.relpath(target, link.parent))


RULES = "# ルール\n\n遊び方。\n\n{% include 'part.md' %}\n"


def _rules(game: Path, text: str = RULES) -> None:
    (game / "rules.md").write_text(text, encoding="utf-8")


def _components(game: Path, cid: str) -> None:
    with (game / "decks.yaml").open("a", encoding="utf-8") as f:
        f.write(f"components:\n  {cid}:\n    kind: token\n    name: チップ\n    expected: 2\n    shape: circle\n"
                f"    size: 15\n    colors: [red, blue]\n    count_each: 1\n")


def _addon(world: Path, name: str) -> Path:
    addon = world / name
    shutil.copytree(FIXTURES / "mini-addon", addon)
    return addon


# (id, how to break the game, file:line in the error, words of the message)
CASES = [
    ("deck-id-up", lambda w: _edit(w / "mini/decks.yaml", "  trains:", "  ../../escape:"),
     "decks.yaml:2", "deck id '../../escape' cannot be used as a file name: it contains '/'"),
    ("deck-id-absolute", lambda w: _edit(w / "mini/decks.yaml", "  trains:", f"  {w}/escape:"),
     "decks.yaml:2", "cannot be used as a file name: it contains '/'"),
    ("deck-id-backslash", lambda w: _edit(w / "mini/decks.yaml", "  trains:", '  "..\\\\escape":'),
     "decks.yaml:2", "it contains '\\' (a folder separator)"),
    ("deck-id-hidden", lambda w: _edit(w / "mini/decks.yaml", "  trains:", "  .escape:"),
     "decks.yaml:2", "deck id '.escape' cannot be used as a file name: it starts with '.'"),
    ("deck-id-dotdot", lambda w: _edit(w / "mini/decks.yaml", "  trains:", '  "..":'),
     "decks.yaml:2", "deck id '..' cannot be used as a file name: it starts with '.'"),
    ("deck-id-control", lambda w: _edit(w / "mini/decks.yaml", "  trains:", '  "escape\\a":'),
     "decks.yaml:2", "it contains the control character U+0007"),
    ("deck-id-nul", lambda w: _edit(w / "mini/decks.yaml", "  trains:", '  "escape\\0x":'),
     "decks.yaml:2", "it contains the control character U+0000"),
    ("deck-id-long", lambda w: _edit(w / "mini/decks.yaml", "  trains:", "  " + "e" * (MAX_ID_BYTES + 1) + ":"),
     "decks.yaml:2", f"it is longer than {MAX_ID_BYTES} bytes"),
    ("game-id", lambda w: _edit(w / "mini/game.yaml", "  players: [2, 4]\n", "  players: [2, 4]\n  id: ../escape\n"),
     "game.yaml:6", "game.id: '../escape' does not match"),  # the schema's pattern, before any path is made
    ("component-id", lambda w: _components(w / "mini", "../../escape"),
     "decks.yaml:36", "component id '../../escape' cannot be used as a file name"),
    ("board-id", lambda w: (w / "mini/decks.yaml").open("a").write("boards:\n  ../../escape: {size: [100, 100]}\n"),
     "decks.yaml:36", "board id '../../escape' cannot be used as a file name"),
    ("layout-up", lambda w: _edit(w / "mini/decks.yaml", "layout: ttr-train", "layout: ../../elsewhere/x"),
     "decks.yaml:6", "layout name '../../elsewhere/x' cannot be used as a file name"),
    ("layout-absolute", lambda w: _edit(w / "mini/decks.yaml", "layout: ttr-train", f"layout: {w}/elsewhere/x"),
     "decks.yaml:6", "cannot be used as a file name: it contains '/'"),
    ("back-layout-up", lambda w: _edit(w / "mini/decks.yaml", "{layout: ttr-back,", "{layout: ../elsewhere/x,"),
     "decks.yaml:7", "layout name '../elsewhere/x'"),
    ("layouts-folder-linked", lambda w: _link(w / "mini/layouts", w / "elsewhere/layouts"),
     "decks.yaml:6", "'layouts/ttr-train.yaml' is outside the game folder"),
    ("layout-file-linked", lambda w: _link(w / "mini/layouts/ttr-train.yaml", w / "elsewhere/x.yaml"),
     "decks.yaml:6", "'layouts/ttr-train.yaml' is outside the game folder"),
    ("include-linked", lambda w: _link(w / "mini/decks.yaml", w / "elsewhere/decks.yaml"),
     "game.yaml:6", "'decks.yaml' is outside the game folder"),
    ("game-yaml-linked", lambda w: _link(w / "mini/game.yaml", w / "elsewhere/game.yaml"),
     "mini/game.yaml", "is outside the game folder"),
    ("rules-include-in-rules-folder", lambda w: (_rules(w / "mini"), _link(w / "mini/rules/part.md", w / "elsewhere/secret.md")),
     "rules.md:5", "'mini/rules/part.md' is outside the game folder"),
    ("rules-include-in-game-folder", lambda w: (_rules(w / "mini"), _link(w / "mini/part.md", w / "elsewhere/secret.md")),
     "rules.md:5", "'mini/part.md' is outside the game folder"),
    ("rules-macros-linked", lambda w: (_rules(w / "mini", "# ルール\n"),
                                       _link(w / "mini/rules/macros.md.j2", w / "elsewhere/secret.md")),
     "mini/rules/macros.md.j2", "is outside the game folder"),
    ("rules-md-linked", lambda w: _link(w / "mini/rules.md", w / "elsewhere/secret.md"),
     "mini/rules.md", "'rules.md' is outside the game folder"),
    ("rules-include-up", lambda w: _rules(w / "mini", "# ルール\n\n{% include '../elsewhere/secret.md' %}\n"),
     "rules.md:3", "no rules template named '../elsewhere/secret.md'"),
    ("with-parent", lambda w: _edit(w / "mini/game.yaml", "  players: [2, 4]\n", "  players: [2, 4]\n  with: [..]\n"),
     "game.yaml:6", "add-on '..' is not a folder beside mini"),
    ("with-linked-folder", lambda w: (_link(w / "addon-link", _addon(w, "elsewhere/addon")),
                                      _edit(w / "mini/game.yaml", "  players: [2, 4]\n",
                                            "  players: [2, 4]\n  with: [../addon-link]\n")),
     "game.yaml:6", "add-on '../addon-link' is not a folder beside mini"),
    ("addon-include-linked", lambda w: (_link(_addon(w, "addon") / "decks.yaml", w / "elsewhere/decks.yaml"),
                                        _edit(w / "mini/game.yaml", "  players: [2, 4]\n",
                                              "  players: [2, 4]\n  with: [../addon]\n")),
     "addon/game.yaml:6", "'decks.yaml' is outside the game folder"),
]


@pytest.mark.parametrize("case, breaks, where, message", CASES, ids=[c[0] for c in CASES])
def test_a_hostile_game_folder_is_refused_at_its_line(world, monkeypatch, case, breaks, where, message):
    breaks(world)
    monkeypatch.chdir(world)  # messages name files relative to the working folder
    before = _snapshot(world / "out")
    runner = CliRunner()
    for command in (["check", "mini"], ["build", "mini", "--out", "out"]):
        result = runner.invoke(main, command, catch_exceptions=False)
        assert result.exit_code == 2, (command, result.output)
        assert "Traceback" not in result.output
        assert f"{where}:" in result.stderr if where[-1].isdigit() else f"{where}: " in result.stderr, result.stderr
        assert message in result.stderr, result.stderr
        assert "hint:" in result.stderr
    assert _snapshot(world / "out") == before, "a refused build must leave the previous output as it was"
    assert not list(world.rglob("escape*")), "nothing may be written outside --out"
    assert not any(SECRET.encode() in data for data in before.values())


def test_a_game_folder_whose_name_cannot_be_a_file_name_needs_an_id(world, monkeypatch):
    (world / "mini").rename(world / ".mini")
    monkeypatch.chdir(world)
    result = CliRunner().invoke(main, ["build", ".mini", "--out", "out"], catch_exceptions=False)
    assert result.exit_code == 2
    assert "error: .mini/game.yaml:2: the game folder's name '.mini' cannot be used as a file name" in result.stderr
    assert "`game: {id: my-game}`" in result.stderr
    _edit(world / ".mini/game.yaml", "  players: [2, 4]\n", "  players: [2, 4]\n  id: mini\n")
    result = CliRunner().invoke(main, ["build", ".mini", "--out", "out"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (world / "out").iterdir()) == ["mini"]


def _snapshot(folder: Path) -> dict:
    """Every file below ``folder`` (hidden ones too) with its bytes."""
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_names_in_any_script_are_plain_names(mini, run, tmp_path):
    """The rule refuses what leads elsewhere, not what is merely not English."""
    _edit(mini / "decks.yaml", "  trains:", "  列車-カード_v1.2+ë:")
    _components(mini, "チップ")
    result = run("build", mini, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "mini" / "列車-カード_v1.2+ë.pdf").is_file()
    assert (tmp_path / "out" / "mini" / "チップ.pdf").is_file()


@pytest.mark.parametrize("name", ["a/b", "a\\b", "..", ".", ".x", "", "a b", "a:b", "a\x00b", "a\nb", "é" * 51])
def test_plain_name_refuses(name):
    assert name_problem(name)
    with pytest.raises(ContentError):
        plain_name(name, None, "id")


@pytest.mark.parametrize("name", ["ttr-germany", "ttr-germany+ttr-dice", "a.b_c", "白ダイス", "e\u0301", "x" * MAX_ID_BYTES])
def test_plain_name_accepts(name):
    assert name_problem(name) is None


def test_inside_follows_links(tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "secret").write_text(SECRET)
    (tmp_path / "game" / "ok").write_text("ok")
    _link(tmp_path / "game" / "link", tmp_path / "secret")
    assert inside(tmp_path / "game" / "ok", (tmp_path / "game",), None) == (tmp_path / "game" / "ok").resolve()
    with pytest.raises(ContentError, match="outside the game folder"):
        inside(tmp_path / "game" / "link", (tmp_path / "game",), None)
    with pytest.raises(ContentError, match="outside the game folder"):
        inside(tmp_path / "game" / ".." / "secret", (tmp_path / "game",), None)
    _link(tmp_path / "game" / "loop", tmp_path / "game" / "loop")
    with pytest.raises(ContentError):
        inside(tmp_path / "game" / "loop", (tmp_path / "game",), None)


# ---------------------------------------------------------------------- the output folder

def _build(*args):
    """``pnpgen build ARGS`` in-process, from the working folder the test chose."""
    return CliRunner().invoke(main, ["build", *map(str, args)], catch_exceptions=False)


@pytest.mark.parametrize("kind", ["file", "link"])
def test_an_output_folder_that_is_a_file_or_a_link_is_refused_before_building(world, monkeypatch, kind):
    monkeypatch.chdir(world)
    out = world / "fresh"
    out.mkdir()
    if kind == "file":
        (out / "mini").write_text("a designer's notes\n")
    else:
        (world / "target").mkdir()
        _link(out / "mini", world / "target")
    result = _build("mini", "--out", "fresh")
    assert result.exit_code == 1
    expected = ("fresh/mini is a file, not a folder" if kind == "file"
                else "fresh/mini is a symbolic link; pnpgen does not write through links")
    assert expected in result.stderr and "Traceback" not in result.output
    assert sorted(p.name for p in out.iterdir()) == ["mini"], "no .mini.old- or staging folder left behind"
    if kind == "file":
        assert (out / "mini").read_text() == "a designer's notes\n"
    else:
        assert (out / "mini").is_symlink() and not list((world / "target").iterdir())


def test_an_out_folder_that_would_replace_the_game_is_refused(world, monkeypatch):
    monkeypatch.chdir(world / "mini")
    result = _build(".", "--out", "..")
    assert result.exit_code == 1
    assert "would replace" in result.stderr and "a folder the game is read from" in result.stderr
    assert sorted(p.name for p in (world / "mini").iterdir()) == ["decks.yaml", "game.yaml"]


def test_an_out_link_inside_the_game_folder_is_not_followed(world, monkeypatch):
    (world / "target").mkdir()
    _link(world / "mini" / "output", world / "target")
    monkeypatch.chdir(world / "mini")
    result = _build(".", "--out", "output/sub")
    assert result.exit_code == 1
    assert "--out output/sub is inside the game folder but leads out of it" in result.stderr
    assert not list((world / "target").iterdir())


def test_building_dot_inside_a_game_folder_names_the_game_and_reads_no_output(world, monkeypatch):
    """`pnpgen build .` from content/mygame writes content/mygame/output/mygame/; the next check and
    build do not read output/ as content."""
    monkeypatch.chdir(world / "mini")
    assert _build(".").exit_code == 0
    built = _snapshot(world / "mini" / "output")
    assert sorted(p.parts[0] for p in built) == ["mini"] * len(built)
    assert CliRunner().invoke(main, ["check", "."]).exit_code == 0
    assert _build(".").exit_code == 0
    assert _snapshot(world / "mini" / "output") == built  # the same content, byte-identical
    assert sorted(p.name for p in (world / "mini" / "output").iterdir()) == ["mini"]


def test_a_killed_build_s_leftovers_are_removed_by_the_next_build_and_no_other(world, monkeypatch):
    monkeypatch.chdir(world)
    out = world / "out"
    for name in (".mini.staging-4242-abc_123x", ".mini.old-4242-abc_123x"):  # what a SIGKILL leaves
        (out / name / "svg").mkdir(parents=True)
        (out / name / "svg" / "half.svg").write_text("<svg")
    keep = [".mini.staging-notes", ".mini-2.staging-1-x", ".other.staging-1-x", "mini.staging-1-x",
            ".mini.staging-1-x.staging-2-y"]
    for name in keep:  # not this game's staging (another game's, or not pnpgen's naming): left alone
        (out / name).mkdir()
    (world / "target").mkdir()
    _link(out / ".mini.old-1-linked", world / "target")  # a link with the name: removed, never followed
    (world / "target" / "kept").write_text("kept")
    assert _build("mini", "--out", "out").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(["mini", *keep])
    assert (world / "target" / "kept").read_text() == "kept"


def test_a_second_build_into_the_same_folder_is_refused_while_the_first_holds_it(world, monkeypatch):
    from generator.output_folder import output_lock
    monkeypatch.chdir(world)
    before = _snapshot(world / "out")
    with output_lock(world / "out", "mini", world / "out" / "mini"):  # what a running build holds
        result = _build("mini", "--out", "out")
        assert result.exit_code == 1
        assert "another pnpgen build is writing out/mini; wait for it to finish" in result.stderr
        assert "Traceback" not in result.output
        assert _build("mini", "--out", "elsewhere-out").exit_code == 0  # another folder is free
    assert _snapshot(world / "out") == before
    assert _build("mini", "--out", "out").exit_code == 0  # free again, and no lock file left behind
    assert sorted(p.name for p in (world / "out").iterdir()) == ["mini"]


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_build_exits_with_one_line_and_leaves_the_previous_output(tmp_path, signum, status):
    out = tmp_path / "out"
    (out / "ttr-germany").mkdir(parents=True)
    (out / "ttr-germany" / "previous.pdf").write_bytes(b"%PDF previous build")
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "build", "content/ttr-germany", "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not list(out.glob(".ttr-germany.staging-*")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)  # well inside the build (it takes seconds)
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == status, stderr
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if "interrupted" in line]
    assert lines == [f"interrupted: ttr-germany was not built; previous output left as it was in {out}/ttr-germany/"]
    assert stderr.splitlines()[-1] == lines[0]
    assert sorted(p.name for p in out.iterdir()) == ["ttr-germany"], "staging and lock removed"
    assert _snapshot(out / "ttr-germany") == {Path("previous.pdf"): b"%PDF previous build"}


# ---------------------------------------------------------------------- messages verbatim

def test_messages_print_content_verbatim(mini, run):
    """rich would print `decks.yaml:100:` as decks.yaml💯 and `:locomotive:` as 🚂, and take [red] as markup."""
    bad = ":locomotive: [red]x[/]"
    _edit(mini / "decks.yaml", "    cards:\n      - {color: red, count: 2}",
          "    cards:\n" + "      # padding\n" * 89 + f"      - {{color: '{bad}', count: 2}}")
    for command in ("check", "build"):
        result = run(command, mini, "--out", mini.parent / "out") if command == "build" else run(command, mini)
        assert result.exit_code == 2, result.output
        assert "decks.yaml:100: " in result.stderr, result.stderr
        assert f"unknown color '{bad}'" in result.stderr, result.stderr
        assert "💯" not in result.output and "🚂" not in result.output


def test_list_prints_names_verbatim(mini, run):
    """A name with markup or an emoji code is a name: before, '[/]' stopped `pnpgen list` with a traceback."""
    _edit(mini / "decks.yaml", "    name: 列車カード", '    name: "[/] :smile: [bold]列車"')
    result = run("list", mini)
    assert result.exit_code == 0, result.output
    assert "[/] :smile: [bold]列車 / Train cards" in result.stdout
