"""One game of the line family (S鉄道で行こう), played from a seed by a list of bots.

All chance comes from one ``random.Random(seed)``. The engine enforces the rules on every move (an
illegal move is ``IllegalMove``, a bug in a bot) and, when asked, logs every event for the referee
(``generator.simulate.line_validate``).

Choices where the rules and the seed are silent (the README lists them; tests pin them):
* every round begins with all train cards (pile, row, discards) shuffled into a new pile and the row
  dealt sorted by number, largest in slot 1; refills go to the free slots in draw order, unsorted;
* phase 1 also ends after ``MAX_BIDS`` bids in a round (bots that keep clashing; reported);
* a clash with the chip pool empty gives no chip;
* a train card moves 1 … advance sections (never 0), and no further than the terminus;
* a card or chip discarded at the terminus moves nothing (a player must still empty their hand);
* a marker or a completed destination needs a move that ends on the station (the start does not count);
* phase 2 begins with the holder of the lowest number (seat 1 when nobody holds a card).

Log events (tuples, first item the kind): ``("open", dests)``, ``("private", p, dests)``,
``("round", r)``, ``("row", cards)`` (the row after a deal or a refill), ``("bids", bids)``,
``("take", p, slot, card)``, ``("chip", p, given)``, ``("drop", card)`` (the slot-1 card after a clash on 1),
``("phase1-end", reason)``, ``("phase2", first)``, ``("play", p, card, to)``, ``("discard", p, card, to)``,
``("spend", p, to)``, ``("pass", p)``, ``("marker", p, dest)``, ``("complete", p, dest)``, ``("end", scores, winners)``.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from generator.limits import MAX_SIMULATE_GAME_WORK
from generator.simulate.engine import IllegalMove, WorkLimit
from generator.simulate.line_rules import LineRules

#: phase 1 of a round ends after this many bids (deterministic bots could clash for ever)
MAX_BIDS = 200


@dataclass
class LineResult:
    """What the report needs from one game (plain data: it crosses process boundaries)."""

    seed: int
    bots: tuple[str, ...]
    scores: list[int]
    winners: list[int]
    tie: str                          # "" | "broken" (by lines) | "shared"
    breakdown: list[dict]             # per player: stamps, destinations, lines (bonus points)
    line_counts: list[int]
    open: list[int]                   # the face-up destination cards
    private: list[list[int]]
    completed: list[list[int]]
    markers: list[list[int]]          # open cards each player marked
    won: list[int]                    # train cards won in phase 1, per type
    played: list[int]                 # … played as a train, per type
    discarded: list[int]              # … discarded to move one station, per type
    dropped: list[int]                # … discarded by a clash on slot 1, per type
    chips_taken: list[int]            # per player
    chips_spent: list[int]
    chips_missed: int                 # clashes when the pool was empty
    bids: list[int]                   # bids per round
    clashes: list[int]                # bids with a clash, per round
    clashed_players: list[int]        # players who clashed, per round
    bid_limit: int                    # rounds whose phase 1 hit MAX_BIDS
    visits: list[int]                 # moves ending at each station
    turns: int                        # phase-2 moves (passes not counted)
    final: list[int]                  # each player's station at the end
    round_ends: list[list[int]]       # each player's station at the end of each round
    log: list = field(default_factory=list)
    work: int = 0                     # steps of work the game took (``LineGame.spend``)
    end: str = ""                     # "work limit" when the game was stopped there; "" when every round was played


class LineGame:
    """The state of one game. Bots read it and answer ``bid`` and ``move``."""

    def __init__(self, rules: LineRules, bots: list, seed: int, log: bool = False):
        n = len(bots)
        if not rules.players[0] <= n <= rules.players[1]:
            raise ValueError(f"{rules.game} is played by {rules.players[0]}–{rules.players[1]} players, not {n}")
        self.rules, self.bots, self.n, self.seed = rules, bots, n, seed
        self.work, self.work_limit, self.end = 0, MAX_SIMULATE_GAME_WORK, ""
        self.rng = random.Random(seed)
        self.logging = log
        self.log: list = []
        self.last = len(rules.stations) - 1
        #: per type, per station: the stations a card can end on from there (see ``reach``)
        self.reach_table = [[self.reach(t, s) for s in range(len(rules.stations))] for t in range(len(rules.types))]
        self.pile: list[int] = list(range(len(rules.cards)))
        self.row: list[int] = []
        self.discards: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.chips = [0] * n
        self.pool = rules.chips
        self.pos = [0] * n
        dests = list(range(len(rules.destinations)))
        self.rng.shuffle(dests)
        self.open = dests[:rules.open]
        self.private = [dests[rules.open + p * rules.private: rules.open + (p + 1) * rules.private] for p in range(n)]
        self.markers: list[list[int]] = [[] for _ in range(n)]
        self.completed: list[list[int]] = [[] for _ in range(n)]
        self.round = 1
        self.phase = 0
        self.bid_count = 0
        types = len(rules.types)
        self.won, self.played, self.discarded, self.dropped = [0] * types, [0] * types, [0] * types, [0] * types
        self.chips_taken, self.chips_spent, self.chips_missed = [0] * n, [0] * n, 0
        self.bids = [0] * rules.rounds       # per round
        self.clashes = [0] * rules.rounds
        self.clashed = [0] * rules.rounds
        self.bid_limit = 0
        self.visits = [0] * len(rules.stations)
        self.turns = 0
        self.round_ends: list[list[int]] = []
        self._log("open", tuple(self.open))
        for p in range(n):
            self._log("private", p, tuple(self.private[p]))

    # --- the game ----------------------------------------------------------------------------------------

    def spend(self, steps: int) -> None:
        """Count ``steps`` of work (bots weighing bids and moves); past the game's limit the game stops (``play``)."""
        self.work += steps
        if self.work > self.work_limit:
            raise WorkLimit

    def play(self) -> LineResult:
        try:
            for r in range(1, self.rules.rounds + 1):
                self.round = r
                self._log("round", r)
                self.phase1()
                self.phase2()
                self.round_ends.append(list(self.pos))
        except WorkLimit:   # scored as it stands; its log ends mid-round, so the referee does not replay it
            self.end = "work limit"
        return self._finish()

    def deal_row(self) -> None:
        """A round's start: every train card back into one shuffled pile, the row dealt largest number first."""
        self.pile.extend(self.row)
        self.pile.extend(self.discards)
        self.row, self.discards = [], []
        self.pile.sort()
        self.rng.shuffle(self.pile)
        k = self.rules.bids
        if len(self.pile) >= k:
            self.row = sorted((self.pile.pop() for _ in range(k)), key=lambda c: -self.rules.cards[c][1])
            self._log("row", tuple(self.row))

    def phase1(self) -> None:
        self.phase = 1
        self.deal_row()
        if len(self.row) < self.rules.bids:
            self._log("phase1-end", "pile")
            return
        while True:
            if self.bids[self.round - 1] >= MAX_BIDS:
                self.bid_limit += 1
                self._log("phase1-end", "bid limit")
                return
            if not self.bid():
                self._log("phase1-end", "pile")
                return

    def bid(self) -> bool:
        """One simultaneous bid; False when the row cannot be filled again (phase 1 is over)."""
        rules, k = self.rules, self.rules.bids
        bids = tuple(self.bots[p].bid(self, p) for p in range(self.n))
        for p, b in enumerate(bids):
            if not isinstance(b, int) or not 1 <= b <= k:
                raise IllegalMove(f"player {p} bids {b!r}: the number cards are 1–{k}")
        self._log("bids", bids)
        r = self.round - 1
        self.bids[r] += 1
        count = Counter(bids)
        gone: set[int] = set()
        if any(c > 1 for c in count.values()):
            self.clashes[r] += 1
        for p, b in enumerate(bids):
            if count[b] == 1:
                card = self.row[b - 1]
                self.hands[p].append(card)
                self.won[rules.cards[card][0]] += 1
                gone.add(b - 1)
                self._log("take", p, b, card)
            else:
                self.clashed[r] += 1
                given = self.pool is None or self.pool > 0
                if given:
                    self.chips[p] += 1
                    self.chips_taken[p] += 1
                    if self.pool is not None:
                        self.pool -= 1
                else:
                    self.chips_missed += 1
                self._log("chip", p, given)
        if count[1] > 1:
            card = self.row[0]
            self.discards.append(card)
            self.dropped[rules.cards[card][0]] += 1
            gone.add(0)
            self._log("drop", card)
        self.row = [c for i, c in enumerate(self.row) if i not in gone]
        need = k - len(self.row)
        if need > len(self.pile):
            return False
        if need:
            self.row.extend(self.pile.pop() for _ in range(need))
            self._log("row", tuple(self.row))
        return True

    def phase2(self) -> None:
        self.phase = 2
        rules, n = self.rules, self.n
        held = [(rules.cards[c][1], p) for p in range(n) for c in self.hands[p]]
        first = min(held)[1] if held else 0
        self._log("phase2", first)
        p, passes = first, 0
        while passes < n:
            self.spend(1 + len(self.hands[p]))
            if self.hands[p] or self.chips[p]:
                self.move(p, self.bots[p].move(self, p))
                passes = 0
            else:
                self._log("pass", p)
                passes += 1
            p = (p + 1) % n

    # --- moves -------------------------------------------------------------------------------------------

    def reach(self, kind: int, station: int) -> list[int]:
        """The stations a card of this type can end on from ``station`` (1 … advance sections), nearest first;
        empty when the type does not stop there."""
        t = self.rules.types[kind]
        if station not in t.stops:
            return []
        at = t.stops.index(station)
        return list(t.stops[at + 1: at + 1 + t.advance])

    def step(self, station: int) -> int:
        return min(station + 1, self.last)

    def move(self, p: int, action: tuple) -> None:
        kind = action[0]
        here = self.pos[p]
        if kind == "play":
            _, card, sections = action
            if card not in self.hands[p]:
                raise IllegalMove(f"player {p} plays train card {card}, which they do not hold")
            t = self.rules.cards[card][0]
            reach = self.reach(t, here)
            if not isinstance(sections, int) or not 1 <= sections <= len(reach):
                raise IllegalMove(f"player {p} plays a {self.rules.types[t].id} card {sections} sections from "
                                  f"{self.rules.stations[here]} ({len(reach)} possible)")
            self.hands[p].remove(card)
            self.discards.append(card)
            self.played[t] += 1
            to = reach[sections - 1]
            self._log("play", p, card, to)
        elif kind == "discard":
            card = action[1]
            if card not in self.hands[p]:
                raise IllegalMove(f"player {p} discards train card {card}, which they do not hold")
            self.hands[p].remove(card)
            self.discards.append(card)
            self.discarded[self.rules.cards[card][0]] += 1
            to = self.step(here)
            self._log("discard", p, card, to)
        elif kind == "chip":
            if self.chips[p] < 1:
                raise IllegalMove(f"player {p} spends a chip they do not have")
            self.chips[p] -= 1
            self.chips_spent[p] += 1
            if self.pool is not None:
                self.pool += 1
            to = self.step(here)
            self._log("spend", p, to)
        else:
            raise IllegalMove(f"player {p}: unknown or illegal move {action!r} (a player holding cards or chips "
                              f"cannot pass)")
        self.turns += 1
        if to != here:
            self.pos[p] = to
            self.arrive(p, to)

    def arrive(self, p: int, station: int) -> None:
        """A move ended here: a marker on an open card of the station, a private card of it completed."""
        self.visits[station] += 1
        dests = self.rules.destinations
        for d in self.open:
            if dests[d].station == station and d not in self.markers[p]:
                self.markers[p].append(d)
                self._log("marker", p, d)
        for d in self.private[p]:
            if dests[d].station == station and d not in self.completed[p]:
                self.completed[p].append(d)
                self._log("complete", p, d)

    # --- the end -----------------------------------------------------------------------------------------

    def scored(self, p: int) -> list[int]:
        """The destination cards that score for ``p``: open cards with their marker, completed private cards."""
        return self.markers[p] + self.completed[p]

    def _finish(self) -> LineResult:
        rules, n = self.rules, self.n
        breakdown, counts = [], []
        for p in range(n):
            lines = {rules.destinations[d].line for d in self.scored(p) if rules.destinations[d].line >= 0}
            counts.append(len(lines))
            breakdown.append({"stamps": sum(rules.destinations[d].points for d in self.markers[p]),
                              "destinations": sum(rules.destinations[d].points for d in self.completed[p]),
                              "lines": rules.line_bonus(len(lines))})
        scores = [sum(b.values()) for b in breakdown]
        top = max(scores)
        leaders = [p for p in range(n) if scores[p] == top]
        tie = ""
        if len(leaders) > 1:
            most = max(counts[p] for p in leaders)
            winners = [p for p in leaders if counts[p] == most]
            tie = "shared" if len(winners) > 1 else "broken"
            leaders = winners
        self._log("end", tuple(scores), tuple(leaders))
        return LineResult(seed=self.seed, bots=tuple(b.name for b in self.bots), scores=scores, winners=leaders, tie=tie,
                          breakdown=breakdown, line_counts=counts, open=list(self.open),
                          private=[list(x) for x in self.private], completed=self.completed, markers=self.markers,
                          won=self.won, played=self.played, discarded=self.discarded, dropped=self.dropped,
                          chips_taken=self.chips_taken, chips_spent=self.chips_spent, chips_missed=self.chips_missed,
                          bids=self.bids, clashes=self.clashes, clashed_players=self.clashed, bid_limit=self.bid_limit,
                          visits=self.visits, turns=self.turns, final=list(self.pos), round_ends=self.round_ends,
                          log=self.log, work=self.work, end=self.end)

    def _log(self, *event) -> None:
        if self.logging:
            self.log.append(event)
