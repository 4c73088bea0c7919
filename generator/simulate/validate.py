"""An independent referee: replays a game's log against the game model and a second reading of the rules.

Written apart from the engine on purpose (its own tracks, colours and tickets read from the ``Game``,
rustworkx for connections, its own majority count), so a bug in the engine's legality or scoring shows
up as a disagreement instead of being checked against itself. ``replay`` returns the problems found,
each naming the event; an empty list is a legal game.
"""
from __future__ import annotations

from collections import Counter

import rustworkx as rx

from generator.limits import MAX_LONGEST_PATH_STEPS
from generator.model.game import Game
from generator.model.network import is_ticket_deck
from generator.simulate import rules as defaults

DICE = defaults.DICE_FACES   # the engine logs a side by its index here; the referee checks it by name


class _Model:
    """What a referee needs from the game: read from the model, not from ``generator.simulate.rules``."""

    def __init__(self, game: Game):
        deck = next(d for d in game.decks.values() if d.role == "train")
        wild = str(deck.vars.get("wild", ""))
        totals: Counter = Counter()
        for card in deck.cards:
            totals[card.values["color"].id] += card.count
        self.colour_ids = [c for c in totals if c != wild] + [wild]
        self.wild = len(self.colour_ids) - 1
        self.total = [totals[c] for c in self.colour_ids]
        self.tracks = []      # (a, b, length, colour id)
        self.tunnel: list[bool] = []   # per track: a tunnel (claims reveal cards) …
        self.ferry: list[int] = []     # … locomotives a claim must hold
        rules = game.map_rules
        per_mark = rules.ferry_locomotives if rules is not None and rules.ferry_locomotives is not None else 1
        self.reveal = rules.tunnel_reveal if rules is not None and rules.tunnel_reveal is not None else 3
        for route in game.routes:
            if route.a.id != route.b.id:
                tunnel, ferry = route.extras.get("tunnel", False), route.extras.get("ferry", 0)
                for k, colour in enumerate(route.colors):
                    self.tracks.append((route.a.id, route.b.id, route.length, colour.id))
                    self.tunnel.append(bool(tunnel[k] if isinstance(tunnel, tuple) else tunnel))
                    self.ferry.append(per_mark * int(ferry[k] if isinstance(ferry, tuple) else ferry))
        self.places = list(game.collections.get("place", {}))
        kinds = set(game.meta.get("terminals", ()))
        self.terminals = {p.id for p in game.collections.get("place", {}).values() if p.attrs.get("kind", "city") in kinds}
        self.attractions = {p.id for p in game.collections.get("place", {}).values() if p.attrs.get("kind") == "attraction"}
        self.tickets = [(c.values["from"].id, c.values["to"].id, int(c.values["points"]))
                        for d in game.decks.values() if is_ticket_deck(d) for c in d.cards for _ in range(c.count)
                        if c.values.get("from") is not None and c.values.get("to") is not None]
        self.scoring = {int(k): int(v) for k, v in game.tables["route_scoring"].items()}
        play = game.tables.get("play", {})
        self.figure = {k: int(play.get(k, default)) for k, default in defaults.PLAY_KEYS.items()}
        end = game.tables.get("game_end", {})
        self.end_trains = int(next(iter(end.values()))) if len(end) == 1 else defaults.END_TRAINS
        self.all_tracks_from = int(game.meta.get("all_tracks_from", defaults.ALL_TRACKS_FROM))
        self.trains = int(game.meta["trains_per_player"])
        self.majority = [int(v) for _k, v in sorted(game.tables.get("passenger_majority", {}).items(), key=lambda kv: int(kv[0]))]
        self.bonus = {str(c.values.get("latin")): int(c.values["points"]) for d in game.decks.values()
                      if not d.role and not is_ticket_deck(d) for c in d.cards if c.values.get("points") is not None}
        # dice instead of cards (the dice add-on): the white die's sides by name, the dice rolled, the tokens
        self.die: set[str] = set()
        self.dice_count = 0
        self.supply = {"track": 0, "double-track": 0}
        if deck.replaced_by is not None:
            for part in game.parts.values():
                sides = getattr(part.options, "symbols", None)   # a die has sides; asked, not its kind's name
                if sides and "track" in sides and not self.die:
                    self.die, self.dice_count = set(sides), part.count
                for face in part.faces if not sides else ():
                    if face.values.get("icon") in self.supply:
                        self.supply[face.values["icon"]] += face.count
        self.pairs = Counter(frozenset((a, b)) for a, b, _length, _colour in self.tracks)

    def pair(self, track: int) -> frozenset:
        a, b, _length, _colour = self.tracks[track]
        return frozenset((a, b))


