"""``pnpgen export tts``: deck sheets and a saved object for Tabletop Simulator.

TTS cuts a card sheet into a grid (at most 10 × 7 cards, at most 4096 px on a side)
and reads a deck from a saved object's JSON (its Knowledge Base: "Custom Deck",
"Save File Format"): a ``Deck`` with ``CustomDeck`` entries (one per sheet, key N:
FaceURL, BackURL, NumWidth, NumHeight, BackIsHidden), ``DeckIDs`` and one ``Card`` per
printed copy in ``ContainedObjects``, whose ``CardID`` is N × 100 + its slot on sheet N.
Each distinct face takes one slot; the back is an image of its own (``BackIsHidden``:
the back, not the sheet's last slot, shows for hidden cards). A deck of one card is a
``Card``; a board is a ``Custom_Board`` showing one image.

Files in ``OUT/<game>-tts/``: ``<deck>-<n>.png`` (sheet n), ``<deck>-back.png``,
``board-<id>.png`` and ``<game>.json``, the object to save into TTS's Saved Objects folder.
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from PIL import Image as PILImage

from generator.export import ExportResult, export_folder
from generator.export.faces import Set, export_sets
from generator.export.raster import Shot, check_size, render_images, save_png
from generator.model.game import Game
from generator.writers import Progress

#: TTS's card sheet: at most this many cards across and down, and pixels on a side
MAX_COLUMNS, MAX_ROWS, MAX_SHEET_PX = 10, 7, 4096
#: the card sheet grid TTS accepts at least (its deck dialog starts at 2 × 2)
MIN_COLUMNS, MIN_ROWS = 2, 2
#: a poker card's height (mm): TTS's own card, scale 1; other cards are scaled to it
TTS_CARD_MM = 88.9
#: the board image's dpi (at most 4096 px on its longer side)
BOARD_DPI = 100


def export_tts(game: Game, out_root: Path, base_url: str | None = None, dpi: float = 300,
               progress: Progress | None = None, force: bool = False) -> ExportResult:
    """Write the sheets, backs, boards and ``<game>.json`` into ``OUT/<game>-tts/``; the checks have run."""
    progress = progress or Progress()
    name = f"{game.id}-tts"
    folder = Path(out_root).resolve() / name
    sets = export_sets(game, force, progress=progress)
    url = (lambda file: f"{base_url.rstrip('/')}/{quote(file)}") if base_url else (lambda file: (folder / file).as_uri())
    plans = [_plan(s, dpi) for s in sets]
    shots = [shot for plan in plans for shot in plan.shots]
    for shot in shots:
        check_size(shot, game.id)
    progress.start(game, len(shots))
    objects: list[dict] = []
    with export_folder(game, out_root, name) as staging:
        images = render_images(shots, f"{game.label} — Tabletop Simulator", lambda i: progress.step(f"image {i + 1}"))
        key = 1   # CustomDeck keys count up across the whole object: every sheet has its own
        for index, (s, plan) in enumerate(zip(sets, plans)):
            drawn = [next(images) for _ in plan.shots]
            if s.kind == "board":
                file = f"board-{s.id}.png"
                save_png(drawn[0], staging / file, plan.shots[0].dpi)
                objects.append(_board(game, s, url(file), sum(o["Name"] == "Custom_Board" for o in objects)))
                continue
            if s.back is None:   # tokens and tiles: an image per distinct face, a bag of tiles
                names = [f"{s.id}-{face.name}.png" for face in s.faces]
                for image, shot, file in zip(drawn, plan.shots, names):
                    save_png(image, staging / file, shot.dpi)
                objects.append(_bag(game, s, [url(file) for file in names], index))
                continue
            sheets = _sheets(s, plan, drawn)
            back_file = f"{s.id}-back.png"
            save_png(drawn[-1], staging / back_file, plan.shots[-1].dpi)
            decks = {}
            for n, (sheet, (columns, rows)) in enumerate(sheets, start=1):
                file = f"{s.id}-{n}.png"
                save_png(sheet, staging / file, plan.shots[0].dpi)
                decks[key + n - 1] = {"FaceURL": url(file), "BackURL": url(back_file), "NumWidth": columns,
                                      "NumHeight": rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
            objects.append(_deck(game, s, decks, key, index))
            key += len(sheets)
        save = _save(game, objects)
        (staging / f"{game.id}.json").write_text(json.dumps(save, ensure_ascii=False, indent=2) + "\n",
                                                 encoding="utf-8")
    progress.done()
    result = ExportResult(Path(out_root) / name)
    for s, plan in zip(sets, plans):
        if s.kind not in ("deck", "board"):
            result.lines.append((f"{s.id}-*.png", len(plan.shots), f"{s.kind}s, {s.printed} in a bag"))
        elif s.kind == "deck":
            result.lines.append((f"{s.id}-*.png", len(plan.sheets) + 1,
                                 f"{len(plan.sheets)} sheet(s) of {plan.columns}×{plan.rows}, back; {s.printed} cards"))
        else:
            result.lines.append((f"board-{s.id}.png", 1, "board"))
    result.lines.append((f"{game.id}.json", 1, "saved object: copy into TTS's Saved Objects folder"))
    return result


@dataclass
class _Plan:
    """A set's images (a deck's: each distinct face at its trim, then its back, at the sheet's card size),
    and for a deck its sheets (the faces' indices on each), grid and card pixels."""

    shots: list[Shot]
    sheets: list[list[int]]
    columns: int
    rows: int
    card: tuple[int, int]


def grid(cards: int) -> tuple[int, int]:
    """Columns and rows of a sheet holding ``cards`` (at most 10 × 7; at least 2 × 2, as TTS's dialog)."""
    rows = max(MIN_ROWS, math.ceil(cards / MAX_COLUMNS))
    return max(MIN_COLUMNS, math.ceil(cards / rows)), rows


def card_pixels(size: tuple[float, float], dpi: float, columns: int, rows: int) -> tuple[int, int]:
    """A card's pixels on a sheet: ``dpi``, or less where the grid would pass 4096 px (the aspect kept)."""
    w, h = size
    per_mm = min(dpi / 25.4, (MAX_SHEET_PX // columns) / w, (MAX_SHEET_PX // rows) / h)
    return max(1, math.floor(w * per_mm)), max(1, math.floor(h * per_mm))


def _plan(s: Set, dpi: float) -> _Plan:
    if s.kind == "board":
        face = s.faces[0]
        board_dpi = min(BOARD_DPI, MAX_SHEET_PX / (max(s.size) / 25.4))
        shot = Shot(face.form, face.box(s.size, 0.0, True), board_dpi,
                    (min(MAX_SHEET_PX, round(s.size[0] / 25.4 * board_dpi)),
                     min(MAX_SHEET_PX, round(s.size[1] / 25.4 * board_dpi))))
        return _Plan([shot], [], 1, 1, shot.pixel_size)
    if s.back is None:   # a token or tile: its trim (the tile's shape cuts it), at dpi
        shots = [Shot(face.form, face.box(s.size, s.bleed, True), dpi) for face in s.faces]
        return _Plan(shots, [], 1, 1, shots[0].pixel_size)
    slots = MAX_COLUMNS * MAX_ROWS
    faces = list(range(len(s.faces)))
    sheets = [faces[i:i + slots] for i in range(0, len(faces), slots)]
    columns, rows = grid(len(sheets[0]))
    card = card_pixels(s.size, dpi, columns, rows)
    per_mm = card[0] / s.size[0]
    assert s.back is not None
    shots = [Shot(face.form, face.box(s.size, s.bleed, True), per_mm * 25.4, card) for face in [*s.faces, s.back]]
    return _Plan(shots, sheets, columns, rows, card)


def _sheets(s: Set, plan: _Plan, drawn: list[PILImage.Image]) -> list[tuple[PILImage.Image, tuple[int, int]]]:
    """Each sheet's image, faces left to right and top to bottom, empty slots white."""
    out = []
    width, height = plan.card
    for slots in plan.sheets:
        columns, rows = grid(len(slots)) if len(plan.sheets) == 1 else (plan.columns, plan.rows)
        sheet = PILImage.new("RGB", (columns * width, rows * height), (255, 255, 255))
        for slot, face in enumerate(slots):
            sheet.paste(drawn[face], ((slot % columns) * width, (slot // columns) * height))
        out.append((sheet, (columns, rows)))
    return out


def _guid(game: Game, *path) -> str:
    """A GUID as TTS writes them (6 hex digits), the same on every export of the game."""
    return hashlib.sha1("/".join(map(str, (game.id, *path))).encode("utf-8")).hexdigest()[:6]


def _transform(x: float, z: float, scale: float = 1.0, face_down: bool = False) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _common(game: Game, kind: str, nickname: str, transform: dict, *path) -> dict:
    return {"GUID": _guid(game, *path), "Name": kind, "Transform": transform, "Nickname": nickname, "Description": "",
            "GMNotes": "", "ColorDiffuse": {"r": 0.713235, "g": 0.713235, "b": 0.713235}, "Locked": False,
            "Grid": True, "Snap": True, "IgnoreFoW": False, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "GridProjection": False, "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _deck(game: Game, s: Set, decks: dict[int, dict], first_key: int, index: int) -> dict:
    """A ``Deck`` (or, for one printed card, a ``Card``) with one ``Card`` per printed copy."""
    scale = round(s.size[1] / TTS_CARD_MM, 4)
    sideways = s.size[0] > s.size[1]
    transform = _transform(-12.0 + 4.0 * index, -12.0, scale, face_down=True)
    cards, ids = [], []
    for slot_index, face in enumerate(s.faces):
        key = first_key + slot_index // (MAX_COLUMNS * MAX_ROWS)
        card_id = key * 100 + slot_index % (MAX_COLUMNS * MAX_ROWS)
        for copy in range(face.count):
            card = _common(game, "Card", face.cards[0] if face.cards else face.name,
                           _transform(0.0, 0.0, scale, face_down=True), s.id, face.name, copy)
            card.update({"CardID": card_id, "SidewaysCard": sideways, "Hands": True, "HideWhenFaceDown": True,
                         "CustomDeck": {str(key): decks[key]}})
            cards.append(card)
            ids.append(card_id)
    if len(cards) == 1:
        single = cards[0]
        single.update({"Transform": transform, "Nickname": s.label})
        return single
    deck = _common(game, "Deck", s.label, transform, s.id)
    deck.update({"SidewaysCard": sideways, "Hands": False, "HideWhenFaceDown": True, "DeckIDs": ids,
                 "CustomDeck": {str(key): value for key, value in decks.items()}, "ContainedObjects": cards})
    return deck


def _board(game: Game, s: Set, image_url: str, boards_before: int) -> dict:
    """A locked board showing one image, on the table's far side; a second board beyond the first."""
    board = _common(game, "Custom_Board", s.label, _transform(0.0, 20.0 + 30.0 * boards_before, 1.0), s.id)
    board.update({"Locked": True, "CustomImage": {"ImageURL": image_url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                                  "WidthScale": 0.0}})
    return board


#: TTS's Custom Tile shapes (Type): box, hex, circle, rounded box
TILE_TYPES = {"circle": 2}


def _bag(game: Game, s: Set, urls: list[str], index: int) -> dict:
    """A bag holding one ``Custom_Tile`` per printed token or tile, each showing its face (both sides: TTS
    shows the top image on the bottom when there is no bottom image), sized to its trim (1 unit ≈ 1 in)."""
    tiles = []
    for face, image_url in zip(s.faces, urls):
        for copy in range(face.count):
            tile = _common(game, "Custom_Tile", face.cards[0] if face.cards else face.name,
                           _transform(0.0, 0.0, round(max(s.size) / 25.4, 4)), s.id, face.name, copy)
            tile["CustomImage"] = {"ImageURL": image_url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                   "WidthScale": 0.0, "CustomTile": {"Type": TILE_TYPES.get(s.shape, 0),
                                                                     "Thickness": 0.1, "Stackable": True,
                                                                     "Stretch": False}}
            tiles.append(tile)
    bag = _common(game, "Bag", s.label, _transform(-12.0 + 3.0 * index, -20.0), s.id)
    bag.update({"MaterialIndex": -1, "MeshIndex": -1, "ContainedObjects": tiles})
    return bag


def _save(game: Game, objects: list[dict]) -> dict:
    """A saved object's file: TTS's SaveState with the objects (no date: the same content, the same bytes)."""
    return {"SaveName": game.label, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "",
            "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}


__all__ = ["card_pixels", "export_tts", "grid"]
