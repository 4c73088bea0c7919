"""``pnpgen build -j N``: games built in processes of their own (generator.pipeline_parallel), reported as if
built one after another: the same files byte for byte, the same lines in the same order, the same exit status;
the first game that fails stops the rest, and Ctrl-C leaves every previous output as it was."""
from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from tests.conftest import FIXTURES, ROOT


def _games(tmp_path: Path, *names: str) -> list[str]:
    """Copies of fixture games under tmp_path (a broken one is made by the caller)."""
    for name in dict.fromkeys(names):
        shutil.copytree(FIXTURES / name, tmp_path / name)
    return [str(tmp_path / name) for name in names]


def _build(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["build", *map(str, args)], catch_exceptions=False)
    # the only difference allowed: the seconds a build took, and the --out folder named in each table
    stdout = re.sub(r" — \d+\.\d s", " — ? s", result.stdout)
    return result.exit_code, stdout, result.stderr


def _snapshot(folder: Path) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_games_built_in_parallel_are_byte_identical_and_reported_in_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    games = _games(tmp_path, "mini", "english", "check-line")
    one = _build(*games, "--out", "one", "-j", "1")
    two = _build(*games, "--out", "two", "-j", "2")
    assert one[0] == two[0] == 0
    assert one[1].replace("one/", "OUT/") == two[1].replace("two/", "OUT/")
    assert one[2] == two[2]
    assert [line.split("/")[-2] for line in two[1].splitlines() if " — ? s" in line] == ["mini", "english", "check-line"]
    assert _snapshot(tmp_path / "one") == _snapshot(tmp_path / "two")
    assert sorted(p.name for p in (tmp_path / "two").iterdir()) == ["check-line", "english", "mini"]


def test_a_bad_game_among_good_ones_is_reported_in_its_place_and_stops_the_rest(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    games = _games(tmp_path, "mini", "english", "check-line")
    (Path(games[1]) / "decks.yaml").write_text("decks: [unclosed\n", encoding="utf-8")   # cannot be read: exit 2
    one = _build(*games, "--out", "one", "-j", "1")
    three = _build(*games, "--out", "thr", "-j", "3")
    assert one[0] == three[0] == 2
    assert one[2] == three[2]
    assert "decks.yaml" in three[2]
    assert one[1].replace("one/", "OUT/") == three[1].replace("thr/", "OUT/")
    assert "mini/" in three[1] and "check-line" not in three[1]   # the good game before it, and nothing after
    assert (tmp_path / "thr" / "mini").is_dir()
    leftovers = [p.name for p in (tmp_path / "thr").iterdir() if p.name.startswith(".")]
    assert leftovers == [], "a stopped build removes its staging folder"


def test_the_same_game_named_twice_is_built_one_after_another(tmp_path):
    games = _games(tmp_path, "mini")
    code, stdout, _ = _build(games[0], games[0], "--out", tmp_path / "out", "-j", "2")
    assert code == 0
    assert stdout.count(" — ? s") == 2


def test_ctrl_c_stops_every_build_and_leaves_the_previous_outputs(tmp_path):
    # two copies of the largest game: both take seconds to write, so both are inside their builds together
    games = ("germany-a", "germany-b")
    out = tmp_path / "out"
    for game in games:
        shutil.copytree(ROOT / "content" / "ttr-germany", tmp_path / game)
        (out / game).mkdir(parents=True)
        (out / game / "previous.pdf").write_bytes(b"%PDF previous build")
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "build", *(str(tmp_path / g) for g in games),
                             "--out", str(out), "-j", "2"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while (not all(list(out.glob(f".{game}.staging-*")) for game in games)
           and proc.poll() is None and time.monotonic() < deadline):
        time.sleep(0.02)
    time.sleep(0.2)   # both well inside their builds (they take seconds)
    proc.send_signal(signal.SIGINT)   # to the command only, as a terminal's Ctrl-C reaches it (its builds are not in its group)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert stderr.splitlines()[-1] == (f"interrupted: germany-a was not built; previous output left as it was "
                                       f"in {out}/germany-a/")
    assert sorted(p.name for p in out.iterdir()) == list(games), "staging and locks removed"
    for game in games:
        assert _snapshot(out / game) == {Path("previous.pdf"): b"%PDF previous build"}
