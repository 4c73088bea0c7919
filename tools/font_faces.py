"""Write generator/fonts/<file>.face: each bundled font as ReportLab's face reads it, kept to read back.

A build registers pnpgen's two faces with ReportLab, and reading them (``generator.fontparse.Face.extractInfo``:
the cmap, the widths, the metrics, the glyph offsets) took ~0.04 s of every build; their parse is the same every
time, so it is written once here (``fontparse.snapshot``, marshal) and read back in about a millisecond
(``fontparse.restored``). A snapshot is used only for the font it was made of (the same size and table
directory, which holds every table's checksum); a font swapped without running this again is parsed as before.
A game's own fonts are always parsed. tests/test_startup3.py fails when a file is not current.

    python tools/font_faces.py            # write them
    python tools/font_faces.py --check    # exit 1 if one is not current
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator import fontparse, fonts  # noqa: E402


def snapshots() -> dict[Path, bytes]:
    """Each bundled font's snapshot file and the bytes it should hold."""
    out = {}
    for path in (fonts.FONT_FILE, fonts.BOLD_FILE):
        face = fontparse.Face(str(path), path.read_bytes())
        out[fonts.snapshot_file(path)] = fontparse.snapshot(face)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is not current")
    args = parser.parse_args()
    stale = 0
    for file, data in snapshots().items():
        if args.check:
            current = file.is_file() and file.read_bytes() == data
            stale += not current
            print(f"{file.relative_to(ROOT)}: " + ("current" if current else "stale: run python tools/font_faces.py"))
        else:
            file.write_bytes(data)
            print(f"wrote {file.relative_to(ROOT)} ({len(data):,} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
