"""Round four, what an SVG picture draws besides itself: svglib follows an ``<image>`` or ``<use>`` href to a file
beside the SVG, unchecked (a named pipe waited forever, a hidden file was drawn though the build cache's key
does not hash it) and skips silently what it cannot reach (a URL, a file outside). Now a PNG or JPEG in the SVG's
folder that ``paths.inside`` accepts is drawn (it is content, so the cache's key hashes it) and the rest is an
error at the line that names the SVG."""
from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

ROOT = Path(__file__).resolve().parents[1]
ARTWORK = ROOT / "content" / "demo-artwork"
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
       '{}</svg>')


def _game(tmp_path: Path, body: str) -> Path:
    game = tmp_path / "g"
    shutil.copytree(ARTWORK, game)
    (game / "art" / "back.svg").write_text(SVG.format(body), encoding="utf-8")
    return game


def _check(game: Path, *more):
    return CliRunner().invoke(main, ["check", str(game), *more])


@pytest.mark.parametrize("href, message", [
    ("http://example.com/x.png", "a URL or a path from the top of the disk"),
    ("file:///etc/passwd.png", "a URL or a path from the top of the disk"),
    ("/etc/x.png", "a URL or a path from the top of the disk"),
    ("island.svg#g", "may draw another file only if it is a PNG or JPEG"),
    (".hidden.png", "is hidden"),
    ("../cards.csv.png", "is outside the game folder"),
    ("missing.png", "which does not exist")])
def test_what_an_svg_may_not_draw_is_an_error(tmp_path, href, message):
    game = _game(tmp_path, f'<image xlink:href="{href}" width="10" height="10"/>')
    if href == ".hidden.png":
        shutil.copy(game / "art" / "card-paper.png", game / "art" / ".hidden.png")
    if href == "../cards.csv.png":
        game = _game(tmp_path / "in", '<image href="../../outside.png" width="10" height="10"/>')
        shutil.copy(game / "art" / "card-paper.png", tmp_path / "in" / "outside.png")
    result = _check(game, "--no-cache")
    assert result.exit_code == 2 and message in result.output and "lantern-back.yaml:" in result.output, result.output


def test_a_named_pipe_an_svg_names_is_refused_unopened(tmp_path):
    game = _game(tmp_path, '<image href="pipe.png" width="10" height="10"/>')
    os.mkfifo(game / "art" / "pipe.png")

    def stuck(signum, frame):   # a regression opens the pipe and waits forever: fail instead of hanging the suite
        raise AssertionError("pnpgen opened the named pipe an SVG names and waited on it")
    old = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(60)
    try:
        result = _check(game, "--no-cache")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert result.exit_code == 2 and "is a named pipe (FIFO), not a regular file" in result.output, result.output


def test_a_picture_beside_the_svg_is_drawn_and_is_in_the_cache_key(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE_DIR", str(tmp_path / "cache"))
    game = _game(tmp_path, '<image href="only-here.png" width="10" height="10"/>')
    shutil.copy(game / "art" / "card-paper.png", game / "art" / "only-here.png")   # drawn by the SVG alone
    assert _check(game).exit_code == 0
    (game / "art" / "only-here.png").write_bytes(b"not a PNG")   # a cached check must not pass now
    result = _check(game)
    assert result.exit_code == 2 and "only-here.png" in result.output, result.output


def test_a_cached_build_sees_a_change_to_a_picture_an_svg_draws(tmp_path, monkeypatch):
    """A build's files are copied from the cache when what they draw is the same: a PNG an SVG draws is part of
    that (the SVG's digest covers it), so a changed PNG is drawn anew, byte for byte as a build without cache."""
    from PIL import Image as PILImage
    monkeypatch.setenv("PNPGEN_CACHE_DIR", str(tmp_path / "cache"))
    game = _game(tmp_path, '<image href="only-here.png" width="10" height="10"/>')
    PILImage.new("RGB", (8, 8), "red").save(game / "art" / "only-here.png")
    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["build", str(game), "--out", str(out), "--only", "pdf"]).exit_code == 0
    PILImage.new("RGB", (8, 8), "blue").save(game / "art" / "only-here.png")
    assert CliRunner().invoke(main, ["build", str(game), "--out", str(out), "--only", "pdf"]).exit_code == 0
    fresh = tmp_path / "fresh"
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(fresh), "--only", "pdf", "--no-cache"])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in (fresh / "g").iterdir())
    assert files and all((out / "g" / name).read_bytes() == (fresh / "g" / name).read_bytes() for name in files)


def test_an_svgs_digest_covers_the_files_it_draws(tmp_path):
    """Caches keyed by a picture's digest (a build's files copied from the cache, the PDF's drawings) must see a
    change to a PNG an SVG draws, though the SVG's own bytes are the same."""
    from PIL import Image as PILImage

    from generator.layout import images
    game = _game(tmp_path, '<image href="paper.png" width="10" height="10"/>')
    svg = game / "art" / "back.svg"
    PILImage.new("RGB", (4, 4), "red").save(game / "art" / "paper.png")
    first = images.read(svg, None)
    PILImage.new("RGB", (4, 4), "blue").save(game / "art" / "paper.png")
    os.utime(game / "art" / "paper.png", ns=(1, 1))   # a new size-and-time key, as an edit later in a session
    second = images.read(svg, None)
    assert first.digest != second.digest and images.known(second.path, second.digest) == second
    plain = images.read(game / "art" / "island.svg", None)   # an SVG that draws nothing else: its bytes' digest
    import hashlib
    assert plain.digest == hashlib.sha256((game / "art" / "island.svg").read_bytes()).hexdigest()


def test_a_link_in_an_svg_is_not_a_file_it_draws(tmp_path):
    game = _game(tmp_path, '<a xlink:href="http://example.com/"><rect width="5" height="5"/></a>')
    result = _check(game, "--no-cache")
    assert "back.svg" not in result.output, result.output
