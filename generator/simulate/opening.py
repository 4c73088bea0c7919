"""The opening every family's text report shares: what was played, then wins and scores by seat and by bot."""
from __future__ import annotations


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
