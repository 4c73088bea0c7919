"""Issue 13's Done-when for exports: ``export png`` and ``export tts`` on every bundled game give the exact
pixel sizes and card counts, and the TTS JSON parses and names every sheet it wrote (at low dpi: fast)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from generator.export.png import export_png
from generator.export.tts import MAX_COLUMNS, MAX_ROWS, MAX_SHEET_PX, export_tts
from generator.load.game import load_game
from generator.writers.cards import printed_decks
from tests.conftest import ROOT

GAMES = [("ttr-germany", ()), ("ttr-germany", ("ttr-dice",)), ("ttr-new-york", ()), ("s-railway", ()),
         ("thurn-and-taxis", ())]
DPI, BOARD_DPI = 40, 10


def _px(mm: float, dpi: float) -> int:
    return round(mm / 25.4 * dpi)


@pytest.mark.parametrize(("name", "addons"), GAMES, ids=["+".join((g, *a)) for g, a in GAMES])
def test_every_bundled_game_exports_exact_sizes_and_counts(tmp_path, name, addons):
    game = load_game(ROOT / "content" / name, tuple(ROOT / "content" / a for a in addons))
    decks = {deck.id: deck for deck in printed_decks(game)}
    parts = {part.id: part for part in game.parts.values() if part.kind in ("token", "tile")}

    png = export_png(game, tmp_path, dpi=DPI, board_dpi=BOARD_DPI).folder
    manifest = json.loads((png / "manifest.json").read_text(encoding="utf-8"))
    sets = {s["id"]: s for s in manifest["sets"]}
    assert {k for k, s in sets.items() if s["kind"] == "deck"} == set(decks)
    assert {k for k, s in sets.items() if s["kind"] in ("token", "tile")} == set(parts)
    assert {k for k, s in sets.items() if s["kind"] == "board"} == set(game.boards)
    for deck in decks.values():
        s = sets[deck.id]
        assert sum(face["count"] for face in s["faces"]) == sum(card.count for card in deck.cards) == s["printed"]
        assert s["back"]["count"] == s["printed"]
    for part in parts.values():
        assert sum(face["count"] for face in sets[part.id]["faces"]) == part.count
    for s in sets.values():
        w, h = s["trim_mm"]
        b = s["bleed_mm"]
        dpi = BOARD_DPI if s["kind"] == "board" else DPI
        for face in [*s["faces"], *([s["back"]] if "back" in s else [])]:
            with Image.open(png / face["file"]) as image:
                assert image.size == tuple(face["pixels"]) == (_px(w + 2 * b, dpi), _px(h + 2 * b, dpi)), face["file"]
    assert {str(p.relative_to(png)) for p in png.rglob("*.png")} == {
        face["file"] for s in sets.values() for face in [*s["faces"], *([s["back"]] if "back" in s else [])]}

    tts = export_tts(game, tmp_path, dpi=DPI).folder
    save = json.loads((tts / f"{game.id}.json").read_text(encoding="utf-8"))
    objects = save["ObjectStates"]
    named = set()
    for obj, deck in zip([o for o in objects if o["Name"] in ("Deck", "Card")], decks.values(), strict=True):
        cards = obj.get("ContainedObjects", [obj])
        assert len(cards) == sum(card.count for card in deck.cards), deck.id
        for key, custom in obj["CustomDeck"].items():
            assert custom["NumWidth"] <= MAX_COLUMNS and custom["NumHeight"] <= MAX_ROWS
            used = [c["CardID"] % 100 for c in cards if c["CardID"] // 100 == int(key)]
            assert max(used) < custom["NumWidth"] * custom["NumHeight"]
            named |= {custom["FaceURL"], custom["BackURL"]}
    named |= {o["CustomImage"]["ImageURL"] for o in objects if o["Name"] == "Custom_Board"}
    bags = {o["Nickname"]: o["ContainedObjects"] for o in objects if o["Name"] == "Bag"}
    assert {label: len(tiles) for label, tiles in bags.items()} == {part.label: part.count for part in parts.values()}
    named |= {tile["CustomImage"]["ImageURL"] for tiles in bags.values() for tile in tiles}
    assert len([o for o in objects if o["Name"] == "Custom_Board"]) == len(game.boards)
    written = sorted(tts.glob("*.png"))
    assert {Path(url.removeprefix("file://")).name for url in named} == {p.name for p in written}
    for sheet in written:
        with Image.open(sheet) as image:
            assert max(image.size) <= MAX_SHEET_PX
