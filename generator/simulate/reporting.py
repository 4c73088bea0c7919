"""What every family's report shares: a score spread, and the text report's opening (what was played, then
wins and scores by seat and by bot)."""
from __future__ import annotations

import statistics


def spread(values: list) -> dict:
    """Mean, standard deviation and quartiles of ``values``, rounded as the reports print them."""
    if not values:
        return {}
    ordered = sorted(values)
    q = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else [ordered[0]] * 3
    return {"mean": round(statistics.fmean(ordered), 2), "sd": round(statistics.pstdev(ordered), 2),
            "min": ordered[0], "p25": q[0], "median": q[1], "p75": q[2], "max": ordered[-1]}


def opening_lines(report: dict, assumed_label: str, assumed: list[str], seat_note: str) -> list[str]:
    """``assumed``: figures the engine took from outside the content (``assumed_label`` says from where);
    ``seat_note``: who sits first, in the family's words."""
    lines = [f"{report['game']}: {report['games']} games, {report['players']} players, bots {','.join(report['bots'])} "
             f"(rotated by seat), seed {report['seed']}"]
    if assumed:
        lines.append(f"  figures not in the content ({assumed_label}): " + ", ".join(assumed))
    lines.append(f"\nwins and scores by seat ({seat_note})")
    lines.append(f"  {'seat':<6}{'win %':>7}{'mean':>8}{'sd':>7}{'min':>6}{'median':>8}{'max':>6}")
    for s in report["seats"]:
        sc = s["score"]
        lines.append(f"  {s['seat']:<6}{s['win_pct']:>7}{sc['mean']:>8}{sc['sd']:>7}{sc['min']:>6}"
                     f"{sc['median']:>8}{sc['max']:>6}")
    lines.append("\nwins and scores by bot")
    for b in report["by_bot"]:
        sc = b["score"]
        lines.append(f"  {b['bot']:<10} win {b['win_pct']:>5} %  mean {sc['mean']:>7}  sd {sc['sd']:>6}  "
                     f"({b['seats_played']} seats played)")
    return lines
