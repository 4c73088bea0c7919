"""A game's ``fonts:`` section: families of TrueType files, checked and registered at load.

Each file is resolved from the folder of the game (or add-on) whose file declares it and
must stay inside it (``generator.paths``), or is ``package:NAME``, a font pnpgen ships.
Registering reads the file once (``generator.fonts.register_file``): a missing, oversized,
OpenType/CFF, collection, web or embedding-restricted file is a ContentError at its line, so
``check`` refuses exactly what ``build`` would.
"""
from __future__ import annotations

from pathlib import Path

from generator import FONT_DIR, fonts
from generator.errors import ContentError, Source, did_you_mean
from generator.model.game import Game
from generator.paths import declaring_folder, inside, not_a_file

STYLES = ("regular", "bold", "italic", "bold_italic")
PACKAGE = "package:"


def load_fonts(game: Game) -> dict[str, fonts.FontFamily]:
    """The families of the game's ``fonts:`` section (and its add-ons'), by name, in content order."""
    folders = [Path(game.folder), *(Path(addon.folder) for addon in game.addons)]
    families: dict[str, fonts.FontFamily] = {}
    for name, (spec, src) in game.sections.get("fonts", {}).items():
        base = declaring_folder(src, folders)
        files = {style: _font_file(base, str(spec[style]), spec.src(style)) for style in STYLES if style in spec}
        families[str(name)] = fonts.FontFamily(**files)
    return families


def _font_file(base: Path, written: str, src: Source) -> Path:
    if written.startswith(PACKAGE):
        name = written[len(PACKAGE):]
        shipped = sorted(p.name for p in FONT_DIR.glob("*.ttf"))
        if name not in shipped:
            raise ContentError(src, f"pnpgen ships no font '{name}'",
                               did_you_mean(name, shipped) or "pnpgen's own fonts: " + ", ".join(shipped))
        path = FONT_DIR / name
    else:
        path = inside(base / written, (base,), src, written)
        not_a_file(path, src, written, folder_too=True, what="font file")
        if not path.is_file():
            near = [p.relative_to(base).as_posix() for p in sorted(base.rglob("*.ttf")) if p.is_file()]
            raise ContentError(src, f"font file '{written}' does not exist",
                               did_you_mean(written, near) or "paths are relative to the game folder "
                                                              f"({base.name}/), e.g. fonts/MyFont-Regular.ttf")
    fonts.register_file(path, src)
    return path
