"""The fixed cost of a pnpgen process (issue 14): which heavy modules a command imports for a game without
spreadsheets, and the garbage collector's settings while a command runs. Each import case runs in a fresh
interpreter and reads ``sys.modules`` (and ``gc``) as the process ends."""
from __future__ import annotations

import gc
import json
import os
import subprocess
import sys

import click
import pytest

from generator import writers
from generator.cli import COMMAND_GC_THRESHOLD, LazyGroup, collect_less
from generator.layout import stamp
from generator.layout.primitives import Document, Line, Page, Rect
from tests.conftest import ROOT

PROBE = """
import atexit, gc, json, sys
state = {}
# registered first, so run last: after pnpgen's own exit handler
atexit.register(lambda: print("STATE", json.dumps({**state, "frozen_at_exit": gc.get_freeze_count() > 0})))
from generator.cli import main
try:
    main(sys.argv[1:], prog_name="pnpgen")
except SystemExit:
    state.update(modules=sorted(sys.modules), threshold=gc.get_threshold(), frozen=gc.get_freeze_count())
"""

MINI = ROOT / "tests" / "fixtures" / "mini"


def _state(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PNPGEN_CACHE_DIR": "off"})
    assert out.returncode == 0, out.stderr
    line = next(line for line in out.stdout.splitlines() if line.startswith("STATE "))
    return json.loads(line[len("STATE "):])


def _loaded(modules: list[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_version_imports_no_library_and_leaves_the_collector_as_it_was():
    state = _state("--version")
    assert not [m for m in ("click.testing", "rich", "jsonschema", "python_calamine", "reportlab", "networkx")
                if _loaded(state["modules"], m)]
    assert _loaded(state["modules"], "click")   # the probe saw what was imported
    assert state["threshold"] == list(gc.get_threshold()) and state["frozen"] == 0
    # the interpreter's last full collection walks nothing: everything is frozen as the process ends
    assert state["frozen_at_exit"]


def test_check_reads_no_spreadsheet_library_and_no_pdf_writer():
    """A check lays the game out (``check.dry``) but writes no file: ReportLab's canvas and PDF writer modules,
    pnpgen's PDF renderer and the spreadsheet reader are never imported; nor jsonschema: the files are valid, which
    the schema's generated code (``generator.load.schema_fast``) says alone."""
    state = _state("check", str(MINI))
    modules = state["modules"]
    assert "generator.check.dry" in modules and "generator.load.schema_fast" in modules   # the check ran
    assert not _loaded(modules, "jsonschema")
    assert [m for m in ("python_calamine", "reportlab.pdfgen", "generator.render.pdf", "generator.pipeline",
                        "generator.serve", "markdown_it") if _loaded(modules, m)] == []   # mini has no rules.md
    assert state["threshold"] == list(gc.get_threshold()) and state["frozen"] == 0


def test_build_writes_pdfs_without_the_spreadsheet_library(tmp_path):
    """One game named: neither the spreadsheet reader nor the machinery of a build in several processes; no
    rules.md: no Markdown parser (``load.rules.markdown_parser``, ``writers.rules._rich_text_class``)."""
    state = _state("build", str(MINI), "--no-cache", "--out", str(tmp_path))
    modules = state["modules"]
    assert "generator.render.pdf" in modules and "reportlab.pdfgen.canvas" in modules   # it wrote PDFs
    assert [m for m in ("python_calamine", "multiprocessing", "generator.pipeline_parallel", "markdown_it",
                        "rich.progress") if _loaded(modules, m)] == []   # rich's bar: for a terminal only
    assert any((tmp_path / "mini").glob("*.pdf"))
    assert state["threshold"] == list(gc.get_threshold()) and state["frozen"] == 0


def test_a_spreadsheet_imports_its_reader_when_read(tmp_path):
    """The reader is imported where a workbook is read (``sheets._book_grid``), not with ``generator.sheets``."""
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.append(["name"])
    book.active.append(["Alpha"])
    book.save(tmp_path / "extra.xlsx")
    probe = ("import sys; from pathlib import Path; from generator.errors import Source; "
             "from generator.sheets import read_sheet; before = 'python_calamine' in sys.modules; "
             "path = Path(sys.argv[1]); sheet = read_sheet(path, None, Source(path)); "
             "print(before, 'python_calamine' in sys.modules, 'Alpha' in repr(sheet))")
    out = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "extra.xlsx")], cwd=ROOT, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True", "True"]


def test_a_command_runs_with_fewer_collections_and_puts_the_collector_back():
    """``LazyGroup.main``: the young generation's threshold raised while the command runs (imports and loading
    included), put back after a normal end, an exit and an error; nothing frozen (a build freezes its own)."""
    before = gc.get_threshold()
    seen: list[tuple[int, int]] = []
    group = LazyGroup(lazy={})

    @group.command()
    @click.option("--fail", type=click.Choice(["no", "exit", "error"]), default="no")
    def probe(fail):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count()))
        if fail == "exit":
            sys.exit(3)
        if fail == "error":
            raise RuntimeError("boom")

    group.main(["probe"], standalone_mode=False)
    assert gc.get_threshold() == before
    with pytest.raises(SystemExit):
        group.main(["probe", "--fail", "exit"])
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError):
        group.main(["probe", "--fail", "error"], standalone_mode=False)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    assert seen == [(COMMAND_GC_THRESHOLD, 0)] * 3


def test_the_command_threshold_is_the_builds_and_never_lowers_a_callers():
    assert COMMAND_GC_THRESHOLD == writers.BUILD_GC_THRESHOLD
    before = gc.get_threshold()
    try:
        gc.set_threshold(50_000, *before[1:])
        with collect_less():
            assert gc.get_threshold()[0] == 50_000
        assert gc.get_threshold()[0] == 50_000
    finally:
        gc.set_threshold(*before)


def test_the_stamp_looks_at_shared_crop_marks_once_and_places_the_stamp_as_page_by_page(monkeypatch):
    """``stamp.stamped`` keeps each page item's boxes by identity: marks shared by every sheet (``layout.sheets``)
    are measured once for the document, and each page's stamp is where a page stamped alone gets it."""
    from generator.fonts import Typeset
    marks = [Line(5 + 10 * i, 2, 5 + 10 * i, 8, stroke="#000000", stroke_width=0.2) for i in range(12)]
    pages = [Page(210, 297, [*marks, Rect(20 + i, 100, 50, 80, fill="#ff0000")]) for i in range(5)]
    doc = Document("t", pages, {})
    typeset = Typeset()   # pnpgen's own face
    alone = [stamp.stamp_items(page, "stamp 1.0", {}, typeset) for page in pages]
    calls: list[object] = []
    real = stamp.item_boxes

    def counted(item, *args, **kwargs):
        calls.append(item)
        return real(item, *args, **kwargs)

    monkeypatch.setattr(stamp, "item_boxes", counted)
    done = stamp.stamped(doc, "stamp 1.0", typeset)
    assert [p.items[len(pages[i].items):] for i, p in enumerate(done.pages)] == alone
    assert sum(1 for item in calls if isinstance(item, Line)) == len(marks)   # not 5 × 12
    assert sum(1 for item in calls if isinstance(item, Rect)) == len(pages)


def test_schema_prints_the_editor_schema_without_jsonschema():
    """``pnpgen schema`` assembles the schema; the validator (and jsonschema) is made when content is validated."""
    state = _state("schema")
    assert "generator.load.schema" in state["modules"] and not _loaded(state["modules"], "jsonschema")
