"""Players for the simulator: random legal moves, a greedy ticket-completer, and a one-step lookahead.

A bot answers the engine's questions (``turn``, ``pick``, ``keep``, ``ticket_mix``, ``passenger``) from
the public state plus its own hand and tickets. Its only chance is the game's ``rng``, so a game stays
a function of its seed. Paths are a small Dijkstra over the group graph (40 places: faster than
building a networkx view per question, which the 2,000 games a minute goal cannot afford).
"""
from __future__ import annotations

import heapq

from generator.simulate.engine import CLAIM_STEPS, Game
from generator.simulate.rules import GRAY, LOCO, SINGLE_OR_DOUBLE, STATION, Rules

INF = 1 << 30
#: a greedy bot draws more tickets only while it has at least this many trains (and no open ticket)
TICKET_TRAINS = 12


class Bot:
    name = "bot"

    def turn(self, g: Game, p: int) -> tuple:
        raise NotImplementedError

    def pick(self, g: Game, p: int, second: bool) -> int:
        return -1 if g.pile or g.discard else next(i for i, c in enumerate(g.row) if not (second and c == g.W))

    def keep(self, g: Game, p: int, drawn: list[int], minimum: int, setup: bool) -> list[int]:
        return drawn[:minimum]

    def ticket_mix(self, g: Game, p: int, count: int, setup: bool) -> tuple[int, ...]:
        mix = [0] * len(g.ticket_piles)
        mix[next((d for d, pile in enumerate(g.ticket_piles) if pile), 0)] = count
        return tuple(mix)

    def passenger(self, g: Game, p: int, place: int) -> int:
        return g.passengers[place][0]

    def tunnel(self, g: Game, p: int, track: int, colour: int, extra: int, spare: tuple[int, int]) -> tuple[int, int] | None:
        """A tunnel's reveal asks ``extra`` more cards of ``colour`` or wilds (``spare``: what the hand holds beyond
        the payment): every bot pays when it can, cards of the colour first, and gives up otherwise."""
        plain = min(extra, spare[0])
        return (plain, extra - plain) if extra - plain <= spare[1] else None

    # dice instead of cards: reroll which dice, then claim / draw tickets / nothing, then which tokens
    def reroll(self, g: Game, p: int, sides: tuple) -> tuple[int, ...]:
        return ()

    def dice_action(self, g: Game, p: int, sides: tuple) -> tuple:
        return ("none",)

    def take_tokens(self, g: Game, p: int, room: int) -> tuple[int, ...]:
        return tuple(k for k in SINGLE_OR_DOUBLE for _ in range(g.token_supply[k]))[:room]


def dice_claimable(g: Game, p: int, sides: tuple) -> list[tuple[int, tuple[int, ...], int]]:
    """Every track the player can claim with these dice and their tokens: (track, dice slots, tokens)."""
    g.spend(CLAIM_STEPS * len(g.rules.tracks))
    out = []
    for i, t in enumerate(g.rules.tracks):
        if g.trains[p] >= t.length and g.available(p, i):
            pay = g.dice_payment(p, i, sides)
            if pay is not None:
                out.append((i, *pay))
    return out


def stations(sides: tuple) -> tuple[int, ...]:
    """The dice that draw tickets: stations, and locomotives standing in for them."""
    return tuple(i for i, s in enumerate(sides) if s in (STATION, LOCO))


def claimable(g: Game, p: int) -> list[tuple[int, int, int]]:
    """Every track the player can claim now, with its cheapest payment: (track, colour, wilds)."""
    g.spend(CLAIM_STEPS * len(g.rules.tracks))
    out = []
    for i, t in enumerate(g.rules.tracks):
        if g.trains[p] >= t.length and g.available(p, i):
            pay = g.payment(p, i)
            if pay is not None:
                out.append((i, *pay))
    return out


