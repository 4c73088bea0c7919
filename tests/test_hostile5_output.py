"""Round five, the output folder: a build replaces OUT/<game> whole (a staging folder swapped in), so a game whose
``id:`` names a folder of the designer's own (``id: src`` built with ``--out ~``) deleted that folder and everything
in it. A folder holding a file no build writes (or a link) is now refused before anything is written (exit 1);
what a build writes, and what a file browser leaves (.DS_Store, Thumbs.db), is replaced as before."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import limits
from generator.cli import main

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


def _build(game: Path, out: Path):
    return CliRunner().invoke(main, ["build", str(game), "--no-cache", "--out", str(out)])


@pytest.fixture
def game(tmp_path) -> Path:
    shutil.copytree(MINI, tmp_path / "src")
    return tmp_path / "src"


@pytest.mark.parametrize("own", ["main.py", "deep/notes.txt", "game.yaml"])
def test_a_folder_of_ones_own_named_like_the_game_is_not_replaced(tmp_path, game, own):
    home = tmp_path / "home"
    (home / "src" / own).parent.mkdir(parents=True)
    (home / "src" / own).write_text("mine", encoding="utf-8")
    result = _build(game, home)
    assert result.exit_code == 1, result.output
    assert f"{own}, which no pnpgen build writes" in result.output and "Traceback" not in result.output
    assert (home / "src" / own).read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in home.iterdir()) == ["src"] + ([".src.lock"] if (home / ".src.lock").exists() else [])


def test_a_link_inside_is_not_replaced(tmp_path, game):
    home = tmp_path / "home"
    (home / "src").mkdir(parents=True)
    (home / "src" / "x.pdf").symlink_to(tmp_path)
    result = _build(game, home)
    assert result.exit_code == 1 and "holds the link" in result.output, result.output


def test_a_builds_own_output_and_browser_litter_are_replaced(tmp_path, game):
    out = tmp_path / "out"
    assert _build(game, out).exit_code == 0
    (out / "src" / ".DS_Store").write_bytes(b"\0")
    (out / "src" / "Thumbs.db").write_bytes(b"\0")
    result = _build(game, out)
    assert result.exit_code == 0, result.output
    assert not (out / "src" / ".DS_Store").exists() and (out / "src" / "trains.pdf").is_file()


def test_a_large_games_own_output_is_replaced_however_many_files_it_holds(tmp_path, game, monkeypatch):
    """A large game built with every output writes an SVG per face (a 6,000-card game 5,909 files): its folder is
    rebuilt, not refused for holding more than MAX_CONTENT_FILES (the bound of a game's content, not its output)."""
    out = tmp_path / "out"
    assert _build(game, out).exit_code == 0
    for n in range(30):
        (out / "src" / "svg" / f"face-{n}.svg").parent.mkdir(exist_ok=True)
        (out / "src" / "svg" / f"face-{n}.svg").write_text("<svg/>", encoding="utf-8")
    monkeypatch.setattr(limits, "MAX_CONTENT_FILES", 5)
    result = _build(game, out)
    assert result.exit_code == 0, result.output
    monkeypatch.setattr(limits, "MAX_OUTPUT_FOLDER_ENTRIES", 5)
    for n in range(30):
        (out / "src" / f"face-{n}.svg").write_text("<svg/>", encoding="utf-8")
    result = _build(game, out)
    assert result.exit_code == 1 and "holds more than 5 files" in result.output, result.output


def test_building_into_the_game_folder_never_replaces_its_content(tmp_path):
    """``pnpgen build . --out .`` in a game whose id is ``art``: OUT/art was the game's own art/ folder, holding only
    pictures (which a build may write), and the build replaced it with its PDFs."""
    game = tmp_path / "g"
    shutil.copytree(Path(__file__).resolve().parents[1] / "content" / "demo-artwork", game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("game:\n", "game:\n  id: art\n", 1), encoding="utf-8")
    pictures = sorted(p.name for p in (game / "art").iterdir())
    result = _build(game, game)
    assert result.exit_code == 1 and "would replace a folder of the game's content" in result.output, result.output
    assert sorted(p.name for p in (game / "art").iterdir()) == pictures
    assert _build(game, game / "output").exit_code == 0   # the game folder's output/ is not content
