"""`pnpgen simulate` on hostile maps, run as a person would: a fresh process per case, its exit, CPU seconds, peak memory.

    python tools/hostile_simulate.py            # the hostile maps (grids, complete graphs, parallel routes …)
    python tools/hostile_simulate.py --cases    # also every case of tools/hostile_cases.py, through simulate
    python tools/hostile_simulate.py --cases-only

Each map is a small route game written from scratch (``route_game``); tests/test_agree_simulate.py plays smaller
ones with lowered limits. Every case must end 0, 1 or 2 with a message and no traceback, within bounded time.
"""
from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def route_game(places: list[str], routes: list[tuple], tickets: list[tuple], trains: int = 45,
               deck: dict | None = None, players: str = "[2, 5]", scoring: dict | None = None, extra: str = "") -> str:
    """game.yaml of a route game: ``routes`` (a, b, length, colour), ``tickets`` (a, b, points), a train deck of
    ``deck`` (colour → cards; the wild is ``locomotive``)."""
    deck = deck or {"red": 12, "blue": 12, "locomotive": 14}
    scoring = scoring or {n: n for n in range(1, 7)}
    colours = {"red": "#cc0000", "blue": "#0000cc", "green": "#00aa00", "locomotive": "#888888"}
    lines = ["game:", "  title: Hostile", "  language: en", f"  players: {players}", f"  trains_per_player: {trains}",
             "palette:"]
    lines += [f'  {c}: {{hex: "{h}", name: {c}}}' for c, h in colours.items()]
    lines += ["places:"] + [f"  {p}: {{name: {p}}}" for p in places]
    lines += ["routes:"] + [f"  - [{a}, {b}, {n}, {c}]" for a, b, n, c in routes]
    lines += ["decks:", "  trains:", "    name: Trains", f"    expected: {sum(deck.values())}", "    role: train",
              "    layout: ttr-train", "    back: {layout: ttr-back}", "    vars: {wild: locomotive}",
              "    fields: {color: color}", "    cards:"]
    lines += [f"      - {{color: {c}, count: {k}}}" for c, k in deck.items()]
    lines += ["  tickets:", "    name: Tickets", f"    expected: {len(tickets)}", "    layout: ttr-ticket",
              "    back: {layout: ttr-back}", "    fields: {from: place, to: place, points: int}",
              "    columns: [from, to, points]", "    cards:"]
    lines += [f"      - [{a}, {b}, {n}]" for a, b, n in tickets]
    lines += ["tables:", "  route_scoring: {" + ", ".join(f"{k}: {v}" for k, v in scoring.items()) + "}"]
    return "\n".join(lines) + "\n" + extra


def grid(side: int, tickets: int = 40, **kw) -> str:
    """A side × side grid of routes of 1, red across and blue down; tickets between far corners of sub-squares."""
    places = [f"p{r}x{c}" for r in range(side) for c in range(side)]
    routes = [(f"p{r}x{c}", f"p{r}x{c + 1}", 1, "red") for r in range(side) for c in range(side - 1)]
    routes += [(f"p{r}x{c}", f"p{r + 1}x{c}", 1, "blue") for r in range(side - 1) for c in range(side)]
    pairs = [(f"p{i % side}x0", f"p{side - 1 - i % side}x{side - 1}", 2 * side) for i in range(tickets)]
    return route_game(places, routes, pairs, **kw)


def complete(n: int, tickets: int = 40, **kw) -> str:
    """Every pair of ``n`` cities joined by a route of 1 to 6."""
    places = [f"c{i}" for i in range(n)]
    routes = [(f"c{i}", f"c{j}", 1 + (i + j) % 6, ("red", "blue", "gray")[(i * j) % 3])
              for i in range(n) for j in range(i + 1, n)]
    return route_game(places, routes, [(f"c{i}", f"c{n - 1 - i}", 9) for i in range(tickets)], **kw)


def parallel(k: int, **kw) -> str:
    """``k`` gray tracks of 2 between the same two cities, and a third city reached by one route."""
    routes = [("A", "B", 2, "gray")] * k + [("B", "C", 3, "red")]
    return route_game(["A", "B", "C"], routes, [("A", "C", 5), ("A", "B", 2), ("B", "C", 3)], **kw)


def many_tickets(n: int, **kw) -> str:
    """A ring of 60 cities and ``n`` tickets between them."""
    places = [f"c{i}" for i in range(60)]
    routes = [(f"c{i}", f"c{(i + 1) % 60}", 1 + i % 4, ("red", "blue", "gray")[i % 3]) for i in range(60)]
    return route_game(places, routes, [(f"c{i % 60}", f"c{(i * 7 + 13) % 60}", 5) for i in range(n)
                                       if i % 60 != (i * 7 + 13) % 60], **kw)


def ring(**kw) -> str:
    """A ring of 12 cities: a playable map for the deck and train figures to spoil."""
    places = [f"c{i}" for i in range(12)]
    colours = [c for c in (kw.get("deck") or {"red": 1, "blue": 1}) if c != "locomotive"]
    routes = [(f"c{i}", f"c{(i + 1) % 12}", 1 + i % 3, colours[i % len(colours)]) for i in range(12)]
    return route_game(places, routes, [(f"c{i}", f"c{(i + 5) % 12}", 6) for i in range(12)], **kw)


