"""Players for the line family: random legal moves, and a greedy planner.

A bot answers ``bid`` (a number 1 … k: the row slot it wants, chosen without seeing the others' bids)
and ``move`` (phase 2: play a card, discard one, spend a chip). Its only chance is the game's ``rng``.

Phase 2 is solitaire (nobody else's piece changes what a player may do or score), so ``greedy`` plans
its whole phase 2 at its first move: the most points from the stations its moves end on, over every
order of its cards and chips (a memoised search on station, cards left by type and chips left), and
follows the plan. A station is worth the points of the cards that would score there (open cards it
has not marked, its own destinations not reached) plus what a new line adds to its line bonus; after
the last round nothing more is worth keeping, before it the stations still ahead count half (later
rounds bring more cards). It bids for the row card whose type stops at the most valuable stations
ahead (nearest counting most), and after a clash with the row unchanged it takes its second choice
half the time (two greedy bots could otherwise clash on the same slot for ever).
"""
from __future__ import annotations

from generator.simulate.line_engine import LineGame

#: how much a station still ahead at the end of a phase 2 is worth to a greedy bot, before the last round
AHEAD = 0.5
#: a greedy bot discounts a slot it expects another player to bid for by this much (a clash wins nothing)
CLASH = 0.3


class LineBot:
    name = "bot"

    def bid(self, g: LineGame, p: int) -> int:
        raise NotImplementedError

    def move(self, g: LineGame, p: int) -> tuple:
        raise NotImplementedError


def moves(g: LineGame, p: int) -> dict[str, list[tuple]]:
    """Every legal phase-2 move of ``p``, by kind."""
    out: dict[str, list[tuple]] = {"play": [], "discard": [], "chip": []}
    here = g.pos[p]
    for card in g.hands[p]:
        reach = g.reach(g.rules.cards[card][0], here)
        out["play"].extend(("play", card, k) for k in range(1, len(reach) + 1))
        out["discard"].append(("discard", card))
    if g.chips[p]:
        out["chip"].append(("chip",))
    return out


class RandomLineBot(LineBot):
    """Uniform over the bids; in phase 2 uniform over the kinds of legal move, then over the moves of that kind."""

    name = "random"

    def bid(self, g: LineGame, p: int) -> int:
        return g.rng.randint(1, g.rules.bids)

    def move(self, g: LineGame, p: int) -> tuple:
        options = [m for m in moves(g, p).values() if m]
        return g.rng.choice(g.rng.choice(options))


def _slot_scores(g: LineGame, p: int, worth: list[float]) -> list[float]:
    """Per row slot: how well its card's type serves ``p``: the worth of the stations ahead it stops at, the
    nearest counting most."""
    rules, here = g.rules, g.pos[p]
    targets = [s for s in range(here + 1, len(worth)) if worth[s] > 0]
    out = []
    for card in g.row:
        stops = rules.types[rules.cards[card][0]].stops
        out.append(sum(worth[s] / (1 + j) for j, s in enumerate(targets) if s in stops))
    return out


def values(g: LineGame, p: int, public: bool = False) -> list[float]:
    """Per station: the points a move ending there would add for ``p`` now (cards, and the line-bonus step);
    ``public``: only what the others can see (the open cards and the destinations already reached)."""
    rules = g.rules
    lines = {rules.destinations[d].line for d in g.scored(p)}
    have = len({x for x in lines if x >= 0})
    step = rules.line_bonus(have + 1) - rules.line_bonus(have)
    out = [0.0] * len(rules.stations)
    seen_lines: set[int] = set()
    hidden = [] if public else [d for d in g.private[p] if d not in g.completed[p]]
    for d in [d for d in g.open if d not in g.markers[p]] + hidden:
        dest = rules.destinations[d]
        out[dest.station] += dest.points
        if dest.line >= 0 and dest.line not in lines and dest.line not in seen_lines:
            out[dest.station] += step
            seen_lines.add(dest.line)
    return out


