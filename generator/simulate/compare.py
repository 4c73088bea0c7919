"""``pnpgen simulate --compare A B``: the same seeds on two versions of a game, and what changed.

A version is a game folder, or ``FOLDER@REV``: that folder as git revision ``REV`` has it, taken out
with ``git archive`` into a scratch folder (git is asked only then; without git, or outside a
repository, the error says so). Both versions play the same games (seed, seating, bots).

A figure is reported as changed only when the two 95 % intervals do not overlap — a conservative
test (two non-overlapping 95 % intervals mean p < 0.006 for the difference), so a designer is not
sent after noise. Proportions (a route claimed in a game, a kept ticket completed, a seat winning)
use Wilson score intervals, which stay inside 0–100 % and behave at 0 and 100 %; means (scores, game
length) use the normal interval of the mean (mean ± 1.96 s / √n; thousands of games).
"""
from __future__ import annotations

import io
import math
import re
import shutil
import statistics
import subprocess
import tarfile
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from generator.errors import ContentError
from generator.load.game import load_game
from generator.simulate.admit import admit
from generator.simulate.engine import Result
from generator.simulate.line_rules import is_line_game
from generator.simulate.report import simulate
from generator.simulate.rules import Rules, compile_rules

Z = 1.959964   # two-sided 95 %
#: a git archive bigger than this is refused (a game folder is a few MB)
MAX_ARCHIVE_BYTES = 256 * 1024 * 1024
GIT_TIMEOUT = 120   # seconds
#: what a revision may look like: names, hashes and git's suffixes (HEAD~1, v1.0^, main@{2}) — never an option
REVISION = re.compile(r"[A-Za-z0-9_./~^{}@+][A-Za-z0-9_./~^{}@+-]*")
#: git settings that would run a program or reach a network, switched off for a folder from anyone
SAFE_GIT = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.allow=never"]


def wilson(k: float, n: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of the proportion k / n (0–1); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float], z: float = Z) -> tuple[float, float, float]:
    """(mean, low, high): the normal 95 % interval of the mean."""
    if not values:
        return 0.0, 0.0, 0.0
    m = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return m, m - half, m + half


@dataclass(frozen=True)
class Change:
    """One figure in both versions: its value and 95 % interval before (a) and after (b)."""

    kind: str          # route, ticket, seat, score, length, end
    name: str
    what: str          # "claimed in", "completed when kept in", …
    unit: str          # "%" or "" (points, turns)
    a: float
    a_low: float
    a_high: float
    b: float
    b_low: float
    b_high: float
    tail: str = ""     # words after the value: " of games"

    @property
    def changed(self) -> bool:
        return self.b_low > self.a_high or self.b_high < self.a_low

    def sentence(self) -> str:
        f = (lambda v: f"{v:.1f} %") if self.unit == "%" else (lambda v: f"{v:.1f}")
        g = (lambda v: f"{v:.1f}") if self.unit == "%" else f
        word = "now" if self.changed else "still about"
        return (f"{self.name} {word} {self.what} {f(self.b)}{self.tail} (was {f(self.a)}; 95 % CI "
                f"{g(self.b_low)}–{f(self.b_high)} vs {g(self.a_low)}–{f(self.a_high)})")

    def as_dict(self) -> dict:
        r = {k: getattr(self, k) for k in ("kind", "name", "what", "unit", "tail")}
        for side in ("a", "a_low", "a_high", "b", "b_low", "b_high"):
            r[side] = round(getattr(self, side), 2)
        r["changed"] = self.changed
        r["sentence"] = self.sentence()
        return r


def _proportion(kind, name, what, ka, na, kb, nb, tail="") -> Change:
    a, b = (100 * ka / na if na else 0.0), (100 * kb / nb if nb else 0.0)
    (al, ah), (bl, bh) = wilson(ka, na), wilson(kb, nb)
    return Change(kind, name, what, "%", a, 100 * al, 100 * ah, b, 100 * bl, 100 * bh, tail)


def _mean(kind, name, what, va, vb, tail="") -> Change:
    return Change(kind, name, what, "", *mean_interval(va), *mean_interval(vb), tail)


