"""PNP1xx — counts: what the content generates against what the rulebook promises."""
from __future__ import annotations

from generator.check.registry import Issue, check


@check("PNP101", "error", "a component's count differs from its declared expected count (the rulebook's component list)")
def component_count(game):
    for component in game.components():
        count, expected = component.count, component.expected
        if expected is not None and count != expected:
            yield Issue(component.source,
                        f"{component.kind} '{component.id}' has {count} {component.unit} but declares "
                        f"expected: {expected}",
                        "fix the counts in the content, or change `expected:` if the rulebook's component list "
                        "says otherwise")


@check("PNP102", "error", "a deck's cards per value of a field differ from its expected_by (e.g. 12 per colour, 3 per city)")
def count_per_value(game):
    for deck in game.decks.values():
        by = deck.expected_by
        if by is None:
            continue
        actual = _per_value(deck, by.field)
        expected = _expected_per_value(game, deck, by)
        for key in sorted(set(actual) | set(expected), key=lambda k: (k not in expected, str(k))):
            want, where = expected.get(key, (0, by.source))
            have = actual.get(key, 0)
            if have != want:
                yield Issue(where, f"deck '{deck.id}' has {have} card{'s' if have != 1 else ''} with {by.field} "
                                   f"'{key}', expected_by says {want}",
                            "change the cards' counts, or the expected_by entry if the rulebook says otherwise"
                            if key in expected else f"add '{key}' to expected_by, or remove those cards")


@check("PNP103", "error", "a deck's expected_by does not add up to its expected count")
def expected_by_adds_up(game):
    for deck in game.decks.values():
        by = deck.expected_by
        if by is None:
            continue
        total = sum(count for count, _ in _expected_per_value(game, deck, by).values())
        if total != deck.expected:
            yield Issue(by.source, f"deck '{deck.id}': expected_by adds up to {total}, but expected: is {deck.expected}",
                        "make the per-value counts and the deck's expected: agree (the rulebook's figures)")


def _per_value(deck, field: str) -> dict:
    counts: dict = {}
    for card in deck.cards:
        value = card.values.get(field)
        key = getattr(value, "id", value)
        counts[key] = counts.get(key, 0) + card.count
    return counts


def _expected_per_value(game, deck, by) -> dict:
    """value id → (count, source): the listed values, plus ``each`` for the rest of the collection."""
    expected = {getattr(value, "id", value): (count, where) for value, count, where in by.counts}
    if by.each is not None:
        collection = game.collection_for(deck, deck.field_type(by.field))  # a board's deck: its places
        for key in collection:
            expected.setdefault(key, by.each)
    return expected
