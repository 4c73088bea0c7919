"""How often Python's garbage collector runs while pnpgen works (one place for a command and a build).

A command's imports, the game it loads and a layout make objects by the hundred thousand, few of them in
cycles: at Python's default (a young collection every 700 objects) a check spent 0.03–0.06 s collecting. The
cycles a large game leaves are collected explicitly (``BuildContext.flush``, ``check.dry``).
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: young objects between two collections while pnpgen works (Python's default: 700)
THRESHOLD = 20_000


@contextmanager
def fewer_collections(freeze: bool = True, threshold: int = THRESHOLD) -> Iterator[None]:
    """The young generation collected every ``threshold`` objects meanwhile (a caller's higher threshold kept), put
    back after. ``freeze``: what exists now (the modules, the loaded game: tens of thousands of objects each full
    collection walked) is frozen (``gc.freeze``) meanwhile and let go after, so a long-running process (``pnpgen
    serve``) frees what a build leaves; a use inside another that froze keeps the outer one's frozen. The same
    objects are freed, later: the output is the same."""
    before = gc.get_threshold()
    freezing = freeze and gc.get_freeze_count() == 0
    if freezing:
        gc.freeze()
    gc.set_threshold(max(before[0], threshold), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        if freezing:
            gc.unfreeze()
