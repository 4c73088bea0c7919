"""Many games and what they say: ``simulate`` runs them (over processes with ``jobs``), ``summary`` sums them up.

Game ``i`` gets its own seed, derived from the base seed and ``i`` alone, and its bots rotated by ``i``
seats (so seat and bot are not confounded); results are summed in game order, so ``-j 1`` and ``-j 8``
give the same report. A sample of games (``validate`` = every n-th) is replayed by the independent
referee (``generator.simulate.validate``); a problem there fails the run.
"""
from __future__ import annotations

import hashlib
import heapq
import statistics
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from generator.errors import BuildError
from generator.limits import MAX_SIMULATE_REPORT_WORK, MAX_SIMULATE_WORK
from generator.load.game import load_game
from generator.simulate.bots import BOTS
from generator.simulate.engine import Game, IllegalMove, Result
from generator.simulate.family import compile_game
from generator.simulate.line_bots import LINE_BOTS
from generator.simulate.line_engine import LineGame, LineResult
from generator.simulate.line_rules import LineRules
from generator.simulate.line_validate import replay as replay_line
from generator.simulate.reporting import opening_lines, spread
from generator.simulate.rules import Rules
from generator.simulate.validate import replay

#: games a worker plays per task: big enough that sending results back is cheap next to playing them
CHUNK = 50
#: tickets kept fewer times than this are not flagged as too easy or too hard (too few to tell)
MIN_KEPT = 20
_GAMES: dict = {}  # (folder, add-ons) → (Game model, Rules), loaded once per process


class RunStopped(BuildError):
    """What stops a run in a chunk of games (a bot's illegal move, the referee's disagreement, the run's work limit),
    pickled by its words: a chunk played in a worker process raises it there and the command prints it here
    (``PnpgenError``'s own pickling lost its arguments, and the pool broke)."""

    def __reduce__(self):
        return type(self), (None, self.message, self.hint)


def game_seed(seed: int, index: int) -> int:
    """Game ``index``'s seed: a function of the base seed and the index only (any process, any order)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{index}".encode()).digest()[:8], "big")


def seating(bots: list[str], index: int) -> list[str]:
    """Game ``index``'s bots by seat: the list rotated by ``index`` places."""
    k = index % len(bots)
    return bots[k:] + bots[:k]


def remember(folder: Path, addons: tuple, game, rules: Rules | LineRules) -> None:
    """The game read and compiled by the command: the games this process plays use it, not a second reading."""
    _GAMES[(str(folder), tuple(str(a) for a in addons))] = (game, rules)


def _load(folder: str, addons: tuple) -> tuple:
    key = (folder, addons)
    if key not in _GAMES:
        game = load_game(Path(folder), addons)
        _GAMES[key] = (game, compile_game(game))
    return _GAMES[key]


def play_one(rules: Rules | LineRules, bots: list[str], seed: int, index: int, log: bool = False) -> Result | LineResult:
    """Game ``index`` of a run: its seed, its seating (either family)."""
    if isinstance(rules, LineRules):
        return LineGame(rules, [LINE_BOTS[name]() for name in seating(bots, index)], game_seed(seed, index),
                        log=log).play()
    return Game(rules, [BOTS[name]() for name in seating(bots, index)], game_seed(seed, index), log=log).play()


