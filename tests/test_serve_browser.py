"""pnpgen serve in a real browser: the system's headless Chromium (Debian's ``chromium``), driven by Playwright.

``pnpgen serve`` runs in a subprocess on a copy of a game; the page must draw every face, take an
edit without a reload, show a malformed edit's error, survive it, and come back when it is fixed.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from generator.export.faces import export_sets
from generator.load.game import load_game

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
GAME = Path(__file__).resolve().parents[1] / "content" / "ttr-new-york"
#: what Playwright starts Chromium with here (no sandbox: tests may run as root, in a container)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    folder = tmp_path / "ttr-new-york"
    shutil.copytree(GAME, folder)
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "generator.cli", "serve", str(folder), "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(300):
            if server.poll() is not None:
                pytest.fail(f"pnpgen serve stopped: {server.stdout.read() if server.stdout else ''}")
            try:
                urllib.request.urlopen(url, timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        yield folder, url, server
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def test_the_page_follows_every_save(served):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    folder, url, server = served
    game = load_game(folder)
    distinct = sum(len(one.faces) + (one.back is not None) for one in export_sets(game, force=True))
    assert distinct == 32   # ttr-new-york: 7 + back, 18 + back, 4 taxis, 1 board
    with sync_api.sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        browser = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True, args=FLAGS,
                                                     bypass_csp=True)  # the page forbids eval; the test evaluates
        try:
            page = browser.new_page()
            page.goto(url)
            assert page.locator("section.set svg.face").count() == distinct
            assert page.locator("section.deck svg.face").count() == 7 + 1 + 18 + 1
            shot = page.screenshot(full_page=False)
            assert _not_blank(shot)
            page.evaluate("window.scrollTo(0, 600); window.marker = 'same page'")

            decks = folder / "decks.yaml"
            text = decks.read_text(encoding="utf-8")
            assert "latin: Destination ticket," in text
            decks.write_text(text.replace("latin: Destination ticket,", "latin: Zielfahrkarte,"), encoding="utf-8")
            page.wait_for_function("document.querySelector('#set-tickets').textContent.includes('Zielfahrkarte')",
                                   timeout=3000)
            assert page.evaluate("window.marker") == "same page"   # updated in place, not reloaded
            assert page.evaluate("window.scrollY") == 600

            decks.write_text(text.replace("    cards:", "    cards: [", 1), encoding="utf-8")
            page.wait_for_selector("#errors li.error", timeout=3000)
            assert "decks.yaml:" in page.locator("#errors").inner_text()
            assert server.poll() is None

            decks.write_text(text, encoding="utf-8")
            page.wait_for_function("!document.querySelector('#errors li')", timeout=3000)
            assert page.locator("section.set svg.face").count() == distinct
            assert page.evaluate("window.marker") == "same page"
        finally:
            browser.close()


def _not_blank(png: bytes) -> bool:
    from io import BytesIO

    from PIL import Image
    image = Image.open(BytesIO(png)).convert("L")
    low, high = image.getextrema()
    return high - low > 64 and len(image.getcolors(1 << 16) or range(99)) > 16
