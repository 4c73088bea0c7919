"""Known, explained exceptions written in the content itself.

A finding is *waived* when the content line it points at — or the comment
block right above that line — says ``waive PNP404: why``. The explanation
stays next to the data it explains, the finding is still shown (as waived),
and it neither fails the check nor blocks the build.
"""
from __future__ import annotations

import re
from pathlib import Path

from generator.errors import ContentError
from generator.yamlsource import read_text

WAIVE = re.compile(r"#.*?\bwaive\s+((?:PNP\d{3}[\s,]*)+):?\s*(.*)$")


class Waivers:
    """Reads content files once per run and answers 'is this finding waived, and why?'."""

    def __init__(self):
        self._lines: dict[Path, list[str]] = {}

    def reason(self, code: str, file: Path | None, line: int | None) -> str | None:
        if file is None or not line:
            return None
        lines = self._lines.get(file)   # a path met before, as given: not parsed again
        if lines is None:
            lines = self._read(Path(file))
        if not 0 < line <= len(lines):
            return None
        candidates = [lines[line - 1]]
        above = line - 2
        while above >= 0 and lines[above].lstrip().startswith("#"):
            candidates.append(lines[above])
            above -= 1
        for text in candidates:
            match = WAIVE.search(text)
            if match and code in re.findall(r"PNP\d{3}", match.group(1)):
                return match.group(2).strip() or "waived in the content"
        return None

    def _read(self, path: Path) -> list[str]:
        if path not in self._lines:
            try:
                self._lines[path] = read_text(path).splitlines()
            except ContentError:  # a file that cannot be read waives nothing
                self._lines[path] = []
        return self._lines[path]
