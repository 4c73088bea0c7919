"""Walking a drawing's primitives in tests: every item with the groups' contents spread out."""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from generator.layout.primitives import Group, Text


def flat(items: Iterable) -> Iterator:
    """Every item of ``items``, each group followed by everything inside it (nested groups too)."""
    for item in items:
        yield item
        if isinstance(item, Group):
            yield from flat(item.items)


def text_items(items: Iterable) -> Iterator[Text]:
    """Every Text in ``items``, inside groups too, in drawing order."""
    return (item for item in flat(items) if isinstance(item, Text))