def line_cards(copies: int):
    """content/s-railway's decks.yaml with every train card printed ``copies`` times: hands of hundreds of cards of
    five types, whose best order of play the greedy bot searches."""
    def edit(text: str) -> str:
        head, rest = text.split("  destination-cards:", 1)
        head = head.replace("expected: 36", f"expected: {36 * copies}")
        lines = [f"      - {{type: {line.split('[')[1].split(',')[0]}, number: {line.split(',')[1].strip(' ]')}, "
                 f"count: {copies}}}" if line.startswith("      - [") else line for line in head.split("\n")]
        return "\n".join(lines) + "  destination-cards:" + rest
    return edit


#: name → (game.yaml, extra command-line arguments)
CASES = {
    "grid 50 x 50 (2,500 places)": (lambda: grid(50), ["--games", "20"]),
    "grid 50 x 50, 10^9 trains": (lambda: grid(50, trains=10**9), ["--games", "20"]),
    "complete graph of 200 cities": (lambda: complete(200), ["--games", "20"]),
    "3,000 parallel routes": (lambda: parallel(3000), ["--games", "200"]),
    "5,000 tickets": (lambda: many_tickets(5000), ["--games", "50"]),
    "5,000 tickets, 10^9 trains": (lambda: many_tickets(5000, trains=10**9), ["--games", "50"]),
    "1-card train deck": (lambda: ring(deck={"red": 1}), ["--games", "1000"]),
    "trains_per_player 10^9": (lambda: ring(trains=10**9), ["--games", "1000"]),
    "no one can claim (routes of 6)": (lambda: route_game(
        ["A", "B", "C"], [("A", "B", 6, "red"), ("B", "C", 6, "blue")], [("A", "C", 9)] * 200,
        deck={"red": 2, "blue": 2, "locomotive": 1}), ["--games", "1000"]),
    "grid 50 x 50, 1,000,000 games": (lambda: grid(50), ["--games", "1000000"]),
    "grid 50 x 50, lookahead": (lambda: grid(50, trains=10**9), ["--games", "20", "--bots", "lookahead"]),
}


#: name → (decks.yaml of content/s-railway edited, extra command-line arguments): the line family
LINE_CASES = {
    "S鉄道, every train card x 200": (line_cards(200), ["--games", "50", "--players", "5"]),
    "S鉄道, x 200, 1,000 games": (line_cards(200), ["--games", "1000", "--players", "5"]),
}


def run(folder: Path, args: list[str]) -> tuple[int, float, float, int, str]:
    """``pnpgen simulate FOLDER ARGS`` in a process of its own: exit, wall s, CPU s (children), peak KB, output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    players = [] if "--players" in args else ["--players", "2"]
    result = subprocess.run([sys.executable, "-m", "generator.cli", "simulate", str(folder), *players, *args],
                            capture_output=True, text=True, timeout=900)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return result.returncode, wall, cpu, after.ru_maxrss, result.stderr + result.stdout


def show(name: str, code: int, wall: float, cpu: float, kb: int, output: str, folder: Path) -> None:
    text = output.replace(f"{folder}/", "")
    ended = [line.split("; ")[-1] for line in text.splitlines() if "ended by:" in line]
    first = ended[0] if ended and code == 0 else " ".join(text.split("hint")[0].split())
    print(f"{name:34} exit {code}  {wall:5.1f}s wall {cpu:5.1f}s CPU  traceback={'Traceback' in output}  {first[:160]}",
          flush=True)


def main() -> None:
    if "--cases-only" not in sys.argv:
        maps()
    if "--cases" in sys.argv or "--cases-only" in sys.argv:
        every_case()


def maps() -> None:
    with tempfile.TemporaryDirectory(prefix="pnpgen-hostile-simulate-") as tmp:
        for n, (name, (make, args)) in enumerate(CASES.items()):
            folder = Path(tmp) / f"map{n}"
            folder.mkdir()
            (folder / "game.yaml").write_text(make(), encoding="utf-8")
            show(name, *run(folder, args), folder)
        for n, (name, (edit, args)) in enumerate(LINE_CASES.items()):
            folder = Path(tmp) / f"line{n}"
            shutil.copytree(ROOT / "content" / "s-railway", folder)
            decks = folder / "decks.yaml"
            decks.write_text(edit(decks.read_text(encoding="utf-8")), encoding="utf-8")
            show(name, *run(folder, args), folder)


def every_case() -> None:
    """Every case of tools/hostile_cases.py, its folder played by ``simulate`` instead of its own command."""
    sys.path.insert(0, str(ROOT / "tools"))
    import hostile_cases

    original = hostile_cases.case

    def simulated(workdir, name, edits, command="check", base=hostile_cases.MINI, args=()):
        if command.startswith("simulate"):   # already a simulate case
            original(workdir, name, edits, command, base, args)
        else:
            original(workdir, f"{name} [simulate]"[:32], edits, "simulate", base, ("--games", "3"))

    hostile_cases.case = simulated
    hostile_cases.round_simulate = lambda work: None   # the maps above, already played
    hostile_cases.main()


if __name__ == "__main__":
    main()
