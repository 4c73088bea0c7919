"""Every word pnpgen prints comes from the game's language (templates/catalogues/<language>.yaml,
the game's `words:`): an English game prints no Japanese, a German one German words, a missing
catalogue entry is PNP901, an unknown language an error at its line."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.check import run_checks
from generator.load import catalogue
from generator.load.game import load_game
from generator.load.rules import load_rules

FIXTURE = Path(__file__).parent / "fixtures" / "english"
JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")
LANGUAGE_LINE = 7   # `  language: en` in fixtures/english/game.yaml


@pytest.fixture
def english(tmp_path) -> Path:
    target = tmp_path / "english"
    shutil.copytree(FIXTURE, target)
    return target


def _set(game: Path, old: str, new: str) -> None:
    text = (game / "game.yaml").read_text(encoding="utf-8")
    assert old in text
    (game / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")


def _texts(out: Path) -> dict[str, str]:
    """Every printed text of a build: each PDF's text, components.csv, the HTML and the SVGs."""
    texts = {pdf.name: "\n".join(page.extract_text() for page in PdfReader(pdf).pages) for pdf in out.glob("*.pdf")}
    for path in [out / "components.csv", *out.glob("*.html"), *out.rglob("*.svg")]:
        texts[str(path.relative_to(out))] = path.read_text(encoding="utf-8")
    return texts


def test_an_english_game_prints_no_japanese(english, run, tmp_path):
    assert english.joinpath("game.yaml").read_text(encoding="utf-8").splitlines()[LANGUAGE_LINE - 1] == "  language: en"
    result = run("build", "--all", english, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    texts = _texts(tmp_path / "out" / "english")
    assert len([name for name in texts if name.endswith(".pdf")]) >= 10
    found = {name: sorted(set(JAPANESE.findall(text))) for name, text in texts.items() if JAPANESE.search(text)}
    assert found == {}
    board = texts["board-map.pdf"]
    assert "Route scoring" in board and "neighbouring country (end only)" in board
    assert "0/50" in board and "0/100" not in board             # a 50-cell track is labelled with its own range
    rules = texts["english-rules.pdf"]
    assert all(word in rules for word in ("Component", "Route length", "Total", "Passengers (6)"))
    assert "Contents and printing" not in texts["english-print-and-play.pdf"]  # the outline, not the page
    assert "Print and play" in texts["english-print-and-play.pdf"] and "Player" in texts["score-pad.pdf"]
    assert "Rules,rules" in texts["components.csv"]
    assert "<title>Small Railway — Rules</title>" in texts["english-rules.html"]


def test_a_german_game_prints_german_words(english, run, tmp_path):
    _set(english, "language: en", "language: de")
    result = run("build", "--all", english, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    texts = _texts(tmp_path / "out" / "english")
    rules = texts["english-rules.pdf"]
    assert all(word in rules for word in ("Inhalt", "Anzahl", "Summe", "Streckenlänge", "Punkte", "Würfel"))
    assert "Inhalt und Druckhinweise" not in texts["english-print-and-play.pdf"]
    assert "Print & Play" in texts["english-print-and-play.pdf"] and "Spieler" in texts["score-pad.pdf"]
    assert "Punkte pro Strecke" in texts["board-map.pdf"]
    assert not {name for name, text in texts.items() if JAPANESE.search(text)}


def test_a_missing_catalogue_entry_is_pnp901_never_japanese(english, tmp_path, monkeypatch):
    catalogues = tmp_path / "catalogues"
    catalogues.mkdir()
    shutil.copy(catalogue.CATALOGUE_DIR / "ja.yaml", catalogues / "ja.yaml")
    text = (catalogue.CATALOGUE_DIR / "en.yaml").read_text(encoding="utf-8")
    (catalogues / "en.yaml").write_text(text.replace("table.total: Total\n", ""), encoding="utf-8")
    monkeypatch.setattr(catalogue, "CATALOGUE_DIR", catalogues)
    game = load_game(english)
    found = [f for f in run_checks(game) if f.code == "PNP901"]
    assert [(f.source.line, f.message) for f in found] == [(LANGUAGE_LINE, "the catalogue for en has no 'table.total'")]
    assert found[0].severity == "error" and found[0].source.file == english / "game.yaml"
    markdown = load_rules(game)[0].markdown
    assert "⟨table.total⟩" in markdown and "合計" not in markdown


def test_an_unknown_language_is_an_error_at_its_line(english, run):
    _set(english, "language: en", "language: fr")
    result = run("check", english)
    assert result.exit_code == 2
    assert f"game.yaml:{LANGUAGE_LINE}" in result.output and "fr" in result.output


def test_a_language_without_a_catalogue_names_those_there_are(english, tmp_path, monkeypatch, run):
    catalogues = tmp_path / "catalogues"
    catalogues.mkdir()
    shutil.copy(catalogue.CATALOGUE_DIR / "ja.yaml", catalogues / "ja.yaml")
    monkeypatch.setattr(catalogue, "CATALOGUE_DIR", catalogues)
    result = run("check", english)
    assert result.exit_code == 2
    assert f"game.yaml:{LANGUAGE_LINE}" in result.output
    assert "no catalogue for 'en'" in result.output and "languages: ja" in result.output


def test_a_game_overrides_an_entry_in_its_words_section(english, run, tmp_path):
    _set(english, "include:\n", "words:\n  table.total: All cards\n  board.scoring: Points per route\ninclude:\n")
    result = run("build", "--all", english, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    texts = _texts(tmp_path / "out" / "english")
    assert "All cards" in texts["english-rules.pdf"] and "Total" not in texts["english-rules.pdf"]
    assert "Points per route" in texts["board-map.pdf"]


def test_an_unknown_words_key_says_did_you_mean(english, run):
    _set(english, "include:\n", "words:\n  table.totl: All cards\ninclude:\n")
    result = run("check", english)
    assert result.exit_code == 2
    assert "game.yaml:13" in result.output and "unknown key 'table.totl'" in result.output
    assert "did you mean 'table.total'" in result.output


def test_every_catalogue_has_the_reference_keys():
    reference = list(catalogue.catalogue("ja"))
    for language in catalogue.languages():
        assert list(catalogue.catalogue(language)) == reference, language


def test_a_colour_without_a_latin_name_prints_no_id_for_one(english):
    palette = load_game(english).palette
    assert (palette["ticket-back"].latin, palette["ticket-back"].label) == ("", "ticket blue")
    assert palette["black"].label == "black"     # templates/palette.yaml's colours are named by the catalogue
    _set(english, "language: en", "language: de")
    assert load_game(english).palette["white"].label == "Weiß / white"
