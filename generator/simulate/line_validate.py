"""The line family's referee: replays a game's log against the rules, reading the model on its own.

It shares nothing with ``line_engine`` but the log format: stations are ids, a train type's stops a
list of ids, and every outcome (who takes which card after a bid, who gets a chip, which card a clash
on 1 throws away, where a move ends, which markers and destinations follow, the scores and winners)
is worked out here again and compared with what the engine logged. ``replay`` returns the problems
found (empty: a legal game).
"""
from __future__ import annotations

from generator.model.game import Game

#: phase 1 may stop after this many bids in a round (the engine's guard against bots clashing for ever)
BID_LIMIT = 200


class _Model:
    """What the referee reads off the model: the line, the train types, the cards."""

    def __init__(self, game: Game):
        boards = [b for b in game.boards.values() if b.kind == "line" and b.stations]
        stations = boards[0].stations if boards else list(game.collections["station"].values())
        self.line = [s.id for s in stations]
        self.stops = {t.id: [s.id for s in t.attrs["stops"]] for t in game.collections["train_type"].values()}
        self.advance = {t.id: int(t.attrs["advance"]) for t in game.collections["train_type"].values()}
        train = next(d for d in game.decks.values() if "train_type" in d.fields.values())
        kind = next(k for k, v in train.fields.items() if v == "train_type")
        self.cards = []   # (type id, number) per printed card, in deck order
        for c in train.cards:
            self.cards += [(c.values[kind].id, int(c.values["number"]))] * c.count
        dest = next(d for d in game.decks.values() if "station" in d.fields.values() and d.fields.get("points") == "int")
        at = next(k for k, v in dest.fields.items() if v == "station")
        line = next((k for k, v in dest.fields.items() if v == "line"), None)
        self.dests = []   # (station id, points, line id or None)
        for c in dest.cards:
            self.dests += [(c.values[at].id, int(c.values["points"]), c.values[line].id if line else None)] * c.count
        numbers = next(d for d in game.decks.values() if d.fields.get("number") == "int" and "player" in d.fields
                       and d is not train)
        self.slots = max(int(c.values["number"]) for c in numbers.cards)
        self.bonus = {int(k): int(v) for k, v in game.tables.get("line_bonus", {}).items()}
        line_boards = [b for b in game.boards.values() if b.kind == "line"]
        self.rounds = line_boards[0].rounds if line_boards and line_boards[0].rounds else 3
        open_slots = [s.count for s in line_boards[0].slots if not s.numbered] if line_boards else []
        self.open = open_slots[0] if open_slots else 5
        chips = game.parts.get("chips")
        self.chips = chips.count if chips is not None else None

    def bonus_for(self, count: int) -> int:
        rows = [k for k in self.bonus if k <= count]
        return self.bonus[max(rows)] if rows else 0


