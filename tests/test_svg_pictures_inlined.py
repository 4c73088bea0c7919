"""An SVG picture that draws a PNG beside it (``<image href="card-paper.png">``, allowed since round four) must
show that PNG in pnpgen's SVG outputs too: a browser loads nothing an SVG shown as a picture names, and the copy
in an SVG output's pictures/ folder has no PNG beside it. The PNG is carried inside as a data: URL."""
from __future__ import annotations

import base64
import shutil
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.layout import images

ROOT = Path(__file__).resolve().parents[1]
ARTWORK = ROOT / "content" / "demo-artwork"
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" '
       'width="10" height="10"><rect width="10" height="10" fill="#123456"/>'
       '<image xlink:href="card-paper.png" width="10" height="10"/><image href="card-paper.png" width="5" height="5"/>'
       '</svg>')


def test_a_picture_an_svg_draws_is_inside_the_svg_outputs_copy_of_it(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(ARTWORK, game)
    (game / "art" / "back.svg").write_text(SVG, encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(game), "--only", "svg", "--no-cache", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    png = base64.b64encode((game / "art" / "card-paper.png").read_bytes()).decode("ascii")
    copies = [p for p in (tmp_path / "o" / "g" / "svg").rglob("pictures/*.svg") if b"#123456" in p.read_bytes()]
    assert copies
    for copy in copies:
        text = copy.read_text(encoding="utf-8")
        assert 'href="card-paper.png"' not in text
        assert text.count(f"data:image/png;base64,{png}") == 2   # both references, xlink:href and href


def test_an_svg_that_draws_no_file_keeps_its_bytes():
    for svg in sorted((ARTWORK / "art").glob("*.svg")):
        assert images.standalone_svg(str(svg)) == svg.read_bytes(), svg.name


def test_what_is_inlined_stops_at_max_image_bytes(tmp_path, monkeypatch):
    art = tmp_path / "art"
    art.mkdir()
    shutil.copy(ARTWORK / "art" / "card-paper.png", art / "card-paper.png")
    (art / "p.svg").write_text(SVG, encoding="utf-8")
    one = len("data:image/png;base64,") + len(base64.b64encode((art / "card-paper.png").read_bytes()))
    monkeypatch.setattr(images.limits, "MAX_IMAGE_BYTES", one + 10)   # room for one copy, not two
    text = images.standalone_svg(str(art / "p.svg")).decode("utf-8")
    assert text.count("data:image/png;base64,") == 1 and 'href="card-paper.png"' in text
