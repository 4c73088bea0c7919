"""PNP1xx — counts: what the content generates against what the rulebook promises."""
from __future__ import annotations

from generator.check.registry import Issue, check


@check("PNP101", "error", "a component's count differs from its declared expected count (the rulebook's component list)")
def component_count(game):
    for component in game.components():
        count, expected = component["count"], component["expected"]
        if expected is not None and count != expected:
            yield Issue(component["source"],
                        f"{component['kind']} '{component['id']}' has {count} {_unit(component)} but declares "
                        f"expected: {expected}",
                        "fix the counts in the content, or change `expected:` if the rulebook's component list "
                        "says otherwise")


def _unit(component: dict) -> str:
    return component.get("unit") or ("cards" if component["kind"] == "deck" else "pieces")