def _figures(rules: Rules, results: list[Result]) -> dict:
    """Counts the comparison needs, keyed by names (indices differ between versions)."""
    routes: Counter = Counter()
    kept: Counter = Counter()
    done: Counter = Counter()
    wins: Counter = Counter()
    ends: Counter = Counter()
    for r in results:
        for g in {rules.tracks[t].group for t, _p, _rnd in r.claims}:
            routes[rules.group_name(g)] += 1
        for seat in range(len(r.scores)):
            for t in r.kept[seat]:
                kept[_ticket(rules, t)] += 1
            for t in r.completed[seat]:
                done[_ticket(rules, t)] += 1
        for w in r.winners:
            wins[w] += 1
        ends[r.end] += 1
    return {"routes": routes, "all_routes": {rules.group_name(g) for g in range(len(rules.groups))},
            "kept": kept, "done": done, "wins": wins, "ends": ends, "games": len(results),
            "scores": [[r.scores[s] for r in results] for s in range(len(results[0].scores))] if results else [],
            "turns": [r.turns for r in results]}


def _ticket(rules: Rules, index: int) -> str:
    t = rules.tickets[index]
    return f"{t.name} ({t.points})"


#: a ticket kept fewer times than this in either version is not compared (its interval says nothing)
MIN_KEPT = 20


def compare(rules_a: Rules, results_a: list[Result], rules_b: Rules, results_b: list[Result]) -> dict:
    """Every compared figure, and which changed, as plain data (sorted: the same run, the same report)."""
    fa, fb = _figures(rules_a, results_a), _figures(rules_b, results_b)
    na, nb = fa["games"], fb["games"]
    rows: list[Change] = []
    for name in sorted(fa["all_routes"] & fb["all_routes"]):
        rows.append(_proportion("route", name, "claimed in", fa["routes"][name], na, fb["routes"][name], nb,
                                " of games"))
    for name in sorted(set(fa["kept"]) & set(fb["kept"])):
        if fa["kept"][name] >= MIN_KEPT and fb["kept"][name] >= MIN_KEPT:
            rows.append(_proportion("ticket", name, "completed", fa["done"][name], fa["kept"][name],
                                    fb["done"][name], fb["kept"][name], " of the times it is kept"))
    for seat in range(min(len(fa["scores"]), len(fb["scores"]))):
        rows.append(_proportion("seat", f"seat {seat + 1}", "wins", fa["wins"][seat], na, fb["wins"][seat], nb,
                                " of games"))
        rows.append(_mean("score", f"seat {seat + 1}", "scores on average", fa["scores"][seat], fb["scores"][seat],
                          " points"))
    rows.append(_mean("length", "a game", "lasts on average", fa["turns"], fb["turns"], " turns"))
    for end in sorted(set(fa["ends"]) | set(fb["ends"])):
        rows.append(_proportion("end", f"the end '{end}'", "ends", fa["ends"][end], na, fb["ends"][end], nb, " of games"))
    changed = [c for c in rows if c.changed]
    changed.sort(key=lambda c: (-abs(c.b - c.a) if c.unit == "%" else 0.0, c.kind, c.name))
    return {"games": [na, nb], "test": "two 95 % intervals do not overlap (Wilson for shares, normal for means)",
            "routes_only_in_a": sorted(fa["all_routes"] - fb["all_routes"]),
            "routes_only_in_b": sorted(fb["all_routes"] - fa["all_routes"]),
            "changes": [c.as_dict() for c in changed],
            "unchanged": len(rows) - len(changed),
            "figures": [c.as_dict() for c in rows]}


def text(report: dict, a: str, b: str) -> str:
    lines = [f"compared {report['games'][0]} games of {a} (was) with {report['games'][1]} games of {b} (now), "
             "the same seeds and seats", f"a change is reported when the {report['test']}"]
    for side, label in (("routes_only_in_a", f"routes only in {a}"), ("routes_only_in_b", f"routes only in {b}")):
        if report[side]:
            lines.append(f"{label}: " + ", ".join(report[side]))
    if report["changes"]:
        lines.append(f"\n{len(report['changes'])} changes:")
        lines += ["  " + c["sentence"] for c in report["changes"]]
    else:
        lines.append("\nno change beyond chance")
    lines.append(f"\n{report['unchanged']} other figures compared did not change beyond chance "
                 "(--format json lists every figure)")
    return "\n".join(lines) + "\n"


