"""The output folder as a transaction: staging, one build at a time, renames only.

A build writes into a fresh staging folder beside the target
(``OUT/.<game>.staging-<pid>-<random>``), swapped in only when the whole build
succeeded, so a failed or interrupted build leaves the previous output
untouched and never leaves a half-written file. One build at a time writes
``OUT/<game>``: it holds ``OUT/.<game>.lock`` (``flock``), and while holding it
removes what a killed build left (its staging and ``.old-`` folders). A target
that is a file or a symbolic link, or that would replace the game's own folder,
is refused before anything is written (``OutputError``, exit 1); so is a folder holding a file no build writes
(a game whose ``id: src`` built with ``--out ~`` would have replaced ``~/src`` and everything in it).
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import signal
import threading
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock; builds into the same folder are then not kept apart
    fcntl = None  # type: ignore[assignment]  # the module or None, tested before each use

from generator import limits
from generator.errors import OutputError, Source
from generator.model.game import Game
from generator.paths import NOT_CONTENT, game_roots, resolved


def _shown(path: Path) -> str:
    """A path as messages show it: relative to the working folder, absolute when that is the folder itself."""
    shown = str(Source(path))
    return shown if shown != "." else os.path.abspath(path)


def refuse_unsafe_target(game: Game, out_root: Path, final: Path) -> None:
    """OUT/<game> must be a folder pnpgen may replace: not a file, not a link (which would be
    followed to write elsewhere), not the game's own folder; and an --out inside the game folder
    must not be a link that a shared game folder brought, leading out of it."""
    if final.is_symlink():
        raise OutputError(None, f"{_shown(final)} is a symbolic link; pnpgen does not write through links",
                         "remove the link (the output folder is made anew), or give another --out")
    if final.exists() and not final.is_dir():
        raise OutputError(None, f"{_shown(final)} is a file, not a folder: pnpgen writes the game's output folder there",
                         "move the file away, or give another --out")
    real_final = resolved(final, None)
    for root in game_roots(game):
        real_root = resolved(root, None)
        if real_root == real_final or real_root.is_relative_to(real_final):
            raise OutputError(None, f"building into {_shown(final)} would replace {_shown(root)}, a folder the game "
                                   f"is read from", "give an --out folder of its own, e.g. --out output")
        inner = real_final.relative_to(real_root).parts if real_final.is_relative_to(real_root) else ()
        if inner and final.exists() and inner[0] not in NOT_CONTENT and not any(p.startswith(".") for p in inner):
            # `--out .` in a game folder whose id is `art`: OUT/art is the game's own art/ folder
            raise OutputError(None, f"building into {_shown(final)} would replace a folder of the game's content",
                              "give an --out folder of its own, e.g. --out output (a game folder's output/ is not "
                              "its content)")
    foreign = _not_written_by_a_build(final) if final.is_dir() else None
    if foreign is not None:
        raise OutputError(None, f"{_shown(final)} holds {foreign}, which no pnpgen build writes: building "
                                f"{game.id} replaces that folder and everything in it",
                          "give an --out folder of pnpgen's own (e.g. --out output; the game's output goes to "
                          f"OUT/{game.id}/), or move that folder away (if a build wrote it, move out what was added)")
    folder = Path(os.path.abspath(game.folder))
    if Path(os.path.abspath(out_root)).is_relative_to(folder) and not resolved(out_root, None).is_relative_to(
            resolved(folder, None)):
        raise OutputError(None, f"--out {_shown(out_root)} is inside the game folder but leads out of it "
                               f"(to {resolved(out_root, None)}) through a symbolic link",
                         "remove the link from the game folder, or give an --out outside it")


#: what a build or an export writes into its folder (PDF, CSV, SVG, the rules' HTML, the pictures SVG faces draw, PNG
#: faces, the JSON of Tabletop Simulator and of the PNG manifest), and what a file browser leaves in a folder it
#: showed: a folder holding anything else is not pnpgen's output
OUTPUT_SUFFIXES = frozenset({".pdf", ".csv", ".svg", ".html", ".png", ".jpg", ".jpeg", ".json"})
BROWSER_LITTER = frozenset({".ds_store", "thumbs.db", "desktop.ini", ".directory"})


def _not_written_by_a_build(folder: Path) -> str | None:
    """A file (or link) below ``folder`` that no build writes, as the message shows it, or None: a build replaces
    OUT/<game> whole, so a game whose id names a folder of the designer's own (``--out ~`` and ``id: src``) must not
    be built there. At most ``limits.MAX_OUTPUT_FOLDER_ENTRIES`` entries are looked at."""
    seen = 0
    for root, dirs, files in os.walk(folder):
        for name in sorted(dirs) + sorted(files):
            seen += 1
            path = Path(root) / name
            if seen > limits.MAX_OUTPUT_FOLDER_ENTRIES:
                return f"more than {limits.MAX_OUTPUT_FOLDER_ENTRIES:,} files"
            if path.is_symlink():
                return f"the link {_shown(path)}"
            if name in files and not (path.suffix.lower() in OUTPUT_SUFFIXES or name.lower() in BROWSER_LITTER
                                      or name.startswith("._")):
                return _shown(path)
    return None


@contextmanager
def output_lock(out_root: Path, game_id: str, final: Path):
    """Hold ``OUT/.<game>.lock`` while building: a second build into the same folder is refused
    at once (``OutputError``) instead of mixing its files with the first's. The lock file is removed
    when done; a build that finds it replaced after locking locks the new one instead."""
    if fcntl is None:
        yield
        return
    path = out_root / f".{game_id}.lock"
    for _attempt in range(100):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as error:
            if error.errno != errno.ELOOP:
                raise
            raise OutputError(None, f"{_shown(path)} (pnpgen's lock for {_shown(final)}) is a symbolic link",
                             "remove it; pnpgen makes its lock file itself") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OutputError(None, f"another pnpgen build is writing {_shown(final)}; wait for it to finish",
                             "run one build per output folder at a time, or give this one another --out") from None
        try:
            locked_the_file_there = os.path.samestat(os.fstat(fd), os.stat(path, follow_symlinks=False))
        except FileNotFoundError:
            locked_the_file_there = False
        if locked_the_file_there:
            break
        os.close(fd)  # the build that held it removed it just now: lock the file that is there
    else:
        raise OutputError(None, f"could not lock {_shown(path)}", "try again")
    try:
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # still locked: a build waiting on this file sees it gone and retries
        os.close(fd)


def leftover_pattern(game_id: str) -> re.Pattern:
    """The names of the folders a build of ``game_id`` makes beside its output (staging, and the
    previous output on its way out); no other game's names match, whatever its id."""
    return re.compile(rf"\.{re.escape(game_id)}\.(staging|old)-\d+-[a-z0-9_]+")


def remove_leftovers(out_root: Path, game_id: str) -> None:
    """Remove the staging and .old- folders a killed build of this game left (called holding its lock,
    so no live build owns them); links are removed, never followed."""
    pattern = leftover_pattern(game_id)
    for entry in out_root.iterdir():
        if pattern.fullmatch(entry.name):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


@contextmanager
def signals_held():
    """Hold Ctrl-C (and SIGTERM) between the swap's two renames, which would otherwise leave no
    OUT/<game> at all; a signal that came meanwhile is delivered right after."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def swap(staging: Path, final: Path, old: Path) -> bool:
    """Replace ``final`` by ``staging`` with renames only (no half-written state); whether a
    previous output was moved to ``old`` (for the caller to remove)."""
    moved = final.exists()
    if moved:
        final.rename(old)
    staging.rename(final)
    return moved
