"""How long ``pnpgen serve`` takes from saving a one-card change to the open page showing the new face.

A copy of ttr-germany (the largest bundled game) is served in a subprocess and opened in the
system's headless Chromium (Playwright, no browser download); then, ``--repeat`` times, the bonus
card's Latin title is changed in decks.yaml and the time until the page's bonus-card section shows
the new word is taken (the watcher's wake-up, reading the game, laying out the changed deck, the SVG,
the event, the page's fetch and its swap of the changed section). Each round waits for the checks of
the round before to end, as a designer's next save would usually come after them.

    python benchmarks/bench_serve.py              # 5 repetitions, writes the section in results.md
    python benchmarks/bench_serve.py --repeat 10 --no-write
"""
from __future__ import annotations

import argparse
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from measure import RESULTS, write_section  # noqa: E402

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
CHECKED = "!document.querySelector('#status').textContent.includes('checking')"


def measure(repeat: int) -> list[float]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("Chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "ttr-germany"
        shutil.copytree(ROOT / "content" / "ttr-germany", folder)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([sys.executable, "-m", "generator.cli", "serve", str(folder), "--port", str(port)],
                                  cwd=ROOT, stdout=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}/"
        try:
            for _ in range(600):
                try:
                    urllib.request.urlopen(url, timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as pw:
                browser = pw.chromium.launch_persistent_context(str(Path(tmp) / "profile"), executable_path=chromium,
                                                                headless=True, args=FLAGS, bypass_csp=True)
                page = browser.new_page()
                page.goto(url)
                page.wait_for_function(CHECKED, timeout=30000)
                decks = folder / "decks.yaml"
                text = decks.read_text(encoding="utf-8")
                times = []
                for n in range(repeat):
                    word = f"Weltreisender{n}"
                    start = time.perf_counter()
                    decks.write_text(text.replace("latin: Globetrotter", f"latin: {word}"), encoding="utf-8")
                    page.wait_for_function(f"document.querySelector('#set-bonus-cards').textContent.includes('{word}')",
                                           timeout=10000, polling=10)
                    times.append(time.perf_counter() - start)
                    page.wait_for_function(CHECKED, timeout=30000)
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args()
    times = measure(args.repeat)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    text = "\n".join([
        "## Live preview (pnpgen serve)", "",
        f"{platform.machine()}, {platform.python_version()}, {time.strftime('%Y-%m-%d')}, commit {commit.strip()}", "",
        "Saving a one-card change in a copy of ttr-germany to the page in headless Chromium showing it "
        f"({args.repeat} saves): median {statistics.median(times):.2f} s, best {min(times):.2f} s, "
        f"worst {max(times):.2f} s", ""])
    print(text)
    if not args.no_write:
        write_section("bench_serve", text)
        print(f"written to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