class GreedyLineBot(LineBot):
    """Bids for the card that reaches its valuable stations; plans phase 2 for the most points."""

    name = "greedy"

    def __init__(self) -> None:
        self.plan_key: tuple | None = None
        self.memo: dict = {}
        self.worth: list[float] = []
        self.ahead: list[float] = []
        self.rest: list[float] = []    # per station: the worth of every station after it
        self.last_target = 0
        self.last_bid: tuple | None = None

    # --- phase 1 -----------------------------------------------------------------------------------------

    def bid(self, g: LineGame, p: int) -> int:
        g.spend(1 + g.n * (1 + len(g.row)) * (1 + len(g.rules.stations)) // 8)   # every player's view of every slot
        mine = _slot_scores(g, p, values(g, p))
        if not any(mine):
            return g.rng.randint(1, g.rules.bids)   # nothing ahead is worth a card: any slot will do
        wanted: set[int] = set()
        for q in range(g.n):
            if q != p:   # what the others would bid on what this player can see (their open cards, not their hands)
                theirs = _slot_scores(g, q, values(g, q, public=True))
                if any(theirs):
                    wanted.add(max(range(len(theirs)), key=lambda i: (theirs[i], -i)))
        expect = [score * (CLASH if slot in wanted else 1.0) for slot, score in enumerate(mine)]
        order = sorted(range(len(expect)), key=lambda i: (-expect[i], i))
        choice = order[0]
        state = (g.round, tuple(g.row), choice)
        if self.last_bid == state and len(order) > 1 and g.rng.random() < 0.5:
            choice = order[1]
        self.last_bid = (g.round, tuple(g.row), choice)
        return choice + 1

    # --- phase 2 -----------------------------------------------------------------------------------------

    def move(self, g: LineGame, p: int) -> tuple:
        key = (g.round, p)
        if self.plan_key != key:
            self.plan_key, self.memo = key, {}
            self.worth = values(g, p)
            tail = AHEAD if g.round < g.rules.rounds else 0.0
            self.rest = [sum(self.worth[s + 1:]) for s in range(len(self.worth))]
            self.ahead = [tail * r for r in self.rest]
            self.last_target = max((s for s, w in enumerate(self.worth) if w > 0), default=0)
        rules = g.rules
        counts = [0] * len(rules.types)
        for card in g.hands[p]:
            counts[rules.cards[card][0]] += 1
        _value, action = self._best(g, g.pos[p], tuple(counts), g.chips[p])
        kind = action[0]
        if kind == "chip":
            return ("chip",)
        card = next(c for c in sorted(g.hands[p], key=lambda c: rules.cards[c][1]) if rules.cards[c][0] == action[1])
        return ("play", card, action[2]) if kind == "play" else ("discard", card)

    def _best(self, g: LineGame, here: int, counts: tuple, chips: int) -> tuple[float, tuple]:
        """The most points from here with these cards (by type) and chips, and the first move that gets them."""
        key = (here, counts, chips)
        if key in self.memo:
            return self.memo[key]
        g.spend(1 + len(counts))   # a new position weighed: a hand of many types has very many
        worth, last, reach = self.worth, g.last, g.reach_table
        best: tuple[float, tuple] | None = None
        left = chips + sum(counts)
        if not left:
            best = (self.ahead[here], ("none",))
        elif left >= self.last_target - here:
            # enough to walk one station at a time to the last valuable station: every point ahead is had
            # (spending chips first, then any card); nothing is worth more
            action: tuple = ("chip",) if chips else ("discard", next(t for t, k in enumerate(counts) if k))
            best = (self.rest[here], action)
        else:
            step = min(here + 1, last)
            gain = worth[step] if step != here else 0.0
            if chips:
                value = gain + self._best(g, step, counts, chips - 1)[0]
                best = (value, ("chip",))
            for t, k in enumerate(counts):
                if not k:
                    continue
                rest = counts[:t] + (k - 1,) + counts[t + 1:]
                value = gain + self._best(g, step, rest, chips)[0]
                if best is None or value > best[0]:
                    best = (value, ("discard", t))
                if best[0] >= self.rest[here]:
                    break   # every point ahead is had: nothing can do better
                for sections, to in enumerate(reach[t][here], 1):
                    value = worth[to] + self._best(g, to, rest, chips)[0]
                    if value > best[0]:
                        best = (value, ("play", t, sections))
        assert best is not None
        self.memo[key] = best
        return best


LINE_BOTS = {"random": RandomLineBot, "greedy": GreedyLineBot}
