"""Several games built at once, each in a process of its own, their results handed back in the order named.

``pnpgen build A B C -j 2`` builds A and B side by side, then C; what each build printed is shown
game by game in the order the games were named, exactly as one after another would have shown it,
and the first game that fails stops the rest as a failure stops a sequential build: the builds still
running are stopped the way Ctrl-C stops one (their staging folders removed, the previous output
left), and games not yet started are never started. Processes are forked: they start with
everything this one has imported and registered (fonts, templates), so a build in one costs what
it costs here.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import wait
from typing import Any

from generator.errors import BuildError


def available() -> bool:
    """Whether games can be built in parallel here (processes are forked: not on Windows)."""
    return "fork" in multiprocessing.get_all_start_methods()


def default_jobs() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:   # not on Linux
        return os.cpu_count() or 1


def run_in_order(items: Sequence[Any], work: Callable[[Any], Any], jobs: int,
                 deliver: Callable[[Any, Any], bool],
                 interrupt_signal: Callable[[BaseException], int] = lambda error: signal.SIGINT) -> None:
    """``work(item)`` for each item, in up to ``jobs`` processes at once; ``deliver(item, result)`` is called
    in the items' order as soon as an item and all before it are done. ``deliver`` returning False stops:
    the processes still running are sent SIGTERM (they stop as a build stops on it) and waited for, and
    no other item is started. A process that dies without a result is a ``BuildError``.

    A KeyboardInterrupt here (Ctrl-C, or SIGTERM made one) is passed on to the running processes as
    ``interrupt_signal(error)``; they stop and clean up, their results are still delivered in order (a
    stopped build's result says so), and the interrupt is raised again if ``deliver`` never said stop.
    The processes are in a process group of their own, so Ctrl-C at a terminal reaches only this one.
    """
    context = multiprocessing.get_context("fork")
    running: dict[int, tuple[Any, Any]] = {}    # index → (process, its end of the pipe)
    results: dict[int, Any] = {}
    started = delivered = 0

    def collect(block: bool) -> None:
        if block and running:
            wait([conn for _, conn in running.values()] + [process.sentinel for process, _ in running.values()])
        for index, (process, conn) in list(running.items()):
            if conn.poll():
                ok, value = conn.recv()
            elif not process.is_alive():
                ok, value = False, f"it stopped with exit status {process.exitcode}"
            else:
                continue
            process.join()
            conn.close()
            del running[index]
            results[index] = (ok, value)

    def hand_over() -> bool:
        nonlocal delivered
        while delivered in results:
            ok, value = results.pop(delivered)
            if not ok:
                raise BuildError(None, f"the process building {items[delivered]} failed: {value}",
                                 "build that game alone (-j 1) to see the whole error")
            keep_going = deliver(items[delivered], value)
            delivered += 1
            if not keep_going:
                return False
        return True

    try:
        try:
            while delivered < len(items):
                while started < len(items) and len(running) < jobs:
                    receiver, sender = context.Pipe(duplex=False)
                    process = context.Process(target=_child, args=(sender, work, items[started]), daemon=True)
                    process.start()
                    sender.close()
                    running[started] = (process, receiver)
                    started += 1
                collect(block=True)
                if not hand_over():
                    return
        except KeyboardInterrupt as interrupt:
            signum = interrupt_signal(interrupt)
            for process, _ in running.values():
                _signal(process, signum)
            while running:
                collect(block=True)
            if hand_over():
                raise
    finally:
        for process, _ in running.values():
            _signal(process, signal.SIGTERM)
        for process, conn in running.values():
            process.join()
            conn.close()


def _signal(process, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, TypeError):   # gone already, or never started
        os.kill(process.pid, signum)


def _child(conn, work: Callable[[Any], Any], item: Any) -> None:
    os.setpgrp()
    try:
        result = (True, work(item))
    except BaseException as error:  # noqa: BLE001 — handed to the parent, which reports it
        result = (False, "".join(traceback.format_exception_only(type(error), error)).strip())
    conn.send(result)
    conn.close()
