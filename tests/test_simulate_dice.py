"""The dice add-on as a rule module: dice instead of train cards, each rule on the tiny map, the referee."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ContentError
from generator.load.game import load_game
from generator.simulate import report
from generator.simulate.bots import Bot
from generator.simulate.engine import Game, IllegalMove
from generator.simulate.rules import DOUBLE, LOCO, STATION, TRACK, compile_rules
from generator.simulate.validate import replay
from tests.test_simulate import AB_RED, BC_GRAY, GERMANY, ROOT, tiny

DICE = ROOT / "content" / "ttr-dice"


class Dice(Bot):
    """Rolls what it is given (the engine's dice are replaced), plays the actions it is given, takes the
    tokens it is given, and records the room it was offered."""

    name = "dice"

    def __init__(self, actions=(), tokens=()):
        self.actions, self.tokens, self.rooms = list(actions), list(tokens), []

    def dice_action(self, g, p, sides):
        return self.actions.pop(0) if self.actions else ("none",)

    def take_tokens(self, g, p, room):
        self.rooms.append(room)
        return self.tokens.pop(0) if self.tokens else ()

    def keep(self, g, p, drawn, minimum, setup):
        return [] if not setup else list(drawn)


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return load_game(tiny(tmp_path_factory.mktemp("tiny-dice")), (DICE,))


@pytest.fixture(scope="module")
def rules(model):
    return compile_rules(model)


def game(rules, sides, bots=None, players=2):
    g = Game(rules, bots or [Dice() for _ in range(players)], 1, log=True)
    g._roll = lambda count: list(sides[:count])   # the dice show these sides
    return g


def test_the_add_on_switches_the_module_on(rules):
    assert rules.dice == (TRACK, TRACK, DOUBLE, DOUBLE, STATION, LOCO)   # read off the add-on's white dice
    assert rules.dice_count == 5 and rules.token_supply == (15, 15)
    assert not any(d.startswith(("hand", "face_up", "wild_reshuffle")) for d in rules.defaults)


def test_no_cards_are_dealt(rules):
    g = game(rules, [TRACK] * 5)
    assert g.hands == [[0, 0, 0], [0, 0, 0]] and not g.row
    assert not any(e[0] in ("deal", "row") for e in g.log)


def test_a_double_route_takes_double_track_dice_and_locomotives(rules):
    g = game(rules, [DOUBLE, LOCO, TRACK, TRACK, TRACK], [Dice([("claim", AB_RED, (0, 1), 0)]), Dice()])
    g._turn(0)
    assert g.owner[AB_RED] == 0 and g.trains[0] == 4 and g.route_points[0] == 2
    wrong = game(rules, [TRACK, TRACK, DOUBLE, LOCO, STATION], [Dice([("claim", AB_RED, (0, 1), 0)]), Dice()])
    with pytest.raises(IllegalMove, match="pays dice"):   # single-track dice on a double route
        wrong._turn(0)


def test_a_single_route_takes_single_track_dice_and_tokens(rules):
    g = game(rules, [TRACK, TRACK, STATION, STATION, DOUBLE])
    assert g.dice_payment(0, BC_GRAY, (TRACK, TRACK, STATION, STATION, DOUBLE)) is None   # two dice, three spaces
    g.tokens[0], g.token_supply = [1, 0], [14, 15]   # a token taken on an earlier turn
    assert g.dice_payment(0, BC_GRAY, (TRACK, TRACK, STATION, STATION, DOUBLE)) == ((0, 1), 1)
    g.bots[0] = Dice([("claim", BC_GRAY, (0, 1), 1)])
    g._turn(0)
    assert g.owner[BC_GRAY] == 0 and g.tokens[0] == [0, 0] and g.token_supply == [15, 15]


def test_two_unused_dice_make_a_token_up_to_three_held(rules):
    bot = Dice([("claim", AB_RED, (0, 1), 0)], [(TRACK,)])
    g = game(rules, [DOUBLE, DOUBLE, TRACK, TRACK, STATION], [bot, Dice()])
    g._turn(0)
    assert bot.rooms == [1] and g.tokens[0] == [1, 0] and g.token_supply == [14, 15]   # 3 dice left: one token
    g.tokens[0] = [2, 0]
    g._turn(0)
    assert bot.rooms[-1] == 1   # holding 2, no action: 5 dice would make 2, the cap allows 1
    g.tokens[0] = [2, 1]
    g._turn(0)
    assert len(bot.rooms) == 2   # a turn begun with 3 tokens takes none: not even asked
    g.tokens[0] = [0, 0]
    g.bots[0] = Dice(tokens=[(TRACK, TRACK, TRACK)])
    with pytest.raises(IllegalMove, match="takes tokens"):   # 5 dice left make 2 tokens, not 3
        g._turn(0)


def test_station_dice_draw_tickets_and_none_need_be_kept(rules):
    g = game(rules, [STATION, LOCO, TRACK, TRACK, TRACK], [Dice([("tickets", (0, 1))]), Dice()])
    before = sum(len(p) for p in g.ticket_piles)
    held = list(g.tickets[0])
    g._turn(0)
    drawn = next(e for e in reversed(g.log) if e[0] == "tickets")
    assert len(drawn[2]) == min(2, before) and drawn[3] == () and g.tickets[0] == held
    assert sum(len(p) for p in g.ticket_piles) == before   # returned under the pile
    g.bots[0] = Dice([("tickets", (2,))])
    with pytest.raises(IllegalMove, match="draws tickets with dice"):   # a track die is no station
        g._turn(0)


@pytest.mark.parametrize("players, bots", [(4, "greedy"), (2, "random"), (3, "lookahead")])
def test_referee_accepts_dice_games_on_germany(players, bots):
    model = load_game(GERMANY, (DICE,))
    rules = compile_rules(model)
    for index in range(3):
        result = report.play_one(rules, [bots] * players, 5, index, log=True)
        assert replay(model, result.log, players) == [] and result.end == "trains"


def test_referee_rejects_dice_that_do_not_pay():
    model = load_game(GERMANY, (DICE,))
    rules = compile_rules(model)
    result = report.play_one(rules, ["greedy"] * 4, 5, 0, log=True)
    log = list(result.log)
    at = next(i for i, e in enumerate(log) if e[0] == "dclaim" and e[3])
    _kind, p, track, slots, tokens, taken = log[at]
    log[at] = ("dclaim", p, track, slots[1:], tokens, taken)   # one die short
    problems = replay(model, log, 4)
    assert problems and problems[0].startswith(f"event {at} ") and "dice and" in problems[0]
    log = list(result.log)
    at = next(i for i, e in enumerate(log) if e[0] == "take-tokens")
    log.insert(at + 1, log[at])   # the same tokens taken twice
    assert any("tokens" in p for p in replay(model, log, 4))


def test_an_add_on_replacing_cards_with_other_dice_is_refused(tmp_path):
    addon = tmp_path / "odd-dice"
    addon.mkdir()
    (addon / "game.yaml").write_text("game:\n  title: Odd\n  language: en\n  replaces: [train]\n", encoding="utf-8")
    with pytest.raises(ContentError, match="no dice with track, double-track, station, locomotive sides"):
        compile_rules(load_game(tiny(tmp_path), (addon,)))


def test_cli_plays_the_dice_add_on_the_same_on_one_or_two_processes():
    runner = CliRunner()
    args = ["simulate", str(GERMANY), "--with", str(DICE), "--games", "8", "--validate", "1", "--format", "json"]
    one = runner.invoke(main, args + ["-j", "1"])
    two = runner.invoke(main, args + ["-j", "2"])
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    data = json.loads(one.output)
    assert data["dice_instead_of_cards"] and data["ends"] == {"trains": 8}
    text = runner.invoke(main, args[:-2])
    assert "dice instead of train cards" in text.output and "picks/claim" not in text.output


def test_one_reroll_of_the_dice_chosen(rules):
    class Reroll(Dice):
        def reroll(self, g, p, sides):
            return (1, 3)

    g = game(rules, [STATION] * 5, [Reroll(), Dice()])
    rolls = iter([[TRACK] * 5, [DOUBLE, LOCO]])
    g._roll = lambda count: list(next(rolls))[:count]
    g._turn(0)
    assert [e for e in g.log if e[0] in ("roll", "reroll")] == [
        ("roll", 0, (TRACK,) * 5), ("reroll", 0, (1, 3), (TRACK, DOUBLE, TRACK, LOCO, TRACK))]
    g._roll = lambda count: [TRACK] * count
    g.bots[0] = type("Bad", (Dice,), {"reroll": lambda self, g, p, sides: (0, 0)})()
    with pytest.raises(IllegalMove, match="rerolls dice"):
        g._turn(0)
