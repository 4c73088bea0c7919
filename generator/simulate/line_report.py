"""The line family's report: many games of S鉄道で行こう summed up as plain data (``summary``) and text (``text``).

The games come from ``report.simulate`` (the same seeds, seating rotation and process pool as the route
family); this module only counts.
"""
from __future__ import annotations

import statistics
from collections import Counter

from generator.simulate.line_engine import MAX_BIDS, LineResult
from generator.simulate.line_rules import LineRules
from generator.simulate.reporting import opening_lines, spread


def _mean(total: float, count: int, places: int = 2) -> float | None:
    return round(total / count, places) if count else None


def summary(rules: LineRules, results: list[LineResult], bots: list[str], seed: int) -> dict:
    """The report as plain data (sorted, rounded): the command prints it as tables or JSON."""
    n, games = len(bots), len(results)
    by_seat: list[list[int]] = [[] for _ in range(n)]
    wins_seat = [0.0] * n
    by_bot: dict[str, list[int]] = {b: [] for b in dict.fromkeys(bots)}
    wins_bot: dict[str, float] = dict.fromkeys(bots, 0.0)   # a shared win counts 1/k
    seats_bot: Counter = Counter()
    parts: Counter = Counter()
    open_games: Counter = Counter()
    marked: Counter = Counter()
    dealt: Counter = Counter()
    completed: Counter = Counter()
    types = len(rules.types)
    won, played, discarded, dropped = [0] * types, [0] * types, [0] * types, [0] * types
    visits = [0] * len(rules.stations)
    visited_games = [0] * len(rules.stations)
    rounds = len(results[0].bids) if results else 0
    bids, clashes, clashed = [0] * rounds, [0] * rounds, [0] * rounds
    stopped = 0   # games stopped by the work limit
    at_end: list[list[int]] = [[] for _ in range(rounds)]   # stations at each round's end, every player
    terminus = [0] * rounds
    taken, spent, missed, dry, limited = 0, 0, 0, 0, 0
    ties: Counter = Counter()
    last = len(rules.stations) - 1
    for r in results:
        for seat, score in enumerate(r.scores):
            by_seat[seat].append(score)
            by_bot[r.bots[seat]].append(score)
            seats_bot[r.bots[seat]] += 1
            for key, value in r.breakdown[seat].items():
                parts[key] += value
        for w in r.winners:
            wins_seat[w] += 1 / len(r.winners)
            wins_bot[r.bots[w]] += 1 / len(r.winners)
        ties[r.tie or "none"] += 1
        for d in set(r.open):
            open_games[d] += 1
        for seat in range(n):
            for d in r.markers[seat]:
                marked[d] += 1
            for d in r.private[seat]:
                dealt[d] += 1
            for d in r.completed[seat]:
                completed[d] += 1
        for t in range(types):
            won[t] += r.won[t]
            played[t] += r.played[t]
            discarded[t] += r.discarded[t]
            dropped[t] += r.dropped[t]
        for s, k in enumerate(r.visits):
            visits[s] += k
            visited_games[s] += k > 0
        for k in range(rounds):
            bids[k] += r.bids[k]
            clashes[k] += r.clashes[k]
            clashed[k] += r.clashed_players[k]
            if k < len(r.round_ends):   # a game stopped by the work limit did not end every round
                at_end[k].extend(r.round_ends[k])
                terminus[k] += sum(1 for x in r.round_ends[k] if x == last)
        taken += sum(r.chips_taken)
        spent += sum(r.chips_spent)
        missed += r.chips_missed
        dry += r.chips_missed > 0
        limited += r.bid_limit > 0
        stopped += bool(r.end)

    def pct(k: float, of: int | None = None) -> float | None:
        of = games if of is None else of
        return round(100 * k / of, 1) if of else None

    dest_rows = []
    names: dict[str, list[int]] = {}
    for i, dest in enumerate(rules.destinations):
        names.setdefault(dest.name, []).append(i)
    for name, ids in names.items():
        o, mk, dl, cp = (sum(c[i] for i in ids) for c in (open_games, marked, dealt, completed))
        dest_rows.append({"destination": name, "station": rules.stations[rules.destinations[ids[0]].station],
                          "open_in_pct_games": pct(o), "marked_pct_of_players_when_open": pct(mk, o * n),
                          "dealt": dl, "completed_pct_of_dealt": pct(cp, dl)})
    dest_rows.sort(key=lambda r: (r["completed_pct_of_dealt"] if r["completed_pct_of_dealt"] is not None else -1,
                                  r["destination"]))
    station_rows = [{"station": name, "visits_per_game": _mean(visits[s], games),
                     "visited_in_pct_games": pct(visited_games[s]),
                     "stopped_by": [t.id for t in rules.types if s in t.stops]}
                    for s, name in enumerate(rules.stations)]
    type_rows = [{"type": t.id, "advance": t.advance, "stops": len(t.stops), "cards": sum(1 for c in rules.cards
                                                                                       if c[0] == k),
                  "won_per_game": _mean(won[k], games), "played_per_game": _mean(played[k], games),
                  "discarded_per_game": _mean(discarded[k], games), "dropped_per_game": _mean(dropped[k], games),
                  "played_pct_of_used": pct(played[k], played[k] + discarded[k])}
                 for k, t in enumerate(rules.types)]
    round_rows = [{"round": k + 1, "bids_per_game": _mean(bids[k], games),
                   "bids_with_a_clash_pct": pct(clashes[k], bids[k]),
                   "players_clashing_per_game": _mean(clashed[k], games),
                   "station_at_end_mean": round(statistics.fmean(at_end[k]), 1) if at_end[k] else None,
                   "at_terminus_pct_of_players": pct(terminus[k], games * n)}
                  for k in range(rounds)]
    return {
        "game": rules.game, "family": "line", "players": n, "games": games, "seed": seed, "bots": bots,
        "figures_not_in_content": list(rules.defaults),
        "seats": [{"seat": s + 1, "win_pct": pct(wins_seat[s]), "score": spread(by_seat[s])} for s in range(n)],
        "by_bot": [{"bot": b, "seats_played": seats_bot[b], "win_pct": round(100 * wins_bot[b] / seats_bot[b], 1)
                    if seats_bot[b] else 0.0, "score": spread(by_bot[b])} for b in by_bot],
        "score_parts_mean": {k: _mean(v, games * n) for k, v in sorted(parts.items())},
        "ties": {"broken_by_lines_pct": pct(ties["broken"]), "shared_pct": pct(ties["shared"])},
        "phase2_moves": spread([r.turns for r in results]),
        "rounds": round_rows,
        "chips": {"taken_per_game": _mean(taken, games), "spent_per_game": _mean(spent, games),
                  "pool": rules.chips, "clashes_without_a_chip_per_game": _mean(missed, games),
                  "games_the_pool_ran_dry_pct": pct(dry)},
        "bid_limit_games_pct": pct(limited),
        "destinations": dest_rows,
        "stations": station_rows,
        "train_types": type_rows,
    } | ({"work_limit_games_pct": pct(stopped)} if stopped else {})   # only a game that hit the limit has the key


