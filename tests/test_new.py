"""`pnpgen new`: every starter (template × language) checks clean and builds; folders refused."""
from __future__ import annotations

import json

import pytest

from generator.new import LANGUAGES, PLACEHOLDER, TEMPLATES

#: files a build of each starter must write, besides the decks, rules and print-and-play file
EXPECTED = {
    "route": ["train-cards.pdf", "tickets.pdf", "board-map.pdf", "board-map-tiles-a4.pdf",
              "score-markers.pdf", "score-sheet.pdf"],
    "cards": ["suit-cards.pdf", "goal-cards.pdf"],
    "line": ["train-cards.pdf", "destination-cards.pdf", "board-line.pdf", "player-pieces.pdf", "player-aid.pdf"],
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("template", TEMPLATES)
def test_starter_checks_clean_and_builds(tmp_path, run, template, language):
    game = tmp_path / f"my-{template}"
    result = run("new", game, "--template", template, "--language", language)
    assert result.exit_code == 0, result.output
    assert (game / "game.yaml").is_file() and (game / "rules.md").is_file()
    assert not (game / "words.yaml").exists() and not list(game.glob("rules.*.md"))
    assert not PLACEHOLDER.search("".join(p.read_text(encoding="utf-8") for p in game.rglob("*") if p.is_file()))
    assert f"language: {language}" in (game / "game.yaml").read_text(encoding="utf-8")

    checked = run("check", game, "--format", "json")
    assert checked.exit_code == 0, checked.output
    assert json.loads(checked.stdout) == [], "a starter must check without errors or warnings"

    out = tmp_path / "out"
    built = run("build", "--all", game, "--out", out)
    assert built.exit_code == 0, built.output
    folder = out / game.name
    for name in EXPECTED[template] + [f"{game.name}-rules.pdf", f"{game.name}-print-and-play.pdf"]:
        assert (folder / name).is_file(), f"{template}/{language}: {name} not built"


def test_the_default_is_the_english_route_game(tmp_path, run):
    result = run("new", tmp_path / "mygame")
    assert result.exit_code == 0, result.output
    assert "pnpgen check" in result.stdout
    text = (tmp_path / "mygame" / "map.yaml").read_text(encoding="utf-8")
    assert "Northport" in text and "at: [" in text
    assert "language: en" in (tmp_path / "mygame" / "game.yaml").read_text(encoding="utf-8")


def test_an_existing_folder_is_refused_and_left_alone(tmp_path, run):
    game = tmp_path / "taken"
    game.mkdir()
    (game / "notes.txt").write_text("mine", encoding="utf-8")
    result = run("new", game)
    assert result.exit_code == 2
    assert "already exists and is not an empty folder" in result.stderr
    assert [p.name for p in game.iterdir()] == ["notes.txt"]
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    assert run("new", tmp_path / "a-file").exit_code == 2


def test_an_empty_folder_is_filled(tmp_path, run):
    (tmp_path / "empty").mkdir()
    assert run("new", tmp_path / "empty", "--template", "cards").exit_code == 0
    assert (tmp_path / "empty" / "decks.yaml").is_file()


def test_a_path_that_names_an_existing_folder_is_refused(tmp_path, run):
    (tmp_path / "keep").write_text("", encoding="utf-8")
    result = run("new", tmp_path / "a" / "b" / ".." / "..")
    assert result.exit_code == 2
    assert not (tmp_path / "a").exists() and not (tmp_path / "game.yaml").exists()


@pytest.mark.parametrize(("args", "words"), [
    (["--template", "maze"], ["unknown template 'maze'", "route, cards, line"]),
    (["--language", "fr"], ["unknown language 'fr'", "en, ja, de"]),
])
def test_unknown_template_or_language_says_what_there_is(tmp_path, run, args, words):
    result = run("new", tmp_path / "g", *args)
    assert result.exit_code == 2
    for word in words:
        assert word in result.stderr
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("name", ["my game", ".hidden", "a:b"])
def test_the_folder_name_must_be_a_plain_name(tmp_path, run, name):
    result = run("new", tmp_path / name)
    assert result.exit_code == 2
    assert "cannot be used as a file name" in result.stderr
    assert not (tmp_path / name).exists()