def _chunk(folder: str, addons: tuple, bots: list[str], seed: int, start: int, stop: int, validate: int,
           games: int = 0) -> list:
    """Games ``start`` to ``stop`` of a run of ``games``: their results, or a BuildError when they take more than
    their share of the run's work (MAX_SIMULATE_WORK × their part of the games: the same verdict for any -j)."""
    game, rules = _load(folder, addons)
    out = []
    budget, spent = MAX_SIMULATE_WORK * (stop - start) // max(games, stop - start), 0
    for index in range(start, stop):
        checked = validate > 0 and index % validate == 0
        try:
            result = play_one(rules, bots, seed, index, log=checked)
        except IllegalMove as error:
            raise RunStopped(None, f"game {index} (seed {seed}): a bot made an illegal move: {error}",
                             "a bug in pnpgen's simulator bots: please report it with the command line") from error
        # a line game cut short by the work limit is not refereed: its log ends mid-round
        if checked and not (isinstance(rules, LineRules) and result.end):
            problems = (replay_line if isinstance(rules, LineRules) else replay)(game, result.log, len(bots))
            if problems:
                raise RunStopped(None, f"game {index} (seed {seed}): the referee disagrees with the engine: {problems[0]}",
                                 "a bug in pnpgen's simulator: please report it with the command line")
        result.log = []
        out.append(result)
        spent += getattr(result, "work", 0)
        if spent > budget:
            each = max(1, spent // len(out))
            fit = max(1, MAX_SIMULATE_WORK // each)
            raise RunStopped(None, f"pnpgen simulate stopped at game {index}: a game of {rules.game} takes about "
                                   f"{each:,} steps of work, and {games:,} games would take more than the "
                                   f"MAX_SIMULATE_WORK limit ({MAX_SIMULATE_WORK:,} steps)",
                             f"play at most {fit:,} games (--games {fit}), or simulate a smaller map")
    return out


def simulate(folder: Path, addons: tuple, bots: list[str], games: int, seed: int, jobs: int = 1,
             validate: int = 0, dask: str | None = None) -> list:
    """Play ``games`` games; the results in game order, the same for any ``jobs`` and on Dask (``dask``: a
    scheduler's address, or "local" for a cluster of ``jobs`` processes on this machine)."""
    tasks = [(str(folder), tuple(str(a) for a in addons), bots, seed, start, min(games, start + CHUNK), validate, games)
             for start in range(0, games, CHUNK)]
    if dask:
        absolute = [(str(Path(t[0]).resolve()), tuple(str(Path(a).resolve()) for a in t[1]), *t[2:]) for t in tasks]
        return _on_dask(absolute, dask, jobs)
    if jobs <= 1 or len(tasks) <= 1:
        return [r for task in tasks for r in _chunk(*task)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_chunk, *task) for task in tasks]
        try:
            return [r for future in futures for r in future.result()]
        except BaseException:   # a chunk stopped the run (its work, a bot's bug): the chunks queued are not played
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _on_dask(tasks: list[tuple], address: str, jobs: int) -> list:
    """The same chunks on a Dask cluster, gathered in task order: the same results as on local processes.
    Workers load the game from its (absolute) path, so a remote cluster needs the folder at the same path."""
    try:
        from dask.distributed import Client, LocalCluster  # the optional extra, only when asked for
    except ImportError as error:
        raise BuildError(None, "--dask needs Dask, which is an optional extra and is not installed",
                         "pip install 'pnpgen[dask]'") from error
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(address, timeout=30)
    except (OSError, TimeoutError, ValueError) as error:
        raise BuildError(None, f"--dask {address}: cannot reach the Dask scheduler: {error}",
                         "give a running scheduler's address (tcp://host:8786), or --dask local") from error
    try:
        futures = client.map(_chunk, *zip(*tasks), pure=False)
        return [r for chunk in client.gather(futures) for r in chunk]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _wanted(rules: Rules, limit: int = MAX_SIMULATE_REPORT_WORK) -> tuple[list[frozenset], int]:
    """Per ticket: the groups on any of its shortest paths on the empty map (terminals not passed through), and
    how many tickets that was worked out for: past ``limit`` steps (a place or route looked at) the rest have none."""
    adj: list[list[tuple[int, int, int]]] = [[] for _ in rules.places]
    for gi, tracks in enumerate(rules.groups):
        t = rules.tracks[tracks[0]]
        adj[t.a].append((t.b, gi, t.length))
        adj[t.b].append((t.a, gi, t.length))

    def dist(src: int) -> list[float]:
        d = [float("inf")] * len(rules.places)
        d[src] = 0
        heap: list[tuple[float, int]] = [(0.0, src)]
        while heap:
            x_d, x = heapq.heappop(heap)
            if x_d > d[x] or (x != src and rules.terminal[x]):
                continue
            for y, _gi, length in adj[x]:
                if x_d + length < d[y]:
                    d[y] = x_d + length
                    heapq.heappush(heap, (d[y], y))
        return d

    out: list[frozenset] = []
    known: dict[tuple[int, int], frozenset] = {}
    each = 3 * (len(rules.places) + len(rules.groups))   # two searches and a pass over the routes
    work, done = 0, 0
    for ticket in rules.tickets:
        pair = (ticket.a, ticket.b)
        if pair in known or work + each > limit:
            out.append(known.get(pair, frozenset()))
            done += pair in known
            continue
        work += each
        done += 1
        da, db = dist(ticket.a), dist(ticket.b)
        total = da[ticket.b]
        on = set()
        for gi, tracks in enumerate(rules.groups):
            t = rules.tracks[tracks[0]]
            for u, v in ((t.a, t.b), (t.b, t.a)):
                inner = [x for x in (u, v) if x not in (ticket.a, ticket.b)]
                if any(rules.terminal[x] for x in inner):
                    continue
                if da[u] + t.length + db[v] == total:
                    on.add(gi)
        known[pair] = frozenset(on)
        out.append(known[pair])
    return out, done


def summary(rules: Rules, results: list[Result], bots: list[str], seed: int) -> dict:
    """The report as plain data (sorted, rounded): the CLI prints it as tables or JSON."""
    n, games = len(bots), len(results)
    by_seat: list[list[int]] = [[] for _ in range(n)]
    wins_seat: list[float] = [0.0] * n
    by_bot: dict[str, list[int]] = {b: [] for b in dict.fromkeys(bots)}
    wins_bot: dict[str, float] = dict.fromkeys(bots, 0.0)  # a shared win counts 1/k
    seats_bot: Counter = Counter()
    kept: Counter = Counter()
    done_rounds: dict[int, list[int]] = {}
    completed: Counter = Counter()
    held_games: Counter = Counter()
    claimed: Counter = Counter()
    contested: Counter = Counter()
    visited: Counter = Counter()
    first_round: dict[int, list[int]] = {}
    ends = Counter(r.end for r in results)
    colours = rules.wild_index + 1
    picks, blind, spent, claims_by = [0] * colours, [0] * colours, [0] * colours, [0] * colours
    wanted, weighed = _wanted(rules)
    tunnel_tries: Counter = Counter()
    tunnel_failed: Counter = Counter()
    tunnel_extra: Counter = Counter()
    for r in results:
        for track, cards in r.tunnels:
            tunnel_tries[track] += 1
            if cards < 0:
                tunnel_failed[track] += 1
            else:
                tunnel_extra[track] += cards
        for seat, score in enumerate(r.scores):
            by_seat[seat].append(score)
            by_bot[r.bots[seat]].append(score)
            seats_bot[r.bots[seat]] += 1
        for w in r.winners:
            wins_seat[w] += 1 / len(r.winners)
            wins_bot[r.bots[w]] += 1 / len(r.winners)
        for seat in range(n):
            for t in r.kept[seat]:
                kept[t] += 1
            for t, rnd in zip(r.completed[seat], r.completed_round[seat]):
                completed[t] += 1
                done_rounds.setdefault(t, []).append(rnd)
        seen_groups = set()
        places: set[int] = set()
        for track, _player, rnd in r.claims:
            tr = rules.tracks[track]
            places.update((tr.a, tr.b))
            if tr.group not in seen_groups:
                seen_groups.add(tr.group)
                claimed[tr.group] += 1
                first_round.setdefault(tr.group, []).append(rnd)
        for place in places:
            visited[place] += 1
        wanting: Counter = Counter()
        for seat in range(n):
            for g in set().union(*(wanted[t] for t in r.kept[seat])) if r.kept[seat] else ():
                wanting[g] += 1
        for g, k in wanting.items():
            if k >= 2:
                contested[g] += 1
        for c in range(colours):
            picks[c] += r.picks[c]
            blind[c] += r.blind[c]
            spent[c] += r.spent[c]
            claims_by[c] += r.claimed_by_colour[c]
        for t in set(i for seat in range(n) for i in r.kept[seat]):
            held_games[t] += 1

    def pct(k: float) -> float:
        return round(100 * k / games, 1) if games else 0.0

    names: dict[str, list[int]] = {}
    for i, ticket in enumerate(rules.tickets):
        names.setdefault(f"{ticket.name} ({ticket.points})", []).append(i)
    tickets: list[dict] = []
    for name, ids in names.items():
        k = sum(kept[i] for i in ids)
        rounds = [rnd for i in ids for rnd in done_rounds.get(i, [])]
        c = sum(completed[i] for i in ids)
        tickets.append({"ticket": name, "deck": rules.ticket_decks[rules.tickets[ids[0]].deck],
                        "kept": k, "kept_pct": pct(sum(held_games[i] for i in ids)), "completed": c,
                        "completed_pct_of_kept": round(100 * c / k, 1) if k else None,
                        "completed_round_mean": round(statistics.fmean(rounds), 1) if rounds else None})
    tickets.sort(key=lambda t: (t["completed_pct_of_kept"] if t["completed_pct_of_kept"] is not None else -1, t["ticket"]))
    routes: list[dict] = []
    for g in range(len(rules.groups)):
        rounds = first_round.get(g, [])
        routes.append({"route": rules.group_name(g), "tracks": len(rules.groups[g]),
                       "length": rules.tracks[rules.groups[g][0]].length,
                       "colours": [rules.colour_name(rules.tracks[t].colour) for t in rules.groups[g]],
                       "claimed_pct": pct(claimed[g]),
                       "first_round_mean": round(statistics.fmean(rounds), 1) if rounds else None,
                       "contested_pct": pct(contested[g])})
    routes.sort(key=lambda r: (-r["contested_pct"], -r["claimed_pct"], r["route"]))
    colour_rows = [{"colour": rules.colour_name(c), "face_up_picks": picks[c], "blind_draws": blind[c],
                    "cards_spent": spent[c], "claims": claims_by[c],
                    "picks_per_claim": round(picks[c] / claims_by[c], 2) if claims_by[c] else None}
                   for c in range(colours)]
    optional: dict = {}
    if weighed < len(rules.tickets):   # only a map too large to weigh every ticket has the key
        optional["contested_from_tickets"] = weighed
    if rules.tunnel_reveal:   # only a game with tunnels has the key: the report of any other game is unchanged
        optional["tunnels"] = [
            {"route": rules.track_name(t), "tries": tunnel_tries[t],
             "failed_pct": round(100 * tunnel_failed[t] / tunnel_tries[t], 1) if tunnel_tries[t] else None,
             "extra_cards_mean": round(tunnel_extra[t] / (tunnel_tries[t] - tunnel_failed[t]), 2)
             if tunnel_tries[t] > tunnel_failed[t] else None}
            for t in range(len(rules.tracks)) if rules.tracks[t].tunnel]
    return {
        "game": rules.game, "players": n, "games": games, "seed": seed, "bots": bots, "dice_instead_of_cards": bool(rules.dice),
        "published_defaults": list(rules.defaults),
        "seats": [{"seat": s + 1, "win_pct": pct(wins_seat[s]), "score": spread(by_seat[s])} for s in range(n)],
        "by_bot": [{"bot": b, "seats_played": seats_bot[b], "win_pct": round(100 * wins_bot[b] / seats_bot[b], 1)
                    if seats_bot[b] else 0.0, "score": spread(by_bot[b])} for b in by_bot],
        "turns": spread([r.turns for r in results]),
        "rounds": spread([r.rounds for r in results]),
        "ends": dict(sorted(ends.items())),
        "tickets": tickets,
        "flagged_tickets": {
            "under_20_pct": [t["ticket"] for t in tickets if t["kept"] >= MIN_KEPT and t["completed_pct_of_kept"] < 20],
            "over_90_pct": [t["ticket"] for t in tickets if t["kept"] >= MIN_KEPT and t["completed_pct_of_kept"] > 90]},
        "routes": routes,
        "colours": colour_rows,
        "places_never_visited": sorted(rules.places[p] for p in range(len(rules.places)) if not visited[p]),
        "places_visited_pct": {rules.places[p]: pct(visited[p]) for p in range(len(rules.places))},
    } | optional


def text(report: dict, top: int = 10) -> str:
    """The report as plain-text tables (the JSON has every row)."""
    lines = opening_lines(report, "published defaults", report["published_defaults"], "seat 1 plays first")
    t = report["turns"]
    lines.append(f"\ngame length: {t['mean']} turns on average ({t['min']}–{t['max']}), "
                 f"{report['rounds']['mean']} rounds; ended by: "
                 + ", ".join(f"{k} {v}" for k, v in report["ends"].items()))
    if report["ends"].get("work limit"):
        lines.append(f"  {report['ends']['work limit']} games stopped by the work limit (MAX_SIMULATE_GAME_WORK): the map "
                     "is too large for the bots to plan every turn, and the figures describe games cut short")
    lines.append(f"\nmost contested routes (on a shortest path of tickets kept by ≥ 2 players), top {top}")
    if "contested_from_tickets" in report:
        lines.append(f"  (shortest paths worked out for the first {report['contested_from_tickets']} tickets only: "
                     "MAX_SIMULATE_REPORT_WORK)")
    lines.append(f"  {'route':<34}{'contested %':>12}{'claimed %':>11}{'first round':>13}")
    for r in report["routes"][:top]:
        lines.append(f"  {r['route']:<34}{r['contested_pct']:>12}{r['claimed_pct']:>11}{str(r['first_round_mean']):>13}")
    lines.append(f"\ntickets kept ≥ {MIN_KEPT} times: completed when kept (hardest first; * = under 20 % or over 90 %)")
    lines.append(f"  {'ticket':<40}{'kept':>6}{'kept in % games':>17}{'completed %':>13}{'done by round':>15}")
    flagged = set(report["flagged_tickets"]["under_20_pct"]) | set(report["flagged_tickets"]["over_90_pct"])
    rows = [r for r in report["tickets"] if r["kept"] >= MIN_KEPT]
    shown = rows if len(rows) <= 2 * top else rows[:top] + [r for r in rows[top:-top] if r["ticket"] in flagged] + rows[-top:]
    for r in shown:
        mark = "*" if r["ticket"] in flagged else " "
        lines.append(f" {mark}{r['ticket']:<40}{r['kept']:>6}{r['kept_pct']:>17}{str(r['completed_pct_of_kept']):>13}"
                     f"{str(r['completed_round_mean']):>15}")
    rare = [r["ticket"] for r in report["tickets"] if r["kept"] < MIN_KEPT]
    if rare:
        lines.append(f"  kept fewer than {MIN_KEPT} times (too few to judge): " + ", ".join(sorted(rare)))
    if report.get("dice_instead_of_cards"):
        lines.append("\ndice instead of train cards (the dice add-on): no colour pressure to report")
    else:
        lines.append("\ncolour pressure: face-up picks per claim paid in the colour")
    for c in report["colours"] if not report.get("dice_instead_of_cards") else ():
        lines.append(f"  {c['colour']:<12} picks {c['face_up_picks']:>7}  blind {c['blind_draws']:>7}  "
                     f"spent {c['cards_spent']:>7}  claims {c['claims']:>6}  picks/claim {c['picks_per_claim']}")
    if "tunnels" in report:
        lines.append("\ntunnels: claims tried, failed (the reveal asked for cards not paid), extra cards when paid")
        for t in report["tunnels"]:
            lines.append(f"  {t['route']:<34} tries {t['tries']:>7}  failed % {str(t['failed_pct']):>6}  "
                         f"extra {t['extra_cards_mean']}")
    never = report["places_never_visited"]
    lines.append("\nplaces never reached by a claimed route: " + (", ".join(never) if never else "none"))
    return "\n".join(lines) + "\n"
