"""pnpgen simulate --heatmap: the board's own spaces painted by claim frequency, places ringed by visits."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image as PILImage

from generator.cli import main
from generator.layout.board import plan_for_drawing
from generator.layout.primitives import Circle, Polygon, Use
from generator.load.game import load_game
from generator.simulate import heatmap, report
from generator.simulate.rules import compile_rules

ROOT = Path(__file__).resolve().parents[1]
NEW_YORK = ROOT / "content" / "ttr-new-york"


@pytest.fixture(scope="module")
def played():
    model = load_game(NEW_YORK)
    rules = compile_rules(model)
    results = report.simulate(NEW_YORK, (), ["greedy", "greedy"], 12, 3)
    return model, rules, results


def test_ramp_ends_and_middle():
    assert heatmap.heat(0.0) == heatmap.RAMP[0] and heatmap.heat(1.0) == heatmap.RAMP[-1]
    assert heatmap.heat(0.5) == heatmap.RAMP[2] and heatmap.heat(2.0) == heatmap.RAMP[-1]


def test_frequencies_count_games_not_claims(played):
    _model, rules, results = played
    tracks, places = heatmap.frequencies(rules, results)
    claimed = [sum(1 for r in results if any(c[0] == t for c in r.claims)) / len(results) for t in range(len(rules.tracks))]
    assert tracks == claimed
    assert all(0 <= p <= 1 for p in places) and max(places) == 1.0


def test_every_space_painted_by_its_tracks_share(played):
    model, rules, results = played
    doc = heatmap.heatmap_document(model, rules, results, "caption")
    page = doc.pages[0]
    assert isinstance(page.items[0], Use) and page.items[0].name in doc.forms   # the printed board, underneath
    board = next(iter(model.boards.values()))
    plan = plan_for_drawing(board)
    spaces = [p for p in page.items if isinstance(p, Polygon) and p.closed and p.points in
              {q for rp in plan.routes for tp in rp.tracks for q in tp.spaces}]
    assert len(spaces) == sum(len(tp.spaces) for rp in plan.routes for tp in rp.tracks)
    share, _ = heatmap.frequencies(rules, results)
    fills = {p.points: p.fill for p in spaces}
    # the tracks of the board in the engine's order: every colour of every route
    tracks = [tp for rp in plan.routes for tp in rp.tracks]
    assert len(tracks) == len(rules.tracks)
    for t, tp in enumerate(tracks):
        want = heatmap.heat(share[t]) if share[t] > 0 else heatmap.NEVER
        assert {fills[q] for q in tp.spaces} == {want}
    assert heatmap.NEVER in fills.values() and heatmap.heat(1.0) in fills.values()   # both ends occur in 12 games
    rings = [c for c in page.items if isinstance(c, Circle) and c.fill is None]
    assert len(rings) == len(plan.places)
    assert page.height == board.height + heatmap.BAND


def test_cli_writes_pdf_svg_png_and_refuses_other_files(tmp_path):
    runner = CliRunner()
    args = ["simulate", str(NEW_YORK), "--players", "2", "--games", "6", "--validate", "0"]
    for name in ("a.pdf", "b.pdf", "h.svg", "h.png"):
        result = runner.invoke(main, args + ["--heatmap", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()   # deterministic
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    assert b"<svg" in (tmp_path / "h.svg").read_bytes()[:400]
    board = next(iter(load_game(NEW_YORK).boards.values()))
    with PILImage.open(tmp_path / "h.png") as png:
        want = (board.width / 25.4 * heatmap.PNG_DPI, (board.height + heatmap.BAND) / 25.4 * heatmap.PNG_DPI)
        assert all(abs(got - w) < 1 for got, w in zip(png.size, want)), (png.size, want)   # PDFium rounds up
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "b.pdf", "h.png", "h.svg"]   # no leftovers
    bad = runner.invoke(main, args + ["--heatmap", str(tmp_path / "h.txt")])
    assert bad.exit_code == 1 and "must end in .pdf, .svg, .png" in bad.output
    missing = runner.invoke(main, args + ["--heatmap", str(tmp_path / "nope" / "h.pdf")])
    assert missing.exit_code == 1 and "does not exist" in missing.output