def replay(game: Game, log: list, players: int) -> list[str]:
    """Every problem with the game in ``log`` (empty: every move was legal and the scores are right)."""
    m = _Model(game)
    problems: list[str] = []

    def bad(i: int, event: tuple, what: str) -> None:
        if len(problems) < 20:
            problems.append(f"event {i} {event[:4]}: {what}")

    where = [m.line[0]] * players
    hands: list[list[int]] = [[] for _ in range(players)]
    chips = [0] * players
    pool = m.chips
    open_cards: list[int] = []
    private: list[list[int]] = [[] for _ in range(players)]
    marked: list[set[int]] = [set() for _ in range(players)]
    done: list[set[int]] = [set() for _ in range(players)]
    row: list[int] = []
    out: set[int] = set()        # cards of this round that left the pile (row, hands, discards)
    expected: list[tuple] = []   # the events a bid or a move must be followed by, in order
    rounds = 0
    phase = 0.0   # 1 bidding, 1.5 between the phases, 2 riding, 0 between rounds
    turn = -1
    passes = 0
    refill_due = False
    bids_made = 0

    def arrive(p: int, station: str) -> None:
        for d in open_cards:
            if m.dests[d][0] == station and d not in marked[p]:
                marked[p].add(d)
                expected.append(("marker", p, d))
        for d in private[p]:
            if m.dests[d][0] == station and d not in done[p]:
                done[p].add(d)
                expected.append(("complete", p, d))

    def next_turn(i: int, event: tuple, p: int) -> None:
        nonlocal turn
        if phase != 2:
            bad(i, event, "a phase-2 move outside phase 2")
        if turn >= 0 and p != turn:
            bad(i, event, f"player {p} moves, it is player {turn}'s turn")
        turn = (p + 1) % players

    for i, event in enumerate(log):
        kind = event[0]
        if expected:
            want = expected.pop(0)
            if event != want:
                bad(i, event, f"the rules call for {want} here")
                expected.clear()
            continue
        if refill_due and kind not in ("row", "phase1-end"):
            bad(i, event, "the row was not refilled after the bid")
        if kind == "open":
            open_cards = list(event[1])
            if len(open_cards) != m.open:
                bad(i, event, f"{len(open_cards)} open destination cards, the board has {m.open}")
        elif kind == "private":
            _, p, cards = event
            private[p] = list(cards)
            dealt = open_cards + [d for q in range(players) for d in private[q]]
            if len(set(dealt)) != len(dealt) or not all(0 <= d < len(m.dests) for d in dealt):
                bad(i, event, "a destination card dealt twice, or not in the deck")
        elif kind == "round":
            rounds += 1
            if event[1] != rounds or rounds > m.rounds:
                bad(i, event, f"round {event[1]}, expected round {rounds} of {m.rounds}")
            if any(hands) or any(chips):
                bad(i, event, "a round begins with cards or chips still held")
            row, out, phase, refill_due, bids_made = [], set(), 1, False, 0
        elif kind == "row":
            new = list(event[1])
            if phase != 1:
                bad(i, event, "the row dealt outside phase 1")
            if not row and not refill_due:   # a round's deal: sorted, largest number in slot 1
                numbers = [m.cards[c][1] for c in new]
                if numbers != sorted(numbers, reverse=True):
                    bad(i, event, f"the row is dealt in the order {numbers}, not largest first")
            elif new[:len(row)] != row:
                bad(i, event, f"the row changed the cards it kept: {row} → {new}")
            fresh = new[len(row):]
            if len(new) != m.slots or len(set(fresh)) != len(fresh) or any(c in out or not 0 <= c < len(m.cards)
                                                                          for c in fresh):
                bad(i, event, f"the row {new} is not {m.slots} cards from the pile")
            out.update(fresh)
            row, refill_due = new, False
        elif kind == "bids":
            bids = list(event[1])
            if phase != 1 or len(row) != m.slots or refill_due:
                bad(i, event, "a bid without a full row")
                continue
            if len(bids) != players or any(not 1 <= b <= m.slots for b in bids):
                bad(i, event, f"bids {bids}: each player bids one number 1–{m.slots}")
                continue
            bids_made += 1
            gone = set()
            for p, b in enumerate(bids):
                if bids.count(b) == 1:
                    expected.append(("take", p, b, row[b - 1]))
                    hands[p].append(row[b - 1])
                    gone.add(b - 1)
                else:
                    given = pool is None or pool > 0
                    expected.append(("chip", p, given))
                    if given:
                        chips[p] += 1
                        pool = pool - 1 if pool is not None else None
            if bids.count(1) > 1:
                expected.append(("drop", row[0]))
                gone.add(0)
            row = [c for k, c in enumerate(row) if k not in gone]
            refill_due = len(row) < m.slots
        elif kind == "phase1-end":
            left = len(m.cards) - len(out)
            if event[1] == "pile" and refill_due and left >= m.slots - len(row):
                bad(i, event, f"phase 1 ended with {left} cards in the pile for {m.slots - len(row)} free slots")
            if event[1] == "pile" and not refill_due and row and len(row) == m.slots:
                bad(i, event, "phase 1 ended with a full row")
            if event[1] == "bid limit" and bids_made < BID_LIMIT:
                bad(i, event, f"phase 1 stopped for the bid limit after {bids_made} bids")
            refill_due = False
            phase = 1.5
        elif kind == "phase2":
            first = event[1]
            held = [(m.cards[c][1], p) for p in range(players) for c in hands[p]]
            if first != (min(held)[1] if held else 0):
                bad(i, event, f"phase 2 begins with player {first}, the lowest number is {min(held) if held else None}")
            phase, turn, passes = 2, first, 0
        elif kind in ("play", "discard", "spend"):
            p, to = event[1], event[-1]
            next_turn(i, event, p)
            passes = 0
            here = where[p]
            if kind == "spend":
                if chips[p] < 1:
                    bad(i, event, "a chip spent by a player without one")
                chips[p] -= 1
                pool = pool + 1 if pool is not None else None
            else:
                card = event[2]
                if card not in hands[p]:
                    bad(i, event, f"card {card} is not in player {p}'s hand")
                    continue
                hands[p].remove(card)
            if kind == "play":
                kind_id = m.cards[card][0]
                stops = m.stops[kind_id]
                if here not in stops:
                    bad(i, event, f"a {kind_id} card played at {here}, where it does not stop")
                    continue
                ahead = stops[stops.index(here) + 1:][:m.advance[kind_id]]
                if to < 0 or to >= len(m.line) or m.line[to] not in ahead:
                    bad(i, event, f"a {kind_id} card from {here} ends on station {to}: it may reach {ahead}")
                    continue
            else:
                k = m.line.index(here)
                if to != min(k + 1, len(m.line) - 1):
                    bad(i, event, f"a discard from {here} ends on station {to}, not the next station")
            if m.line[to] != here:
                where[p] = m.line[to]
                arrive(p, m.line[to])
        elif kind == "pass":
            p = event[1]
            next_turn(i, event, p)
            if hands[p] or chips[p]:
                bad(i, event, f"player {p} passes holding {len(hands[p])} cards and {chips[p]} chips")
            passes += 1
            if passes == players:
                phase = 0
        elif kind == "end":
            if rounds != m.rounds or phase != 0:
                bad(i, event, f"the game ends in round {rounds} (phase {phase}), not after round {m.rounds}")
            scores, counts = [], []
            for p in range(players):
                scored = sorted(marked[p]) + sorted(done[p])
                lines = {m.dests[d][2] for d in scored if m.dests[d][2] is not None}
                counts.append(len(lines))
                scores.append(sum(m.dests[d][1] for d in scored) + m.bonus_for(len(lines)))
            if list(event[1]) != scores:
                bad(i, event, f"scores {list(event[1])}, the referee counts {scores}")
            top = [p for p in range(players) if scores[p] == max(scores)]
            winners = [p for p in top if counts[p] == max(counts[q] for q in top)]
            if list(event[2]) != winners:
                bad(i, event, f"winners {list(event[2])}, the referee finds {winners}")
        else:
            bad(i, event, "an event the referee does not know (or one the rules did not call for)")
    if expected:
        problems.append(f"the log ends before {expected[0]}")
    return problems
