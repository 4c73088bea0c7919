"""Reporting findings: for people (grouped by file, coloured on a terminal) and for tools (JSON)."""
from __future__ import annotations

import re
from itertools import groupby
from typing import TYPE_CHECKING

from generator.check.registry import Check, Finding

if TYPE_CHECKING:
    from rich.console import Console

STYLE = {"error": "bold red", "warning": "yellow"}


def escape(text: str) -> str:
    """rich's ``escape``, rich imported when a line needs markup: a check written plainly never imports it."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def counts(findings: list[Finding]) -> dict[str, int]:
    return {"errors": sum(1 for f in findings if f.severity == "error" and not f.waived),
            "warnings": sum(1 for f in findings if f.severity == "warning" and not f.waived),
            "waived": sum(1 for f in findings if f.waived)}


def tally(findings: list[Finding]) -> str:
    """'1 error, 2 warnings' (and how many are waived)."""
    c = counts(findings)
    text = f"{_plural(c['errors'], 'error')}, {_plural(c['warnings'], 'warning')}"
    if c["waived"]:
        text += f", {c['waived']} waived (explained in the content)"
    return text


def summary(findings: list[Finding], games: int) -> str:
    return f"{_plural(games, 'game')} checked: {tally(findings)}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


#: lines printed at once: rich costs most per call, and holds all it prints in one call (84,848 findings as
#: one text took hundreds of MiB)
PRINT_CHUNK = 500
#: what rich changes in a line it prints (tabs expanded, control codes dropped): such a line goes through rich
_RICH_ONLY = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


def print_findings(findings: list[Finding], console: Console) -> None:
    """Findings grouped by file, one line each: line, severity, code, message; the hint below.

    Printed in chunks of ``PRINT_CHUNK`` lines, without rich's automatic highlighting (colour by severity, not
    by rich's guesses): a large deck can have thousands of findings. On a console without colour (not a
    terminal: a log, a pipe) the lines are written as they are, the characters rich would print (a line with a
    tab or a control code still goes through rich): parsing each line's markup cost 0.1 ms a finding."""
    plain = _plain(console)
    #: (markup, plain text), or (None, plain text) on a plain console: the markup is made when a line needs it
    lines: list[tuple[str | None, str]] = []
    names: dict = {}   # a file → how messages show it (``Finding.file``), worked out once per file

    def flush() -> None:
        if not lines:
            return
        if not plain:
            console.print("\n".join(markup or "" for markup, _ in lines), soft_wrap=True, highlight=False)
        else:
            run: list[str] = []
            for _, text in lines:
                if _RICH_ONLY.search(text) is None:
                    run.append(text)
                    continue
                if run:
                    console.file.write("\n".join(run) + "\n")
                    run.clear()
                console.print(escape(text), soft_wrap=True, highlight=False)
            if run:
                console.file.write("\n".join(run) + "\n")
            console.file.flush()
        lines.clear()

    def shown(f: Finding) -> str:
        name = names.get(f.source.file)
        if name is None:
            name = names[f.source.file] = f.file
        return name

    for n, (file, group) in enumerate(groupby(findings, key=lambda f: (f.game, shown(f)))):
        if n:
            lines.append(("", ""))
        lines.append((None if plain else f"[bold]{escape(file[1])}[/]", file[1]))
        for f in group:
            source = f.source
            # file:line, or file:row:column in a spreadsheet (``str(f.source)``, the file's name worked out once)
            where = file[1] if source.file is None or not source.line else \
                f"{file[1]}:{source.line}:{source.column}" if source.column else f"{file[1]}:{source.line}"
            if f.waived:
                lines.append((None if plain else f"  [dim]{escape(where)}: waived {f.code} {escape(f.message)}[/]",
                              f"  {where}: waived {f.code} {f.message}"))
                lines.append((None if plain else f"    [dim]reason: {escape(f.waived)}[/]", f"    reason: {f.waived}"))
            else:
                lines.append((None if plain else f"  {escape(where)}: [{STYLE[f.severity]}]{f.severity}[/] "
                              f"[bold]{f.code}[/] {escape(f.message)}", f"  {where}: {f.severity} {f.code} {f.message}"))
                if f.hint:
                    lines.append((None if plain else f"    [cyan]hint[/]: {escape(f.hint)}", f"    hint: {f.hint}"))
            if len(lines) >= PRINT_CHUNK:
                flush()
    flush()


def _plain(console: Console) -> bool:
    """Whether ``console`` prints text as it is: no colour or style (``color_system`` None: not a terminal),
    nothing recorded or captured, not quiet."""
    return (console.color_system is None and not console.record and not console.quiet
            and not getattr(console, "_buffer_index", 1))


def print_catalogue(checks: list[Check], console: Console) -> None:
    for group, entries in groupby(checks, key=lambda c: c.group):
        console.print(f"[bold]{group}[/]")
        for c in entries:
            console.print(f"  [bold]{c.code}[/] [{STYLE[c.severity]}]{c.severity:<7}[/] {c.subject:<5} "
                          f"{escape(c.description)}",
                          soft_wrap=True)


def catalogue_json(checks: list[Check]) -> str:
    import json  # (``pnpgen checks --json`` only)

    return json.dumps([{"code": c.code, "severity": c.severity, "group": c.group, "subject": c.subject,
                        "description": c.description}
                       for c in checks], ensure_ascii=False, indent=2)
