"""PNP60x — setup: distributions placed at the start add up to what the box holds."""
from __future__ import annotations

from generator.check.registry import Issue, check


def _placed(game, attribute: str) -> int:
    """What the places hold of ``attribute`` at setup (passengers: 60 in all)."""
    return sum(place.attrs.get(attribute) or 0 for place in game.collections.get("place", {}).values())


@check("PNP601", "error", "a setup distribution over places does not add up to its declared total (game: setup:)")
def setup_totals(game):
    setup = game.meta.get("setup", {})
    for attribute, total in setup.items():
        placed = _placed(game, attribute)
        if placed != total:
            yield Issue(setup.src(attribute), f"places hold {placed} {attribute} at setup, but setup declares {total}",
                        f"change the places' {attribute}: values (or the total, if the rulebook says otherwise)")


@check("PNP602", "error", "a setup distribution does not use exactly the pieces of its component (setup key = component id)")
def setup_uses_its_pieces(game):
    setup = game.meta.get("setup", {})
    components = {c.id: c for c in game.components()}
    for attribute in setup:
        component = components.get(attribute)
        if component is None:
            continue
        placed = _placed(game, attribute)
        if placed != component.count:
            yield Issue(setup.src(attribute), f"places hold {placed} {attribute} at setup, but component "
                                              f"'{attribute}' makes {component.count}",
                        f"change the places' {attribute}: values or the component's count")
