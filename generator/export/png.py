"""``pnpgen export png``: one PNG per distinct face and back, at exact pixel sizes, and a manifest.

Files: ``<deck or component>/<NNN>-<slug>.png`` (NNN numbers the distinct faces in content
order, as the build's svg/ folder does; the slug is the card's values in ASCII, for people),
``<deck>/back.png``, ``board-<id>.png``; ``manifest.json`` says for each image its size and how
many copies are printed (a face shared by twelve cards is one image, count 12).
Size: round(mm / 25.4 × dpi) on each side, the trim size with ``--trim``, trim plus the bleed
otherwise (44 × 68 mm + 3 mm bleed at 300 dpi: 591 × 874 px). ``--preset`` (``generator.export.shops``): the shop's
dpi, and each deck drawn again with the shop's bleed at its product's exact pixels (MakePlayingCards poker:
822 × 1122 px); a deck of a size the shop does not make is refused.
"""
from __future__ import annotations

import json
from pathlib import Path

from generator.export import ExportResult, export_folder
from generator.export.faces import Face, Set, export_sets
from generator.export.raster import Shot, check_size, render_images, save_png
from generator.export.shops import PRESETS, Preset, Product, product_for, safe_notes, shop_products
from generator.model.game import Game
from generator.writers import Progress

MANIFEST = "manifest.json"


def export_png(game: Game, out_root: Path, dpi: float = 300, trim: bool = False, board_dpi: float = 100,
               preset: str | None = None, progress: Progress | None = None, force: bool = False) -> ExportResult:
    """Render every distinct face (and back, and board) into ``OUT/<game>-png/``; the checks have run."""
    progress = progress or Progress()
    shop = PRESETS[preset] if preset else None
    if shop is not None:
        dpi, trim = shop.dpi, False
        shop_products(game, shop)   # every deck one of the shop's sizes, or refused before anything is drawn
    sets = export_sets(game, force, shop.bleed if shop is not None else None, progress)
    plan = [(s, face, _shot(s, face, dpi, trim, board_dpi, shop)) for s in sets for face in _images(s)]
    for s, face, shot in plan:
        check_size(shot, f"{s.id}: {face.name}")
    progress.start(game, len(plan))
    with export_folder(game, out_root, f"{game.id}-png") as staging:
        images = render_images([shot for _, _, shot in plan], f"{game.label} — PNG export",
                               lambda i: progress.step(_file(plan[i][0], plan[i][1])))
        for (s, face, shot), image in zip(plan, images):
            path = staging / _file(s, face)
            path.parent.mkdir(parents=True, exist_ok=True)
            save_png(image, path, shot.dpi)
        manifest = _manifest(game, sets, plan, dpi, trim, board_dpi, shop)
        (staging / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    progress.done()
    folder = Path(out_root) / f"{game.id}-png"
    result = ExportResult(folder)
    for s in sets:
        result.lines.append((f"board-{s.id}.png" if s.kind == "board" else f"{s.id}/", len(_images(s)),
                             f"{s.kind}, {s.printed} printed"))
    result.lines.append((MANIFEST, 1, "what each image is and how many are printed"))
    if shop is not None:
        result.notes = safe_notes(game, shop)
    return result


def _images(s: Set) -> list[Face]:
    return [*s.faces, s.back] if s.back is not None else list(s.faces)


def _file(s: Set, face: Face) -> str:
    return f"{face.name}.png" if s.kind == "board" else f"{s.id}/{face.name}.png"


def _shot(s: Set, face: Face, dpi: float, trim: bool, board_dpi: float, shop: Preset | None) -> Shot:
    if s.kind == "board":
        return Shot(face.form, face.box(s.size, 0.0, True), board_dpi)
    box = face.box(s.size, s.bleed, trim)
    if shop is None:
        return Shot(face.form, box, dpi)
    return Shot(face.form, box, shop.dpi, _shop_size(s, shop))


def _shop_size(s: Set, shop: Preset) -> tuple[int, int] | None:
    """The shop product's pixel size for a deck (drawn with the shop's bleed; a trim within PRESET_TOLERANCE of the
    product's is scaled by well under 1 % to fill it); None for tokens, tiles and boards (their own size)."""
    product = _product(s, shop)
    return product.pixels if product is not None else None


def _product(s: Set, shop: Preset) -> Product | None:
    return product_for(s.size, shop) if s.kind == "deck" else None


def _manifest(game: Game, sets: list[Set], plan: list, dpi: float, trim: bool, board_dpi: float,
              shop: Preset | None) -> dict:
    shots = {(s.id, face.name): shot for s, face, shot in plan}
    out: dict = {"game": game.id, "dpi": dpi, "cut": "trim" if trim else "bleed", "board_dpi": board_dpi}
    if shop is not None:
        out["preset"] = shop.name
    out["sets"] = []
    for s in sets:
        entry: dict = {"id": s.id, "kind": s.kind, "label": s.label, "trim_mm": list(s.size), "bleed_mm": s.bleed,
                       "printed": s.printed}
        if shop is not None and s.kind == "deck":
            product = _product(s, shop)
            entry["product"] = product.name if product is not None else None
        entry["faces"] = [_face_entry(s, face, shots[(s.id, face.name)]) for face in s.faces]
        if s.back is not None:
            entry["back"] = _face_entry(s, s.back, shots[(s.id, s.back.name)])
        out["sets"].append(entry)
    return out


def _face_entry(s: Set, face: Face, shot: Shot) -> dict:
    width, height = shot.pixel_size
    return {"file": _file(s, face), "pixels": [width, height], "count": face.count, "cards": face.cards}

