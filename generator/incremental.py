"""Builds and checks that remember: nothing changed, nothing redone.

``pnpgen build`` and ``pnpgen check`` key their result by pnpgen itself, every byte of the game's
folders (and add-ons') and the options (``generator.cache.key``). A build whose key matches the last
build into the same output folder, with that folder still exactly as the build left it (every file's
size and modification time), is not done again: its summary and findings are printed from the record.
A check whose key matches prints the recorded findings. Anything else runs as before, and a build's
files whose data the last build saw are copied from the cache instead of drawn
(``BuildContext.flush``). The cache is never a reason for other bytes: a test builds with and without it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from generator import cache
from generator.check.registry import Finding
from generator.errors import Source
from generator.model import dataclass_eq, dataclass_repr

BUILD_RECORD = "build.json"
CHECK_RECORD = "check.json"


@dataclass(repr=False, eq=False)
class RecalledFile:
    """A file (or folder) the remembered build wrote, as its summary showed it (``writers.context.Written``)."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    path: Path
    pages: int
    kind: str
    unit: str = "pages"


@dataclass(repr=False, eq=False)
class RecalledBuild:
    """What the remembered build wrote, as ``writers.context.BuildResult`` tells it: where, and the files.
    (Only plain data: recalling a build must not load the machinery that makes one.)"""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    out_dir: Path
    files: list[RecalledFile]
    findings: list[Finding]


@dataclass(repr=False, eq=False)
class Recalled:
    """A remembered result: the game's id, its findings and (for a build) what it wrote."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    game_id: str
    findings: list[Finding]
    result: RecalledBuild | None = None


class Memory:
    """What pnpgen remembers of one game folder (with its add-ons), for one output folder and set of options.

    ``enabled`` is False when the cache is off or the content cannot be known whole; then nothing is
    recalled or remembered."""

    def __init__(self, folder: Path, addons: tuple = (), out_root: Path | None = None, options: dict | None = None,
                 use_cache: bool = True):
        self.folders = [Path(folder), *(Path(a) for a in addons)]
        self.out_root = Path(os.path.abspath(out_root)) if out_root is not None else None
        root = cache.cache_root() if use_cache else None
        self.content = cache.content_digest(self.folders) if root is not None else None
        self.enabled = root is not None and self.content is not None
        self.options = {**(options or {}), "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "").strip()}
        identity = [os.path.abspath(f) for f in self.folders] + [str(self.out_root)]
        self.kept = cache.GameCache(root, *identity) if self.enabled and root is not None else None

    def _key(self, what: str, content: str | None) -> str:
        return cache.key(what, content, self.options)

    def _recalled_content(self, record: dict) -> str | None:
        """The digest, now, of every folder the recorded run read: the game's, the add-ons named on the command
        line and those its game.yaml declares (``game: with:``), which only reading it could tell."""
        folders = record.get("folders")
        if not isinstance(folders, list) or not all(isinstance(f, str) for f in folders):
            return None
        named = [os.path.abspath(f) for f in self.folders]
        if folders[:len(named)] != named:
            return None
        return cache.content_digest([Path(f) for f in folders])

    def _folders_read(self, game) -> list[str]:
        """The folders a run read: those named, then the add-ons the game declares itself, each once."""
        folders = [os.path.abspath(f) for f in self.folders]
        for addon in getattr(game, "addons", ()):
            folder = os.path.abspath(addon.folder)
            if folder not in folders:
                folders.append(folder)
        return folders

    def _record(self, what: str, game, data: dict) -> dict | None:
        """``data`` with the key and the folders read, or None if the named content changed while the run read it."""
        if cache.content_digest(self.folders) != self.content:
            return None
        folders = self._folders_read(game)
        return {**data, "folders": folders, "key": self._key(what, cache.content_digest([Path(f) for f in folders]))}

    def recall_build(self) -> Recalled | None:
        """The last build's result, if its key is this one and its output folder is as it left it."""
        if self.kept is None or self.out_root is None:
            return None
        record = self.kept.read(BUILD_RECORD)
        if record is None or record.get("key") != self._key("build", self._recalled_content(record)):
            return None
        try:
            game_id = str(record["game"])
            final = self.out_root / game_id
            if cache.folder_state(final) != record["state"]:
                return None
            files = [RecalledFile(final / w["path"], int(w["pages"]), str(w["kind"]), str(w["unit"]))
                     for w in record["files"]]
            findings = [_finding(f) for f in record["findings"]]
        except (KeyError, TypeError, ValueError):
            return None
        return Recalled(game_id, findings, RecalledBuild(final, files, findings))

    def remember_build(self, result) -> None:
        """Record a build just made (a ``writers.context.BuildResult``), only when the content did not
        change while it ran."""
        if self.kept is None:
            return
        state = cache.folder_state(result.out_dir)
        record = self._record("build", result.game, {
            "game": result.out_dir.name, "state": state,
            "files": [{"path": w.path.relative_to(result.out_dir).as_posix(), "pages": w.pages, "kind": w.kind,
                       "unit": w.unit} for w in result.files],
            "findings": [_finding_json(f) for f in result.findings],
        })
        if state is not None and record is not None:
            self.kept.write(BUILD_RECORD, record)

    def recall_check(self) -> Recalled | None:
        if self.kept is None:
            return None
        record = self.kept.read(CHECK_RECORD)
        if record is None or record.get("key") != self._key("check", self._recalled_content(record)):
            return None
        try:
            return Recalled(str(record["game"]), [_finding(f) for f in record["findings"]])
        except (KeyError, TypeError, ValueError):
            return None

    def remember_check(self, game, findings: list[Finding]) -> None:
        """Record a check just made of ``game`` (only when the content did not change while it ran)."""
        if self.kept is None:
            return
        record = self._record("check", game, {"game": game.id, "findings": [_finding_json(f) for f in findings]})
        if record is not None:
            self.kept.write(CHECK_RECORD, record)


def _finding_json(finding: Finding) -> dict:
    """A finding as the cache keeps it: its file absolute (the next run may start in another folder)."""
    source = finding.source
    return {"code": finding.code, "severity": finding.severity, "message": finding.message, "hint": finding.hint,
            "file": os.path.abspath(source.file) if source.file is not None else None,
            "line": source.line, "column": source.column, "game": finding.game, "waived": finding.waived}


def _finding(data: dict) -> Finding:
    source = Source(Path(data["file"]) if data["file"] is not None else None, data["line"], data["column"])
    return Finding(str(data["code"]), str(data["severity"]), source, str(data["message"]), data["hint"],
                   str(data["game"]), data["waived"])