def ready(g: Game, p: int, claim: tuple[int, int, int]) -> bool:
    """A claim worth making now: any but a tunnel, or a tunnel with a card to spare for what its reveal may ask
    (without one, a match fails the claim and the turn is lost; greedy players draw instead)."""
    track, colour, wilds = claim
    t = g.rules.tracks[track]
    if not t.tunnel or not g.rules.tunnel_reveal:
        return True
    hand = g.hands[p]
    spare = hand[g.W] - wilds + (hand[colour] - (t.length - wilds) if colour != g.W else 0)
    return spare > 0


class RandomBot(Bot):
    """Uniform over the kinds of legal move, then over the moves of that kind."""

    name = "random"

    def turn(self, g: Game, p: int) -> tuple:
        options = []
        claims = claimable(g, p)
        if claims:
            options.append("claim")
        if g.can_draw():
            options.append("draw")
        if g.can_draw_tickets():
            options.append("tickets")
        if not options:
            return ("pass",)
        kind = g.rng.choice(options)
        if kind == "claim":
            return ("claim", *g.rng.choice(claims))
        return (kind,)

    def pick(self, g: Game, p: int, second: bool) -> int:
        slots = [i for i, c in enumerate(g.row) if not (second and c == g.W)]
        if g.pile or g.discard:
            slots.append(-1)
        return g.rng.choice(slots)

    def keep(self, g: Game, p: int, drawn: list[int], minimum: int, setup: bool) -> list[int]:
        k = g.rng.randint(minimum, len(drawn))
        return g.rng.sample(drawn, k)

    def ticket_mix(self, g: Game, p: int, count: int, setup: bool) -> tuple[int, ...]:
        mix = [0] * len(g.ticket_piles)
        open_piles = [d for d, pile in enumerate(g.ticket_piles) if pile]
        for _ in range(count):
            mix[g.rng.choice(open_piles)] += 1
        return tuple(mix)

    def passenger(self, g: Game, p: int, place: int) -> int:
        return g.rng.choice(g.passengers[place])

    def reroll(self, g: Game, p: int, sides: tuple) -> tuple[int, ...]:
        return tuple(i for i in range(len(sides)) if g.rng.random() < 0.5)

    def dice_action(self, g: Game, p: int, sides: tuple) -> tuple:
        options: list[tuple] = [("none",)]
        options += [("claim", *c) for c in dice_claimable(g, p, sides)]
        if stations(sides) and g.can_draw_tickets():
            options.append(("tickets", stations(sides)))
        return g.rng.choice(options)

    def take_tokens(self, g: Game, p: int, room: int) -> tuple[int, ...]:
        kinds: list[int] = []
        supply = list(g.token_supply)
        for _ in range(g.rng.randint(0, room)):
            open_kinds = [k for k in SINGLE_OR_DOUBLE if supply[k]]
            if not open_kinds:
                break
            k = g.rng.choice(open_kinds)
            supply[k] -= 1
            kinds.append(k)
        return tuple(kinds)


