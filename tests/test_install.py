"""A real install works outside the clone: the wheel carries the templates, and nothing is read from the clone.

The wheel is built from this checkout (``pip wheel``, no network: the build backend comes
from pip's usual sources), installed with ``pip install --target`` into a folder of its own,
and run from a folder far from the clone on a copy of a bundled game, the test's venv
supplying the dependencies. An audit hook in that process records every file opened or
folder listed under the clone (the venv's own files aside): there must be none.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CLONE = Path(__file__).resolve().parents[1]
GAME = "ttr-new-york"  # cards on the shipped layouts, the shipped rule templates, a board: a quick build (~2 s)

#: run in the installed copy: the pnpgen command line, with an audit hook that notes what it reads
DRIVER = """
import atexit, json, os, sys
clone, report = sys.argv.pop(1), sys.argv.pop(1)
opened, listed = set(), set()
def audit(event, args):
    if event in ("open", "os.listdir", "os.scandir") and args and isinstance(args[0], (str, bytes, os.PathLike)):
        (opened if event == "open" else listed).add(os.fsdecode(args[0]))
sys.addaudithook(audit)
import generator
def write_report():
    real = lambda paths: sorted({os.path.realpath(p) for p in paths})
    with open(report, "w", encoding="utf-8") as f:
        json.dump({"generator": generator.__file__, "templates": str(generator.TEMPLATES_DIR),
                   "venv": os.path.realpath(sys.prefix), "sys.path": real(p for p in sys.path if p),
                   "opened": real(opened), "listed": real(listed)}, f)
atexit.register(write_report)
from generator.cli import main; main()
"""


def _under(path: str, folder: Path | str) -> bool:
    return Path(path).is_relative_to(folder)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The wheel built from this checkout, installed (no dependencies) into a folder of its own."""
    work = tmp_path_factory.mktemp("install")
    assert not _under(str(work), CLONE), "the temporary folder must lie outside the clone"
    wheels, site = work / "wheels", work / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(CLONE)], check=True, cwd=work)
    [wheel] = wheels.glob("pnpgen-*.whl")
    subprocess.run([*pip, "install", "--no-deps", "--no-index", "--target", str(site), str(wheel)], check=True,
                   cwd=work)
    return site


def test_wheel_carries_templates_fonts_and_schema(site):
    package = site / "generator"
    for shipped in ("templates/palette.yaml", "templates/layouts/ttr-train.yaml", "templates/rules/rules.html.j2",
                    "fonts/ipaexg.ttf", "fonts/BIZUDPGothic-Bold.ttf", "fonts/OFL-BIZUDGothic.txt",
                    "schema/game.schema.json"):
        assert (package / shipped).is_file(), f"the wheel lacks generator/{shipped}"
    # the whole templates/ tree travels, whatever folders it holds
    in_clone = {p.relative_to(CLONE / "templates") for p in (CLONE / "templates").rglob("*") if p.is_file()}
    in_wheel = {p.relative_to(package / "templates") for p in (package / "templates").rglob("*") if p.is_file()}
    assert in_clone <= in_wheel


def test_installed_wheel_builds_a_game_outside_the_clone(site, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    game = elsewhere / "games" / GAME
    shutil.copytree(CLONE / "content" / GAME, game)
    report = elsewhere / "report.json"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = str(site)
    result = subprocess.run([sys.executable, "-c", DRIVER, str(CLONE), str(report), "build", str(game), "--out", "out"],
                            cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(report.read_text(encoding="utf-8"))

    assert _under(seen["generator"], site), f"imported {seen['generator']}, not the installed copy"
    assert _under(seen["templates"], site / "generator" / "templates")
    assert any(_under(p, site / "generator" / "templates" / "layouts") for p in seen["opened"])
    # the import system lists every folder on sys.path (the test venv's editable install puts the clone there),
    # and the venv may sit in the clone (.venv): neither is pnpgen reading the clone
    read = set(seen["opened"]) | (set(seen["listed"]) - set(seen["sys.path"]))
    from_clone = sorted(p for p in read if _under(p, CLONE.resolve()) and not _under(p, seen["venv"]))
    assert from_clone == [], "the installed pnpgen read files in the clone"

    out = elsewhere / "out" / GAME
    for pdf in (f"{GAME}-print-and-play.pdf", f"{GAME}-rules.pdf", "tickets.pdf"):
        assert (out / pdf).stat().st_size > 0


def test_installed_wheel_makes_and_builds_a_new_game_outside_the_clone(site, tmp_path):
    """`pnpgen new` takes its starter from the installed templates, and that game builds with no Japanese
    word in its English PDFs' text (the words come from the installed catalogue)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = str(site)
    for command in (["new", "demo", "--language", "en"], ["check", "demo"], ["build", "demo", "--out", "out"]):
        report = elsewhere / f"report-{command[0]}.json"
        result = subprocess.run([sys.executable, "-c", DRIVER, str(CLONE), str(report), *command],
                                cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, (command, result.stdout, result.stderr)
        seen = json.loads(report.read_text(encoding="utf-8"))
        read = set(seen["opened"]) | (set(seen["listed"]) - set(seen["sys.path"]))  # as in the test above
        from_clone = sorted(p for p in read if _under(p, CLONE.resolve()) and not _under(p, seen["venv"]))
        assert from_clone == [], f"pnpgen {command[0]} read files in the clone: {from_clone[:5]}"
    from pypdf import PdfReader
    pdfs = sorted((elsewhere / "out" / "demo").glob("*.pdf"))
    assert pdfs
    text = "".join(page.extract_text() or "" for pdf in pdfs for page in PdfReader(pdf).pages)
    japanese = [c for c in text if "\u3040" <= c <= "\u30ff" or "\u4e00" <= c <= "\u9fff"]
    assert not japanese, f"Japanese in an English game's PDFs: {''.join(sorted(set(japanese)))[:40]}"
