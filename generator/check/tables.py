"""PNP2xx — tables: scoring tables cover what the game uses and rise as they claim.

Tables are checked by name: ``route_scoring`` (route length → points) and
``line_bonus`` (number of line types → points). A deck that declares
``follows: {table, key, value}`` must agree with its table.
"""
from __future__ import annotations

from generator.check.registry import Issue, check


def _numeric(table) -> bool:
    return all(isinstance(k, int) and isinstance(v, (int, float)) and not isinstance(v, bool)
               for k, v in table.items())


def _rising(table, what: str, name: str):
    keys = sorted(table)
    for lower, upper in zip(keys, keys[1:]):
        if table[upper] <= table[lower]:
            yield Issue(table.src(upper), f"table {name}: {upper} {what} scores {table[upper]}, not more than "
                                          f"{lower} ({table[lower]}); the table should rise",
                        f"check the values for {lower} and {upper} against the rulebook")


def _not_numbers(table, name: str):
    if not _numeric(table):
        yield Issue(table.src(), f"table {name} should map whole numbers to points", f"write it as {{1: 1, 2: 2, …}}")


@check("PNP201", "error", "the route scoring table lacks a route length the map uses")
def route_scoring_covers_lengths(game):
    table = game.tables.get("route_scoring")
    if table is None or not game.routes:
        return
    yield from _not_numbers(table, "route_scoring")
    first = {}
    for route in game.routes:
        first.setdefault(route.length, route)
    for length in sorted(first):
        if length not in table:
            yield Issue(table.src(), f"table route_scoring has no entry for length {length} "
                                     f"(used by {first[length].a.id}–{first[length].b.id}, {first[length].source})",
                        f"add {length}: <points> to route_scoring")


@check("PNP202", "error", "the route scoring table does not rise with route length")
def route_scoring_rises(game):
    table = game.tables.get("route_scoring")
    if table is not None and _numeric(table):
        yield from _rising(table, "spaces", "route_scoring")


@check("PNP203", "error", "the line bonus table does not cover 1 up to the number of line types")
def line_bonus_covers_lines(game):
    table = game.tables.get("line_bonus")
    if table is None:
        return
    yield from _not_numbers(table, "line_bonus")
    lines = len(game.collections.get("line", {}))
    missing = [n for n in range(1, lines + 1) if n not in table]
    beyond = [k for k in table if isinstance(k, int) and not 1 <= k <= lines]
    if missing:
        yield Issue(table.src(), f"table line_bonus has no entry for {', '.join(map(str, missing))} line type(s) "
                                 f"(the game declares {lines} lines)", "add the missing entries")
    for key in beyond:
        yield Issue(table.src(key), f"table line_bonus has an entry for {key} line types, but the game declares "
                                    f"{lines} lines: no player can reach it",
                    "remove the entry, or declare the missing line types under lines:")


@check("PNP204", "error", "the line bonus table does not rise with the number of line types")
def line_bonus_rises(game):
    table = game.tables.get("line_bonus")
    if table is not None and _numeric(table):
        yield from _rising(table, "line types", "line_bonus")


@check("PNP205", "error", "a card's value differs from the table its deck follows (e.g. carriage points by length)")
def cards_follow_their_table(game):
    for deck in game.decks.values():
        rule = deck.follows
        if rule is None:
            continue
        table = game.tables[rule.table]
        for card in deck.cards:
            key, value = card.values.get(rule.key), card.values.get(rule.value)
            if key not in table:
                yield Issue(card.source, f"{card.ref}: {rule.key} {key} is not in table {rule.table}",
                            f"add {key} to the table, or fix the card's {rule.key}")
            elif table[key] != value:
                yield Issue(card.source, f"{card.ref}: {rule.value} {value}, but table {rule.table} gives "
                                         f"{table[key]} for {rule.key} {key}",
                            f"write {table[key]} (or fix the table at {table.src(key)})")


@check("PNP206", "warning", "an entry of a table that a deck follows has no card")
def table_entries_have_cards(game):
    for deck in game.decks.values():
        rule = deck.follows
        if rule is None:
            continue
        table = game.tables[rule.table]
        used = {card.values.get(rule.key) for card in deck.cards}
        for key in table:
            if key not in used:
                yield Issue(table.src(key), f"table {rule.table}: no card of deck '{deck.id}' has {rule.key} {key}",
                            "add the cards, or remove the entry")
