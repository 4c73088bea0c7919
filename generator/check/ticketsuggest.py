"""``pnpgen tickets suggest``: propose a deck of tickets for a map, valued at their shortest paths.

A seeded greedy: the candidates are every pair of places with a way between them (sorted); each step
adds the candidate that gains most on the ``deckscore`` measures — routes newly reached, places newly
named — and costs least — near-duplicates of tickets already chosen, tickets already at its value
(spread of lengths), the crowding of its busiest route — plus a seeded jitter below one point, so the
same seed gives the same deck and another seed another good deck. With ``mix`` (short, long), the
candidates above the median value are long ones and the deck holds that proportion of each.
"""
from __future__ import annotations

import bisect
import itertools
import random
from collections import Counter, defaultdict

from generator.check.stats import usable_tracks
from generator.errors import ContentError
from generator.limits import MAX_TICKET_CANDIDATES, MAX_TICKET_PAIRS, MAX_TICKET_WORK
from generator.model.network import network

#: weights of the greedy's gains and costs (routes reached matter most, near-duplicates hurt most)
NEW_ROUTE, NEW_PLACE, NEAR_DUPLICATE, SAME_VALUE, CROWDING = 3.0, 2.0, 4.0, 1.0, 1.0


def suggest(game, count: int, mix: tuple[int, int] | None = None, seed: int = 0,
            min_value: int = 1) -> list[tuple[str, str, int]]:
    """``count`` tickets (start id, end id, value) in the order chosen, none worth less than ``min_value``;
    ContentError if the game has no map or fewer such pairs of connected places than ``count``."""
    if not game.routes:
        raise ContentError(None, f"{game.id} has no map (no routes): there are no shortest paths to value tickets by",
                           "pnpgen tickets suggest needs a game with `routes:` between its places")
    net = network(game)
    places = game.collections.get("place", {})
    ids = sorted(places)
    candidates = _candidates(net, places, ids, seed, min_value, max(1, MAX_TICKET_WORK // count))
    if len(candidates) < count:
        sampled = len(ids) * (len(ids) - 1) // 2 > len(candidates) and _was_sampled(candidates, count)
        raise ContentError(None, f"{game.id}'s map has {len(candidates)} pairs of connected places worth "
                                 f"{min_value} or more{' among those valued' if sampled else ''}: {count} different "
                                 f"tickets cannot be drawn from them"
                                 + (" (a map this large is valued on a sample of its pairs: limits.MAX_TICKET_CANDIDATES,"
                                    " MAX_TICKET_WORK)" if sampled else ""),
                           "ask for fewer (--count) or lower --min-value")
    quota = None
    median = sorted(c[2] for c in candidates)[len(candidates) // 2]
    if mix is not None:
        longs = round(count * mix[1] / (mix[0] + mix[1]))
        quota = {False: count - longs, True: longs}
        available = Counter(c[2] > median for c in candidates)
        if any(available[kind] < quota[kind] for kind in quota):
            raise ContentError(None, f"{game.id}'s map has {available[False]} short and {available[True]} long pairs "
                                     f"of places (long: above {median} spaces): too few for --mix {mix[0]}:{mix[1]}",
                               "ask for fewer tickets or another mix")
    tracks = usable_tracks(game, max(game.players) if game.players else None)
    adjacent = net.pairs
    rng = random.Random(seed)
    reached: set[tuple[str, str]] = set()
    named: set[str] = set()
    values: Counter[int] = Counter()
    load: defaultdict[tuple[str, str], float] = defaultdict(float)
    chosen: list[tuple[str, str, int]] = []
    taken: set[int] = set()

    def close(x: str, y: str) -> bool:
        return x == y or ((x, y) if x <= y else (y, x)) in adjacent

    # kept per candidate and brought up to date after each pick (the same numbers a recount gives, not
    # recounted for every candidate at every step): routes of its paths not reached yet, near-duplicates chosen
    fresh = [len(share) for _, _, _, share in candidates]
    dups = [0] * len(candidates)
    by_edge: defaultdict[tuple[str, str], list[int]] = defaultdict(list)
    for index, (_, _, _, share) in enumerate(candidates):
        for edge in share:
            by_edge[edge].append(index)
    for _ in range(count):
        best, best_score = -1, 0.0
        for index, (a, b, value, share) in enumerate(candidates):
            if index in taken or (quota is not None and quota[value > median] == 0):
                continue
            crowd = max((load.get(e, 0.0) + s) / max(tracks.get(e, 1), 1) for e, s in share.items())
            score = (NEW_ROUTE * fresh[index] + NEW_PLACE * len({a, b} - named)
                     - NEAR_DUPLICATE * dups[index] - SAME_VALUE * values[value] - CROWDING * crowd + rng.random())
            if best < 0 or score > best_score:
                best, best_score = index, score
        a, b, value, share = candidates[best]
        taken.add(best)
        if quota is not None:
            quota[value > median] -= 1
        for edge in share:
            if edge not in reached:
                for index in by_edge[edge]:
                    fresh[index] -= 1
        reached.update(share)
        named.update((a, b))
        values[value] += 1
        for edge, part in share.items():
            load[edge] += part
        chosen.append((a, b, value))
        for index, (c, d, _, _) in enumerate(candidates):
            dups[index] += (close(a, c) and close(b, d)) or (close(a, d) and close(b, c))
    return chosen


def _candidates(net, places, ids: list[str], seed: int, min_value: int, work: int) -> list[tuple]:
    """(a, b, value, share of a ticket on each route of its shortest paths) for every pair of connected places
    worth ``min_value`` or more, in sorted order. A pair costs two shortest-path searches, and the greedy scores
    it and each route of its paths at every step: on a map of more than ``MAX_TICKET_CANDIDATES`` pairs, or
    whose pairs and their routes number more than ``work`` (MAX_TICKET_WORK over the steps; a 14 × 14 grid of
    equal routes: 19,110 pairs crossing 5 million routes, 47 s), the pairs are taken in an order drawn with the
    seed until either is reached."""
    kept: list[tuple[int, tuple]] = []
    shares = 0
    for index, (a, b) in _pairs_in_order(ids, seed):
        if len(kept) >= MAX_TICKET_CANDIDATES or shares + len(kept) >= work:
            break
        value = net.shortest(places[a], places[b])
        if not value or value < min_value:
            continue
        paths = net.shortest_paths(places[a], places[b])
        share: defaultdict[tuple[str, str], float] = defaultdict(float)
        for path in paths:
            for x, y in zip(path, path[1:]):
                share[(x, y) if x <= y else (y, x)] += 1 / len(paths)
        shares += len(share)
        kept.append((index, (a, b, value, share)))
    return [candidate for _, candidate in sorted(kept, key=lambda item: item[0])]


def _pairs_in_order(ids: list[str], seed: int):
    """(index, (a, b)) for the pairs of ``ids`` (index: the pair's place in the list of every pair, a before b), in an
    order drawn with the seed: every pair, shuffled; on a map of more than MAX_TICKET_PAIRS pairs, that many drawn
    without listing them all (8,000 places have 32 million pairs: listing and shuffling them took 3 GB)."""
    count = len(ids)
    total = count * (count - 1) // 2
    if total <= MAX_TICKET_PAIRS:
        every = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
        order = list(range(total))
        random.Random(seed).shuffle(order)
        return ((index, every[index]) for index in order)
    starts = list(itertools.accumulate(count - 1 - i for i in range(count - 1)))   # pairs before row i + 1

    def pair(index: int) -> tuple[str, str]:
        row = bisect.bisect_right(starts, index)
        column = index - (starts[row - 1] if row else 0)
        return ids[row], ids[row + 1 + column]
    return ((index, pair(index)) for index in random.Random(seed).sample(range(total), MAX_TICKET_PAIRS))


def _was_sampled(candidates: list[tuple], count: int) -> bool:
    """Whether ``_candidates`` stopped at a bound before it had valued every pair."""
    shares = sum(len(share) for *_, share in candidates)
    return len(candidates) >= MAX_TICKET_CANDIDATES or shares + len(candidates) >= max(1, MAX_TICKET_WORK // count)
