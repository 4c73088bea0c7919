"""pnpgen simulate, the line family (S鉄道で行こう): each rule on a tiny line, determinism, processes, the referee,
the command."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ContentError
from generator.load.game import load_game
from generator.simulate import report
from generator.simulate.engine import IllegalMove
from generator.simulate.family import compile_game
from generator.simulate.line_bots import LINE_BOTS, LineBot
from generator.simulate.line_engine import LineGame
from generator.simulate.line_rules import LineRules, compile_line_rules
from generator.simulate.line_validate import replay
from generator.simulate.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
S_RAILWAY = ROOT / "content" / "s-railway"

# six stations A–F; slow stops everywhere (2 sections a card), fast at A, C, F (1 section); number cards 1–2;
# one open destination, two rounds, three chips; two lines, 3 points for both
TINY = """\
game:
  title: Tiny line
  language: en
  players: [2, 3]
palette:
  grey: {hex: "#888888", name: grey}
  red: {hex: "#cc0000", name: red}
  blue: {hex: "#0000cc", name: blue}
  green: {hex: "#00cc00", name: green}
stations:
  A: {name: A}
  B: {name: B}
  C: {name: C}
  D: {name: D}
  E: {name: E}
  F: {name: F}
train_types:
  slow: {name: Slow, color: grey, advance: 2, stops: [A, B, C, D, E, F]}
  fast: {name: Fast, color: red, advance: 1, stops: [A, C, F]}
lines:
  x: {name: X, color: red}
  y: {name: Y, color: blue}
boards:
  line:
    kind: line
    name: Tiny
    size: [300, 200]
    slots:
      - {name: trains, count: 2, numbered: true}
      - {name: open, count: 1}
    round_track: 2
decks:
  trains:
    name: Trains
    expected: 8
    layout: sr-train
    back: {layout: sr-back}
    fields: {type: train_type, number: int}
    cards: [[slow, 1], [slow, 2], [slow, 3], [slow, 4], [fast, 5], [fast, 6], [fast, 7], [fast, 8]]
NUMBERS  destinations:
    name: Destinations
    expected: 10
    layout: sr-destination
    back: {layout: sr-back}
    fields: {station: station, points: int, line: line}
    cards: [[B, 1, x], [C, 2, x], [D, 3, y], [E, 4, y], [F, 5, x], [B, 1, y], [C, 2, y], [D, 3, x], [E, 4, x], [F, 5, y]]
components:
  chips:
    kind: token
    name: Chips
    expected: 3
    shape: circle
    size: 16
    faces:
      - {icon: chip, color: grey, count: 3}
tables:
  line_bonus: {1: 0, 2: 3}
"""
NUMBERS = """\
  numbers:
    name: Numbers
    expected: 6
    layout: sr-number
    back: {layout: sr-back}
    fields: {number: int, player: color}
    cards: [[1, red], [2, red], [1, blue], [2, blue], [1, green], [2, green]]
