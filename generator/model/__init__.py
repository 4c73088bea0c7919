"""Model: what a game is — collections, decks of cards, routes, tables."""
from __future__ import annotations

import dataclasses
from _thread import get_ident

_REPR_NAMES: dict[type, tuple[str, ...]] = {}
_RUNNING: set[tuple[int, int]] = set()


def dataclass_repr(self) -> str:
    """The ``__repr__`` ``@dataclass`` writes (the class's qualified name, each field shown ``name=value!r``, and
    ``...`` for an object met again inside its own repr), shared instead of compiled for every class as it is
    imported: the model's classes are many and wide (a Board has 33 fields), and compiling their methods is a
    good part of starting a process. A class takes it with ``@dataclass(repr=False)`` and ``__repr__ =
    dataclass_repr``; the preview's and the cache's keys are made of these reprs, so they must not change
    (tests/test_coldcheck2.py compares each with the one ``@dataclass`` would write)."""
    key = id(self), get_ident()
    if key in _RUNNING:
        return "..."
    _RUNNING.add(key)
    try:
        cls = self.__class__
        names = _REPR_NAMES.get(cls)
        if names is None:
            names = _REPR_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.repr)
        return f"{cls.__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in names)})"
    finally:
        _RUNNING.discard(key)


_COMPARED: dict[type, tuple[str, ...]] = {}


def _compared(cls: type) -> tuple[str, ...]:
    names = _COMPARED.get(cls)
    if names is None:
        names = _COMPARED[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.compare)
    return names


def dataclass_eq(self, other) -> bool:
    """The ``__eq__`` ``@dataclass`` writes (the fields compared as one tuple, only with an object of the same
    class), shared as ``dataclass_repr`` is: ``@dataclass(eq=False)`` and ``__eq__ = dataclass_eq`` (with
    ``__hash__ = dataclass_hash`` for a frozen class, as ``@dataclass`` gives one), for classes seldom compared."""
    if other.__class__ is self.__class__:
        names = _compared(self.__class__)
        return tuple([getattr(self, name) for name in names]) == tuple([getattr(other, name) for name in names])
    return NotImplemented


def dataclass_hash(self) -> int:
    """The ``__hash__`` ``@dataclass`` writes for a frozen class: the hash of its compared fields as one tuple."""
    return hash(tuple([getattr(self, name) for name in _compared(self.__class__)]))
