"""pnpgen export png / tts on the mini game: exact pixel sizes, counts, TTS's saved-object format,
the same bytes twice, and the build's exit codes."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from generator.errors import ContentError
from generator.export.raster import Shot, check_size
from generator.export.tts import MAX_COLUMNS, MAX_ROWS, MAX_SHEET_PX, card_pixels, grid
from generator.layout.primitives import Form
from tests.conftest import FIXTURES, copy_fixture

MINI = FIXTURES / "mini"
#: mini's decks: distinct faces' counts (trains: red ×2, blue ×2, locomotive ×1; 11 tickets, one each)
MINI_COUNTS = {"trains": [2, 2, 1], "tickets": [1] * 11}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(("dpi", "cut", "size"), [
    (300, "--bleed", (591, 874)),   # (44 + 2 × 3) mm × (68 + 2 × 3) mm at 300 dpi, the example
    (300, "--trim", (520, 803)),
    (150, "--bleed", (295, 437)),
    (150, "--trim", (260, 402)),
])
def test_png_faces_have_the_exact_pixel_size(run, tmp_path, dpi, cut, size):
    result = run("export", "png", MINI, "--dpi", dpi, cut, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "mini-png"
    images = sorted(folder.rglob("*.png"))
    assert len(images) == 3 + 1 + 11 + 1   # distinct faces and a back per deck
    for image in images:
        with Image.open(image) as im:
            assert im.size == size, image
            assert im.mode == "RGB"
    with Image.open(folder / "tickets" / "back.png") as back:   # the bleed colour to every edge: no white sliver
        w, h = size
        assert {back.getpixel(xy) for xy in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w // 2, 0), (0, h // 2),
                                             (w - 1, h // 2), (w // 2, h - 1)]} == {(0x2C, 0x5D, 0x9C)}
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert {face["file"]: tuple(face["pixels"]) for s in manifest["sets"] for face in [*s["faces"], s["back"]]} == {
        str(image.relative_to(folder)): size for image in images}


def test_png_manifest_counts_are_the_deck_counts(run, tmp_path):
    assert run("export", "png", MINI, "--dpi", 60, "--out", tmp_path).exit_code == 0
    folder = tmp_path / "mini-png"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    sets = {s["id"]: s for s in manifest["sets"]}
    assert {deck: [face["count"] for face in s["faces"]] for deck, s in sets.items()} == MINI_COUNTS
    assert [face["file"] for face in sets["trains"]["faces"]] == [
        "trains/001-red.png", "trains/002-blue.png", "trains/003-locomotive.png"]
    assert sets["tickets"]["faces"][0]["file"] == "tickets/001-berlin-hamburg-7.png"
    assert sets["trains"]["back"] == {"file": "trains/back.png", "pixels": [118, 175], "count": 5, "cards": ["back"]}
    assert sets["trains"]["printed"] == 5 and sets["tickets"]["printed"] == 11
    with Image.open(folder / "trains" / "001-red.png") as im:   # drawn, not blank
        assert len(im.getcolors(1 << 16) or []) > 20


def _tts(folder: Path, game: str) -> dict:
    return json.loads((folder / f"{game}.json").read_text(encoding="utf-8"))


def _check_tts(folder: Path, save: dict, printed: dict[str, list[int]], base_url: str | None = None) -> None:
    """The saved object names every image written, each deck holds one Card per printed copy, sheets fit TTS."""
    urls = set()
    decks = [o for o in save["ObjectStates"] if o["Name"] in ("Deck", "Card")]
    assert len(decks) == len(printed)
    for obj, (deck, counts) in zip(decks, printed.items()):
        cards = obj.get("ContainedObjects", [obj])
        assert len(cards) == sum(counts), deck
        ids = [card["CardID"] for card in cards]
        if obj["Name"] == "Deck":
            assert obj["DeckIDs"] == ids
        per_face = {}
        for card_id in ids:
            per_face[card_id] = per_face.get(card_id, 0) + 1
        assert list(per_face.values()) == counts, deck
        for key, custom in obj["CustomDeck"].items():
            assert custom["BackIsHidden"] is True and custom["UniqueBack"] is False
            slots = [i % 100 for i in ids if i // 100 == int(key)]
            assert slots and max(slots) < custom["NumWidth"] * custom["NumHeight"]
            assert custom["NumWidth"] <= MAX_COLUMNS and custom["NumHeight"] <= MAX_ROWS
            for card in cards:
                if card["CardID"] // 100 == int(key):
                    assert card["CustomDeck"] == {key: custom}
            urls |= {custom["FaceURL"], custom["BackURL"]}
            with Image.open(_local(folder, custom["FaceURL"], base_url)) as sheet:
                assert max(sheet.size) <= MAX_SHEET_PX
                assert sheet.size[0] % custom["NumWidth"] == 0 and sheet.size[1] % custom["NumHeight"] == 0
    urls |= {o["CustomImage"]["ImageURL"] for o in save["ObjectStates"] if o["Name"] == "Custom_Board"}
    urls |= {t["CustomImage"]["ImageURL"] for o in save["ObjectStates"] if o["Name"] == "Bag" for t in o["ContainedObjects"]}
    written = {p.name for p in folder.glob("*.png")}
    assert {_local(folder, url, base_url).name for url in urls} == written
    assert len({o["GUID"] for o in save["ObjectStates"]}) == len(save["ObjectStates"])


def _local(folder: Path, url: str, base_url: str | None) -> Path:
    if base_url:
        assert url.startswith(base_url + "/")
        return folder / unquote(url[len(base_url) + 1:])
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    path = Path(unquote(parsed.path))
    assert path.parent == folder.resolve()
    return path


def test_tts_saved_object_loads_every_deck_with_its_counts(run, tmp_path):
    result = run("export", "tts", MINI, "--dpi", 100, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "mini-tts"
    save = _tts(folder, "mini")
    _check_tts(folder, save, MINI_COUNTS)
    trains = save["ObjectStates"][0]
    assert trains["Name"] == "Deck" and trains["Nickname"] == "列車カード / Train cards"
    assert trains["DeckIDs"] == [100, 100, 101, 101, 102]
    assert trains["CustomDeck"]["1"]["NumWidth"] == 2 and trains["CustomDeck"]["1"]["NumHeight"] == 2
    tickets = save["ObjectStates"][1]
    assert (tickets["CustomDeck"]["2"]["NumWidth"], tickets["CustomDeck"]["2"]["NumHeight"]) == (6, 2)
    with Image.open(folder / "tickets-1.png") as sheet, Image.open(folder / "tickets-back.png") as back:
        assert sheet.size == (6 * 173, 2 * 267)   # 44 × 68 mm at 100 dpi: 173.2 × 267.7, floored
        assert back.size == (173, 267)


def test_tts_base_url_names_the_images_there(run, tmp_path):
    assert run("export", "tts", MINI, "--dpi", 40, "--base-url", "https://example.org/mini/",
               "--out", tmp_path).exit_code == 0
    folder = tmp_path / "mini-tts"
    save = _tts(folder, "mini")
    _check_tts(folder, save, MINI_COUNTS, base_url="https://example.org/mini")
    assert save["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"] == "https://example.org/mini/trains-1.png"


def test_tts_large_deck_takes_several_sheets(run, tmp_path):
    extra = "".join(f"      - [Berlin, Hamburg, {n}]  # waive PNP402: three places only\n" for n in range(20, 100))
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "      - [Hamburg, Berlin, 11]  # waive PNP402: three places only\n",
                        "      - [Hamburg, Berlin, 11]  # waive PNP402: three places only\n" + extra)
    decks = game / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace("expected: 11", "expected: 91"), encoding="utf-8")
    result = run("export", "tts", game, "--dpi", 20, "--force", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "mini-tts"
    save = _tts(folder, "mini")
    _check_tts(folder, save, {"trains": [2, 2, 1], "tickets": [1] * 91})
    tickets = save["ObjectStates"][1]
    assert sorted(tickets["CustomDeck"]) == ["2", "3"]
    assert tickets["DeckIDs"] == [*range(200, 270), *range(300, 321)]
    assert (folder / "tickets-2.png").is_file() and not (folder / "tickets-3.png").exists()


def test_tts_sheet_grid_and_card_size_stay_within_tts_limits():
    assert grid(1) == (2, 2) and grid(3) == (2, 2) and grid(9) == (5, 2) and grid(11) == (6, 2)
    assert grid(55) == (10, 6) and grid(70) == (10, 7)
    for cards in range(1, 71):
        columns, rows = grid(cards)
        assert columns * rows >= cards and columns <= MAX_COLUMNS and rows <= MAX_ROWS
    w, h = card_pixels((44.0, 68.0), 300, 10, 7)   # 300 dpi would be 5200 px across: scaled down
    assert 10 * w <= MAX_SHEET_PX and 7 * h <= MAX_SHEET_PX and abs(w / h - 44 / 68) < 0.01
    assert card_pixels((44.0, 68.0), 100, 2, 2) == (173, 267)


def test_exports_are_byte_identical_twice(run, tmp_path):
    for command in ("png", "tts"):
        assert run("export", command, MINI, "--dpi", 50, "--out", tmp_path).exit_code == 0
        first = _files(tmp_path / f"mini-{command}")
        assert run("export", command, MINI, "--dpi", 50, "--out", tmp_path).exit_code == 0
        assert _files(tmp_path / f"mini-{command}") == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mini-png", "mini-tts"]   # no staging left behind


def test_bad_game_or_option_exits_2_and_writes_nothing(run, tmp_path):
    result = run("export", "png", tmp_path / "nope", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "no such game folder" in result.output
    assert run("export", "tts", MINI, "--dpi", 5, "--out", tmp_path / "out").exit_code == 2
    assert not (tmp_path / "out").exists()


def test_check_errors_refuse_the_export_as_they_refuse_the_build(run, tmp_path):
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "expected: 5", "expected: 6")
    result = run("export", "png", game, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "export refused: mini has 1 check error" in result.output
    assert not (tmp_path / "out" / "mini-png").exists()


def test_an_image_too_large_is_refused_before_drawing():
    check_size(Shot(Form("f", (), (0, 0, 1000, 100)), (0, 0, 1000, 100), 300), "board x")   # 11,811 px: fits
    with pytest.raises(ContentError, match="more than 16384 px on a side"):
        check_size(Shot(Form("f", (), (0, 0, 2000, 100)), (0, 0, 2000, 100), 300), "board x")


def test_a_failed_export_leaves_the_previous_one_whole(run, tmp_path, monkeypatch):
    assert run("export", "png", MINI, "--dpi", 30, "--out", tmp_path).exit_code == 0
    before = _files(tmp_path / "mini-png")
    calls = []

    def failing(image, path, dpi):
        calls.append(path)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(path))
        image.save(path, format="PNG")

    monkeypatch.setattr("generator.export.png.save_png", failing)
    result = run("export", "png", MINI, "--dpi", 60, "--out", tmp_path)
    assert result.exit_code == 1
    assert "cannot write the export: No space left on device" in result.output
    assert _files(tmp_path / "mini-png") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mini-png"]   # the staging folder is gone


def test_ctrl_c_in_a_data_export_exits_130_as_the_build_does(run, tmp_path, monkeypatch):
    def interrupted(game):
        raise KeyboardInterrupt

    monkeypatch.setattr("generator.export.tables.tables", interrupted)
    result = run("export", "csv", MINI, "--out", tmp_path / "csv")
    assert result.exit_code == 130
    assert "mini was not exported; a previous export was left as it was" in result.output
    assert not list((tmp_path / "csv").glob("*.csv"))


def test_an_export_announces_each_game_once_off_a_terminal(run, tmp_path):
    """Two progress stages (faces drawn, images written) are one line per game when the output is no terminal."""
    result = run("export", "png", MINI, "--dpi", 30, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.count("exporting mini (PNG) …") == 1