"""
A, B, C, D, E, F = range(6)
SLOW, FAST = 0, 1
# train cards by index: 0–3 slow (numbers 1–4), 4–7 fast (numbers 5–8)


def tiny(tmp_path: Path, numbers: str = NUMBERS) -> Path:
    folder = tmp_path / "tiny-line"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(TINY.replace("NUMBERS", numbers), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return load_game(tiny(tmp_path_factory.mktemp("line")))


@pytest.fixture(scope="module")
def rules(model):
    return compile_line_rules(model)


class Script(LineBot):
    """Bids and moves as it is told."""

    name = "script"

    def __init__(self, bids=(), moves=()):
        self.bids, self.moves = list(bids), list(moves)

    def bid(self, g, p):
        return self.bids.pop(0) if self.bids else 1

    def move(self, g, p):
        return self.moves.pop(0) if self.moves else ("discard", g.hands[p][0]) if g.hands[p] else ("chip",)


def game(rules, bots=None, players=2):
    return LineGame(rules, bots or [Script() for _ in range(players)], 1, log=True)


def test_rules_read_from_the_model(rules):
    assert rules.stations == ("A", "B", "C", "D", "E", "F")
    assert [(t.id, t.advance, t.stops) for t in rules.types] == [("slow", 2, (0, 1, 2, 3, 4, 5)), ("fast", 1, (0, 2, 5))]
    assert rules.cards[0] == (SLOW, 1) and rules.cards[7] == (FAST, 8) and len(rules.destinations) == 10
    assert (rules.bids, rules.open, rules.rounds, rules.chips, rules.private) == (2, 1, 2, 3, 3)
    assert rules.lines == ("x", "y") and rules.destinations[2].line == 1 and rules.destinations[2].points == 3
    assert rules.defaults == ("private destinations 3 per player",)


def test_family_is_read_off_the_model(model):
    assert isinstance(compile_game(model), LineRules)
    assert isinstance(compile_game(load_game(S_RAILWAY)), LineRules)
    assert isinstance(compile_game(load_game(ROOT / "content" / "ttr-new-york")), Rules)


def test_line_bonus_table_and_beyond(rules):
    assert [rules.line_bonus(k) for k in (0, 1, 2, 3)] == [0, 0, 3, 3]


def test_setup_deals_open_and_private_cards(rules):
    g = game(rules, players=3)
    dealt = g.open + [d for hand in g.private for d in hand]
    assert len(g.open) == 1 and [len(h) for h in g.private] == [3, 3, 3] and len(set(dealt)) == 10
    assert g.pos == [A, A, A]


def test_round_deal_sorts_the_row_largest_number_first(rules):
    g = game(rules)
    g.discards, g.pile, g.row = [0, 1], [2, 3, 4, 5], [6, 7]
    g.deal_row()
    assert sorted(g.pile + g.row) == list(range(8))   # every card back in the pile, then the row dealt
    assert [rules.cards[c][1] for c in g.row] == sorted((rules.cards[c][1] for c in g.row), reverse=True)


def test_unique_bids_take_their_cards_and_the_row_refills_in_draw_order(rules):
    g = game(rules, [Script(bids=[2]), Script(bids=[1])])
    g.row, g.pile = [7, 3], [0, 5, 1]
    assert g.bid()
    assert g.hands == [[3], [7]] and g.chips == [0, 0]
    assert g.row == [1, 5] and g.pile == [0]        # popped from the end: 1 into slot 1, 5 into slot 2
    assert g.won == [1, 1]


def test_clash_gives_chips_and_keeps_the_card(rules):
    g = game(rules, [Script(bids=[2]), Script(bids=[2])])
    g.row, g.pile = [7, 3], [0]
    assert g.bid()
    assert g.hands == [[], []] and g.chips == [1, 1] and g.pool == 1 and g.row == [7, 3]


def test_clash_on_one_discards_the_slot_one_card_and_slides(rules):
    g = game(rules, [Script(bids=[1]), Script(bids=[1])])
    g.row, g.pile = [7, 3], [0, 5]
    assert g.bid()
    assert g.discards == [7] and g.row == [3, 5] and g.chips == [1, 1] and g.dropped == [0, 1]


def test_clash_with_the_pool_empty_gives_no_chip(rules):
    g = game(rules, [Script(bids=[2]), Script(bids=[2])])
    g.row, g.pile, g.pool = [7, 3], [0], 1
    g.bid()
    assert g.chips == [1, 0] and g.chips_missed == 1 and g.pool == 0


def test_phase_one_ends_when_the_pile_cannot_fill_the_row(rules):
    g = game(rules, [Script(bids=[1]), Script(bids=[2])])
    g.row, g.pile = [7, 3], [0]
    assert not g.bid()                     # two slots free, one card left
    assert g.row == [] and g.pile == [0] and g.hands == [[7], [3]]


def test_phase_one_plays_out_a_round_and_bids_must_be_numbers(rules):
    g = game(rules, [Script(bids=[1, 2, 1, 1]), Script(bids=[2, 1, 2, 1])])
    g.phase1()
    # 8 cards: the row of 2, three bids of two cards taken (the pile now empty, the row full), then a fourth bid:
    # a clash on 1 throws the slot-1 card away and the empty pile cannot refill it: phase 1 is over
    assert sum(len(h) for h in g.hands) == 6 and len(g.row) == 1 and len(g.discards) == 1 and not g.pile
    assert g.bids == [4, 0] and g.clashes == [1, 0] and g.chips == [1, 1]
    bad = game(rules, [Script(bids=[3]), Script(bids=[1])])
    bad.row, bad.pile = [7, 3], [0, 1]
    with pytest.raises(IllegalMove, match="bids 3"):
        bad.bid()


def test_phase_two_starts_with_the_lowest_number_then_clockwise(rules):
    bots = [Script(moves=[("discard", 6)]), Script(moves=[("discard", 1)]), Script(moves=[("discard", 5)])]
    g = game(rules, bots, players=3)
    g.hands = [[6], [1], [5]]
    g.phase2()
    moves = [e[1] for e in g.log if e[0] in ("discard", "play", "spend")]
    assert next(e for e in g.log if e[0] == "phase2") == ("phase2", 1) and moves == [1, 2, 0]
    assert g.pos == [B, B, B] and g.hands == [[], [], []]


def test_a_player_holding_anything_cannot_pass(rules):
    g = game(rules, [Script(moves=[("pass",)]), Script()])
    g.chips = [1, 0]
    with pytest.raises(IllegalMove, match="cannot pass"):
        g.phase2()


def test_a_train_card_moves_along_its_type_stops(rules):
    g = game(rules)
    g.hands[0] = [4, 0]
    g.move(0, ("play", 4, 1))              # fast from A: one section is C (B is passed)
    assert g.pos[0] == C
    g.move(0, ("play", 0, 2))              # slow from C: two sections, E
    assert g.pos[0] == E and g.played == [1, 1]


def test_a_train_card_only_where_its_type_stops_and_never_beyond_its_advance(rules):
    g = game(rules)
    g.hands[0] = [4, 5, 0]
    g.pos[0] = B
    with pytest.raises(IllegalMove, match="fast card 1 sections from B"):
        g.move(0, ("play", 4, 1))          # fast does not stop at B
    with pytest.raises(IllegalMove, match="3 sections"):
        g.move(0, ("play", 0, 3))          # slow advances 2 at most
    with pytest.raises(IllegalMove, match="0 sections"):
        g.move(0, ("play", 0, 0))
    g.pos[0] = F
    assert g.reach(SLOW, F) == [] and g.reach(SLOW, E) == [F]   # the terminus ends every move
    with pytest.raises(IllegalMove):
        g.move(0, ("play", 0, 1))


def test_discard_or_chip_moves_one_station_and_nothing_at_the_terminus(rules):
    g = game(rules)
    g.hands[0], g.chips[0], g.pool = [5, 6], 1, 2
    g.move(0, ("discard", 5))              # any card, one station
    g.move(0, ("chip",))
    assert g.pos[0] == C and g.chips[0] == 0 and g.pool == 3 and g.discarded == [0, 1]
    g.pos[0] = F
    g.move(0, ("discard", 6))
    assert g.pos[0] == F and g.visits[F] == 0
    with pytest.raises(IllegalMove, match="chip"):
        g.move(0, ("chip",))


def test_markers_and_destinations_only_where_a_move_ends(rules):
    g = game(rules)
    d_b, d_d = 0, 2                        # B (1, x) and D (3, y)
    g.open, g.private = [d_b], [[d_d], []]
    g.hands[0] = [0, 1, 2]
    g.move(0, ("play", 0, 2))              # A → C: B passed, no marker
    assert g.markers[0] == []
    g.move(0, ("discard", 1))              # C → D
    assert g.completed[0] == [d_d] and g.markers[0] == []
    g.hands[1] = [3]
    g.move(1, ("discard", 3))              # player 1 ends on B: a marker on the open card
    assert g.markers == [[], [d_b]]


def test_scores_points_and_line_bonus(rules):
    g = game(rules)
    g.markers = [[0], [1]]                 # B (1, x); C (2, x)
    g.completed = [[3], [7]]               # E (4, y): 5 and two lines (+3); D (3, x): 5, one line
    result = g._finish()
    assert result.scores == [8, 5] and result.winners == [0] and result.tie == ""
    assert result.breakdown[0] == {"stamps": 1, "destinations": 4, "lines": 3} and result.line_counts == [2, 1]
    g.markers, g.completed = [[1], [6]], [[], []]   # C (2, x) and C (2, y): 2 each, one line each: shared
    result = g._finish()
    assert result.winners == [0, 1] and result.tie == "shared"


def test_equal_points_more_lines_wins(tmp_path):
    folder = tiny(tmp_path)
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("{1: 0, 2: 3}", "{1: 0, 2: 0}")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    g = game(compile_line_rules(load_game(folder)))
    g.markers, g.completed = [[0, 5], [1]], [[], []]   # B (1, x) + B (1, y) = 2, two lines; C (2, x) = 2, one
    result = g._finish()
    assert result.scores == [2, 2] and result.winners == [0] and result.tie == "broken"


def test_a_whole_game_is_three_phases_per_round_and_refereed(model, rules):
    result = LineGame(rules, [LINE_BOTS["greedy"](), LINE_BOTS["random"]()], 3, log=True).play()
    assert [e[1] for e in result.log if e[0] == "round"] == [1, 2]
    assert replay(model, result.log, 2) == []
    assert len(result.round_ends) == 2 and result.chips_taken == result.chips_spent


@pytest.mark.parametrize("players, bots", [(2, "greedy"), (3, "greedy"), (3, "random"), (5, "greedy"), (4, "random")])
def test_referee_accepts_the_engines_games_on_s_railway(players, bots):
    model = load_game(S_RAILWAY)
    rules = compile_line_rules(model)
    for index in range(3):
        result = report.play_one(rules, [bots] * players, 11, index, log=True)
        assert replay(model, result.log, players) == []


def test_referee_rejects_illegal_moves(model, rules):
    result = LineGame(rules, [LINE_BOTS["greedy"](), LINE_BOTS["greedy"]()], 5, log=True).play()
    log = result.log
    at = next(i for i, e in enumerate(log) if e[0] == "discard")
    _kind, p, card, to = log[at]
    moved = log[:at] + [("discard", p, card, min(to + 1, 5))] + log[at + 1:]   # two stations for a discard
    problems = replay(model, moved, 2)
    assert problems and problems[0].startswith(f"event {at} ") and "not the next station" in problems[0]
    at = next(i for i, e in enumerate(log) if e[0] == "take")
    _kind, p, slot, card = log[at]
    stolen = log[:at] + [("take", 1 - p, slot, card)] + log[at + 1:]
    assert any("the rules call for" in x for x in replay(model, stolen, 2))
    end = log[-1]
    wrong = log[:-1] + [(end[0], (end[1][0] + 1, end[1][1]), end[2])]
    assert any("referee counts" in x for x in replay(model, wrong, 2))


def test_same_seed_same_game_and_games_differ():
    rules = compile_line_rules(load_game(S_RAILWAY))
    a = report.play_one(rules, ["greedy"] * 3, 7, 0)
    b = report.play_one(rules, ["greedy"] * 3, 7, 0)
    c = report.play_one(rules, ["greedy"] * 3, 7, 1)
    assert (a.scores, a.markers, a.completed, a.visits) == (b.scores, b.markers, b.completed, b.visits)
    assert (a.scores, a.visits, a.private) != (c.scores, c.visits, c.private)


def test_one_process_or_two_the_same_report(monkeypatch):
    from generator.simulate import line_report
    monkeypatch.setattr(report, "CHUNK", 4)
    rules = compile_line_rules(load_game(S_RAILWAY))
    bots = ["greedy", "random", "greedy"]
    one = line_report.summary(rules, report.simulate(S_RAILWAY, (), bots, 12, 3, jobs=1, validate=3), bots, 3)
    two = line_report.summary(rules, report.simulate(S_RAILWAY, (), bots, 12, 3, jobs=2, validate=3), bots, 3)
    assert one == two and one["games"] == 12


def test_greedy_beats_random():
    rules = compile_line_rules(load_game(S_RAILWAY))
    wins = sum("greedy" in [r.bots[w] for w in r.winners]
               for r in (report.play_one(rules, ["greedy", "random", "random"], 2, i) for i in range(20)))
    assert wins >= 15


def test_cli_plays_a_line_game():
    runner = CliRunner()
    ok = runner.invoke(main, ["simulate", str(S_RAILWAY), "--players", "3", "--games", "6", "--seed", "4",
                              "--format", "json", "--validate", "1"])
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.output)
    assert data["family"] == "line" and data["games"] == 6 and len(data["seats"]) == 3 and len(data["rounds"]) == 3
    assert len(data["stations"]) == 24 and len(data["train_types"]) == 5 and data["chips"]["pool"] == 30
    assert {"destination", "marked_pct_of_players_when_open", "completed_pct_of_dealt"} <= set(data["destinations"][0])
    text = runner.invoke(main, ["simulate", str(S_RAILWAY), "--players", "2", "--games", "3", "--bots", "greedy,random"])
    assert text.exit_code == 0 and "train types per game" in text.output and "Takadanobaba" in text.output
    bad = runner.invoke(main, ["simulate", str(S_RAILWAY), "--bots", "lookahead"])
    assert bad.exit_code == 2 and "unknown bot 'lookahead': the bots are random, greedy" in bad.output
    heat = runner.invoke(main, ["simulate", str(S_RAILWAY), "--games", "1", "--heatmap", "x.pdf"])
    assert heat.exit_code == 2 and "--heatmap draws route maps" in heat.output
    many = runner.invoke(main, ["simulate", str(S_RAILWAY), "--players", "6"])
    assert many.exit_code == 2 and "played by 2–5 players, not 6" in many.output


def test_cli_refuses_a_line_game_missing_a_piece(tmp_path):
    folder = tiny(tmp_path, numbers="")
    with pytest.raises(ContentError, match="it has no number cards"):
        compile_line_rules(load_game(folder))
    out = CliRunner().invoke(main, ["simulate", str(folder), "--players", "2", "--games", "1"])
    assert out.exit_code == 2 and "cannot play this line game: it has no number cards" in out.output
    assert "Traceback" not in out.output


def test_cli_refuses_a_game_of_no_family():
    out = CliRunner().invoke(main, ["simulate", str(ROOT / "content" / "thurn-and-taxis"), "--games", "1"])
    assert out.exit_code == 2 and "cannot play this game" in out.output and "Traceback" not in out.output


def test_phase_one_stops_after_the_bid_limit(rules, monkeypatch):
    from generator.simulate import line_engine
    monkeypatch.setattr(line_engine, "MAX_BIDS", 5)
    g = game(rules, [Script(bids=[2] * 9), Script(bids=[2] * 9)])   # a clash on 2 for ever: the row never changes
    g.phase1()
    assert g.bids[0] == 5 and g.bid_limit == 1 and g.log[-1] == ("phase1-end", "bid limit")


def test_greedy_plans_its_moves_for_the_most_points(rules):
    greedy = LINE_BOTS["greedy"]()
    g = game(rules, [greedy, Script()])
    g.open, g.private = [0], [[1, 3], []]  # open B (1, x); own C (2, x) and E (4, y)
    g.hands = [[4, 0], []]                 # a fast card (A → C) and a slow one (2 sections)
    g.phase2()
    # fast to C, then slow two sections to E: 2 + 4 and two lines; walking would get B and C only
    assert g.completed[0] == [1, 3] and g.markers[0] == [] and g.pos[0] == E


def test_compare_refuses_a_line_game_clearly():
    out = CliRunner().invoke(main, ["simulate", "--compare", str(S_RAILWAY), str(S_RAILWAY), "--players", "2",
                                    "--games", "2"])
    assert out.exit_code == 2 and "comparing two versions is done for route games only" in out.output
