"""Card-sheet benchmark: pnpgen against a hand-written ReportLab floor.

    python benchmarks/bench_cards.py                     # N = 199, 1000, 10000; best of 3
    python benchmarks/bench_cards.py --sizes 199 1000 --repeat 5
    python benchmarks/bench_cards.py --keep /tmp/bench   # keep the generated games and outputs

What is generated
-----------------
For each N a synthetic pnpgen game is written to a temporary folder
(``bench-<N>/``): ttr-germany's palette (copied from content/ttr-germany), one
place per city of ``CITIES`` (Japanese name + Latin name), and three decks that
use the shared layouts exactly as content/ttr-germany does:

* ``train-cards``   110 cards (8 colours x 12 + 14 locomotives), layout ttr-train;
* ``short-tickets`` / ``long-tickets``: the other N - 110 cards, split 55:34 as in
  Germany (so N = 199 gives exactly Germany's 110 + 55 + 34), layout ttr-ticket,
  points 2-11 (short) and 12-22 (long). Every ticket is a distinct
  (from, to, points) triple, drawn by a seeded shuffle, so each ticket is its
  own face: nothing can be de-duplicated away.

Card size [44, 67] with 3 mm bleed (the floor's geometry: 3 x 3 cards on A4);
every deck's ``expected:`` is its real count, so pnpgen's count check passes.

What is timed (each a separate process, via measure.measure_command: wall
time and peak RSS of that process alone; the best wall time of --repeat runs)
-----------------------------------------------------------------------------
floor      ``python benchmarks/floor_reportlab.py --cards N --out X.pdf``: one
           PDF, fronts drawn inline, one back form, crop marks.
pnpgen     ``pnpgen build bench-N --all --out OUT``: every output a build
           writes: load + validate YAML, lay out faces, write one PDF per deck
           *and* the print-shop PDF (a page per distinct face and its back)
           *and* one SVG per distinct face (about N files), and the rest.
decks      ``python benchmarks/decks_only.py bench-N OUT`` (its own small script):
           the same pipeline restricted to what the floor does. It calls
           generator.load.game.load_game, the count check PNP101 (generator.check.counts alone, not
           every check module: the checker's imports are not the deck PDFs' work) and
           generator.layout.deck.draw_deck, then generator.layout.sheets.duplex_sheets
           and generator.render.pdf.render_pdf per deck -- the loop body of
           generator.pipeline.build_game without the print-shop PDF, the SVGs
           and the staging-folder swap. It is still a fresh Python process,
           so interpreter start-up and imports count, as they do for the
           floor. Its deck PDFs are byte-compared with the full build's
           (ReportLab ``invariant=1``), so it provably produces the same files.

Honesty notes: "decks" vs "floor" is the like-for-like figure (same pages, same
geometry, same font), but not identical work. pnpgen's cards carry more
drawing than the floor's (a ticket: 2 panels, 5 text lines with fitting, a
dashed line, 2 circles, a badge), it writes 3 files (one subset font embedded
in each) where the floor writes 1, and it also parses and validates YAML
content, which the floor has none of. pnpgen draws each distinct face once as
a form; the floor draws every front inline. The CLI's stdout/stderr go to a log
file (not a terminal), so rich shows no progress bar -- the usual CI setting.
Output folders are removed before each run (outside the timing), so pnpgen
never pays for deleting a previous build.

Sizes: "deck PDF" is the sum of output/<game>/*.pdf without the print-shop
PDF; "all output" adds the print-shop PDF and the SVGs. KB = 1024 bytes (as
the pnpgen CLI prints sizes).

Every pnpgen command runs from a copy of the package with its bytecode compiled (as the README's install
does), through ``python -P`` with PYTHONPATH set to that copy; ``--baseline COMMIT`` measures that commit's
package the same way in the same run (``git archive``), and says whether its files are the same bytes.
Figures are CPU seconds (user + system: what the other work on a shared machine moves least), best of
``--repeat``; wall seconds are listed under "Every run". ``build`` is ``pnpgen build GAME --no-cache`` (the
default outputs: one PDF per deck and the print-and-play file), ``build --all`` every output.

Targets (checked and written to this script's section of benchmarks/results.md, replaced each run):
  * speed   decks-only time <= 1.5 x floor time, for every N;
  * linear  per-card time at 10000 <= LINEAR_TOLERANCE x per-card time at 1000
            (fixed start-up cost makes small N look dearer per card, so the
            marginal cost per card 199->1000 vs 1000->10000 is shown too);
  * size    deck PDF bytes per card < 5 KB.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from measure import ENTRY, RESULTS, git_commit, measure_command, package_copy, write_section  # noqa: E402

FLOOR = HERE / "floor_reportlab.py"
GERMANY = ROOT / "content" / "ttr-germany"
DEFAULT_SIZES = (199, 1000, 10000)
SPEED_TARGET = 1.5
BUILD_TARGET = 2.0
LINEAR_TOLERANCE = 1.2
BYTES_TARGET = 5 * 1024

TRAIN_COLOURS = ["purple", "blue", "orange", "white", "green", "yellow", "black", "red"]
TRAIN_CARDS = 8 * 12 + 14
SHORT_POINTS = range(2, 12)
LONG_POINTS = range(12, 23)

#: Latin id/name → Japanese name. Latin-1 accents on purpose (ü ö ø ã é í ó).
CITIES = {
    "Tokyo": "東京", "Osaka": "大阪", "Kyoto": "京都", "Sapporo": "札幌", "Nagoya": "名古屋",
    "Yokohama": "横浜", "Kobe": "神戸", "Fukuoka": "福岡", "Hiroshima": "広島", "Sendai": "仙台",
    "Nagasaki": "長崎", "Kanazawa": "金沢", "Niigata": "新潟", "Kagoshima": "鹿児島", "Naha": "那覇",
    "Beijing": "北京", "Shanghai": "上海", "Hong Kong": "香港", "Seoul": "ソウル", "Taipei": "台北",
    "Bangkok": "バンコク", "Singapore": "シンガポール", "Delhi": "デリー", "Istanbul": "イスタンブール",
    "Berlin": "ベルリン", "Hamburg": "ハンブルク", "München": "ミュンヘン", "Köln": "ケルン",
    "Zürich": "チューリッヒ", "Wien": "ウィーン", "Paris": "パリ", "London": "ロンドン", "Roma": "ローマ",
    "Madrid": "マドリード", "Lisboa": "リスボン", "Genève": "ジュネーヴ", "Bruxelles": "ブリュッセル",
    "Amsterdam": "アムステルダム", "København": "コペンハーゲン", "Stockholm": "ストックホルム",
    "Oslo": "オスロ", "Helsinki": "ヘルシンキ", "Praha": "プラハ", "Budapest": "ブダペスト",
    "Athína": "アテネ", "Kraków": "クラクフ", "São Paulo": "サンパウロ", "Rio de Janeiro": "リオデジャネイロ",
    "Buenos Aires": "ブエノスアイレス", "Ciudad de México": "メキシコシティ", "New York": "ニューヨーク",
    "Montréal": "モントリオール", "Vancouver": "バンクーバー", "Sydney": "シドニー",
    "Auckland": "オークランド", "Cape Town": "ケープタウン", "Nairobi": "ナイロビ", "Reykjavík": "レイキャビク",
}


# --------------------------------------------------------------------------- synthetic game

#: cards in one deck at most (generator.limits.MAX_CARDS_PER_DECK)
MAX_DECK = 20_000


def q(value) -> str:
    """A YAML scalar: JSON strings are valid double-quoted YAML."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def ticket_split(n_cards: int) -> tuple[int, int]:
    tickets = n_cards - TRAIN_CARDS
    if tickets < 0:
        raise SystemExit(f"N must be at least {TRAIN_CARDS} (the train cards), not {n_cards}")
    short = round(tickets * 55 / 89)
    return short, tickets - short


