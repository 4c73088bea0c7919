"""What a cards-only build makes at import (issue 14, branch importdiet): the dataclasses a build seldom compares or
prints take ``generator.model``'s shared ``__repr__``/``__eq__``/``__hash__`` rather than compiling their own (three
fewer ``exec``s of generated source per frozen class as its module is imported), and the drawing primitives, compared
and printed in every build, written ones as quick as the compiled. Each must behave as what ``@dataclass`` would have
compiled for it: the face and cache keys are made of these reprs."""
from __future__ import annotations

import dataclasses
import sys

import pytest

from generator import incremental
from generator.layout import deck, flow, images, primitives, sheets
from generator.layout.components import kind, overview
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr
from generator.writers import context

PRIMITIVES = [primitives.Rect, primitives.Circle, primitives.Line, primitives.Polygon, primitives.Text, primitives.Image,
              primitives.Group, primitives.Use, primitives.Form]
#: a repr of its own, not the dataclass's (``spacing`` shown only when set)
OWN_REPR = {primitives.Text}

CLASSES = [images.Picture, images.Placement, images.PictureUse, sheets.Grid, deck.DeckArt, primitives.Page,
           primitives.Document, incremental.RecalledFile, incremental.RecalledBuild, incremental.Recalled, kind.Output,
           flow.Piece, flow.Flow, overview.Shown, context.Written, context.Printable, context.BuildResult,
           context.BuildContext]


#: fields left at their defaults: ``__post_init__`` reckons with them (a flow's paper and columns set its measures)
DEFAULTED = {flow.Flow: {"paper", "columns"}}


def _given(cls) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(cls) if f.init and f.name not in DEFAULTED.get(cls, ())]


def _made(cls, n: int, nested=None, changed: str = ""):
    """An instance whose every field given to ``__init__`` holds a value of its own (``n`` apart), or ``nested``;
    the field ``changed``, another."""
    return cls(**{f.name: (nested if nested is not None and i == 0 else f"{f.name}-{n + i}{'*' * (f.name == changed)}")
                  for i, f in enumerate(_given(cls))})


@pytest.mark.parametrize("cls", CLASSES + PRIMITIVES, ids=lambda c: c.__qualname__)
def test_the_methods_are_the_ones_dataclass_writes(cls):
    fields = [f for f in dataclasses.fields(cls) if f.compare]
    namespace = sys.modules[cls.__module__].__dict__
    made_repr = dataclasses._repr_fn([f for f in dataclasses.fields(cls) if f.repr], namespace)
    made_eq = dataclasses._cmp_fn("__eq__", "==", dataclasses._tuple_str("self", fields),
                                  dataclasses._tuple_str("other", fields), namespace)
    frozen = cls.__dataclass_params__.frozen
    if cls in PRIMITIVES:   # written, not compiled at import
        assert "__eq__" in cls.__dict__ and "__hash__" in cls.__dict__ and "__repr__" in cls.__dict__
    else:
        assert cls.__repr__ is dataclass_repr and cls.__eq__ is dataclass_eq
        assert cls.__hash__ is (dataclass_hash if frozen else None)   # unhashable unless frozen, as @dataclass makes it
    some = [_made(cls, 0), _made(cls, 0), _made(cls, 1), _made(cls, 0, nested=_made(cls, 5)), _made(cls, 0, nested=()),
            *(_made(cls, 0, changed=f.name) for f in _given(cls))]   # each field the only one that differs
    for a in some:
        if cls not in OWN_REPR:
            assert repr(a) == made_repr(a)
        for b in [*some, object(), "x"]:
            assert cls.__eq__(a, b) is made_eq(a, b) or cls.__eq__(a, b) == made_eq(a, b)
        if frozen:
            assert hash(a) == dataclasses._hash_fn(fields, namespace)(a)
    assert some[0] == some[1] and some[0] != some[2] and some[0] is not some[1]