def replay(game: Game, log: list, players: int) -> list[str]:
    """Problems found replaying ``log`` (a game of ``players`` players) against ``game``; [] when all is legal."""
    m = _Model(game)
    problems: list[str] = []
    hands = [[0] * len(m.total) for _ in range(players)]
    row: list[int] = []
    trains = [m.trains] * players
    owner: dict[int, int] = {}
    tickets: list[list[int]] = [[] for _ in range(players)]
    held_tickets: set[int] = set()
    pieces: list[list[int]] = []
    held: list[Counter] = [Counter() for _ in range(players)]
    points = [0] * players
    turn_player, turns, takes, first_wild, last_turn = -1, 0, 0, False, None
    acted = True
    # dice: the sides on the table, the dice spent this turn, tokens held at the turn's start, stations to draw
    sides: list[str] = []
    spent: set[int] = set()
    rolled, rerolled, began, station_draw = False, False, 0, 0
    tokens = [{"track": 0, "double-track": 0} for _ in range(players)]
    supply = dict(m.supply)
    tunnel: tuple = ()   # the turn's tunnel reveal: (track, colour, extra cards, extra wilds)

    def bad(i: int, event, what: str) -> None:
        problems.append(f"event {i} {event!r}: {what}")

    def unseen(colour: int) -> int:
        return m.total[colour] - sum(h[colour] for h in hands) - row.count(colour)

    def claim_track(i: int, event, p: int, track: int, taken) -> None:
        """What every claim must respect, however it was paid: the track open to the player, trains enough;
        then trains spent, points, the owner, and a passenger from each end that has some."""
        a, b, length, _colour = m.tracks[track]
        if track in owner:
            bad(i, event, f"{a} – {b} is already claimed")
        same = [t for t in owner if m.pair(t) == m.pair(track)]
        if any(owner[t] == p for t in same):
            bad(i, event, f"player {p} already has a track between {a} and {b}")
        if same and players < m.all_tracks_from:
            bad(i, event, f"{a} – {b}'s other track is closed with {players} players")
        if trains[p] < length:
            bad(i, event, f"{trains[p]} trains for a route of {length}")
        trains[p] -= length
        points[p] += m.scoring[length]
        owner[track] = p
        ends = [m.places.index(a), m.places.index(b)]
        had = sorted(e for e in ends if pieces and pieces[e])
        if sorted(place for place, _piece in taken) != had:
            bad(i, event, f"passengers taken at {[place for place, _ in taken]}, the route's ends with some: {had}")
        for place, piece in taken:
            if place not in ends or piece not in pieces[place]:
                bad(i, event, f"passenger {piece} is not at place {place}")
            else:
                pieces[place].remove(piece)
                held[p][piece] += 1

    for i, event in enumerate(log):
        kind = event[0]
        if kind == "passengers":
            pieces = [list(x) for x in event[1]]
        elif kind == "deal":
            _, p, cards = event
            for c in cards:
                if unseen(c) < 1:
                    bad(i, event, f"no {m.colour_ids[c]} card is left to deal")
                hands[p][c] += 1
            # fewer only when the deck ran out (a train deck of fewer cards than the hands dealt)
            if len(cards) > m.figure["hand"] or (len(cards) < m.figure["hand"]
                                                 and any(unseen(c) for c in range(len(m.total)))):
                bad(i, event, f"dealt {len(cards)} cards, the game deals {m.figure['hand']}")
        elif kind == "reshuffle":
            if list(event[1]) != row and row:
                bad(i, event, "the discarded row is not the row on the table")
            wilds = list(event[1]).count(m.wild)
            if wilds < m.figure["wild_reshuffle"]:
                bad(i, event, f"the row was discarded with {wilds} wilds")
            row = []
        elif kind == "row":
            new = list(event[1])
            if new[:len(row)] != row:
                bad(i, event, f"the row changed cards it kept: {row} → {new}")
            for c in new[len(row):]:
                if unseen(c) < 1:
                    bad(i, event, f"no {m.colour_ids[c]} card is left to turn up")
                row.append(c)
            if len(row) > m.figure["face_up"]:
                bad(i, event, f"{len(row)} cards face up")
        elif kind == "turn":
            p = event[1]
            if not acted:
                bad(i, event, f"player {turn_player} did nothing on their turn")
            if p != (turn_player + 1) % players:
                bad(i, event, f"player {p} plays after player {turn_player}")
            if last_turn is not None and turns >= last_turn:
                bad(i, event, "a turn after the last round")
            turn_player, turns, takes, first_wild, acted, tunnel = p, turns + 1, 0, False, False, ()
            sides, spent, rolled, rerolled, station_draw = [], set(), False, False, 0
            began = sum(tokens[p].values())
        elif kind == "roll":
            _, p, rolled_sides = event
            names = [DICE[s] if 0 <= s < len(DICE) else "?" for s in rolled_sides]
            if p != turn_player or rolled or not m.die:
                bad(i, event, "a roll outside its player's turn, or in a game without dice")
            if len(names) != m.dice_count or not set(names) <= m.die:
                bad(i, event, f"rolled {names}: the game rolls {m.dice_count} dice with sides {sorted(m.die)}")
            sides, rolled, acted = names, True, True
        elif kind == "reroll":
            _, p, slots, new = event
            names = [DICE[s] if 0 <= s < len(DICE) else "?" for s in new]
            if p != turn_player or not rolled or rerolled or spent:
                bad(i, event, "a second reroll, or a reroll after the dice were used")
            if len(names) != len(sides) or any(names[k] != sides[k] for k in range(len(sides)) if k not in slots) \
                    or not set(names) <= m.die:
                bad(i, event, f"the reroll of {list(slots)} changed other dice: {sides} → {names}")
            sides, rerolled = names, True
        elif kind == "dclaim":
            _, p, track, slots, paid_tokens, taken = event
            if p != turn_player or not rolled or spent:
                bad(i, event, "a claim outside its player's turn, or a second action")
            if not 0 <= track < len(m.tracks):
                bad(i, event, "no such track")
                continue
            a, b, length, _colour = m.tracks[track]
            need = "double-track" if m.pairs[m.pair(track)] > 1 else "track"
            if len(set(slots)) != len(slots) or any(not 0 <= k < len(sides) or sides[k] not in (need, "locomotive")
                                                    for k in slots):
                bad(i, event, f"dice {list(slots)} of {sides} do not pay a {need} route")
            if paid_tokens < 0 or paid_tokens > tokens[p][need]:
                bad(i, event, f"{paid_tokens} {need} tokens paid, {tokens[p][need]} held")
            if len(slots) + paid_tokens != length:
                bad(i, event, f"{len(slots)} dice and {paid_tokens} tokens for a route of {length}")
            tokens[p][need] -= paid_tokens
            supply[need] += paid_tokens
            spent = set(slots) | {-1}   # -1: the turn's action is taken even when every space was a token
            claim_track(i, event, p, track, taken)
        elif kind == "dtickets":
            _, p, slots = event
            if p != turn_player or not rolled or spent:
                bad(i, event, "tickets drawn outside its player's turn, or a second action")
            if not slots or len(set(slots)) != len(slots) or any(
                    not 0 <= k < len(sides) or sides[k] not in ("station", "locomotive") for k in slots):
                bad(i, event, f"dice {list(slots)} of {sides} are not stations")
            spent, station_draw = set(slots) | {-1}, len(slots)
        elif kind == "take-tokens":
            _, p, kinds = event
            names = [("track", "double-track")[k] for k in kinds]
            left = len(sides) - len(spent - {-1})
            if p != turn_player or not rolled:
                bad(i, event, "tokens taken outside its player's turn")
            if began >= defaults.TOKEN_CAP:
                bad(i, event, f"tokens taken by a player who began the turn with {began}")
            if len(names) > left // 2 or sum(tokens[p].values()) + len(names) > defaults.TOKEN_CAP:
                bad(i, event, f"{len(names)} tokens for {left} dice left, holding {sum(tokens[p].values())}")
            for name in names:
                if supply[name] < 1:
                    bad(i, event, f"no {name} token is left")
                supply[name] -= 1
                tokens[p][name] += 1
        elif kind == "take":
            _, p, slot, colour = event
            if p != turn_player or (acted and takes == 0):
                bad(i, event, "a card taken outside its player's draw")
            if takes >= 2 or first_wild:
                bad(i, event, "more cards taken than the draw allows")
            if slot == -1:
                if unseen(colour) < 1:
                    bad(i, event, f"no {m.colour_ids[colour]} card is in the pile")
            else:
                if not 0 <= slot < len(row) or row[slot] != colour:
                    bad(i, event, f"face-up slot {slot} does not hold {m.colour_ids[colour]} (row {row})")
                elif colour == m.wild and takes == 1:
                    bad(i, event, "a face-up wild taken as the second card")
                else:
                    row.pop(slot)
                first_wild = colour == m.wild and takes == 0
            hands[p][colour] += 1
            takes += 1
            acted = True
        elif kind == "tunnel":
            _, p, track, colour, revealed, extra, extra_wilds = event
            if p != turn_player or takes or acted:
                bad(i, event, "a tunnel claimed outside its player's turn")
            if not 0 <= track < len(m.tracks) or not m.tunnel[track]:
                bad(i, event, "cards turned over for a track that is no tunnel")
                continue
            if len(revealed) > m.reveal:
                bad(i, event, f"{len(revealed)} cards turned over, the map turns over {m.reveal}")
            for c in set(revealed):
                if unseen(c) < revealed.count(c):
                    bad(i, event, f"no {revealed.count(c)} × {m.colour_ids[c]} left to turn over")
            matches = sum(1 for c in revealed if c == m.wild or (colour != m.wild and c == colour))
            if extra == -1:
                acted = True   # the claim failed: the cards stay in hand, the turn is spent
            elif extra < 0 or extra_wilds < 0 or extra + extra_wilds != matches or (colour == m.wild and extra):
                bad(i, event, f"{extra} {m.colour_ids[colour]} + {extra_wilds} wilds paid for {matches} matching cards")
            else:
                tunnel = (track, colour, extra, extra_wilds)
        elif kind == "claim":
            _, p, track, colour, wilds, taken = event
            acted = True
            if p != turn_player or takes:
                bad(i, event, "a claim outside its player's turn")
            if not 0 <= track < len(m.tracks):
                bad(i, event, "no such track")
                continue
            a, b, length, track_colour = m.tracks[track]
            plain = length - wilds
            extra, extra_wilds = 0, 0
            if m.tunnel[track]:
                if not tunnel or tunnel[:2] != (track, colour if plain else m.wild):
                    bad(i, event, f"the tunnel {a} – {b} claimed without its cards turned over")
                else:
                    extra, extra_wilds = tunnel[2:]
            if wilds < m.ferry[track]:
                bad(i, event, f"the ferry {a} – {b} paid with {wilds} locomotives, it needs {m.ferry[track]}")
            if hands[p][m.wild] < wilds + extra_wilds or (plain + extra and hands[p][colour] < plain + extra):
                bad(i, event, f"player {p} lacks the cards: hand {hands[p]}")
            if plain and (colour == m.wild or (track_colour != defaults.ANY_COLOUR and m.colour_ids[colour] != track_colour)):
                bad(i, event, f"paid in {m.colour_ids[colour]} for a {track_colour} route")
            if plain + extra:
                hands[p][colour] -= plain + extra
            hands[p][m.wild] -= wilds + extra_wilds
            claim_track(i, event, p, track, taken)
        elif kind == "tickets":
            _, p, drawn, kept = event
            acted = True
            setup = turn_player == -1
            keep = m.figure["tickets_kept" if setup else "tickets_keep"]
            count = m.figure["tickets_dealt" if setup else "tickets_drawn"]
            if m.die and not setup:   # dice: one ticket per station die, any of them kept
                if not station_draw or not drawn:
                    bad(i, event, "tickets drawn without station dice")
                keep, count, station_draw = 0, station_draw, 0
            if len(drawn) > count:
                bad(i, event, f"{len(drawn)} tickets drawn, the game allows {count}")
            if any(t in held_tickets for t in drawn) or len(set(drawn)) != len(drawn):
                bad(i, event, "a ticket drawn that a player holds")
            if not set(kept) <= set(drawn) or len(kept) < min(keep, len(drawn)):
                bad(i, event, f"kept {len(kept)} of {len(drawn)}, at least {keep} must be kept")
            tickets[p].extend(kept)
            held_tickets.update(kept)
        elif kind == "pass":
            acted = True
        elif kind == "end":
            _, reason, scores = event
            if reason == "trains" and (last_turn is None or turns != last_turn):
                bad(i, event, f"the game ended after turn {turns}, the last round ends after turn {last_turn}")
            expect = _scores(m, owner, tickets, held, points, players)
            # a game stopped by its work limit may have stopped its longest-path search too: that bonus is not refereed
            cut = reason == "work limit" and any(name in m.bonus for name in defaults.LONGEST)
            if expect is not None and not cut and list(scores) != expect:
                bad(i, event, f"scores {list(scores)}, the referee counts {expect}")
        else:
            bad(i, event, "unknown event")
        if kind in ("claim", "dclaim") and last_turn is None and turn_player >= 0 and trains[turn_player] <= m.end_trains:
            last_turn = turns + players
    return problems


