"""PNP90x — words: every word pnpgen prints comes from the game's language (templates/catalogues/)."""
from __future__ import annotations

from generator.check.registry import Issue, check
from generator.layout.components import KINDS


@check("PNP901", "error", "the catalogue of the game's language lacks a word pnpgen prints (it would print as ⟨key⟩)")
def catalogue_complete(game):
    words = game.words
    missing = list(words.missing)
    missing += sorted({KINDS[part.kind].label_key for part in game.parts.values()} - set(words) - set(missing))
    for key in missing:
        yield Issue(words.source or game.source, f"the catalogue for {words.language} has no '{key}'",
                    f"add `{key}: …` to the game's `words:` section (or to templates/catalogues/{words.language}.yaml)",
                    subject=(key,))
