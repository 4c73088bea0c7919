"""pnpgen simulate: each rule on a tiny map of its own, determinism, processes, the referee, the command."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ContentError
from generator.load.game import load_game
from generator.simulate import report
from generator.simulate.bots import BOTS, Bot
from generator.simulate.engine import Game, IllegalMove
from generator.simulate.rules import compile_rules
from generator.simulate.validate import replay

ROOT = Path(__file__).resolve().parents[1]
GERMANY = ROOT / "content" / "ttr-germany"
NEW_YORK = ROOT / "content" / "ttr-new-york"

# three places; A–B a double route (red, blue), B–C gray, A–C red; 2 of a double route's tracks from 3 players
TINY = """\
game:
  title: Tiny
  language: en
  players: [2, 4]
  trains_per_player: 6
  all_tracks_from: 3
palette:
  red: {hex: "#cc0000", name: red}
  blue: {hex: "#0000cc", name: blue}
  locomotive: {hex: "#888888", name: loco}
places:
  A: {name: A, kind: city, at: [10, 10]}
  B: {name: B, kind: city, at: [60, 10]}
  C: {name: C, kind: city, at: [60, 60]}
routes:
  - [A, B, 2, [red, blue]ROUTE_EXTRA]
  - [B, C, 3, gray]
  - [A, C, 1, red]
decks:
  trains:
    name: Trains
    expected: 30
    role: train
    layout: ttr-train
    back: {layout: ttr-back}
    vars: {wild: locomotive}
    fields: {color: color}
    cards:
      - {color: red, count: 10}
      - {color: blue, count: 10}
      - {color: locomotive, count: 10}
  tickets:
    name: Tickets
    expected: 3
    layout: ttr-ticket
    back: {layout: ttr-back}
    fields: {from: place, to: place, points: int}
    cards:
      - [A, C, 3]
      - [A, B, 2]
      - [B, C, 3]
tables:
  route_scoring: {1: 1, 2: 2, 3: 4}
  game_end: {trains_left: 2}
  play: {hand: 2, tickets_dealt: 1, tickets_kept: 1, tickets_drawn: 1, tickets_keep: 1}