class Planner:
    """Shortest paths for one player: a group costs 0 if the player has a track in it, its length if a
    track is open to them, and is closed otherwise. Terminals are never passed through."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.adj: list[list[tuple[int, int]]] = [[] for _ in rules.places]
        for gi, tracks in enumerate(rules.groups):
            t = rules.tracks[tracks[0]]
            self.adj[t.a].append((t.b, gi))
            self.adj[t.b].append((t.a, gi))
        self.length = [rules.tracks[tr[0]].length for tr in rules.groups]
        self.steps = 0   # the last search's work

    def costs(self, g: Game, p: int) -> list[int]:
        g.spend(CLAIM_STEPS * len(self.rules.tracks))
        out = []
        for gi, tracks in enumerate(self.rules.groups):
            if gi in g.owns_group[p]:
                out.append(0)
            elif any(g.available(p, t) for t in tracks):
                out.append(self.length[gi])
            else:
                out.append(INF)
        return out

    def path(self, g: Game, cost: list[int], a: int, b: int) -> tuple[int, list[int]]:
        """(cost, groups) of the cheapest way from a to b; cost INF when there is none. Its work (a step per place
        taken off the heap and per route looked at) is spent in ``g``."""
        found = self._search(cost, a, b)
        g.spend(self.steps)
        return found

    def _search(self, cost: list[int], a: int, b: int) -> tuple[int, list[int]]:
        adj, terminal = self.adj, self.rules.terminal
        dist = {a: 0}
        via: dict[int, tuple[int, int]] = {}
        heap = [(0, a)]
        self.steps = 0
        while heap:
            d, x = heapq.heappop(heap)
            self.steps += 1 + len(adj[x])
            if x == b:
                groups = []
                while x != a:
                    x, gi = via[x]
                    groups.append(gi)
                return d, groups
            if d > dist[x] or (x != a and terminal[x]):
                continue
            for y, gi in adj[x]:
                c = cost[gi]
                if c >= INF:
                    continue
                nd = d + c
                if nd < dist.get(y, INF):
                    dist[y] = nd
                    via[y] = (x, gi)
                    heapq.heappush(heap, (nd, y))
        return INF, []


class GreedyBot(Bot):
    """Plans the cheapest paths of its tickets (richest first, reusing what is planned), collects the colours
    they need, claims a planned route as soon as it can (longest first); with every ticket done or out of
    reach it draws tickets while it has trains, else claims the longest route it can for points."""

    name = "greedy"

    def __init__(self):
        self.planner: Planner | None = None
        self.plan: set[int] = set()          # groups still to claim
        self.seen = -1                       # claims already looked at
        self.planned_tickets = -1

    def _planner(self, g: Game) -> Planner:
        if self.planner is None or self.planner.rules is not g.rules:
            self.planner = Planner(g.rules)
        return self.planner

    def _replan(self, g: Game, p: int) -> set[int]:
        """The plan, recomputed when a claim by someone else hit it or the tickets changed."""
        stale = self.planned_tickets != len(g.tickets[p]) or self.seen < 0
        if not stale:
            for track, who, _ in g.claims[self.seen:]:
                group = g.rules.tracks[track].group
                if who != p and group in self.plan:
                    stale = True
                    break
        self.seen = len(g.claims)
        if stale:
            self.plan = self.make_plan(g, p, g.tickets[p])[0]
            self.planned_tickets = len(g.tickets[p])
        self.plan -= g.owns_group[p]
        return self.plan

    def make_plan(self, g: Game, p: int, tickets: list[int], cost: list[int] | None = None) -> tuple[set[int], int]:
        """Groups to claim for the tickets it can still complete, and their total length."""
        planner = self._planner(g)
        cost = list(cost or planner.costs(g, p))
        budget = g.trains[p]
        plan: set[int] = set()
        spend = 0
        for i in sorted(tickets, key=lambda i: -g.rules.tickets[i].points):
            t = g.rules.tickets[i]
            d, groups = planner.path(g, cost, t.a, t.b)
            if d >= INF or spend + d > budget:
                continue
            spend += d
            for gi in groups:
                if cost[gi]:
                    plan.add(gi)
                    cost[gi] = 0
        return plan, spend

    def _need(self, g: Game, p: int, plan: set[int]) -> tuple[list[int], bool]:
        """Cards still missing per colour for the planned coloured tracks, and whether a gray one is planned."""
        rules, hand = g.rules, g.hands[p]
        need = [0] * (rules.wild_index + 1)
        gray = False
        for gi in plan:
            options = [t for t in rules.groups[gi] if g.available(p, t)]
            if not options:
                continue
            track = max((rules.tracks[t] for t in options),
                        key=lambda t: hand[t.colour] if t.colour != GRAY else max(hand[:g.W], default=0))
            if track.colour == GRAY:
                gray = True
            else:
                need[track.colour] += track.length
        return [max(0, need[c] - hand[c]) for c in range(len(need))], gray

    def turn(self, g: Game, p: int) -> tuple:
        plan = self._replan(g, p)
        claims = claimable(g, p)
        if g.can_draw():   # a tunnel with no card to spare waits while there are cards to draw
            claims = [c for c in claims if ready(g, p, c)]
        if plan:
            wanted = [c for c in claims if g.rules.tracks[c[0]].group in plan]
            if wanted:
                return ("claim", *max(wanted, key=lambda c: (g.rules.tracks[c[0]].length, -c[2], -c[0])))
            if g.can_draw():
                return ("draw",)
        elif g.trains[p] >= TICKET_TRAINS and g.can_draw_tickets():
            return ("tickets",)
        if claims and (not plan or not g.can_draw()):
            return ("claim", *max(claims, key=lambda c: (g.rules.tracks[c[0]].length, -c[2], -c[0])))
        if g.can_draw():
            return ("draw",)
        if g.can_draw_tickets():
            return ("tickets",)
        return ("pass",)

    def pick(self, g: Game, p: int, second: bool) -> int:
        plan = self.plan - g.owns_group[p]
        need, gray = self._need(g, p, plan)
        row = g.row
        best, slot = 0, None
        for i, c in enumerate(row):
            if c != g.W and need[c] > best:
                best, slot = need[c], i
        if slot is not None:
            return slot
        if gray and not sum(need):
            hand = g.hands[p]
            colours = [(hand[c], -i, i) for i, c in enumerate(row) if c != g.W]
            if colours:
                return max(colours)[2]
        if not second and g.W in row and (sum(need) >= 2 or gray):
            return row.index(g.W)
        if g.pile or g.discard:
            return -1
        return next(i for i, c in enumerate(row) if not (second and c == g.W))

    def keep(self, g: Game, p: int, drawn: list[int], minimum: int, setup: bool) -> list[int]:
        """Keep the tickets that fit the trains left, cheapest extra track per point first; at least ``minimum``."""
        planner = self._planner(g)
        cost = planner.costs(g, p)
        plan, spend = self.make_plan(g, p, g.tickets[p], cost)
        base = [0 if gi in plan else c for gi, c in enumerate(cost)]
        scored = []
        for i in drawn:
            t = g.rules.tickets[i]
            d, _ = planner.path(g, base, t.a, t.b)
            scored.append((d if d < INF else INF, -t.points, i))
        scored.sort(key=lambda s: (s[0] / max(1, -s[1]), s[0], s[2]))
        kept: list[int] = []
        budget = g.trains[p] - spend
        limit = budget * (0.6 if setup else 0.8)
        for d, _points, i in scored:
            if len(kept) < minimum or (d < INF and d <= limit):
                kept.append(i)
                if d < INF:
                    limit -= d
        self.planned_tickets = -1
        return kept

    def ticket_mix(self, g: Game, p: int, count: int, setup: bool) -> tuple[int, ...]:
        mix = [0] * len(g.ticket_piles)
        long = len(mix) - 1
        if g.trains[p] >= 30 and g.ticket_piles[long]:
            mix[long] = 1
        short = next((d for d, pile in enumerate(g.ticket_piles) if pile), 0)
        mix[short] += count - sum(mix)
        return tuple(mix)

    def passenger(self, g: Game, p: int, place: int) -> int:
        """The colour where one more piece gains the most majority points; ties: the lowest colour."""
        pieces = sorted(set(g.passengers[place]))
        table = g.rules.majority
        held = g.held

        def score(rank: int) -> int:
            return table[rank] if rank < len(table) else 0

        def gain(colour: int) -> int:
            mine = held[p][colour]
            others = sorted((h[colour] for q, h in enumerate(held) if q != p), reverse=True)
            before = sum(1 for o in others if o > mine)
            after = sum(1 for o in others if o > mine + 1)
            return score(after) - (score(before) if mine else 0)

        return max(pieces, key=lambda c: (gain(c), -c))


    # --- dice instead of cards ---------------------------------------------------------------------------

    def _dice_target(self, g: Game, p: int, sides: tuple) -> tuple[int, int] | None:
        """(dice kind, track) of the route to roll for: a planned one (or, with no plan, any) closest to being
        paid with these dice and tokens, longer first; None when there is none to roll for."""
        plan = self._replan(g, p)
        groups = plan or set(range(len(g.rules.groups)))
        g.spend(len(groups))
        best = None
        for gi in sorted(groups):
            for track in g.rules.groups[gi]:
                t = g.rules.tracks[track]
                if t.length > g.trains[p] or not g.available(p, track):
                    continue
                kind = g.kind(track)
                have = sides.count(kind) + sides.count(LOCO) + g.tokens[p][kind]
                key = (max(0, t.length - have), -t.length, track)
                if best is None or key < best[0]:
                    best = (key, kind, track)
                break   # the tracks of a group take the same dice
        return (best[1], best[2]) if best else None

    def _wants_tickets(self, g: Game, p: int) -> bool:
        return not self._replan(g, p) and g.trains[p] >= TICKET_TRAINS and g.can_draw_tickets()

    def reroll(self, g: Game, p: int, sides: tuple) -> tuple[int, ...]:
        plan = self._replan(g, p)
        if any(g.rules.tracks[c[0]].group in plan for c in dice_claimable(g, p, sides)):
            return ()
        if self._wants_tickets(g, p):
            return tuple(i for i, s in enumerate(sides) if s not in (STATION, LOCO))
        target = self._dice_target(g, p, sides)
        if target is None:
            return ()
        return tuple(i for i, s in enumerate(sides) if s not in (target[0], LOCO))

    def dice_action(self, g: Game, p: int, sides: tuple) -> tuple:
        plan = self._replan(g, p)
        claims = dice_claimable(g, p, sides)

        def longest(c: tuple) -> tuple:
            return g.rules.tracks[c[0]].length, -c[2], -c[0]

        if plan:
            wanted = [c for c in claims if g.rules.tracks[c[0]].group in plan]
            return ("claim", *max(wanted, key=longest)) if wanted else ("none",)
        if self._wants_tickets(g, p) and stations(sides):
            return ("tickets", stations(sides))
        return ("claim", *max(claims, key=longest)) if claims else ("none",)

    def take_tokens(self, g: Game, p: int, room: int) -> tuple[int, ...]:
        """Tokens of the kind its planned routes need most (spaces still to pay), then the other kind."""
        need = [0, 0]
        for gi in self.plan - g.owns_group[p]:
            track = g.rules.groups[gi][0]
            need[g.kind(track)] += g.rules.tracks[track].length
        order = sorted(SINGLE_OR_DOUBLE, key=lambda k: (-(need[k] - g.tokens[p][k]), k))
        supply = list(g.token_supply)
        kinds: list[int] = []
        for _ in range(room):
            k = next((k for k in order if supply[k]), None)
            if k is None:
                break
            supply[k] -= 1
            kinds.append(k)
        return tuple(kinds)


class LookaheadBot(GreedyBot):
    """Greedy, plus a one-step lookahead on claims: of the planned claims it can make now, the one after which
    its whole plan costs least (route points gained minus trains its tickets still need)."""

    name = "lookahead"

    def turn(self, g: Game, p: int) -> tuple:
        action = super().turn(g, p)
        if action[0] != "claim":
            return action
        planner = self._planner(g)
        best, choice = None, action
        for option in claimable(g, p):
            track = g.rules.tracks[option[0]]
            if track.group not in self.plan or (g.can_draw() and not ready(g, p, option)):
                continue
            cost = planner.costs(g, p)
            cost[track.group] = 0
            _plan, spend = self.make_plan(g, p, g.tickets[p], cost)
            value = (g.rules.scoring[track.length] - spend, -option[2], -option[0])
            if best is None or value > best:
                best, choice = value, ("claim", *option)
        return choice


BOTS = {"random": RandomBot, "greedy": GreedyBot, "lookahead": LookaheadBot}
