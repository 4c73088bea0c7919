"""Where content may point: ids that become file names, and the files a game may read.

A game folder may come from anyone (a zip from a forum, someone's repository).
pnpgen reads only that game, the add-ons composed into it and its own
``templates/``, and writes only under ``--out``. Two rules keep it so, applied
where paths are made:

* an id that becomes a file name (a game, deck, component or board id, a layout
  name) is a plain name: no folder separators, no ``..``, nothing hidden, no control
  characters (``plain_name``);
* every file read is resolved, symbolic links included, and must lie inside one of
  the allowed folders (``inside``): a link in a game folder cannot reach out of it.

Both raise a ContentError at the line that named the path (exit 2). This module
imports nothing from load, layout or the writers, so any of them may use it.
"""
from __future__ import annotations

import os
import stat
import unicodedata
from pathlib import Path

from generator import TEMPLATES_DIR, limits
from generator.errors import ContentError, Source
from generator.limits import MAX_ID_BYTES

#: bytes of one file or folder name (each part of a path) on the file systems pnpgen runs on
MAX_NAME_BYTES = 255
#: punctuation a plain name may hold besides letters and digits (any script)
NAME_PUNCTUATION = "-_.+"
NAME_HINT = "use letters, digits, '-', '_', '.' and '+' only (e.g. train-cards): it becomes a file name"
#: names Windows keeps for devices, whatever follows a dot ("con.pdf" is the console too): a player or a print shop
#: on Windows can neither unzip nor copy a file so named
WINDOWS_DEVICES = frozenset({"con", "prn", "aux", "nul", *(f"{port}{digit}" for port in ("com", "lpt")
                                                            for digit in "123456789\u00b9\u00b2\u00b3")})


def plain_name(name, src: Source | None, what: str, hint: str = NAME_HINT) -> str:
    """``name`` as text if it can be a file name in OUT/<game>/ on any system; else a ContentError at ``src``.

    ``what`` says what the name is ("deck id", "layout name") for the message.
    """
    text = str(name)
    problem = name_problem(text)
    if problem:
        raise ContentError(src, f"{what} '{_shown(text)}' cannot be used as a file name: {problem}", hint)
    return text


def name_problem(text: str) -> str | None:
    """Why ``text`` is not a plain name, or None when it is one."""
    if not text:
        return "it is empty"
    if len(text.encode("utf-8")) > MAX_ID_BYTES:
        return f"it is longer than {MAX_ID_BYTES} bytes (limits.MAX_ID_BYTES)"
    separator = next((char for char in text if char in "/\\"), None)
    if separator:
        return f"it contains '{separator}' (a folder separator)"
    if text.startswith("."):
        return "it starts with '.' (a hidden file, or a way up with '..')"
    if text.endswith("."):
        return "it ends with '.' (Windows drops a name's last dots: the folder or file would be another's)"
    if text.split(".", 1)[0].casefold() in WINDOWS_DEVICES:
        return (f"'{text.split('.', 1)[0]}' is a device's name on Windows (con, prn, aux, nul, com1-9, lpt1-9), "
                f"whatever follows a dot: a file so named cannot be made or unzipped there")
    for char in text:
        if char in NAME_PUNCTUATION or unicodedata.category(char)[0] in "LNM":
            continue
        if unicodedata.category(char)[0] == "C":
            return f"it contains the control character U+{ord(char):04X}"
        return f"it contains '{char}'"
    return None


def folded(name: str) -> str:
    """``name`` as a file system that tells neither case nor Unicode normalisation apart compares it (macOS, Windows:
    'Trains.pdf' and 'trains.pdf', 'café' written with é or with e and an accent, are one file there)."""
    return unicodedata.normalize("NFC", name).casefold()


def _shown(text: str) -> str:
    """A name as it may be printed: control characters spelt out, very long names cut."""
    shown = "".join(f"\\u{ord(c):04x}" if unicodedata.category(c)[0] == "C" else c for c in text)
    return shown if len(shown) <= 80 else shown[:77] + "…"


