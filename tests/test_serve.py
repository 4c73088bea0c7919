"""pnpgen serve: the page lists every deck's faces, shows content errors and refuses paths outside its own.

Fast, without a browser (Starlette's TestClient, the watcher off: a test rebuilds by hand).
The browser test is tests/test_serve_browser.py.
"""
from __future__ import annotations

import re
import shutil
import socket
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.serve import create_app

MINI = Path(__file__).parent / "fixtures" / "mini"


@pytest.fixture
def mini(tmp_path):
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    app = create_app(folder, watch=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield folder, client, app.state.preview


def test_the_page_shows_every_deck_face_by_face(mini):
    _folder, client, _preview = mini
    page = client.get("/")
    assert page.status_code == 200
    assert "Train cards" in page.text and "Tickets" in page.text
    # mini: trains 3 distinct faces + back, tickets 11 + back
    assert len(re.findall(r'<svg class="face"', page.text)) == 16
    assert page.text.count('<section id="set-trains"') == 1
    assert page.headers["content-security-policy"].startswith("default-src 'none'")
    face = client.get("/face/tickets/back.svg")
    assert face.status_code == 200 and face.headers["content-type"].startswith("image/svg+xml")
    assert face.text.startswith("<?xml") and "<svg" in face.text
    alone = client.get("/face/trains/1")
    assert alone.status_code == 200 and '<svg class="large"' in alone.text


def test_a_malformed_file_shows_its_error_and_fixing_it_brings_the_faces_back(mini):
    folder, client, preview = mini
    decks = folder / "decks.yaml"
    good = decks.read_text(encoding="utf-8")
    decks.write_text(good.replace("{color: blue, count: 2}", "{color: blue, count: 2"), encoding="utf-8")
    preview.rebuild()
    page = client.get("/").text
    assert "The game cannot be read" in page
    assert re.search(r"decks\.yaml:\d+", page)
    decks.write_text(good.replace("{color: blue, count: 2}", "{color: teal, count: 2}"), encoding="utf-8")
    preview.rebuild()
    page = client.get("/").text
    assert "The game cannot be read" in page and "teal" in page
    decks.write_text(good, encoding="utf-8")
    preview.rebuild()
    page = client.get("/").text
    assert "The game cannot be read" not in page
    assert len(re.findall(r'<svg class="face"', page)) == 16


def test_content_is_escaped_in_the_page(mini):
    folder, client, preview = mini
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("latin: Mini game", "latin: <script>x()</script>"),
                    encoding="utf-8")
    preview.rebuild()
    page = client.get("/").text
    assert "<script>x()" not in page and "&lt;script&gt;x()" in page


@pytest.mark.parametrize("path", ["/face/../../etc/passwd", "/face/trains/..%2F..%2Fgame.yaml.svg",
                                  "/assets/..%2Fpreview.py", "/assets/../game.yaml", "/game.yaml", "/face/nope/1.svg"])
def test_nothing_outside_the_preview_is_served(mini, path):
    _folder, client, _preview = mini
    response = client.get(path)
    assert response.status_code == 404
    assert "ミニゲーム" not in response.text and "from __future__" not in response.text


def test_only_this_machine_is_answered(mini):
    _folder, client, _preview = mini
    assert client.get("/", headers={"Host": "attacker.example"}).status_code == 400
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200


def test_a_finding_at_a_card_marks_its_face(mini):
    folder, client, preview = mini
    decks = folder / "decks.yaml"
    # the third ticket becomes the first's twin (PNP402, not waived on its line): one face, two cards
    decks.write_text(decks.read_text(encoding="utf-8").replace("- [Hamburg, Koeln, 8]\n", "- [Berlin, Hamburg, 7]\n"),
                     encoding="utf-8")
    preview.rebuild()
    page = client.get("/").text
    marked = re.findall(r'<figure id="face-(\w+)-(\w+)" class="flagged (\w+)" title="(PNP\d+)', page)
    assert marked == [("tickets", "1", "warning", "PNP402")]
    assert re.search(r'decks\.yaml:26</code> <b>PNP402</b>[^<]*<a href="#face-tickets-1">', page)


def test_a_port_in_use_is_a_plain_error(tmp_path):
    from click.testing import CliRunner

    from generator.cli import main
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", str(MINI), "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output and "--port" in result.output


def test_serve_wants_a_game_folder(tmp_path):
    from click.testing import CliRunner

    from generator.cli import main
    result = CliRunner().invoke(main, ["serve", str(tmp_path)])
    assert result.exit_code == 2 and "holds no game.yaml" in result.output


def test_pictures_and_the_games_fonts_are_served_once_and_only_those(tmp_path):
    """demo-artwork: its pictures are loaded from /picture/ (not embedded in every face), its Lato from /font/."""
    folder = tmp_path / "demo-artwork"
    shutil.copytree(Path(__file__).parents[1] / "content" / "demo-artwork", folder)
    with TestClient(create_app(folder, watch=False), base_url="http://127.0.0.1") as client:
        page = client.get("/").text
        pictures = sorted(set(re.findall(r'href="/picture/([0-9a-f]{16}\.(?:png|svg))"', page)))
        assert len(pictures) == 5 and "data:image/png" not in page
        png = next(name for name in pictures if name.endswith(".png"))
        assert client.get(f"/picture/{png}").content == (folder / "art" / "card-paper.png").read_bytes()
        css = client.get("/fonts.css").text
        assert css.count('font-family: "Lato"') == 3
        font = re.search(r"url\(/font/(F[0-9a-f]{16}\.ttf)\)", css).group(1)
        assert client.get(f"/font/{font}").headers["content-type"] == "font/ttf"
        for path in ("/picture/..%2Fgame.yaml", "/font/..%2Fgame.yaml", "/picture/0000000000000000.png"):
            assert client.get(path).status_code == 404


def test_a_font_family_name_cannot_break_out_of_its_css_string():
    from generator.serve import fonts_css
    assert fonts_css([('Evil"}</style>', False, False, "F1.ttf")]).startswith(
        '@font-face { font-family: "Evil\\22 }\\3c /style\\3e "; src: url(/font/F1.ttf);')
