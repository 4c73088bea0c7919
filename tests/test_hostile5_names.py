"""Round five, ids that become file names on the systems a game's files travel to: two decks whose ids differ only by
case or by Unicode normalisation ('Trains' and 'trains', 'café' with é and with e + U+0301) wrote two files that a
Mac or Windows disk (or a zip unpacked there) keeps as one, the second replacing the first; an id that is a Windows
device's name ('con', 'nul.x', 'COM1') or that ends with '.' made a file Windows cannot make or unzip. ``check`` and
``build`` now both refuse each (``paths.name_problem``, ``paths.folded``)."""
from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.paths import folded, name_problem

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "fixtures" / "mini"


def _game(tmp_path: Path, deck_id: str) -> Path:
    game = tmp_path / "g"
    shutil.copytree(MINI, game)
    decks = (game / "decks.yaml").read_text(encoding="utf-8")
    (game / "decks.yaml").write_text(decks.replace("  tickets:", f"  {deck_id}:", 1), encoding="utf-8")
    return game


@pytest.mark.parametrize("name", ["con", "NUL", "aux.x", "Com1", "lpt9.pdf", "com\u00b9", "prn"])
def test_a_windows_device_name_is_not_a_plain_name(name):
    assert "a device's name on Windows" in (name_problem(name) or "")


@pytest.mark.parametrize("name", ["console", "nullify", "com10", "aux-deck", "x.con", "lpt"])
def test_names_that_only_start_like_a_device_are_plain(name):
    assert name_problem(name) is None


def test_a_trailing_dot_is_not_a_plain_name():
    assert "ends with '.'" in (name_problem("tickets.") or "") and name_problem("v1.2") is None


def test_folded_is_what_a_case_and_normalisation_blind_disk_compares():
    assert folded("Trains.pdf") == folded("trains.pdf")
    assert folded(unicodedata.normalize("NFD", "café")) == folded("CAFÉ")


@pytest.mark.parametrize("command", ["check", "build"])
def test_a_deck_id_that_is_a_device_name_is_refused_by_check_and_build(tmp_path, command):
    game = _game(tmp_path, "con")
    result = CliRunner().invoke(main, [command, str(game), "--no-cache", *(["--out", str(tmp_path / "o")]
                                                                          if command == "build" else [])])
    assert result.exit_code == 2 and "deck id 'con' cannot be used as a file name" in result.output, result.output
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("other", ["Trains", unicodedata.normalize("NFD", "tráins")])
@pytest.mark.parametrize("command", ["check", "build"])
def test_deck_ids_differing_by_case_or_normalisation_are_refused_by_check_and_build(tmp_path, command, other):
    first = "trains" if other == "Trains" else unicodedata.normalize("NFC", "tráins")
    game = _game(tmp_path, other)
    if first != "trains":
        decks = (game / "decks.yaml").read_text(encoding="utf-8")
        (game / "decks.yaml").write_text(decks.replace("  trains:", f"  {first}:", 1).replace(
            "deck: trains", f"deck: {first}"), encoding="utf-8")
    result = CliRunner().invoke(main, [command, str(game), "--no-cache", *(["--out", str(tmp_path / "o")]
                                                                          if command == "build" else [])])
    assert result.exit_code == 1, result.output
    assert "PNP705" in result.output and "one file where case or accents are not told apart" in result.output, \
        result.output
    assert not (tmp_path / "o" / "g").exists()


def test_an_imported_ticket_set_named_like_a_device_becomes_a_deck_that_checks(tmp_path):
    """``pnpgen import`` makes a deck id of a second ticket set's label: "NUL" made the deck id 'nul', which the
    game it wrote then failed to load."""
    import copy
    import json

    from tests.test_mapio import MAP
    data = copy.deepcopy(MAP)
    data["payload"]["ticketSets"].append({"id": "deck-2", "label": "NUL"})
    data["payload"]["tickets"].append({"id": "t6", "a": "s-west", "b": "s-east", "points": 9, "set": "deck-2"})
    (tmp_path / "map.json").write_text(json.dumps(data), encoding="utf-8")
    imported = CliRunner().invoke(main, ["import", str(tmp_path / "map.json"), "--to", str(tmp_path / "game")])
    assert imported.exit_code == 0, imported.output
    assert "  nul-tickets:" in (tmp_path / "game" / "decks.yaml").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path / "game"), "--no-cache"])
    assert result.exit_code in (0, 1) and "cannot be used as a file name" not in result.output, result.output


def test_ids_at_the_longest_make_file_names_a_file_system_takes(tmp_path):
    """An id may be limits.MAX_ID_BYTES (100) bytes: with the longest prefixes and suffixes pnpgen adds (the
    print-and-play file, a deck's SVG faces, Tabletop Simulator's sheets) a name stays far under 255 bytes."""
    game = _game(tmp_path, "い" * 33)   # 99 bytes of UTF-8
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("game:\n", "game:\n  id: " + "a" * 100 + "\n", 1), encoding="utf-8")
    out = str(tmp_path / "o")
    for args in (["build", str(game), "--all", "--no-cache", "--out", out], ["export", "tts", str(game), "--out", out]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
    longest = max(len(p.name.encode("utf-8")) for p in (tmp_path / "o").rglob("*"))
    assert 119 <= longest <= 160, longest
