"""Round three, the build cache: its key hashes the game's content files (``paths.content_files``), which leave out
hidden files and output/. A game that read a hidden file (``include: [.decks.yaml]``) was recalled from the cache
after that file changed: ``check`` passed on a game ``check --no-cache`` could not read. Such names are refused."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


def _game(tmp_path: Path, decks: str) -> Path:
    game = tmp_path / "g"
    shutil.copytree(MINI, game)
    target = game / decks
    target.parent.mkdir(parents=True, exist_ok=True)
    (game / "decks.yaml").rename(target)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("include: [decks.yaml]", f"include: [{decks}]"), encoding="utf-8")
    return game


@pytest.mark.parametrize("decks, why", [(".decks.yaml", "is hidden"), (".more/decks.yaml", "is hidden"),
                                        ("output/decks.yaml", "in the game's output/ folder")])
def test_a_file_the_cache_does_not_hash_cannot_be_read_as_content(tmp_path, monkeypatch, decks, why):
    monkeypatch.setenv("PNPGEN_CACHE_DIR", str(tmp_path / "cache"))
    game = _game(tmp_path, decks)
    result = CliRunner().invoke(main, ["check", str(game)])
    assert result.exit_code == 2 and why in result.output and "game.yaml:6" in result.output, result.output


def test_a_link_to_a_hidden_file_is_refused_too(tmp_path):
    game = _game(tmp_path, ".decks.yaml")
    (game / "decks.yaml").symlink_to(game / ".decks.yaml")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("include: [.decks.yaml]", "include: [decks.yaml]"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(game), "--no-cache"])
    assert result.exit_code == 2 and "is hidden" in result.output, result.output


def test_a_game_inside_a_hidden_folder_is_read(tmp_path):
    game = _game(tmp_path / ".games", "decks.yaml")
    result = CliRunner().invoke(main, ["check", str(game), "--no-cache"])
    assert result.exit_code == 0, result.output
