"""PNP60x — setup: distributions placed at the start add up to what the box holds."""
from __future__ import annotations

from generator.check.registry import Issue, check


@check("PNP601", "error", "a setup distribution over places does not add up to its declared total (game: setup:)")
def setup_totals(game):
    setup = game.meta.get("setup", {})
    places = list(game.collections.get("place", {}).values())
    for attribute, total in setup.items():
        placed = sum(place.attrs.get(attribute) or 0 for place in places)
        if placed != total:
            yield Issue(setup.src(attribute), f"places hold {placed} {attribute} at setup, but setup declares {total}",
                        f"change the places' {attribute}: values (or the total, if the rulebook says otherwise)")
