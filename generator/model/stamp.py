"""The stamp printed in the outer margin of every home-printer sheet: which content a sheet came from.

``Ticket to Ride Germany · v1.2 · 2026-11-22 · 3fa9c1e``: the game's title, its
``game: version:``, a date (``SOURCE_DATE_EPOCH`` when set, else ``game: date:``,
else none: file times change on checkout, so they never decide it) and the first
7 hex digits of a sha256 over the game's content files (every
file of its folder but output/ and hidden ones: YAML, layouts, rules, spreadsheets, art, fonts). The same content gives
the same stamp, so rebuilds stay byte-identical; any changed byte changes it.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path

from generator import limits
from generator.model.words import Words
from generator.paths import content_files

HASH_DIGITS = 7


def content_hash(folders: Iterable[Path]) -> str:
    """sha256 over each folder's content files (relative name and bytes, length-prefixed), first 7 hex."""
    digest = hashlib.sha256()
    budget = limits.MAX_HASHED_BYTES
    for n, folder in enumerate(folders):
        for path in content_files(folder):
            name = f"{n}/{path.relative_to(folder).as_posix()}".encode()
            digest.update(len(name).to_bytes(8, "big") + name)
            try:
                size = path.stat().st_size
                # no content file is this large (artwork, a video), or the folder was read far enough (5,000 sparse
                # files of 4 MB: 20 GB): its size stands for it
                if size > limits.MAX_FILE_BYTES or size > budget:
                    digest.update(b"size" + size.to_bytes(8, "big"))
                    continue
                budget -= size
                with path.open("rb") as stream:
                    digest.update(len(data := stream.read(limits.MAX_FILE_BYTES)).to_bytes(8, "big") + data)
            except OSError:  # the stage that reads this file says what is wrong with it; the stamp says nothing
                digest.update((0).to_bytes(8, "big"))
    return digest.hexdigest()[:HASH_DIGITS]


def build_date(meta_date: str | None, environ: Mapping[str, str] | None = None) -> str:
    """``SOURCE_DATE_EPOCH`` (seconds since 1970, UTC) as YYYY-MM-DD when set, else ``game: date:``, else ""."""
    environ = os.environ if environ is None else environ
    epoch = environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        try:
            return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%d")
        except (ValueError, OverflowError, OSError):
            pass  # not a number of seconds: ignored, as reproducible-builds tools do
    return str(meta_date) if meta_date else ""


def stamp_text(title: str, version: str, date: str, digest: str, words: Words) -> str:
    """The stamp's words: the parts that are known, joined by the catalogue's ``stamp.sep``."""
    parts = [title, words("stamp.version", version=version) if version else "", date, digest]
    return words["stamp.sep"].join(part for part in parts if part)
