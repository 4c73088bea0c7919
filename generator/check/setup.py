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


@check("PNP602", "error", "a setup distribution does not use exactly the pieces of its component (setup key = component id)")
def setup_uses_its_pieces(game):
    setup = game.meta.get("setup", {})
    components = {c["id"]: c for c in game.components()}
    places = list(game.collections.get("place", {}).values())
    for attribute in setup:
        component = components.get(attribute)
        if component is None:
            continue
        placed = sum(place.attrs.get(attribute) or 0 for place in places)
        if placed != component["count"]:
            yield Issue(setup.src(attribute), f"places hold {placed} {attribute} at setup, but component "
                                              f"'{attribute}' makes {component['count']}",
                        f"change the places' {attribute}: values or the component's count")