def cities_for(n_cards: int) -> dict[str, str]:
    """The places of a game of ``n_cards``: ``CITIES``, and for more tickets than their pairs give (N = 100,000)
    a second and third copy of each, numbered ("Berlin 2", "ベルリン2"), so every ticket stays a face of its own."""
    copies = 1 + max(0, n_cards - 40_000) // 40_000 + (1 if n_cards > 40_000 else 0)
    places = dict(CITIES)
    for k in range(2, copies + 1):
        places.update({f"{latin} {k}": f"{name}{k}" for latin, name in CITIES.items()})
    return places


def tickets(count: int, points: range, rng: random.Random, cities: list[str] | None = None) -> list[tuple[str, str, int]]:
    """``count`` distinct (from, to, points) triples, ``points`` from the given range."""
    cities = list(cities or CITIES)
    pool = [(a, b, p) for a in cities for b in cities if a != b for p in points]
    if len(pool) < count:
        raise SystemExit(f"only {len(pool)} distinct tickets available, need {count}: add cities to CITIES")
    rng.shuffle(pool)
    return pool[:count]


def write_game(folder: Path, n_cards: int) -> dict:
    """Write game ``bench-<N>`` into ``folder``; returns the deck sizes."""
    folder.mkdir(parents=True, exist_ok=True)
    n_short, n_long = ticket_split(n_cards)
    (folder / "game.yaml").write_text(
        f"# Synthetic benchmark game: {n_cards} cards (generated by benchmarks/bench_cards.py).\n"
        "game:\n"
        "  title: ベンチマーク鉄道\n"
        f"  latin: \"pnpgen benchmark ({n_cards} cards)\"\n"
        "  language: ja\n"
        "  players: [2, 5]\n"
        "include: [palette.yaml, map.yaml, decks.yaml]\n"
        "print:\n"
        "  card: {size: [44, 67], bleed: 3, safe: 3}\n"
        "  back_offset: [0, 0]\n", encoding="utf-8")
    shutil.copyfile(GERMANY / "palette.yaml", folder / "palette.yaml")
    places = "".join(f"  {q(latin)}: {{name: {q(name)}, latin: {q(latin)}, kind: city, passengers: 1}}\n"
                     for latin, name in cities_for(n_cards).items())
    (folder / "map.yaml").write_text("places:\n" + places, encoding="utf-8")

    rng = random.Random(f"pnpgen-bench-{n_cards}")
    places = list(cities_for(n_cards))
    short = tickets(n_short, SHORT_POINTS, rng, places)
    long = tickets(n_long, LONG_POINTS, rng, places)  # other points: never equal to a short ticket
    train_rows = "".join(f"      - {{color: {c}, count: 12}}\n" for c in TRAIN_COLOURS)
    train_rows += "      - {color: locomotive, count: 14}\n"

    def ticket_deck(deck_id, name, latin, back_color, back_title, back_latin, rows):
        lines = "".join(f"      - [{q(a)}, {q(b)}, {p}]\n" for a, b, p in rows)
        return (f"  {deck_id}:\n"
                f"    name: {name}\n"
                f"    latin: {latin}\n"
                f"    expected: {len(rows)}\n"
                "    layout: ttr-ticket\n"
                f"    back: {{layout: ttr-back, color: {back_color}, title: {back_title}, latin: {back_latin}, icon: station}}\n"
                f"    vars: {{color: {back_color}}}\n"
                "    fields: {from: place, to: place, points: int}\n"
                "    columns: [from, to, points]\n"
                "    cards:\n" + lines)

    decks = ("decks:\n"
             "  train-cards:\n"
             "    name: 列車カード\n"
             "    latin: Train cards\n"
             f"    expected: {TRAIN_CARDS}\n"
             "    layout: ttr-train\n"
             "    back: {layout: ttr-back, color: game-back, title: 列車カード, latin: Train card, icon: wagon}\n"
             "    vars: {wild: locomotive, wild_icon: locomotive, icon: wagon}\n"
             "    fields: {color: color}\n"
             "    cards:\n" + train_rows)
    sizes = {"train-cards": TRAIN_CARDS}
    for deck_id, name, latin, back, title, back_latin, rows in (
            ("short-tickets", "行き先チケット（短距離）", "Destination tickets (short)", "short-back", "短距離チケット",
             "Short routes", short),
            ("long-tickets", "行き先チケット（長距離）", "Destination tickets (long)", "long-back", "長距離チケット",
             "Long routes", long)):
        # a deck holds at most MAX_DECK cards (pnpgen's limit): more tickets go to short-tickets-2, -3 …
        for part, start in enumerate(range(0, max(len(rows), 1), MAX_DECK), start=1):
            part_id = deck_id if part == 1 else f"{deck_id}-{part}"
            chunk = rows[start:start + MAX_DECK]
            decks += "\n" + ticket_deck(part_id, name, latin, back, title, back_latin, chunk)
            sizes[part_id] = len(chunk)
    (folder / "decks.yaml").write_text(decks, encoding="utf-8")
    return sizes


