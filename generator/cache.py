"""The build cache: results kept under the hash of everything that made them.

A key is a sha256 over pnpgen itself (its source files, bundled fonts and templates, and the
installed libraries' versions), the content folders byte for byte, and the options. Anything that
changes a result changes its key, so a cached result is never stale; what no key is known for (a
folder past ``limits.MAX_CONTENT_FILES``) is not cached at all.

Where: ``$PNPGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/pnpgen``, else ``~/.cache/pnpgen``;
``PNPGEN_CACHE_DIR=off`` (or ``--no-cache``) turns it off. The cache is only ever read as data
(JSON and copied files), never executed, and each game's part of it holds the files of its last
build only, so it grows with the games, not with the number of builds.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from generator import TEMPLATES_DIR, __version__, limits
from generator.paths import content_files, is_inside

ENV = "PNPGEN_CACHE_DIR"
#: files of pnpgen past this size (fonts) are known by size and modification time, not read every run
_LARGE = 1 << 20


def cache_root() -> Path | None:
    """The cache folder, or None when the cache is off."""
    chosen = os.environ.get(ENV, "").strip()
    if chosen.lower() in ("off", "0", "no", "false"):
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pnpgen"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """What pnpgen is: its own files (source, fonts, schema) and its templates (``TEMPLATES_DIR``: shared layouts,
    catalogues), Python's version and every installed distribution's name and version (ReportLab, fontTools …
    change output too)."""
    digest = hashlib.sha256(f"{__version__}\0{sys.version}\0".encode())
    package = Path(__file__).resolve().parent
    templates = Path(TEMPLATES_DIR).resolve()
    # the templates (shared layouts, catalogues, starters) are inside the package once installed, beside it in a clone
    for n, folder in enumerate([package] if is_inside(templates, (package,)) else [package, templates]):
        for path in sorted(folder.rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            info = path.stat()
            digest.update(f"{n}/{path.relative_to(folder).as_posix()}\0".encode())
            if info.st_size > _LARGE:
                digest.update(f"{info.st_size}:{info.st_mtime_ns}".encode())
            else:
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    for entry in sys.path:
        if not entry or not entry.rstrip("/").endswith(("site-packages", "dist-packages")):
            continue   # the script's or the working folder (python -m) is not where libraries are installed
        try:
            names = sorted(n for n in os.listdir(entry) if n.endswith(".dist-info"))
        except OSError:
            continue
        digest.update("\0".join(names).encode())
    return digest.hexdigest()


def content_digest(folders) -> str | None:
    """sha256 over every content file of ``folders`` (``generator.paths.content_files`` names them):
    relative name and every byte (a file past MAX_CONTENT_FILE_BYTES, which no stage reads: its size). None when a
    folder is too large to know whole (past MAX_CONTENT_FILES, or MAX_HASHED_BYTES to read)."""
    digest = hashlib.sha256()
    budget = limits.MAX_HASHED_BYTES
    for n, folder in enumerate(folders):
        folder = Path(folder)
        if not folder.is_dir():
            return None
        files = content_files(folder)
        if len(files) >= limits.MAX_CONTENT_FILES:
            return None
        for path in files:
            digest.update(f"{n}/{path.relative_to(folder).as_posix()}\0".encode())
            try:
                size = path.stat().st_size
                if size > limits.MAX_CONTENT_FILE_BYTES:   # never read, only refused by its size: the size stands for it
                    digest.update(b"size" + size.to_bytes(8, "big"))
                    continue
                budget -= size
                if budget < 0:   # too much to read on every run (a 20 GB sparse file in a tar): not cached
                    return None
                with path.open("rb") as stream:
                    file_digest = hashlib.file_digest(stream, "sha256")
            except OSError:
                return None
            digest.update(file_digest.digest())
    return digest.hexdigest()


def key(*parts) -> str:
    """A cache key: sha256 over pnpgen's digest and ``parts`` (JSON-able)."""
    text = json.dumps([code_digest(), *parts], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class GameCache:
    """One game's part of the cache (a folder per game folder + add-ons + output root)."""

    def __init__(self, root: Path, *identity):
        name = hashlib.sha256(json.dumps([str(p) for p in identity]).encode()).hexdigest()[:24]
        self.folder = root / "games" / name
        self.files = self.folder / "files"
        self.used: set[str] = set()

    def read(self, name: str) -> dict | None:
        """A record written by ``write``, or None (missing, unreadable, or not a record)."""
        try:
            data = json.loads((self.folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def write(self, name: str, data: dict) -> None:
        """Write a record whole or not at all; a cache that cannot be written is simply not kept."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=self.folder, delete=False,
                                             prefix=".tmp-") as stream:
                json.dump(data, stream, ensure_ascii=False, sort_keys=True)
            os.replace(stream.name, self.folder / name)
        except OSError:
            return

    def fetch(self, file_key: str, target: Path) -> bool:
        """Copy the file kept under ``file_key`` to ``target``; False if there is none."""
        self.used.add(file_key)
        source = self.files / file_key
        try:
            shutil.copyfile(source, target)
        except OSError:
            target.unlink(missing_ok=True)
            return False
        return True

    def keep(self, file_key: str, written: Path) -> None:
        """Keep a copy of the file just written under ``file_key``."""
        self.used.add(file_key)
        try:
            self.files.mkdir(parents=True, exist_ok=True)
            temporary = self.files / f".tmp-{file_key}"
            shutil.copyfile(written, temporary)
            os.replace(temporary, self.files / file_key)
        except OSError:
            return

    def prune(self) -> None:
        """Drop the files the last build did not use: the cache holds one build's files per game."""
        try:
            entries = list(self.files.iterdir())
        except OSError:
            return
        for entry in entries:
            if entry.name not in self.used and is_inside(entry.resolve(), (self.files.resolve(),)):
                entry.unlink(missing_ok=True)


def folder_state(folder: Path) -> dict[str, list[int]] | None:
    """Every file under ``folder``: relative name → [size, modification time]; None if it cannot be read."""
    state: dict[str, list[int]] = {}
    try:
        for root, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                info = os.stat(os.path.join(root, name))
                state[Path(root, name).relative_to(folder).as_posix()] = [info.st_size, info.st_mtime_ns]
    except OSError:
        return None
    return state


# ---------------------------------------------------------------- derived facts

#: facts kept per kind (the most recently written): one per palette or map a designer tried lately
DERIVED_KEPT = 32
#: a record of derived facts larger than this is not read (the cache is the user's, but read as untrusted data)
DERIVED_MAX_BYTES = 4 * 1024 * 1024


def _derived_file(kind: str, parts) -> Path | None:
    root = cache_root()
    return None if root is None else root / "derived" / kind / f"{key(kind, parts)}.json"


def recall_derived(kind: str, parts) -> dict | None:
    """Facts derived from ``parts`` alone (a palette's colour-blind views, a map's shortest paths) and kept by
    ``keep_derived`` in an earlier run, or None: none kept, the cache off, or not a record. They let a check of
    an edited game skip a library whose answer for the same input is known (numpy 0.1 s to import, rustworkx
    0.01 s). The caller checks the record's shape before it trusts it."""
    path = _derived_file(kind, parts)
    if path is None:
        return None
    try:
        if path.stat().st_size > DERIVED_MAX_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def keep_derived(kind: str, parts, data: dict) -> None:
    """Keep ``data`` (JSON) as what ``parts`` give for ``kind``, whole or not at all; the kind's oldest records
    past DERIVED_KEPT are dropped, so the folder stays small however many maps are tried."""
    path = _derived_file(kind, parts)
    if path is None:
        return
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    if len(text.encode("utf-8")) > DERIVED_MAX_BYTES:
        return   # it would not be read back: a huge map's every pair is worked out again, as without a cache
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False,
                                         prefix=".tmp-") as stream:
            stream.write(text)
        os.replace(stream.name, path)
        records = sorted(path.parent.glob("*.json"), key=lambda p: (p == path, p.stat().st_mtime_ns, p.name),
                         reverse=True)   # newest first, the one just written before all
        for old in records[DERIVED_KEPT:]:
            old.unlink(missing_ok=True)
    except OSError:
        return