"""
RED, BLUE, LOCO = 0, 1, 2
AB_RED, AB_BLUE, BC_GRAY, AC_RED = 0, 1, 2, 3


def tiny(tmp_path: Path, extra: str = "") -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(TINY.replace("ROUTE_EXTRA", extra), encoding="utf-8")
    return folder


class Script(Bot):
    """Plays the moves it is given, then draws from the pile."""

    name = "script"

    def __init__(self, turns=(), picks=()):
        self.turns, self.picks = list(turns), list(picks)

    def turn(self, g, p):
        return self.turns.pop(0) if self.turns else ("draw",)

    def pick(self, g, p, second):
        return self.picks.pop(0) if self.picks else -1

    def keep(self, g, p, drawn, minimum, setup):
        return list(drawn)


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return compile_rules(load_game(tiny(tmp_path_factory.mktemp("tiny"))))


def game(rules, players=2, bots=None, seed=1):
    g = Game(rules, bots or [Script() for _ in range(players)], seed, log=True)
    for hand in g.hands:
        hand[:] = [0, 0, 0]
    return g


def test_rules_read_from_the_model(rules):
    assert rules.colours == ("red", "blue") and rules.wild == "locomotive" and rules.deck == (10, 10, 10)
    assert [(t.length, t.colour, t.group) for t in rules.tracks] == [(2, 0, 0), (2, 1, 0), (3, -1, 1), (1, 0, 2)]
    assert (rules.trains, rules.end_trains, rules.all_tracks_from, rules.hand) == (6, 2, 3, 2)
    assert rules.defaults == ("face_up 5", "wild_reshuffle 3")


def test_claim_with_exact_cards(rules):
    g = game(rules)
    g.hands[0][RED] = 2
    g.claim(0, AB_RED, RED, 0)
    assert g.hands[0] == [0, 0, 0] and g.trains[0] == 4 and g.route_points[0] == 2 and g.owner[AB_RED] == 0
    g.hands[1][BLUE] = 1
    with pytest.raises(IllegalMove, match="pays 1 × blue"):   # a red route paid in blue
        g.claim(1, AC_RED, BLUE, 0)


def test_too_few_cards_is_illegal(rules):
    g = game(rules)
    g.hands[0][RED] = 1
    assert g.payment(0, AB_RED) is None
    with pytest.raises(IllegalMove):
        g.claim(0, AB_RED, RED, 0)


def test_wild_cards_stand_in_for_a_colour(rules):
    g = game(rules)
    g.hands[0][RED], g.hands[0][LOCO] = 1, 1
    assert g.payment(0, AB_RED) == (RED, 1)
    g.claim(0, AB_RED, RED, 1)
    assert g.hands[0] == [0, 0, 0] and g.spent == [1, 0, 1]


def test_gray_route_takes_any_one_colour(rules):
    g = game(rules)
    g.hands[0][BLUE] = 3
    assert g.payment(0, BC_GRAY) == (BLUE, 0)
    g.claim(0, BC_GRAY, BLUE, 0)
    assert g.route_points[0] == 4
    g.hands[1][RED], g.hands[1][BLUE] = 2, 1   # two colours do not make a gray route of 3
    g.owner[BC_GRAY] = -1
    g.group_claimed[rules.tracks[BC_GRAY].group] = 0
    assert g.payment(1, BC_GRAY) is None


def test_double_route_closed_below_the_player_threshold(rules):
    two = game(rules, players=2)
    two.hands[0][RED] = two.hands[1][BLUE] = 2
    two.claim(0, AB_RED, RED, 0)
    assert not two.available(1, AB_BLUE)
    with pytest.raises(IllegalMove, match="not open"):
        two.claim(1, AB_BLUE, BLUE, 0)
    three = game(rules, players=3)
    three.hands[0][RED] = three.hands[0][BLUE] = three.hands[1][BLUE] = 2
    three.claim(0, AB_RED, RED, 0)
    assert not three.available(0, AB_BLUE)   # never both tracks to one player
    three.claim(1, AB_BLUE, BLUE, 0)
    assert three.owner[AB_BLUE] == 1


def test_face_up_wild_counts_as_both_draws(rules):
    g = game(rules, bots=[Script(picks=[0, -1]), Script()])
    g.row = [LOCO, RED, RED, BLUE, BLUE]
    g._turn(0)
    assert g.hands[0] == [0, 0, 1]   # the second pick was never asked
    g.row = [RED, LOCO, RED, BLUE, BLUE]
    g.bots[1] = Script(picks=[0, 0])   # after the red goes, the wild slides to slot 0
    with pytest.raises(IllegalMove, match="second card"):
        g._turn(1)


def test_three_face_up_wilds_reshuffle_the_row(rules):
    g = game(rules)
    g.row, g.discard = [], []
    g.pile = [RED, BLUE, RED, BLUE, RED] + [LOCO, LOCO, LOCO, RED, BLUE]   # drawn from the end
    g._refill()
    assert g.row.count(LOCO) < 3 and g.row == [RED, BLUE, RED, BLUE, RED][::-1]
    assert any(e[0] == "reshuffle" for e in g.log)
    assert sorted(g.discard) == sorted([LOCO, LOCO, LOCO, RED, BLUE])


def test_end_trigger_gives_everyone_one_last_turn(rules):
    bots = [Script(turns=[("claim", AC_RED, RED, 0)]), Script()]
    g = game(rules, bots=bots)
    g.trains = [3, 6]
    g.hands[0][RED] = 1
    result = g.play()
    assert result.end == "trains"
    assert result.turns == 3   # player 1's turn and player 0's own last turn follow the trigger
    turns = [e[1] for e in g.log if e[0] == "turn"]
    assert turns == [0, 1, 0]


def test_tickets_score_plus_and_minus(rules):
    g = game(rules)
    g.tickets = [[0, 1], []]       # A–C (3) and A–B (2)
    g.hands[0][RED] = 1
    g.claim(0, AC_RED, RED, 0)     # A–C done, A–B not
    result = g._finish("trains")
    assert result.breakdown[0] == {"routes": 1, "tickets": 3 - 2}
    assert result.completed[0] == [0] and result.completed_round[0] == [g.round]


def _with_bonus_card(folder, title: str, latin: str, points: int) -> None:
    """The tiny game with a one-card bonus deck (``ttr-bonus``): a bonus the simulator knows by its name, or not."""
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("tables:", f"""  bonus:
    name: Bonus
    expected: 1
    layout: ttr-bonus
    back: {{layout: ttr-back}}
    fields: {{title: text, latin: text, points: int}}
    cards:
      - {{title: {title}, latin: {latin}, points: {points}}}