# --------------------------------------------------------------------------- measuring

@contextlib.contextmanager
def output_to(log: Path):
    """Send this process's fd 1 and 2 (inherited by children) to ``log``."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log, "ab") as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


def best_of(argv: list[str], repeat: int, log: Path, clean: Path | None = None, env: dict | None = None) -> dict:
    """Best wall and best CPU time of ``repeat`` runs, max peak RSS; {"error": text} if the command fails."""
    walls, cpus, peaks = [], [], []
    for _ in range(repeat):
        if clean is not None and clean.exists():
            shutil.rmtree(clean) if clean.is_dir() else clean.unlink()
        log.write_bytes(b"")
        try:
            with output_to(log):
                m = measure_command(argv, env=env)
        except subprocess.CalledProcessError as exc:
            text = log.read_text(encoding="utf-8", errors="replace").strip()
            return {"error": f"exit status {exc.returncode}: {' '.join(map(str, argv))}\n{text}"}
        walls.append(m["wall_s"])
        cpus.append(m["cpu_s"])
        peaks.append(m["peak_mib"])
    return {"wall_s": min(walls), "cpu_s": min(cpus), "walls": walls, "cpus": cpus, "peak_mib": max(peaks)}


def pdf_bytes(folder: Path, game_id: str | None = None) -> int:
    return sum(p.stat().st_size for p in folder.glob("*.pdf")
               if not (game_id and p.name == f"{game_id}-print-shop.pdf"))


def tree_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def same_files(a: Path, b: Path) -> bool:
    """Whether two output folders hold the same files with the same bytes."""
    names = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    return bool(names) and names == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file()) and all(
        (a / n).read_bytes() == (b / n).read_bytes() for n in names)


def run_size(n: int, work: Path, repeat: int, trees: list[tuple[str, Path]]) -> dict:
    game = work / f"bench-{n}"
    decks = write_game(game, n)
    row: dict = {"n": n, "decks": decks, "trees": {}}
    log = work / f"log-{n}.txt"

    floor_pdf = work / f"floor-{n}.pdf"
    row["floor"] = best_of([sys.executable, str(FLOOR), "--cards", str(n), "--out", str(floor_pdf)],
                           repeat, log, clean=floor_pdf)
    if "error" not in row["floor"]:
        row["floor"]["bytes"] = floor_pdf.stat().st_size

    for k, (label, package) in enumerate(trees):
        env = dict(os.environ, PYTHONPATH=str(package), PYTHONDONTWRITEBYTECODE="1", PNPGEN_CACHE_DIR="off")
        pnpgen = [sys.executable, "-P", "-c", ENTRY]
        figures: dict = {}
        out_home, out_all, out_decks = (work / f"out-{kind}-{n}-{k}" for kind in ("home", "all", "decks"))
        figures["build"] = best_of([*pnpgen, "build", str(game), "--no-cache", "--out", str(out_home)], repeat, log,
                                   clean=out_home, env=env)
        figures["all"] = best_of([*pnpgen, "build", str(game), "--all", "--no-cache", "--out", str(out_all)], repeat,
                                 log, clean=out_all, env=env)
        if "error" not in figures["all"]:
            built = out_all / game.name
            figures["all"]["bytes"] = pdf_bytes(built, game.name)
            figures["all"]["all_bytes"] = tree_bytes(built)
        figures["decks_only"] = best_of([sys.executable, "-P", str(Path(__file__).resolve().with_name("decks_only.py")),
                                         str(game), str(out_decks)], repeat, log, clean=out_decks, env=env)
        if "error" not in figures["decks_only"]:
            figures["decks_only"]["bytes"] = pdf_bytes(out_decks)
            if "error" not in figures["all"]:
                built = out_all / game.name
                names = sorted(p.name for p in out_decks.glob("*.pdf"))
                # the build also writes the print-shop and print-and-play files, which decks-only does not
                figures["identical"] = bool(names) and all(
                    (built / name).is_file() and (out_decks / name).read_bytes() == (built / name).read_bytes()
                    for name in names)
        if k:   # a baseline: the same bytes as this tree's?
            figures["same_as_this_tree"] = {kind: same_files(work / f"out-{kind}-{n}-0", work / f"out-{kind}-{n}-{k}")
                                            for kind in ("home", "all")}
        row["trees"][label] = figures
    return row


def startup(repeat: int, log: Path, package: Path) -> dict:
    """Fixed costs: bare interpreter, floor imports, pnpgen CLI start-up (``--version``)."""
    env = dict(os.environ, PYTHONPATH=str(package), PYTHONDONTWRITEBYTECODE="1")
    return {
        "python": best_of([sys.executable, "-c", "pass"], repeat, log),
        "reportlab import": best_of([sys.executable, "-c", "import reportlab.pdfgen.canvas, reportlab.pdfbase.ttfonts"],
                                    repeat, log),
        "pnpgen --version": best_of([sys.executable, "-P", "-c", ENTRY, "--version"], repeat, log, env=env),
    }


# --------------------------------------------------------------------------- report

def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    try:
        nproc = subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        nproc = str(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count())
    try:
        import reportlab
        rl = reportlab.Version
    except ImportError:
        rl = "?"
    commit = "?"
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "generator", "templates"],
                               capture_output=True, text=True, check=True).stdout.strip()
        commit += " (generator/ or templates/ modified)" if dirty else ""
    return {"nproc": nproc, "cpu": cpu, "python": platform.python_version(), "platform": platform.platform(),
            "reportlab": rl, "commit": commit,
            "date": dt.datetime.now().astimezone().isoformat(timespec="seconds")}


def fmt_s(m: dict) -> str:
    return "FAILED" if "error" in m else f"{m['cpu_s']:.3f}"


def fmt_mib(m: dict) -> str:
    return "—" if "error" in m else f"{m['peak_mib']:.0f}"


def fmt_bpc(m: dict, n: int) -> str:
    return "—" if "error" in m else f"{m['bytes'] / n:,.0f}"


def ratio(a: dict, b: dict) -> float | None:
    """CPU time of ``a`` over ``b``."""
    if "error" in a or "error" in b:
        return None
    return a["cpu_s"] / b["cpu_s"]


def fmt_ratio(r: float | None) -> str:
    return "—" if r is None else f"{r:.2f}×"


FIGURES = (("decks_only", "decks-only"), ("build", "build"), ("all", "build --all"))


def table(rows: list[dict]) -> list[list[str]]:
    head = ["N", "tree", "floor CPU s", "decks-only CPU s", "×floor", "build CPU s", "×floor", "build --all CPU s",
            "×floor", "floor B/card", "pnpgen B/card", "all output B/card", "peak MiB floor/decks/build/all"]
    body = [head]
    for r in rows:
        n = r["n"]
        for label, t in r["trees"].items():
            body.append([
                str(n), label, fmt_s(r["floor"]),
                *(cell for key, _ in FIGURES for cell in (fmt_s(t[key]), fmt_ratio(ratio(t[key], r["floor"])))),
                fmt_bpc(r["floor"], n), fmt_bpc(t["decks_only"] if "error" not in t["decks_only"] else t["all"], n),
                "—" if "error" in t["all"] else f"{t['all']['all_bytes'] / n:,.0f}",
                "/".join([fmt_mib(r["floor"])] + [fmt_mib(t[key]) for key, _ in FIGURES]),
            ])
    return body


def print_table(body: list[list[str]]) -> None:
    widths = [max(len(row[i]) for row in body) for i in range(len(body[0]))]
    for k, row in enumerate(body):
        print("  ".join(cell.rjust(w) for cell, w in zip(row, widths)))
        if k == 0:
            print("  ".join("-" * w for w in widths))


def markdown_table(body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(body[0]) + " |", "|" + "|".join("---:" for _ in body[0]) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in body[1:]]
    return "\n".join(lines)


def verdicts(rows: list[dict], tree: str = "this tree") -> list[str]:
    """The targets, for ``tree``'s figures (CPU time)."""
    out = []
    by_n = {r["n"]: r for r in rows}

    # speed
    parts, ok, whole_ok = [], True, True
    for r in rows:
        t = r["trees"][tree]
        rr, rb = ratio(t["decks_only"], r["floor"]), ratio(t["build"], r["floor"])
        if rr is None or rb is None:
            ok = whole_ok = False
            parts.append(f"N={r['n']}: not measured (a run failed)")
        else:
            ok &= rr <= SPEED_TARGET
            whole_ok &= rb <= BUILD_TARGET
            ra = ratio(t["all"], r["floor"])
            parts.append(f"N={r['n']}: decks-only {rr:.2f}×, build {rb:.2f}×" + (f", build --all {ra:.2f}×" if ra else ""))
    out.append(f"- **Decks within {SPEED_TARGET}× of the floor** (decks-only vs floor, CPU): "
               f"{'HOLDS' if ok else 'DOES NOT HOLD'}; **build within {BUILD_TARGET}×**: "
               f"{'HOLDS' if whole_ok else 'DOES NOT HOLD'} — " + "; ".join(parts))

    # linearity
    if 1000 in by_n and 10000 in by_n:
        lines = []
        verdict = None
        for key, label in (*FIGURES, ("floor", "floor")):
            a = by_n[1000]["floor"] if key == "floor" else by_n[1000]["trees"][tree][key]
            b = by_n[10000]["floor"] if key == "floor" else by_n[10000]["trees"][tree][key]
            if "error" in a or "error" in b:
                lines.append(f"{label}: not measured")
                continue
            per_a, per_b = a["cpu_s"] / 1000 * 1e3, b["cpu_s"] / 10000 * 1e3
            k = per_b / per_a
            marginal = f"; marginal {(b['cpu_s'] - a['cpu_s']) / 9000 * 1e3:.3f} ms/card (1000→10000)"
            lines.append(f"{label}: {per_a:.3f} → {per_b:.3f} ms/card (×{k:.2f}){marginal}")
            if key == "decks_only":
                verdict = k <= LINEAR_TOLERANCE
        state = "not measured" if verdict is None else ("HOLDS" if verdict else "DOES NOT HOLD")
        out.append(f"- **Linear in the number of cards** (per-card CPU at 10000 ≤ {LINEAR_TOLERANCE}× that at "
                   f"1000, decks-only): {state} — " + "; ".join(lines))
    else:
        out.append("- **Linear in the number of cards**: not measured (needs N = 1000 and N = 10000)")

    # size
    parts, ok = [], True
    for r in rows:
        t = r["trees"][tree]
        m = t["decks_only"] if "error" not in t["decks_only"] else t["all"]
        if "error" in m:
            ok = False
            parts.append(f"N={r['n']}: not measured")
            continue
        per = m["bytes"] / r["n"]
        ok &= per < BYTES_TARGET
        parts.append(f"N={r['n']}: {per:,.0f} B/card")
    out.append(f"- **Under 5 KB of PDF per card** (deck PDFs, 5 KB = {BYTES_TARGET} B): "
               f"{'HOLDS' if ok else 'DOES NOT HOLD'} — " + "; ".join(parts))
    return out


