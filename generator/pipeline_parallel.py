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

    Each process takes item after item (what one game's build imported and cached, the next reuses), so
    at most ``jobs`` processes are forked, none for nothing: never more than there are items.

    A KeyboardInterrupt here (Ctrl-C, or SIGTERM made one) is passed on to the running processes as
    ``interrupt_signal(error)``; they stop and clean up, their results are still delivered in order (a
    stopped build's result says so), and the interrupt is raised again if ``deliver`` never said stop.
    The processes are in a process group of their own, so Ctrl-C at a terminal reaches only this one.
    """
    context = multiprocessing.get_context("fork")
    workers: list[tuple[Any, Any]] = []     # (process, the parent's end of its pipe)
    busy: dict[int, int] = {}               # worker → the index of the item it works on
    results: dict[int, Any] = {}
    started = delivered = 0

    def hand_out() -> None:
        nonlocal started
        for n in range(len(workers)):
            if n not in busy and started < len(items) and workers[n][0].is_alive():
                workers[n][1].send(started)
                busy[n] = started
                started += 1

    def collect() -> None:
        if busy:
            wait([workers[n][1] for n in busy] + [workers[n][0].sentinel for n in busy])
        for n, index in list(busy.items()):
            process, conn = workers[n]
            if conn.poll():
                results[index] = conn.recv()
            elif not process.is_alive():
                results[index] = (False, f"it stopped with exit status {process.exitcode}")
            else:
                continue
            del busy[n]

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
            for _ in range(min(jobs, len(items))):
                mine, theirs = context.Pipe()
                process = context.Process(target=_worker, args=(theirs, work, items), daemon=True)
                process.start()
                theirs.close()
                workers.append((process, mine))
            while delivered < len(items):
                hand_out()
                collect()
                if not hand_over():
                    return
        except KeyboardInterrupt as interrupt:
            signum = interrupt_signal(interrupt)
            for process, _ in workers:
                _signal(process, signum)
            while busy:
                collect()
            if hand_over():
                raise
    finally:
        for n, (process, conn) in enumerate(workers):
            if process.is_alive():
                if n in busy:
                    _signal(process, signal.SIGTERM)   # a busy worker is stopped
                with contextlib.suppress(OSError):
                    conn.send(None)                     # and every worker ends
        alive = list(workers)
        while alive:   # read what stopped builds still send, so that none blocks on a full pipe
            wait([conn for _, conn in alive] + [process.sentinel for process, _ in alive])
            for process, conn in list(alive):
                with contextlib.suppress(EOFError, OSError):
                    while conn.poll():
                        conn.recv()
                if not process.is_alive():
                    process.join()
                    conn.close()
                    alive.remove((process, conn))


def _signal(process, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, TypeError):   # gone already, or never started
        os.kill(process.pid, signum)


def _worker(conn, work: Callable[[Any], Any], items: Sequence[Any]) -> None:
    """One process: the index of an item in, its result out, until told to end (None) or stopped."""
    os.setpgrp()
    try:
        while True:
            index = conn.recv()
            if index is None:
                return
            try:
                result = (True, work(items[index]))
            except BaseException as error:  # noqa: BLE001 — handed to the parent, which reports it
                result = (False, "".join(traceback.format_exception_only(type(error), error)).strip())
            conn.send(result)
    except (EOFError, KeyboardInterrupt):   # the parent is gone, or stopped this idle worker
        return
    finally:
        conn.close()
