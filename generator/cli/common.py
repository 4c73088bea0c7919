"""What every subcommand shares: the consoles, the games named, errors printed with their exit status, SIGTERM as Ctrl-C."""
from __future__ import annotations

import builtins
import os
import re
import signal
import sys
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from generator.errors import Interrupted, PnpgenError, Terminated, output_replaced

if TYPE_CHECKING:
    from rich.console import Console

#: the consoles (rich's, highlighting and emoji off), made on first use (``__getattr__``): a check whose output is
#: not a terminal writes its findings plainly (``plain_out``) and never imports rich (0.03 s of a cold check)
err_console: Console
out_console: Console


def __getattr__(name: str) -> Console:
    """``err_console`` and ``out_console``, each made when first asked for and kept."""
    if name not in ("err_console", "out_console"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from rich.console import Console

    console = Console(stderr=name == "err_console", highlight=False, emoji=False)
    globals()[name] = console
    return console


def plain_stdout() -> bool:
    """Whether ``out_console`` would print text as it is, without colour (what rich decides when it makes the
    console, ``Console.is_terminal``): standard output is not a terminal and no environment variable says
    otherwise. Anything uncertain (``FORCE_COLOR``, ``TTY_COMPATIBLE``, IPython, IDLE, a console already made)
    answers False, and rich prints."""
    return _plain("out_console", sys.stdout)


def plain_stderr() -> bool:
    """``plain_stdout`` for ``err_console`` and standard error."""
    return _plain("err_console", sys.stderr)


def _plain(console: str, stream) -> bool:
    if console in globals() or "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False
    if "get_ipython" in vars(builtins) or getattr(sys.stdin, "__module__", "").startswith("idlelib"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:   # closed (rich answers "not a terminal" too)
        return True


class PlainConsole:
    """What ``check.report.print_findings`` asks of a console with no colour, writing to standard output (or error)
    as it is when the findings are printed: a line rich would change (a tab, a control code) is printed by
    ``out_console`` (``err_console``)."""

    color_system = None
    record = False
    quiet = False
    _buffer_index = 0

    def __init__(self, stderr: bool = False) -> None:
        self.stderr = stderr

    @property
    def file(self):
        return sys.stderr if self.stderr else sys.stdout

    def print(self, *objects, **options) -> None:
        getattr(sys.modules[__name__], "err_console" if self.stderr else "out_console").print(*objects, **options)


#: what rich may change in a line it prints (tabs expanded, control codes dropped; "[" may be markup, and rich's
#: escaping of a backslash is its own): such a line goes through rich
_RICH_ONLY = re.compile(r"[\x00-\x09\x0b-\x1f\x7f\[\\]")


def say(text: str, stderr: bool = False, markup: str | Callable[[], str] | None = None) -> None:
    """Print the line ``text`` as rich prints it off a terminal, without rich where the stream is plain
    (``plain_stdout``, ``plain_stderr``); else ``markup`` (the same text in rich's markup, or a function that
    makes it with rich's ``escape``; default ``text`` escaped) through the console, ``soft_wrap`` as every line
    pnpgen prints."""
    if (plain_stderr() if stderr else plain_stdout()) and _RICH_ONLY.search(text) is None:
        stream = sys.stderr if stderr else sys.stdout
        stream.write(text + "\n")
        stream.flush()
        return
    if markup is None:
        from rich.markup import escape

        markup = escape(text)
    elif callable(markup):
        markup = markup()
    getattr(sys.modules[__name__], "err_console" if stderr else "out_console").print(markup, soft_wrap=True)


def _fail(error: PnpgenError, prefix: str = "") -> None:
    """Print the error's diagnostics and exit with its class's status: the one place an exit status is chosen
    for an error (2 content cannot be read, 1 cannot be built or the output folder is not free, 130 interrupted)."""
    _print_error(error, prefix)
    sys.exit(error.exit_code)


def _print_error(error: PnpgenError, prefix: str = "") -> None:
    from rich.markup import escape

    for one in error.diagnostics:
        # a mistake on the command line has no file to point at: no "<content>:" placeholder
        where = f"{escape(str(one.source))}: " if one.source.file is not None else ""
        err_console = sys.modules[__name__].err_console
        err_console.print(f"[bold red]{error.label}[/]: {where}{prefix}{escape(one.message)}", soft_wrap=True)
        if one.hint:
            err_console.print(f"  [cyan]hint[/]: {escape(one.hint)}", soft_wrap=True)



class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be, so that a build it stops cleans up the same way."""


@contextmanager
def _sigterm_as_interrupt():
    def terminate(signum, frame):
        raise _Terminated()

    try:
        previous = signal.signal(signal.SIGTERM, terminate)
    except ValueError:  # not the main thread (an embedding program): leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupted(interrupt: KeyboardInterrupt, building: str | None, out_root: Path) -> Interrupted:
    """The error for a build stopped by Ctrl-C or SIGTERM (exit 130, 143): the staging folder is
    gone and the previous output is as it was (or, stopped just after the swap, the new one is whole)."""
    if building is None:
        text = "nothing was built"
    elif output_replaced(interrupt):
        text = f"{building} was built into {out_root / building}/; the games after it were not"
    else:
        text = f"{building} was not built; previous output left as it was in {out_root / building}/"
    return (Terminated if isinstance(interrupt, _Terminated) else Interrupted)(text)
