"""Exports: the game for other tools — its faces as images (``pnpgen export png``, ``pnpgen export tts``)
and its tables as spreadsheets (``pnpgen export csv``, ``generator.export.tables``).

An export reads the faces the build lays out (``generator.export.faces``), renders them
through the build's PDF renderer and PDFium (``generator.export.raster``), and writes
them into a folder of its own beside the build's, ``OUT/<game>-png/`` or
``OUT/<game>-tts/``, with the build's transaction (``generator.output_folder``):
staged, swapped in whole, one writer at a time, never half-written.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import OutputError, Source
from generator.export import tables, ttrme
from generator.model.game import Game
from generator.output_folder import output_lock, refuse_unsafe_target, remove_leftovers, signals_held, swap
from generator.writers import Progress


@dataclass
class ExportResult:
    """What an export wrote: its folder, and one line per kind of file (name, count, what); ``unit`` is what the
    count counts (the table's column)."""

    folder: Path
    lines: list[tuple[str, int, str]] = field(default_factory=list)
    unit: str = "images"
    notes: list[str] = field(default_factory=list)   # warnings printed after the table (a shop's safe zone)


@contextmanager
def export_folder(game: Game, out_root: Path, name: str) -> Iterator[Path]:
    """A staging folder to write into; swapped in as ``OUT/<name>`` when the block ends without error,
    removed (the previous export left as it was) when it raises."""
    out_root = Path(out_root)
    final = out_root / name
    try:
        refuse_unsafe_target(game, out_root, final)
        out_root.mkdir(parents=True, exist_ok=True)
        with output_lock(out_root, name, final):
            remove_leftovers(out_root, name)
            staging = Path(tempfile.mkdtemp(prefix=f".{name}.staging-{os.getpid()}-", dir=out_root))
            staging.chmod(0o755)  # mkdtemp makes it private; output is for people
            try:
                yield staging
                old = out_root / f".{name}.old-{staging.name[len(f'.{name}.staging-'):]}"
                with signals_held():
                    replaced = swap(staging, final, old)
                if replaced:
                    shutil.rmtree(old, ignore_errors=True)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
    except OSError as error:
        raise OutputError(Source(Path(error.filename)) if error.filename else None,
                          f"cannot write the export: {error.strerror or error}",
                          "check that the --out folder is writable and the disk has room") from None


#: data formats: name → (what it writes, for the command's help; ``write(game, out_dir) -> list[Path]``).
#: The CLI makes one ``pnpgen export <name>`` subcommand per entry: a new data format is one module
#: and one line here (images, with options of their own, have their own commands).
EXPORTERS = {
    "csv": ("each deck's cards and the game's places, routes … as CSV files, to edit in a spreadsheet "
            "and read back with {from: file.csv}", tables.write_csv),
    "ttr-map-editor": ("the map (places, routes, tickets, rules text) as a TTR Map Editor map file, <game>.json",
                       ttrme.write_map),
}

__all__ = ["EXPORTERS", "ExportResult", "Progress", "export_folder"]
