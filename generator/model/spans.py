"""Inline text in one style: what rich text is made of, in rules and on cards alike.

A module of its own so that laying out a card (``layout.richtext``) does not import the rules' model
(``model.rules``, and the worked examples and the board under it); ``model.rules`` names them too.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.model import dataclass_repr


@dataclass(frozen=True, repr=False)
class Span:
    """A run of inline text in one style (``layout.richtext`` parses and draws them), or one inline icon."""

    __repr__ = dataclass_repr

    text: str
    bold: bool = False
    italic: bool = False
    color: str | None = None   # "#rrggbb"; None: the colour of the text around it
    icon: str = ""             # an inline icon's name (``text`` is then ":name:", as written)
    #: a game's own icon file: (absolute path, sha256 of its bytes); None for a built-in icon
    picture: tuple[str, str] | None = None


Spans = tuple[Span, ...]
