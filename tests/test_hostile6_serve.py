"""Round six, ``pnpgen serve``: a picture or a font the faces drew is read again on each request, and the game may
have been edited since (the watcher lays the faces out again a moment later). The file made a named pipe held the
server forever (a blocking read in its event loop); made a link to a file outside the game, it served that file."""
from __future__ import annotations

import os
import re
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from hostile_lib import alarm_guard
from starlette.testclient import TestClient

from generator import limits
from generator.serve import create_app

ARTWORK = Path(__file__).resolve().parents[1] / "content" / "demo-artwork"


@pytest.fixture
def served_artwork(tmp_path):
    folder = tmp_path / "demo-artwork"
    shutil.copytree(ARTWORK, folder)
    with TestClient(create_app(folder, watch=False), base_url="http://127.0.0.1") as client:
        page = client.get("/").text
        png = next(name for name in re.findall(r'href="/picture/([0-9a-f]{16}\.png)"', page))
        css = client.get("/fonts.css").text
        font = re.search(r"url\(/font/(F[0-9a-f]{16}\.ttf)\)", css).group(1)
        yield folder, client, f"/picture/{png}", f"/font/{font}"


def _picture_file(folder: Path) -> Path:
    return folder / "art" / "card-paper.png"


def _font_file(folder: Path) -> Path:
    return next((folder / "fonts").rglob("*Regular*.ttf"))


@pytest.mark.parametrize("which", ["picture", "font"])
def test_a_file_made_a_named_pipe_is_not_waited_on(served_artwork, which):
    folder, client, picture, font = served_artwork
    path = _picture_file(folder) if which == "picture" else _font_file(folder)
    assert client.get(picture if which == "picture" else font).status_code == 200
    path.unlink()
    os.mkfifo(path)
    with _pipe_unblocked(path), alarm_guard(f"serve waited on a named pipe as a {which}"):
        assert client.get(picture if which == "picture" else font).status_code == 404
    assert served_artwork[1].app.state.preview.served(path, limits.MAX_IMAGE_BYTES) is None


@contextmanager
def _pipe_unblocked(path: Path):
    """A writer that opens and closes the pipe once a reader waits on it: a server that reads the pipe gets an empty
    file (the test then fails on what it answered) instead of hanging the suite in its thread."""
    done = threading.Event()

    def unblock():
        while not done.wait(0.05):
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))   # ENXIO while no reader waits
                return
            except OSError:
                continue
    thread = threading.Thread(target=unblock, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


@pytest.mark.parametrize("which", ["picture", "font"])
def test_a_file_made_a_link_out_of_the_game_is_not_served(served_artwork, tmp_path, which):
    folder, client, picture, font = served_artwork
    secret = tmp_path / "secret.txt"
    secret.write_text("the designer's private key")
    path = _picture_file(folder) if which == "picture" else _font_file(folder)
    path.unlink()
    path.symlink_to(secret)
    response = client.get(picture if which == "picture" else font)
    assert response.status_code == 404 and b"private key" not in response.content


def test_a_picture_grown_past_its_limit_is_not_served(served_artwork, monkeypatch):
    folder, client, picture, _ = served_artwork
    monkeypatch.setattr(limits, "MAX_IMAGE_BYTES", 1000)
    assert client.get(picture).status_code == 404