def write_results(info: dict, rows: list[dict], starts: dict, repeat: int, body: list[list[str]]) -> str:
    md = ["## Card sheets (`benchmarks/bench_cards.py`)", "",
          "Replaced on every run of `python benchmarks/bench_cards.py`; see benchmarks/README.md.", "",
          f"- date: {info['date']}; load average {os.getloadavg()[0]:.1f} at the end (a shared machine: read CPU time)",
          f"- machine: nproc {info['nproc']}, {info['cpu']}, {info['platform']}",
          f"- Python {info['python']}, ReportLab {info['reportlab']}, pnpgen commit {info['commit']}",
          f"- command: `{info['command']}`",
          f"- best CPU time (user + system) of {repeat} run(s) each, each a fresh process; every pnpgen from a copy of "
          "its package with bytecode compiled (`python -P`, PYTHONPATH); peak = max RSS of the process", "",
          "### Figures", "",
          "floor = benchmarks/floor_reportlab.py (one PDF); decks-only = pnpgen's load + layout + deck PDFs only, "
          "in a fresh process (the floor's job); build = `pnpgen build GAME --no-cache` (deck PDFs + print-and-play "
          "file); build --all = every output (+ print-shop PDF, SVGs, HTML). pnpgen B/card = deck PDFs only; "
          "all output = everything `--all` writes.", "",
          markdown_table(body), ""]
    md += ["Decks per game: " + "; ".join(f"N={r['n']}: " + ", ".join(f"{k} {v}" for k, v in r["decks"].items())
                                         for r in rows), ""]
    same = [f"N={r['n']}: " + ", ".join(
        f"{label} {'identical' if t.get('identical') else 'DIFFERENT' if 'identical' in t else 'not compared'}"
        for label, t in r["trees"].items()) for r in rows]
    md += ["Decks-only PDFs vs the same tree's build deck PDFs (byte comparison): " + "; ".join(same), ""]
    baseline = [f"N={r['n']} {label}: " + ", ".join(f"{kind} {'identical' if ok else 'DIFFERENT'}"
                                                   for kind, ok in t["same_as_this_tree"].items())
                for r in rows for label, t in r["trees"].items() if "same_as_this_tree" in t]
    if baseline:
        md += ["Baseline's output vs this tree's (every file, byte comparison): " + "; ".join(baseline), ""]
    md += ["Fixed start-up cost (best CPU s of runs): " +
           "; ".join(f"{k}: {fmt_s(v)} s" for k, v in starts.items()), ""]
    md += ["### Targets (this tree)", ""] + verdicts(rows) + [""]
    md += ["### Every run (wall s / CPU s)", ""]
    for r in rows:
        runs = [("floor", r["floor"])] + [(f"{label} {name}", t[key]) for label, t in r["trees"].items()
                                          for key, name in FIGURES]
        md += [f"- N={r['n']}: " + "; ".join(
            f"{name} " + (", ".join(f"{w:.3f}/{c:.3f}" for w, c in zip(m["walls"], m["cpus"]))
                          if "error" not in m else "failed") for name, m in runs)]
    md += [""]
    errors = [(r["n"], name, m["error"]) for r in rows
              for name, m in [("floor", r["floor"])] + [(f"{label} {key}", t[key]) for label, t in r["trees"].items()
                                                        for key, _ in FIGURES] if "error" in m]
    if errors:
        md += ["### Failures", ""]
        for n, key, text in errors:
            md += [f"N={n}, {key}:", "", "```", text, "```", ""]
    text = "\n".join(md)
    write_section("bench_cards", text, RESULTS)  # the checker's section (bench_check.py) stays
    return text