def text(report: dict, top: int = 8) -> str:
    """The report as plain-text tables (the JSON has every row)."""
    lines = opening_lines(report, "the seed's", report["figures_not_in_content"],
                          "seat 1 sits first; phase 2 begins with the lowest train card")
    parts = report["score_parts_mean"]
    lines.append("\nscore per player on average: " + ", ".join(f"{k} {v}" for k, v in parts.items())
                 + f"; ties broken by lines in {report['ties']['broken_by_lines_pct']} % of games, "
                   f"shared in {report['ties']['shared_pct']} %")
    lines.append("\nrounds: bids, clashes (two or more players on one number), where the pieces are at the end")
    lines.append(f"  {'round':<7}{'bids':>7}{'clash %':>9}{'clashing':>10}{'station':>9}{'at terminus %':>15}")
    for r in report["rounds"]:
        lines.append(f"  {r['round']:<7}{r['bids_per_game']:>7}{str(r['bids_with_a_clash_pct']):>9}"
                     f"{r['players_clashing_per_game']:>10}{str(r['station_at_end_mean']):>9}"
                     f"{str(r['at_terminus_pct_of_players']):>15}")
    c = report["chips"]
    lines.append(f"\nchips per game: taken {c['taken_per_game']}, spent {c['spent_per_game']}; pool "
                 f"{c['pool'] if c['pool'] is not None else 'unlimited'}, ran dry in {c['games_the_pool_ran_dry_pct']} % "
                 f"of games ({c['clashes_without_a_chip_per_game']} clashes a game got no chip)")
    if report.get("work_limit_games_pct"):
        lines.append(f"  stopped by the work limit (MAX_SIMULATE_GAME_WORK) in {report['work_limit_games_pct']} % of games")
    if report["bid_limit_games_pct"]:
        lines.append(f"  phase 1 stopped after {MAX_BIDS} bids in {report['bid_limit_games_pct']} % of games")
    lines.append("\ntrain types per game: cards won in phase 1, played as a train, discarded to move one station, "
                 "thrown away by a clash on 1")
    lines.append(f"  {'type':<10}{'cards':>6}{'advance':>8}{'stops':>6}{'won':>7}{'played':>8}{'discarded':>10}"
                 f"{'dropped':>8}{'played %':>9}")
    for t in report["train_types"]:
        lines.append(f"  {t['type']:<10}{t['cards']:>6}{t['advance']:>8}{t['stops']:>6}{t['won_per_game']:>7}"
                     f"{t['played_per_game']:>8}{t['discarded_per_game']:>10}{t['dropped_per_game']:>8}"
                     f"{str(t['played_pct_of_used']):>9}")
    lines.append("\ndestinations: open (stamp rally) marked by % of players; private completed % of dealt "
                 f"(hardest first, top and bottom {top})")
    lines.append(f"  {'destination':<30}{'open in % games':>16}{'marked %':>10}{'dealt':>7}{'completed %':>13}")
    rows = report["destinations"]
    shown = rows if len(rows) <= 2 * top else rows[:top] + rows[-top:]
    for r in shown:
        lines.append(f"  {r['destination']:<30}{str(r['open_in_pct_games']):>16}"
                     f"{str(r['marked_pct_of_players_when_open']):>10}{r['dealt']:>7}{str(r['completed_pct_of_dealt']):>13}")
    lines.append("\nstations: moves ending there per game (all players), and the train types that stop there")
    for s in report["stations"]:
        lines.append(f"  {s['station']:<18}{str(s['visits_per_game']):>7}  {','.join(s['stopped_by'])}")
    never = [s["station"] for s in report["stations"] if not s["visits_per_game"]]
    lines.append("\nstations no move ended on: " + (", ".join(never) if never else "none"))
    return "\n".join(lines) + "\n"