tables:""")
    (folder / "game.yaml").write_text(text, encoding="utf-8")


def test_longest_path_bonus_card_is_scored_and_refereed(tmp_path):
    folder = tiny(tmp_path)
    _with_bonus_card(folder, "Express", "European Express", 10)
    model = load_game(folder)
    rules = compile_rules(model)
    assert rules.longest == 10
    g = game(rules, bots=[Script(turns=[("claim", AB_RED, RED, 0), ("claim", BC_GRAY, BLUE, 0)]),
                          Script(turns=[("claim", AC_RED, RED, 0)])])
    g.hands[0][RED], g.hands[0][BLUE], g.hands[1][RED] = 2, 3, 1
    result = g.play()
    assert result.breakdown[0]["longest"] == 10 and result.breakdown[1]["longest"] == 0   # A–B–C: 5 spaces
    # the test set the hands by hand, so the referee objects to the cards; the scores it must agree with
    problems = replay(model, result.log, 2)
    assert problems and not [p for p in problems if "referee counts" in p]
    end = result.log[-1]
    wrong = result.log[:-1] + [(end[0], end[1], (end[2][0] - 10, end[2][1] + 10))]
    assert [p for p in replay(model, wrong, 2) if "referee counts" in p]


def test_refuses_rules_it_does_not_implement(tmp_path):
    folder = tiny(tmp_path)
    _with_bonus_card(folder, "Mystery", "Mystery", 5)
    with pytest.raises(ContentError, match="'Mystery'.* rule the simulator does not know"):
        compile_rules(load_game(folder))
    # tunnels and ferries: tests/test_simulate_tunnels.py
    # an add-on replacing the cards with something other than the dice add-on's dice: tests/test_simulate_dice.py


def test_same_seed_same_game_and_games_differ():
    rules = compile_rules(load_game(NEW_YORK))
    a = report.play_one(rules, ["greedy"] * 3, 7, 0)
    b = report.play_one(rules, ["greedy"] * 3, 7, 0)
    c = report.play_one(rules, ["greedy"] * 3, 7, 1)
    assert (a.scores, a.claims, a.kept) == (b.scores, b.claims, b.kept)
    assert (a.scores, a.claims) != (c.scores, c.claims)


def test_one_process_or_two_the_same_report(monkeypatch):
    monkeypatch.setattr(report, "CHUNK", 4)
    rules = compile_rules(load_game(NEW_YORK))
    one = report.summary(rules, report.simulate(NEW_YORK, (), ["greedy", "random"], 12, 3, jobs=1), ["greedy", "random"], 3)
    two = report.summary(rules, report.simulate(NEW_YORK, (), ["greedy", "random"], 12, 3, jobs=2), ["greedy", "random"], 3)
    assert one == two and one["games"] == 12


@pytest.mark.parametrize("folder, players, bots", [(GERMANY, 2, "greedy"), (GERMANY, 4, "greedy"), (GERMANY, 5, "lookahead"),
                                                   (GERMANY, 3, "random"), (NEW_YORK, 2, "random"), (NEW_YORK, 4, "greedy")])
def test_referee_accepts_the_engines_games(folder, players, bots):
    model = load_game(folder)
    rules = compile_rules(model)
    for index in range(3):
        result = report.play_one(rules, [bots] * players, 11, index, log=True)
        assert replay(model, result.log, players) == []
        assert result.end == "trains"


def test_referee_rejects_an_illegal_move():
    model = load_game(NEW_YORK)
    rules = compile_rules(model)
    result = report.play_one(rules, ["greedy"] * 2, 5, 0, log=True)
    at = next(i for i, e in enumerate(result.log) if e[0] == "claim" and e[4] == 0)
    _kind, p, track, colour, wilds, taken = result.log[at]
    wrong = next(c for c in range(rules.wild_index) if c != colour)
    tampered = list(result.log)
    tampered[at] = ("claim", p, track, wrong, wilds, taken)   # paid in a colour the route does not take / hand lacks
    problems = replay(model, tampered, 2)
    assert problems and problems[0].startswith(f"event {at} ")


def test_greedy_beats_random():
    rules = compile_rules(load_game(NEW_YORK))
    wins = sum(BOTS["greedy"].name in [r.bots[w] for w in r.winners]
               for r in (report.play_one(rules, ["greedy", "random"], 2, i) for i in range(20)))
    assert wins >= 15


def test_cli_json_and_exit_codes():
    runner = CliRunner()
    ok = runner.invoke(main, ["simulate", str(NEW_YORK), "--players", "2", "--games", "6", "--format", "json", "--validate", "2"])
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.output)
    assert data["games"] == 6 and len(data["seats"]) == 2 and data["ends"] == {"trains": 6}
    assert {"route", "claimed_pct", "contested_pct", "first_round_mean"} <= set(data["routes"][0])
    text = runner.invoke(main, ["simulate", str(NEW_YORK), "--players", "2", "--games", "3"])
    assert text.exit_code == 0 and "most contested routes" in text.output
    bad = runner.invoke(main, ["simulate", str(NEW_YORK), "--bots", "greedy,clever"])
    assert bad.exit_code == 2 and "unknown bot 'clever': the bots are random, greedy, lookahead" in bad.output
    seats = runner.invoke(main, ["simulate", str(NEW_YORK), "--players", "3", "--bots", "greedy,random"])
    assert seats.exit_code == 2 and "names 2 bots for 3 players" in seats.output
    refused = runner.invoke(main, ["simulate", str(ROOT / "content" / "thurn-and-taxis"), "--games", "1"])
    assert refused.exit_code == 2 and "cannot play this game" in refused.output   # Thurn and Taxis: no family yet
