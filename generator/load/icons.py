"""A game's own icons (``icons: {ferry: art/ferry.svg}``): files text shows inline as ``:ferry:``.

Each file is relative to the folder of the game or add-on that declares it, and stays inside the
game's files (its folder or an add-on's, links followed: ``generator.paths``),
bounded in size, and known by the sha256 of its bytes, which the ``Image`` primitives that draw it
carry (one embedded picture per file; a face's hash changes when its icon does).
"""
from __future__ import annotations

from pathlib import Path

from generator.errors import ContentError, Source
from generator.layout import images
from generator.limits import MAX_FILE_BYTES
from generator.paths import declaring_folder, game_roots, inside, not_a_file

SUFFIXES = (".svg", ".png", ".jpg", ".jpeg")


def load_icons(game) -> dict[str, tuple[str, str]]:
    """name → (absolute path, sha256 hex) for every icon the game declares, in content order."""
    icons: dict[str, tuple[str, str]] = {}
    for name, (value, src) in game.sections.get("icons", {}).items():
        icons[str(name)] = icon_file(game, str(value), src)
    return icons


def icon_file(game, name: str, src: Source) -> tuple[str, str]:
    """The icon file ``name``, relative to the folder of the game or add-on whose file declares it."""
    folders = [Path(game.folder), *(Path(addon.folder) for addon in getattr(game, "addons", ()))]
    path = declaring_folder(src, folders) / name
    if path.suffix.lower() not in SUFFIXES:
        raise ContentError(src, f"icon file '{name}' is not an SVG, PNG or JPEG file",
                           "give a file ending in .svg (drawn as vectors), .png or .jpg")
    real = inside(path, game_roots(game), src, name)
    not_a_file(real, src, name, folder_too=True, what="icon file")
    if not real.is_file():
        raise ContentError(src, f"no icon file '{name}' in the game folder",
                           "check the path: it is relative to the folder of the file that declares it (e.g. art/ferry.svg)")
    if real.stat().st_size > MAX_FILE_BYTES:
        raise ContentError(src, f"icon file '{name}' is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB "
                                f"(limits.MAX_FILE_BYTES)", "an icon is small: simplify or shrink the file")
    # read as every picture is (generator.layout.images): a malformed file is an error here, at its line
    picture = images.read(real, src, name)
    return picture.path, picture.digest
