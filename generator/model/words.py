"""The words pnpgen itself prints (table headers, legends, the cover, footers), in the game's language.

``generator.load.catalogue`` fills a ``Words`` from ``templates/catalogues/<language>.yaml``
and the game's own ``words:`` section; layout, writers and rules.md read it as
``game.words["table.total"]`` or ``game.words("pnp.items", count=3)``. A key the
catalogue lacks prints as ``⟨key⟩`` (never as another language's word) and is
reported by the checker (PNP901).
"""
from __future__ import annotations

from generator.errors import Source


class Words(dict):
    """Catalogue key → printed text, for one language."""

    def __init__(self, entries=(), language: str = "ja", source: Source | None = None,
                 missing: tuple[str, ...] = ()):
        super().__init__(entries)
        self.language = language
        #: where the game names its language (``game: language:``), for findings about the catalogue
        self.source = source
        #: keys the reference catalogue (ja) has and this one lacks, in catalogue order (a component kind's
        #: ``kind.<name>`` is checked against the kinds the game uses: PNP901)
        self.missing = missing

    def __missing__(self, key: str) -> str:
        return f"⟨{key}⟩"

    def __call__(self, key: str, **values) -> str:
        """The entry for ``key`` with its ``{placeholders}`` filled from ``values``."""
        text = self[key]
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            return text

    def kind(self, kind: str) -> str:
        """How this language names a kind of component or printed part ("deck", "board tiles", "die")."""
        key = kind_key(kind)
        return self.get(key, kind)


def kind_key(kind: str) -> str:
    """The catalogue key of a kind: ``kind.board-tiles`` for "board tiles"."""
    return "kind." + kind.replace(" ", "-")