def _scores(m: _Model, owner: dict, tickets: list, held: list, points: list, players: int) -> list[int] | None:
    """The final scores, or None when the longest trail is too long a search to referee (MAX_LONGEST_PATH_STEPS)."""
    total = list(points)
    completed = [0] * players
    for p in range(players):
        graph = rx.PyGraph()
        index: dict[str, int] = {}
        for t, o in owner.items():
            if o == p:
                a, b, _length, _colour = m.tracks[t]
                for place in (a, b):
                    if place not in index:
                        index[place] = graph.add_node(place)
                graph.add_edge(index[a], index[b], None)
        for t in tickets[p]:
            a, b, value = m.tickets[t]
            view = graph.subgraph([i for n, i in index.items() if n not in m.terminals or n in (a, b)])
            at = {view[i]: i for i in view.node_indices()}
            # a place reaches itself, on a network or not (a waived ticket from a city to itself: the engine's reading)
            done = a == b or (a in at and b in at and rx.has_path(view, at[a], at[b]))
            total[p] += value if done else -value
            completed[p] += done
        if m.attractions:
            total[p] += sum(1 for place in m.attractions if place in index) * defaults.ATTRACTION_POINTS
    if defaults.GLOBETROTTER in m.bonus and max(completed):
        for p in range(players):
            if completed[p] == max(completed):
                total[p] += m.bonus[defaults.GLOBETROTTER]
    longest = next((m.bonus[name] for name in defaults.LONGEST if name in m.bonus), 0)
    if longest:
        found = [_longest_trail([m.tracks[t] for t, o in sorted(owner.items()) if o == p]) for p in range(players)]
        trails = [t for t in found if t is not None]
        if len(trails) < players:   # too many trails to try (the engine stopped its own search too): not refereed
            return None
        for p in range(players):
            if max(trails) and trails[p] == max(trails):
                total[p] += longest
    if m.majority:
        colours = set().union(*(h.keys() for h in held))
        for colour in colours:
            for p in range(players):
                if held[p][colour]:
                    rank = sum(1 for q in range(players) if held[q][colour] > held[p][colour])
                    if rank < len(m.majority):
                        total[p] += m.majority[rank]
    return total


def _longest_trail(tracks: list) -> int | None:
    """The longest walk using each of these tracks at most once, in spaces: every start, every continuation; None
    past MAX_LONGEST_PATH_STEPS walks tried."""
    best, steps = 0, 0
    stack: list[tuple[str, frozenset, int]] = [(end, frozenset(), 0) for track in tracks for end in track[:2]]
    while stack:
        here, used, length = stack.pop()
        steps += 1
        if steps > MAX_LONGEST_PATH_STEPS:
            return None
        best = max(best, length)
        for i, (a, b, size, _colour) in enumerate(tracks):
            if i not in used and here in (a, b):
                stack.append((b if here == a else a, used | {i}, length + size))
    return best
