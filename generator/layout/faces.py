"""Faces drawn once per game, whoever asks: the checks, the checker's dry layout, the build, the rule sheet.

``pnpgen check`` lays every face out for the card checks and again for the
build's own layout (whose rule sheet pictures some of them a third time).
A ``SharedFaceRenderer`` draws a face once per game and hands a later asker
the same form, with the same print problems replayed to its own
``on_print_problem`` (or raised, without one), and the same error if the face
could not be drawn: as if it had drawn it itself.
"""
from __future__ import annotations

from generator.errors import BuildError
from generator.layout.cardface import FaceRenderer
from generator.model.game import CardGeometry


def kept_with(game, name: str) -> dict:
    """A dict that lives exactly as long as ``game`` (stored on it: a global table of games would keep
    every game loaded in a process alive, as the cached values refer back to it)."""
    return game.__dict__.setdefault(f"_kept_{name}", {})


def _key(layout_name: str, context: dict, what: str, src, prefix: str, layout_src) -> tuple[tuple, tuple]:
    """The face's key, one flat tuple (a deck of 100,000 cards keeps 100,000 of them), and the model objects it
    names by identity: values by value where that is safe (geometry, plain data), model objects by ``id``, kept
    alive with the face so that no later object takes the same id."""
    key: list = [layout_name, what, prefix, *_place(src), *_place(layout_src)]
    kept = []
    for name, value in sorted(context.items()):
        if value is None or isinstance(value, (str, int, float, bool, CardGeometry)):
            key += (name, "=", value)
        else:
            key += (name, "id", id(value))
            kept.append(value)
    return tuple(key), tuple(kept)


def _place(src) -> tuple:
    """A source as a key: its fields, not its text (``str`` resolves the file's path, 0.1 ms a card)."""
    return (None, None, None) if src is None else (src.file, src.line, src.column)


class SharedFaceRenderer(FaceRenderer):
    def face(self, layout_name: str, context: dict, what: str, src, prefix: str, layout_src=None):
        key, named = _key(layout_name, context, what, src, prefix, layout_src)
        drawn = kept_with(self.game, "faces")
        if key not in drawn:
            problems, own = [], self.on_print_problem
            self.on_print_problem = lambda kind, error: problems.append((kind, error))
            try:
                form, error = super().face(layout_name, context, what, src, prefix, layout_src), None
            except BuildError as exc:   # a ContentError (no such layout) is not kept: it stops everyone
                form, error = None, exc
            finally:
                self.on_print_problem = own
            drawn[key] = (form, error, tuple(problems), named)  # ``named``: its objects' ids stay theirs
        form, error, problems, _named = drawn[key]
        for kind, problem in problems:
            self._print_problem(kind, problem)
        if error is not None:
            raise error
        return form
