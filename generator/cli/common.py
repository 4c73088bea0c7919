"""What every subcommand shares: the consoles, the games named, errors printed with their exit status, SIGTERM as Ctrl-C."""
from __future__ import annotations

import signal
import sys
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from generator.errors import Interrupted, PnpgenError, Terminated, output_replaced

err_console = Console(stderr=True, highlight=False, emoji=False)
out_console = Console(highlight=False, emoji=False)




def _fail(error: PnpgenError, prefix: str = "") -> None:
    """Print the error's diagnostics and exit with its class's status: the one place an exit status is chosen
    for an error (2 content cannot be read, 1 cannot be built or the output folder is not free, 130 interrupted)."""
    _print_error(error, prefix)
    sys.exit(error.exit_code)


def _print_error(error: PnpgenError, prefix: str = "") -> None:
    for one in error.diagnostics:
        # a mistake on the command line has no file to point at: no "<content>:" placeholder
        where = f"{escape(str(one.source))}: " if one.source.file is not None else ""
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