# --------------------------------------------------------------------------- main

def parse_sizes(values: list[str]) -> list[int]:
    sizes = [int(v) for value in values for v in value.split(",") if v.strip()]
    for n in sizes:
        ticket_split(n)
    return sizes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=[",".join(map(str, DEFAULT_SIZES))],
                        help="card counts N (default 199 1000 10000; '199,1000' also works)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best wall time counts")
    parser.add_argument("--keep", metavar="DIR", help="write games and outputs to DIR and keep them")
    parser.add_argument("--baseline", metavar="COMMIT", help="also measure this commit's package (git archive), "
                                                             "in the same run")
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    parser.add_argument("--write-game", nargs=2, metavar=("N", "DIR"),
                        help="only write the synthetic game for N cards into DIR (e.g. to profile it)")
    args = parser.parse_args(argv)

    if args.write_game:
        n, folder = int(args.write_game[0]), Path(args.write_game[1])
        print(folder, write_game(folder, n))
        return

    sizes = parse_sizes(args.sizes)
    repeat = max(1, args.repeat)
    info = machine()
    info["command"] = " ".join(["python benchmarks/bench_cards.py", *(argv if argv is not None else sys.argv[1:])])
    with contextlib.ExitStack() as stack:
        if args.keep:
            work = Path(args.keep).resolve()
            work.mkdir(parents=True, exist_ok=True)
        else:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pnpgen-bench-")))
        packages = work / "packages"
        shutil.rmtree(packages, ignore_errors=True)
        trees = [("this tree", package_copy(packages / "this", None))]
        if args.baseline:
            trees.append((f"baseline {git_commit(args.baseline)}", package_copy(packages / "baseline", args.baseline)))
        print(f"benchmark in {work}: N = {', '.join(map(str, sizes))}, best of {repeat}; "
              + ", ".join(label for label, _ in trees), flush=True)
        starts = startup(repeat, work / "log-startup.txt", trees[0][1])
        rows = []
        for n in sizes:
            print(f"  N = {n} …", flush=True)
            rows.append(run_size(n, work, repeat, trees))
    body = table(rows)
    print()
    print_table(body)
    print()
    print("start-up (CPU): " + "; ".join(f"{k} {fmt_s(v)} s" for k, v in starts.items()))
    for line in verdicts(rows):
        print(line.replace("**", ""))
    if not args.no_write:
        write_results(info, rows, starts, repeat, body)
        print(f"\nwrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