def run(specs: tuple[str, str], addons: tuple[str, ...], bots: list[str], games: int, seed: int, jobs: int = 1,
        validate: int = 0, dask: str | None = None) -> dict:
    """Play the same games on both versions and compare them; a git revision lives in a scratch folder
    only while it is played."""
    runs = []
    with tempfile.TemporaryDirectory(prefix="pnpgen-compare-") as scratch:
        for n, spec in enumerate(specs):
            folder = version(spec, Path(scratch) / str(n))
            model = load_game(folder, addons)
            admit(model, spec)
            if is_line_game(model):
                raise ContentError(None, f"--compare {spec}: comparing two versions is done for route games only, "
                                         "and this is a line game", "simulate each version on its own and compare the reports")
            rules = compile_rules(model)
            if not rules.players[0] <= len(bots) <= rules.players[1]:
                raise ContentError(None, f"--compare {spec}: {rules.game} is played by {rules.players[0]}–"
                                         f"{rules.players[1]} players, not {len(bots)}", "change --players")
            runs.append((rules, simulate(folder, addons, bots, games, seed, jobs, validate, dask)))
    return compare(runs[0][0], runs[0][1], runs[1][0], runs[1][1])


# --- versions ---------------------------------------------------------------------------------------------------

def version(spec: str, scratch: Path) -> Path:
    """The game folder ``spec`` names: a folder as it is, or ``FOLDER@REV`` taken out of git into ``scratch``."""
    path = Path(spec)
    if _is_dir(path) or "@" not in spec:
        return path
    folder, rev = spec.rsplit("@", 1)
    if not rev:
        raise ContentError(None, f"--compare {spec}: no git revision after '@'", "e.g. content/my-game@HEAD~1")
    if not REVISION.fullmatch(rev) or len(rev) > 200:
        raise ContentError(None, f"--compare {spec}: '{rev}' is not a git revision",
                           "name a branch, tag or commit, e.g. content/my-game@HEAD~1 (it may not start with '-')")
    git = shutil.which("git")
    if git is None:
        raise ContentError(None, f"--compare {spec}: a git revision needs git, and git is not installed",
                           "compare two folders instead: copy the old version into a folder of its own")
    where = Path(folder) if folder else Path(".")
    if not _is_dir(where):
        raise ContentError(None, f"--compare {spec}: {where} is not a folder", "name the game's folder before '@'")
    top = _git(git, where, ["rev-parse", "--show-toplevel"], spec, f"{where} is not inside a git repository",
               "compare two folders instead, or name a folder inside a git repository").decode("utf-8", "replace").strip()
    try:
        inside = where.resolve().relative_to(Path(top).resolve()).as_posix()
    except ValueError as error:   # a link out of the repository
        raise ContentError(None, f"--compare {spec}: {where} is not inside the repository at {top}",
                           "name the folder by its path inside the repository") from error
    data = _git(git, Path(top), ["archive", "--format=tar", f"{rev}:{inside}" if inside != "." else rev], spec,
                f"git has no revision '{rev}' with the folder {inside}")
    if len(data) > MAX_ARCHIVE_BYTES:
        raise ContentError(None, f"--compare {spec}: the folder at {rev} is over {MAX_ARCHIVE_BYTES >> 20} MB",
                           "compare a smaller folder")
    target = scratch / (Path(inside).name or Path(top).name)   # the folder's own name: a game's id defaults to it
    target.mkdir(parents=True)
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            archive.extractall(target, filter="data")   # no links out, no absolute paths
    except tarfile.TarError as error:   # the filter's refusals (a link to /etc/passwd, a path out) are TarErrors
        raise ContentError(None, f"--compare {spec}: the folder at {rev} cannot be taken out of git safely: {error}",
                           "compare two folders instead, or remove the link from the game's history") from None
    return target


def _is_dir(path: Path) -> bool:
    """Whether ``path`` is a folder; False for a name the file system refuses (too long: ENAMETOOLONG)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def _git(git: str, cwd: Path, args: list[str], spec: str, what: str,
         hint: str = "name a revision git knows (git log), e.g. HEAD~1 or a tag") -> bytes:
    try:
        done = subprocess.run([git, *SAFE_GIT, *args], cwd=cwd, capture_output=True, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ContentError(None, f"--compare {spec}: git failed: {error}", "check the repository") from error
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ContentError(None, f"--compare {spec}: {what}" + (f" ({message[-1]})" if message else ""),
                           hint)
    return done.stdout