def resolved(path: Path, src: Source | None) -> Path:
    """``path`` with every symbolic link followed; a loop of links is a ContentError at ``src``."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # RuntimeError: "Symlink loop" before Python 3.13
        raise ContentError(src, f"'{path}' cannot be resolved (a loop of symbolic links?)",
                           "replace the links by the files themselves") from None


def is_inside(path: Path, roots) -> bool:
    """Whether ``path`` (already resolved) is one of ``roots`` or lies below one (each resolved here)."""
    return any(path.is_relative_to(resolved(root, None)) for root in roots)


def inside(path: Path, roots, src: Source | None, name=None) -> Path:
    """``path`` resolved (symbolic links followed), if it lies inside one of ``roots``; else a
    ContentError at ``src``, the line that named it (``name``: how it was written there)."""
    long_names(path, src, name)
    real = resolved(path, src)
    if not is_inside(real, roots):
        shown = name if name is not None else path
        raise ContentError(src, f"'{shown}' is outside the game folder (it leads to {real})",
                           "a game may only read files inside its own folder, its add-ons' and pnpgen's "
                           "templates/: copy the file into the game folder instead of naming or linking "
                           "to a file elsewhere")
    not_a_file(real, src, name if name is not None else path)
    unseen = _not_content(real, roots)
    if unseen:
        shown = name if name is not None else path
        raise ContentError(src, f"'{_shown(str(shown))}' is {unseen}: not the game's content (the build cache and "
                                f"the game's stamp do not read it, so a change to it would not be seen)",
                           "move the file to a folder of the game whose name does not start with '.', "
                           "outside output/")
    return real


#: what a path that is there but is neither a regular file nor a folder may be, by ``stat`` mode test
_SPECIAL = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"))


def special_kind(path) -> str | None:
    """What ``path`` is (links followed) when it is there but is neither a regular file nor a folder ("a named
    pipe (FIFO)", "a socket", a device), else None. Asked with ``stat``, which does not open it: opening a named
    pipe waits for a writer forever, and ``Path.is_file()`` is False for one, so a reader that only asks that
    would call it missing or pass it over."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return next((what for test, what in _SPECIAL if test(mode)), None)


def not_a_file(path, src: Source | None, name=None, folder_too: bool = False, what: str = "") -> None:
    """A ContentError at ``src`` when ``path`` is there but is not a regular file: a named pipe, a socket, a
    device, or (``folder_too``, for a reader that wants a file) a folder. Nothing is opened to find out.
    ``what`` names the file's role in the message ("picture", "font file")."""
    kind = special_kind(path)
    if kind is None and folder_too and os.path.isdir(path):
        kind = "a folder"
    if kind is not None:
        shown = name if name is not None else path
        raise ContentError(src, f"{what + ' ' if what else ''}'{_shown(str(shown))}' is {kind}, not a regular file",
                           "pnpgen reads only regular files (or links to one inside the game): replace it by the "
                           "file itself (reading a named pipe or a device could wait forever)")


def _not_content(real: Path, roots) -> str | None:
    """Why a resolved file inside ``roots`` is not content (``content_files`` leaves it out), or None: a hidden
    file or folder below the root, or the ``output/`` folder at a game's top."""
    for root in roots:
        top = resolved(root, None)
        if real.is_relative_to(top):
            parts = real.relative_to(top).parts
            if any(part.startswith(".") for part in parts):
                return "hidden (a file or folder name below the game folder starts with '.')"
            if len(parts) > 1 and parts[0] in NOT_CONTENT and top != resolved(TEMPLATES_DIR, None):
                return f"in the game's {parts[0]}/ folder, where builds write"
            return None
    return None


def long_names(path: Path, src: Source | None, name=None) -> None:
    """A ContentError at ``src`` when a part of ``path`` is longer than a file system allows (255 bytes): asking
    the file system about it raises ENAMETOOLONG, which pathlib's ``exists()`` and ``is_file()`` pass on."""
    for part in Path(path).parts:
        if len(part.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES:
            shown = name if name is not None else path
            raise ContentError(src, f"'{_shown(str(shown))}' has a file or folder name longer than {MAX_NAME_BYTES} "
                                    f"bytes", "file systems stop at 255 bytes a name: shorten it")


def folder_name(folder: Path) -> str:
    """The name a folder is known by, even when given as '.' or 'mygame/..' (links are not followed,
    so a linked game keeps the name it was given)."""
    return Path(os.path.abspath(folder)).name


def game_roots(game) -> tuple[Path, ...]:
    """The folders a game's files may come from: its own, its add-ons' and pnpgen's templates."""
    return (Path(game.folder), *(Path(addon.folder) for addon in getattr(game, "addons", ())), TEMPLATES_DIR)


def declaring_folder(src: Source, folders) -> Path:
    """The folder (the game's or an add-on's, of ``folders``) whose file holds the line ``src``: a path
    written there is relative to that folder, as a designer reads it; the first folder if none holds it."""
    if src.file is not None:
        real = resolved(src.file, src)
        for folder in folders:
            if is_inside(real, (folder,)):
                return Path(folder)
    return Path(folders[0])


#: folders directly in a game folder that are never content: what ``pnpgen build .`` (``output/``) writes there
NOT_CONTENT = ("output",)


def content_files(folder: Path) -> list[Path]:
    """The game folder's content files in a stable order (by path relative to it, '/'-separated): every file
    in it and its subfolders — YAML, layouts, rules, spreadsheets, artwork, fonts — except ``output/`` (the
    next build must not hash what the last one wrote there) and hidden files (.git, .DS_Store …). Links to
    folders are not followed and a link that leads out of the game is not its content; after
    ``limits.MAX_CONTENT_FILES`` files the rest are left out (a folder that large is not a game's)."""
    files: list[Path] = []
    for root, dirs, names in os.walk(folder, followlinks=False):
        here = Path(root)
        top = here == folder
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not (top and d in NOT_CONTENT))
        for name in sorted(names):
            path = here / name
            if name.startswith(".") or not path.is_file() or not is_inside(path.resolve(), (folder,)):
                continue
            files.append(path)
            if len(files) >= limits.MAX_CONTENT_FILES:
                return sorted(files, key=lambda p: p.relative_to(folder).as_posix())
    return sorted(files, key=lambda p: p.relative_to(folder).as_posix())
