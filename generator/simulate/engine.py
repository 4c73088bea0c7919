"""One game of the route family, played from a seed by a list of bots.

All chance comes from one ``random.Random(seed)`` (never the global generator), so a game is a
function of (rules, bots, seed). The engine enforces the rules on every move (an illegal move from a
bot is an ``IllegalMove``, a bug) and, when asked, writes a log of every event that
``generator.simulate.validate`` replays with its own reading of the rules.

Log events (tuples, first item the kind):
``("passengers", pieces per place)``, ``("deal", p, cards)``, ``("row", cards)`` (the face-up row after every change),
``("reshuffle", cards)`` (a row of too many wilds discarded), ``("tickets", p, drawn, kept)``,
``("turn", p)``, ``("take", p, slot, colour)`` (slot -1: the draw pile),
``("claim", p, track, colour, wilds, passengers)``, ``("pass", p)``, ``("end", reason, scores)``.
A tunnel claim (rule module ``tunnels``) is preceded by ``("tunnel", p, track, colour, revealed, extra, extra_wilds)``:
the cards turned over and the extra cards of the colour paid and wilds they cost; extra -1 when the player could
not or would not pay (the claim fails, no ``claim`` event follows, the turn is spent).
With dice instead of cards (rule module ``dice``): ``("roll", p, sides)``, ``("reroll", p, slots, sides)``,
``("dclaim", p, track, slots, tokens, passengers)`` (the dice used and tokens of the route's kind),
``("dtickets", p, slots)`` (station dice used; a ``tickets`` event follows), ``("take-tokens", p, kinds)``.
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

from generator.limits import MAX_LONGEST_PATH_STEPS, MAX_SIMULATE_GAME_WORK, MAX_SIMULATE_TURNS
from generator.simulate.rules import (
    ATTRACTION_POINTS,
    DICE_STALL_ROUNDS,
    DOUBLE,
    GRAY,
    LOCO,
    SINGLE_OR_DOUBLE,
    STATION,
    TOKEN_CAP,
    TRACK,
    Rules,
)

#: a game longer than this many turns is stopped (bots that never finish; reported as "turn limit")
MAX_TURNS = MAX_SIMULATE_TURNS
#: this many row reshuffles in a row and the row stays as it is (the rulebook's "until fewer than 3 wilds"
#: could loop forever when the cards left are mostly wilds)
MAX_RESHUFFLES = 5


#: the work of weighing one track for a claim (open to the player? paid how?), in steps of a path search's time
CLAIM_STEPS = 8


class IllegalMove(Exception):
    """A bot asked for a move the rules do not allow: a bug in the bot, never bad content."""


class WorkLimit(Exception):
    """A game took more than its work limit (``Game.spend``): it ends there, reported as ended by "work limit"."""


@dataclass
class Result:
    """What the report needs from one game (plain data: it crosses process boundaries)."""

    seed: int
    bots: tuple[str, ...]
    scores: list[int]
    winners: list[int]
    turns: int                       # turns played in all (every player's turns)
    rounds: int
    end: str                         # what ended it: "trains" (a player ran low), "stalled", "turn limit"
    kept: list[list[int]]            # ticket indices each player kept
    completed: list[list[int]]       # … and completed
    completed_round: list[list[int]]  # the round each completed ticket was completed in (parallel to completed)
    claims: list[tuple[int, int, int]]  # (track, player, round) in order
    picks: list[int]                 # face-up picks per colour index (wild last)
    blind: list[int]                 # blind draws per colour
    spent: list[int]                 # cards spent per colour
    claimed_by_colour: list[int]     # tracks claimed, by the colour paid (gray counted as the colour used)
    breakdown: list[dict]            # per player: routes, tickets, bonus points
    log: list = field(default_factory=list)
    tunnels: list[tuple[int, int]] = field(default_factory=list)   # per tunnel claim tried: (track, extra cards; -1 failed)
    work: int = 0                    # steps of work the game took (``Game.spend``)


class Game:
    """The state of one game. Bots read it (hands, row, owners…) and answer through the engine's questions."""

    def __init__(self, rules: Rules, bots: list, seed: int, log: bool = False):
        n = len(bots)
        if not rules.players[0] <= n <= rules.players[1]:
            raise ValueError(f"{rules.game} is played by {rules.players[0]}–{rules.players[1]} players, not {n}")
        self.rules = rules
        self.bots = bots
        self.n = n
        #: steps of work spent (``spend``): bots' path searches and claim lists, the end's scoring
        self.work = 0
        self.work_limit = MAX_SIMULATE_GAME_WORK
        self.seed = seed
        self.rng = random.Random(seed)
        self.logging = log
        self.log: list = []
        self.W = rules.wild_index
        colours = rules.wild_index + 1
        self.pile = [c for c, k in enumerate(rules.deck) for _ in range(k)]
        self.rng.shuffle(self.pile)
        self.discard: list[int] = []
        self.row: list[int] = []
        self.hands = [[0] * colours for _ in range(n)]
        self.trains = [rules.trains] * n
        self.owner = [-1] * len(rules.tracks)
        self.group_claimed = [0] * len(rules.groups)       # tracks claimed per group
        self.owns_group: list[set[int]] = [set() for _ in range(n)]        # groups a player has a track in
        self.ticket_piles: list[deque] = []
        for d in range(len(rules.ticket_decks)):
            pile = [i for i, t in enumerate(rules.tickets) if t.deck == d]
            self.rng.shuffle(pile)
            self.ticket_piles.append(deque(pile))            # the top is the left end
        self.tickets: list[list[int]] = [[] for _ in range(n)]
        self.route_points = [0] * n
        self.claims: list[tuple[int, int, int]] = []
        self.tunnels: list[tuple[int, int]] = []
        self.picks = [0] * colours
        self.blind = [0] * colours
        self.spent = [0] * colours
        self.claimed_by_colour = [0] * colours
        self.passengers: list[list[int]] = []
        self.held = [[0] * len(rules.passenger_colours) for _ in range(n)]
        if rules.passengers:
            bag = [c for c, k in enumerate(rules.passenger_pieces) for _ in range(k)]
            self.rng.shuffle(bag)
            at = 0
            for count in rules.passengers:
                self.passengers.append(sorted(bag[at:at + count]))
                at += count
            self._log("passengers", tuple(tuple(x) for x in self.passengers))
        self.round = 0
        self.turns = 0
        self.tokens = [[0, 0] for _ in range(n)]          # single-track, double-track tokens held (dice)
        self.token_supply = list(rules.token_supply)
        for p in range(n if not rules.dice else 0):        # with dice there are no train cards to deal
            cards = [self._draw_pile() for _ in range(rules.hand)]
            for c in cards:
                if c is not None:
                    self.hands[p][c] += 1
            self._log("deal", p, tuple(c for c in cards if c is not None))
        if not rules.dice:
            self._refill()
        #: what ended the game before it began ("work limit": the setup's ticket choices took all its work)
        self.ended = ""
        try:
            for p in range(n):
                if self.can_draw_tickets():   # a deck of fewer tickets than the players are dealt: the last get none
                    self._tickets(p, rules.tickets_dealt, rules.tickets_kept, setup=True)
        except WorkLimit:
            self.ended = "work limit"

    # --- the game ----------------------------------------------------------------------------------------

    def spend(self, steps: int) -> None:
        """Count ``steps`` of work; past the game's limit, a ``WorkLimit`` ends the game (``play``)."""
        self.work += steps
        if self.work > self.work_limit:
            raise WorkLimit

    def play(self) -> Result:
        n, last, passes = self.n, None, 0
        stall = n * DICE_STALL_ROUNDS if self.rules.dice else n
        end = self.ended
        while not end:
            self.round += 1
            for p in range(n):
                self.turns += 1
                self._log("turn", p)
                try:
                    passed = self._turn(p)
                except WorkLimit:   # the game ends where the turn stopped (no claim is half made: a bot asks first)
                    end = "work limit"
                    break
                passes = passes + 1 if passed else 0
                if last is None and self.trains[p] <= self.rules.end_trains:
                    last = self.turns + n   # everyone, this player too, has one more turn
                if last is not None and self.turns >= last:
                    end = "trains"
                elif passes >= stall:
                    end = "stalled"
                elif self.turns >= MAX_TURNS:
                    end = "turn limit"
                if end:
                    break
        return self._finish(end)

    def _turn(self, p: int) -> bool:
        if self.rules.dice:
            return self._dice_turn(p)
        action = self.bots[p].turn(self, p)
        kind = action[0]
        if kind == "claim":
            self.claim(p, *action[1:])
        elif kind == "draw":
            if not self.can_draw():
                raise IllegalMove(f"player {p} draws with no card left")
            first = self.take(p, self.bots[p].pick(self, p, False))
            if first is not None and self.can_draw(second=True):
                self.take(p, self.bots[p].pick(self, p, True), second=True)
        elif kind == "tickets":
            if not self.can_draw_tickets():
                raise IllegalMove(f"player {p} draws tickets with none left")
            self._tickets(p, self.rules.tickets_drawn, self.rules.tickets_keep)
        elif kind == "pass":
            if self.can_draw() or self.can_draw_tickets() or self.any_claim(p):
                raise IllegalMove(f"player {p} passes with a move to make")
            self._log("pass", p)
            return True
        else:
            raise IllegalMove(f"unknown action {action!r}")
        return False

    # --- cards -------------------------------------------------------------------------------------------

    def _draw_pile(self) -> int | None:
        if not self.pile:
            if not self.discard:
                return None
            self.pile = self.discard
            self.discard = []
            self.rng.shuffle(self.pile)
        return self.pile.pop()

    def _refill(self) -> None:
        size = self.rules.face_up
        for _ in range(MAX_RESHUFFLES + 1):
            while len(self.row) < size:
                card = self._draw_pile()
                if card is None:
                    break
                self.row.append(card)
            self._log("row", tuple(self.row))
            if self.row.count(self.W) < self.rules.wild_reshuffle or self.rules.wild_reshuffle <= 0:
                break
            self._log("reshuffle", tuple(self.row))
            self.discard.extend(self.row)
            self.row = []

    def can_draw(self, second: bool = False) -> bool:
        if self.pile or self.discard:
            return True
        return any(c != self.W for c in self.row) if second else bool(self.row)

    def take(self, p: int, slot: int, second: bool = False) -> int | None:
        """Take a card: ``slot`` of the row, or -1 the draw pile. Returns the card, or None when the take ends
        the draw (a face-up wild as the first card)."""
        if slot == -1:
            card = self._draw_pile()
            if card is None:
                raise IllegalMove(f"player {p} draws from an empty pile")
            self.blind[card] += 1
            self.hands[p][card] += 1
            self._log("take", p, -1, card)
            return card
        if not 0 <= slot < len(self.row):
            raise IllegalMove(f"player {p} takes face-up card {slot} of {len(self.row)}")
        card = self.row[slot]
        if card == self.W and second:
            raise IllegalMove(f"player {p} takes a face-up wild as the second card")
        self.row.pop(slot)
        self.picks[card] += 1
        self.hands[p][card] += 1
        self._log("take", p, slot, card)
        self._refill()
        return None if card == self.W else card

    # --- routes ------------------------------------------------------------------------------------------

    def available(self, p: int, track: int) -> bool:
        """Track free, the player has no track of its group, and the group is open at this player count."""
        if self.owner[track] != -1:
            return False
        group = self.rules.tracks[track].group
        if group in self.owns_group[p]:
            return False
        return not (self.group_claimed[group] and self.n < self.rules.all_tracks_from)

    def payment(self, p: int, track: int) -> tuple[int, int] | None:
        """The cheapest payment (colour, wilds) the player's hand makes for the track, fewest wilds; None if none.
        A ferry's payment holds at least its locomotives."""
        t = self.rules.tracks[track]
        hand = self.hands[p]
        if t.colour == GRAY:
            best = max(range(self.W), key=lambda c: (hand[c], -c), default=None)
            colour = best if best is not None else self.W
            have = hand[colour] if colour != self.W else 0
        else:
            colour, have = t.colour, hand[t.colour]
        wilds = max(t.ferry, t.length - have)
        if wilds > hand[self.W]:
            return None
        if wilds == t.length:
            colour = self.W
        return colour, wilds

    def any_claim(self, p: int) -> bool:
        self.spend(CLAIM_STEPS * len(self.rules.tracks))
        return any(self.trains[p] >= t.length and self.available(p, i) and self.payment(p, i) is not None
                   for i, t in enumerate(self.rules.tracks))

    def _claimable(self, p: int, track: int):
        """Track ``track``, if player ``p`` may claim it at all (it exists, is open to them, they have the trains);
        what they pay for it is checked by the claim (cards or dice)."""
        rules = self.rules
        if not 0 <= track < len(rules.tracks):
            raise IllegalMove(f"player {p} claims track {track}, which does not exist")
        t = rules.tracks[track]
        if not self.available(p, track):
            raise IllegalMove(f"player {p} claims {rules.track_name(track)}, which is not open to them")
        if self.trains[p] < t.length:
            raise IllegalMove(f"player {p} claims {rules.track_name(track)} with {self.trains[p]} trains")
        return t

    def claim(self, p: int, track: int, colour: int, wilds: int) -> None:
        rules = self.rules
        t = self._claimable(p, track)
        hand = self.hands[p]
        plain = t.length - wilds
        if wilds < 0 or wilds > hand[self.W] or plain < 0:
            raise IllegalMove(f"player {p} pays {wilds} wilds for {rules.track_name(track)}")
        if wilds < t.ferry:
            raise IllegalMove(f"player {p} pays {wilds} wilds for the ferry {rules.track_name(track)}, "
                              f"which needs {t.ferry}")
        if plain and (colour == self.W or (t.colour != GRAY and colour != t.colour) or hand[colour] < plain):
            raise IllegalMove(f"player {p} pays {plain} × {rules.colour_name(colour)} for {rules.track_name(track)}")
        paid = colour if plain else self.W
        extra = extra_wilds = 0
        if t.tunnel and rules.tunnel_reveal:
            paying = self._tunnel(p, track, paid, plain, wilds)
            if paying is None:
                return
            extra, extra_wilds = paying
        plain += extra
        wilds += extra_wilds
        if plain:
            hand[colour] -= plain
            self.discard.extend([colour] * plain)
            self.spent[colour] += plain
        hand[self.W] -= wilds
        self.discard.extend([self.W] * wilds)
        self.spent[self.W] += wilds
        self.claimed_by_colour[paid] += 1
        taken = self._place(p, track)
        self._log("claim", p, track, paid, wilds - extra_wilds, tuple(taken))

    def _tunnel(self, p: int, track: int, paid: int, plain: int, wilds: int) -> tuple[int, int] | None:
        """Turn over cards from the pile: each of the colour paid (wilds always; only wilds when only wilds were
        paid) costs one more card of that colour or a wild. The player's answer is (extra, extra wilds), or None:
        the claim fails and the cards stay in hand. The turned cards go to the discard either way."""
        revealed = [c for c in (self._draw_pile() for _ in range(self.rules.tunnel_reveal)) if c is not None]
        matches = sum(1 for c in revealed if c == self.W or c == paid)
        spare = (self.hands[p][paid] - plain if paid != self.W else 0, self.hands[p][self.W] - wilds)
        answer = self.bots[p].tunnel(self, p, track, paid, matches, spare) if matches else (0, 0)
        self.discard.extend(revealed)
        if answer is None:
            self._log("tunnel", p, track, paid, tuple(revealed), -1, -1)
            self.tunnels.append((track, -1))
            return None
        extra, extra_wilds = answer
        if extra < 0 or extra_wilds < 0 or extra + extra_wilds != matches or extra > spare[0] or extra_wilds > spare[1]:
            raise IllegalMove(f"player {p} pays {extra} + {extra_wilds} wilds for {matches} tunnel matches "
                              f"on {self.rules.track_name(track)} with {spare} to spare")
        self._log("tunnel", p, track, paid, tuple(revealed), extra, extra_wilds)
        self.tunnels.append((track, matches))
        return extra, extra_wilds

    def _place(self, p: int, track: int) -> list:
        """Trains on a paid track: owner, points, the claim's record, and (passengers) a piece from each end."""
        rules, t = self.rules, self.rules.tracks[track]
        self.owner[track] = p
        self.group_claimed[t.group] += 1
        self.owns_group[p].add(t.group)
        self.trains[p] -= t.length
        self.route_points[p] += rules.scoring[t.length]
        self.claims.append((track, p, self.round))
        taken = []
        if self.passengers:
            for place in (t.a, t.b):
                pieces = self.passengers[place]
                if pieces:
                    piece = self.bots[p].passenger(self, p, place)
                    if piece not in pieces:
                        raise IllegalMove(f"player {p} takes a passenger that is not at {rules.places[place]}")
                    pieces.remove(piece)
                    self.held[p][piece] += 1
                    taken.append((place, piece))
        return taken

    # --- dice instead of cards (the dice add-on) ---------------------------------------------------------

    def kind(self, track: int) -> int:
        """The dice a track takes: double-track dice on a route of two or more tracks, single-track otherwise."""
        return DOUBLE if len(self.rules.groups[self.rules.tracks[track].group]) > 1 else TRACK

    def _roll(self, count: int) -> list[int]:
        return [self.rng.choice(self.rules.dice) for _ in range(count)]

    def _dice_turn(self, p: int) -> bool:
        """Roll the white dice, reroll any once, do one thing with them (claim, tickets, or nothing), then take a
        token for every two dice left (none when the turn began with a full hand of tokens). Tokens taken are
        kept for a later turn (the rules also allow using them at once; never doing so is always legal)."""
        bot = self.bots[p]
        self.spend(CLAIM_STEPS * self.rules.dice_count)   # every die rolled, weighed, perhaps rerolled
        sides = self._roll(self.rules.dice_count)
        self._log("roll", p, tuple(sides))
        again = tuple(bot.reroll(self, p, tuple(sides)))
        if again:
            if len(set(again)) != len(again) or not all(0 <= i < len(sides) for i in again):
                raise IllegalMove(f"player {p} rerolls dice {again} of {len(sides)}")
            for i, side in zip(sorted(again), self._roll(len(again))):
                sides[i] = side
            self._log("reroll", p, tuple(sorted(again)), tuple(sides))
        began = sum(self.tokens[p])
        action = bot.dice_action(self, p, tuple(sides))
        used: tuple = ()
        if action[0] == "claim":
            _, track, used, tokens = action
            self.dice_claim(p, track, tuple(sides), tuple(used), tokens)
        elif action[0] == "tickets":
            used = tuple(action[1])
            if not used or len(set(used)) != len(used) or not all(0 <= i < len(sides) and sides[i] in (STATION, LOCO)
                                                                  for i in used):
                raise IllegalMove(f"player {p} draws tickets with dice {used} of {sides}")
            if not self.can_draw_tickets():
                raise IllegalMove(f"player {p} draws tickets with none left")
            self._log("dtickets", p, used)
            self._tickets(p, len(used), 0)
        elif action[0] != "none":
            raise IllegalMove(f"unknown action {action!r}")
        room = 0 if began >= TOKEN_CAP else min((len(sides) - len(used)) // 2, TOKEN_CAP - sum(self.tokens[p]))
        if room > 0 and any(self.token_supply):
            kinds = tuple(bot.take_tokens(self, p, room))
            if len(kinds) > room or any(k not in SINGLE_OR_DOUBLE for k in kinds) or any(
                    kinds.count(k) > self.token_supply[k] for k in SINGLE_OR_DOUBLE):
                raise IllegalMove(f"player {p} takes tokens {kinds} ({room} allowed, supply {self.token_supply})")
            for k in kinds:
                self.tokens[p][k] += 1
                self.token_supply[k] -= 1
            if kinds:
                self._log("take-tokens", p, kinds)
        return action[0] == "none"

    def dice_payment(self, p: int, track: int, sides: tuple) -> tuple[tuple[int, ...], int] | None:
        """The dice (slots) and tokens that pay for ``track``: its kind's dice, then tokens, then locomotives."""
        t = self.rules.tracks[track]
        kind = self.kind(track)
        plain = [i for i, s in enumerate(sides) if s == kind]
        locos = [i for i, s in enumerate(sides) if s == LOCO]
        tokens = self.tokens[p][kind]
        if len(plain) + tokens + len(locos) < t.length:
            return None
        take = plain[:t.length]
        spend = min(tokens, t.length - len(take))
        take += locos[:t.length - len(take) - spend]
        return tuple(take), spend

    def dice_claim(self, p: int, track: int, sides: tuple, used: tuple, tokens: int) -> None:
        rules = self.rules
        t = self._claimable(p, track)
        kind = self.kind(track)
        if (len(set(used)) != len(used) or not all(0 <= i < len(sides) and sides[i] in (kind, LOCO) for i in used)
                or not 0 <= tokens <= self.tokens[p][kind] or len(used) + tokens != t.length):
            raise IllegalMove(f"player {p} pays dice {used} of {sides} and {tokens} tokens for {rules.track_name(track)}")
        self.tokens[p][kind] -= tokens
        self.token_supply[kind] += tokens
        taken = self._place(p, track)
        self._log("dclaim", p, track, used, tokens, tuple(taken))

    # --- tickets -----------------------------------------------------------------------------------------

    def can_draw_tickets(self) -> bool:
        return any(self.ticket_piles)

    def _tickets(self, p: int, count: int, keep: int, setup: bool = False) -> None:
        piles = self.ticket_piles
        mix = self.bots[p].ticket_mix(self, p, count, setup) if len(piles) > 1 else (count,)
        if len(mix) != len(piles) or sum(mix) != count or min(mix) < 0:
            raise IllegalMove(f"player {p} asks for tickets {mix} from {len(piles)} decks, {count} in all")
        drawn = []
        for d, k in enumerate(mix):
            for _ in range(min(k, len(piles[d]))):
                drawn.append(piles[d].popleft())
        if not drawn:
            raise IllegalMove(f"player {p} asks for tickets {mix} from empty decks")
        kept = self.bots[p].keep(self, p, drawn, min(keep, len(drawn)), setup)
        if len(kept) < min(keep, len(drawn)) or not set(kept) <= set(drawn) or len(set(kept)) != len(kept):
            raise IllegalMove(f"player {p} keeps {kept} of {drawn}")
        for i in drawn:
            if i not in kept:
                piles[self.rules.tickets[i].deck].append(i)   # to the bottom
        self.tickets[p].extend(kept)
        self._log("tickets", p, tuple(drawn), tuple(kept))

    # --- the end -----------------------------------------------------------------------------------------

    def connected(self, p: int, a: int, b: int) -> bool:
        """``a`` and ``b`` joined by the player's tracks, passing through no terminal."""
        return connected(self.rules, [self.rules.tracks[i] for i, o in enumerate(self.owner) if o == p], a, b)

    def _finish(self, end: str) -> Result:
        rules, n = self.rules, self.n
        completed = [[i for i in self.tickets[p] if self.connected(p, rules.tickets[i].a, rules.tickets[i].b)]
                     for p in range(n)]
        completed_round = [[self._completed_in(p, rules.tickets[i]) for i in completed[p]] for p in range(n)]
        breakdown = []
        for p in range(n):
            done = sum(rules.tickets[i].points for i in completed[p])
            missed = sum(rules.tickets[i].points for i in self.tickets[p] if i not in completed[p])
            breakdown.append({"routes": self.route_points[p], "tickets": done - missed})
        if rules.globetrotter:
            best = max(len(c) for c in completed)
            for p in range(n):
                breakdown[p]["globetrotter"] = rules.globetrotter if best and len(completed[p]) == best else 0
        if rules.passengers:
            for p, points in enumerate(majority_points(self.held, rules.majority)):
                breakdown[p]["passengers"] = points
        if rules.attractions:
            for p in range(n):
                reached = {x for i, o in enumerate(self.owner) if o == p
                           for x in (rules.tracks[i].a, rules.tracks[i].b) if rules.attractions[x]}
                breakdown[p]["attractions"] = ATTRACTION_POINTS * len(reached)
        if rules.longest:
            lengths = []
            for p in range(n):
                length, finished = longest_path(rules, [i for i, o in enumerate(self.owner) if o == p])
                lengths.append(length)
                if not finished:   # the search stopped at its limit: the bonus goes to the longest trail found
                    end = "work limit"
            for p in range(n):
                breakdown[p]["longest"] = rules.longest if max(lengths) and lengths[p] == max(lengths) else 0
        scores = [sum(b.values()) for b in breakdown]
        top = max(scores)
        leaders = [p for p in range(n) if scores[p] == top]
        if len(leaders) > 1:   # ties: more completed tickets, then (passengers) more passengers
            key = {p: (len(completed[p]), sum(self.held[p])) for p in leaders}
            best_key = max(key.values())
            leaders = [p for p in leaders if key[p] == best_key]
        self._log("end", end, tuple(scores))
        return Result(seed=self.seed, bots=tuple(b.name for b in self.bots), scores=scores, winners=leaders,
                      turns=self.turns, rounds=self.round, end=end, kept=[list(t) for t in self.tickets],
                      completed=completed, completed_round=completed_round, claims=self.claims, picks=self.picks,
                      blind=self.blind, spent=self.spent,
                      claimed_by_colour=self.claimed_by_colour, breakdown=breakdown, log=self.log, tunnels=self.tunnels,
                      work=self.work)

    def _completed_in(self, p: int, ticket) -> int:
        """The round of the claim that joined a completed ticket's ends: the shortest prefix of the player's
        claims that connects them (connection only grows with claims, so a binary search finds it)."""
        mine = [(self.rules.tracks[track], rnd) for track, who, rnd in self.claims if who == p]
        lo, hi = 1, len(mine)
        while lo < hi:
            mid = (lo + hi) // 2
            if connected(self.rules, [t for t, _ in mine[:mid]], ticket.a, ticket.b):
                hi = mid
            else:
                lo = mid + 1
        return mine[lo - 1][1] if mine else 0

    def _log(self, *event) -> None:
        if self.logging:
            self.log.append(event)


def connected(rules: Rules, tracks, a: int, b: int) -> bool:
    """Breadth-first over the given tracks from ``a`` to ``b``, never leaving a terminal that is not ``a``."""
    if a == b:
        return True
    adj: dict[int, list[int]] = {}
    for t in tracks:
        adj.setdefault(t.a, []).append(t.b)
        adj.setdefault(t.b, []).append(t.a)
    seen, todo = {a}, [a]
    while todo:
        x = todo.pop()
        if x != a and rules.terminal[x]:
            continue
        for y in adj.get(x, ()):
            if y == b:
                return True
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return False


def majority_points(held: list[list[int]], table: tuple[int, ...]) -> list[int]:
    """Per colour: the most pieces score table[0] (ties: all of them, and the next figure is skipped), the next
    most table[1] …; a player with none of a colour scores nothing for it."""
    points = [0] * len(held)
    for colour in range(len(held[0]) if held else 0):
        counts = sorted({h[colour] for h in held if h[colour] > 0}, reverse=True)
        place = 0
        for count in counts:
            if place >= len(table):
                break
            winners = [p for p, h in enumerate(held) if h[colour] == count]
            for p in winners:
                points[p] += table[place]
            place += len(winners)
    return points


def longest_path(rules: Rules, owned: list[int], limit: int = MAX_LONGEST_PATH_STEPS) -> tuple[int, bool]:
    """The longest trail (no track used twice) through the player's tracks, in spaces, and whether the search
    finished: it stops after ``limit`` steps (a trail tried), the longest found so far its answer."""
    adj: dict[int, list[tuple[int, int]]] = {}
    for i in owned:
        t = rules.tracks[i]
        adj.setdefault(t.a, []).append((t.b, i))
        adj.setdefault(t.b, []).append((t.a, i))
    best, steps = 0, 0
    for start in adj:   # depth first, a stack of (place, the tracks used, length, next neighbour to try)
        used: set[int] = set()
        stack = [(start, 0, 0)]
        trail: list[int] = []
        while stack:
            node, length, k = stack.pop()
            best = max(best, length)
            edges = adj[node]
            while k < len(edges) and edges[k][1] in used:
                k += 1
            if k == len(edges):
                if trail:
                    used.discard(trail.pop())
                continue
            steps += 1
            if steps > limit:
                return best, False
            nxt, i = edges[k]
            stack.append((node, length, k + 1))
            used.add(i)
            trail.append(i)
            stack.append((nxt, length + rules.tracks[i].length, 0))
    return best, True
