"""Tunnels and ferries as rule modules (issue 17): each rule on the tiny map, greedy games, the referee."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import ContentError
from generator.load.game import load_game
from generator.simulate import report
from generator.simulate.engine import IllegalMove
from generator.simulate.rules import compile_rules
from generator.simulate.validate import replay
from tests.test_simulate import AB_BLUE, AB_RED, BC_GRAY, GERMANY, LOCO, RED, ROOT, Script, game, tiny

# A–B: its red track a tunnel, its blue track a ferry with one marked space; two cards turned over
EXTRA = ", {tunnel: [true, false], ferry: [0, 1]}"
DICE = ROOT / "content" / "ttr-dice"
MAP_RULES = "map_rules:\n  tunnels: {reveal: 2}\n  ferries: {locomotive_per_mark: 1}\n"


def folder_with(tmp_path, extra=EXTRA, map_rules=MAP_RULES):
    folder = tiny(tmp_path, extra)
    path = folder / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8") + map_rules, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return load_game(folder_with(tmp_path_factory.mktemp("tiny-tunnels")))


@pytest.fixture(scope="module")
def rules(model):
    return compile_rules(model)


class Payer(Script):
    """A script bot whose answer to a tunnel's extra cards is given (None: it will not pay)."""

    def __init__(self, answer="pay", **kw):
        super().__init__(**kw)
        self.answer, self.asked = answer, []

    def tunnel(self, g, p, track, colour, extra, spare):
        self.asked.append((track, colour, extra, spare))
        return super().tunnel(g, p, track, colour, extra, spare) if self.answer == "pay" else self.answer


def rigged(rules, top, bots=None):
    """A 3-player game (both tracks of A–B open) whose draw pile turns over ``top`` first."""
    g = game(rules, players=3, bots=bots or [Payer() for _ in range(3)])
    g.pile = [RED] * 5 + list(reversed(top))   # the pile is drawn from its end
    g.discard = []
    return g


def test_the_extras_switch_the_modules_on(rules, tmp_path):
    assert (rules.tracks[AB_RED].tunnel, rules.tracks[AB_RED].ferry) == (True, 0)
    assert (rules.tracks[AB_BLUE].tunnel, rules.tracks[AB_BLUE].ferry) == (False, 1)
    assert not rules.tracks[BC_GRAY].tunnel and rules.tunnel_reveal == 2
    plain = compile_rules(load_game(tiny(tmp_path, ", {tunnel: true, ferry: 1}")))
    assert plain.tunnel_reveal == 3 and plain.tracks[AB_BLUE].ferry == 1   # the published figures without map_rules
    assert compile_rules(load_game(GERMANY)).tunnel_reveal == 0


def test_a_ferry_claim_without_its_locomotives_is_illegal(rules):
    g = game(rules, players=3)
    g.hands[0][1] = 2                  # two blue cards: the length, but no locomotive
    assert g.payment(0, AB_BLUE) is None
    with pytest.raises(IllegalMove, match="ferry .* needs 1"):
        g.claim(0, AB_BLUE, 1, 0)
    g.hands[0][LOCO] = 1
    assert g.payment(0, AB_BLUE) == (1, 1)   # one blue, one locomotive
    g.claim(0, AB_BLUE, 1, 1)
    assert g.owner[AB_BLUE] == 0 and g.hands[0] == [0, 1, 0]


def test_tunnel_matches_cost_one_card_each(rules):
    g = rigged(rules, [RED, LOCO])     # both match a red payment: two more cards
    g.hands[0][:] = [3, 0, 1]
    g.claim(0, AB_RED, RED, 0)
    assert g.owner[AB_RED] == 0 and g.hands[0] == [0, 0, 0] and g.bots[0].asked == [(AB_RED, RED, 2, (1, 1))]
    assert sorted(g.discard) == [RED] * 4 + [LOCO] * 2   # 3 red + 1 locomotive paid, red + locomotive turned over
    assert [e for e in g.log if e[0] == "tunnel"] == [("tunnel", 0, AB_RED, RED, (RED, LOCO), 1, 1)]


def test_a_tunnel_that_cannot_be_paid_fails_and_the_cards_stay(rules):
    g = rigged(rules, [1, RED])        # one match, and nothing to spare
    g.hands[0][:] = [2, 0, 0]
    g.claim(0, AB_RED, RED, 0)
    assert g.owner[AB_RED] == -1 and g.hands[0] == [2, 0, 0] and g.trains[0] == 6 and g.route_points[0] == 0
    assert sorted(g.discard) == [RED, 1]   # the turned cards go to the discard
    assert g.log[-1] == ("tunnel", 0, AB_RED, RED, (1, RED), -1, -1)


def test_a_player_may_refuse_to_pay(rules):
    g = rigged(rules, [LOCO, 1], bots=[Payer(answer=None), Payer(), Payer()])
    g.hands[0][:] = [3, 0, 0]
    g.claim(0, AB_RED, RED, 0)
    assert g.owner[AB_RED] == -1 and g.hands[0] == [3, 0, 0]


def test_only_locomotives_match_a_payment_of_locomotives(rules):
    g = rigged(rules, [RED, LOCO])
    g.hands[0][:] = [0, 0, 3]
    g.claim(0, AB_RED, RED, 2)
    assert g.bots[0].asked == [(AB_RED, LOCO, 1, (0, 1))] and g.hands[0] == [0, 0, 0]


def test_no_match_no_question_and_a_bad_answer_is_illegal(rules):
    g = rigged(rules, [1, 1])
    g.hands[0][:] = [2, 0, 0]
    g.claim(0, AB_RED, RED, 0)
    assert g.owner[AB_RED] == 0 and g.bots[0].asked == []
    h = rigged(rules, [RED, 1], bots=[Payer(answer=(0, 0)), Payer(), Payer()])   # pays nothing for a match
    h.hands[0][:] = [3, 0, 0]
    with pytest.raises(IllegalMove, match="tunnel matches"):
        h.claim(0, AB_RED, RED, 0)


@pytest.fixture(scope="module")
def all_tunnels(tmp_path_factory):
    """Every route a tunnel and A–B's blue track a ferry: greedy games turn cards over often."""
    text = "routes:\n  - [A, B, 2, [red, blue], {tunnel: true, ferry: [0, 1]}]\n  - [B, C, 3, gray, {tunnel: true}]\n" \
           "  - [A, C, 1, red, {tunnel: true}]\n"
    folder = folder_with(tmp_path_factory.mktemp("all-tunnels"))
    path = folder / "game.yaml"
    yaml = path.read_text(encoding="utf-8")
    start, end = yaml.index("routes:"), yaml.index("decks:")
    path.write_text(yaml[:start] + text + yaml[end:], encoding="utf-8")
    return folder


def test_the_referee_accepts_greedy_tunnel_games_and_rejects_a_tampered_payment(all_tunnels):
    model = load_game(all_tunnels)
    rules = compile_rules(model)
    logs = [report.play_one(rules, ["greedy"] * 3, 5, i, log=True).log for i in range(12)]
    for log in logs:
        assert replay(model, log, 3) == []
    events = [(log, at) for log in logs for at, e in enumerate(log) if e[0] == "tunnel" and e[5] > 0]
    assert events and any(e[0] == "tunnel" and e[5] == -1 for log in logs for e in log)   # paid and failed both occur
    log, at = events[0]
    kind, p, track, colour, revealed, extra, extra_wilds = log[at]
    tampered = list(log)
    tampered[at] = (kind, p, track, colour, revealed, extra - 1, extra_wilds)   # one card short
    problems = replay(model, tampered, 3)
    assert problems and problems[0].startswith(f"event {at} ") and "matching cards" in problems[0]
    ferry = next((log, at) for log in logs for at, e in enumerate(log) if e[0] == "claim" and e[2] == AB_BLUE)
    log, at = ferry
    _kind, p, track, colour, wilds, taken = log[at]
    assert wilds >= 1
    tampered = list(log)
    tampered[at] = ("claim", p, track, colour, 0, taken)
    assert any(f"event {at} " in x and "ferry" in x for x in replay(model, tampered, 3))


def test_same_seed_same_json(all_tunnels):
    runner = CliRunner()
    args = ["simulate", str(all_tunnels), "--players", "3", "--games", "8", "--seed", "4", "--format", "json"]
    one, two = runner.invoke(main, args), runner.invoke(main, args)
    assert one.exit_code == 0, one.output
    assert one.output == two.output


def test_a_ferry_needing_more_locomotives_than_spaces_is_refused(tmp_path):
    folder = folder_with(tmp_path, ", {ferry: [2, 0]}", "map_rules:\n  ferries: {locomotive_per_mark: 2}\n")
    with pytest.raises(ContentError, match="needs 4 locomotives for 2 spaces"):
        compile_rules(load_game(folder))


def test_map_rules_it_does_not_play_are_refused(tmp_path):
    folder = folder_with(tmp_path, map_rules=MAP_RULES + "  stations: {count: 3}\n")
    with pytest.raises(ContentError, match="map_rules: stations is a rule the simulator does not implement"):
        compile_rules(load_game(folder))


def test_tunnels_with_the_dice_add_on_are_refused(tmp_path):
    with pytest.raises(ContentError, match="tunnels and ferries with dice"):
        compile_rules(load_game(tiny(tmp_path, EXTRA), (DICE,)))


def test_the_report_counts_tunnel_tries_and_failures(all_tunnels):
    rules = compile_rules(load_game(all_tunnels))
    results = [report.play_one(rules, ["greedy"] * 3, 5, i) for i in range(12)]
    tries = sum(len(r.tunnels) for r in results)
    failed = sum(1 for r in results for _track, extra in r.tunnels if extra < 0)
    rows = report.summary(rules, results, ["greedy"] * 3, 5)["tunnels"]
    assert [row["route"] for row in rows] == ["A – B (red)", "A – B (blue)", "B – C", "A – C"]
    assert sum(row["tries"] for row in rows) == tries and 0 < failed < tries
    assert round(sum(row["tries"] * row["failed_pct"] / 100 for row in rows)) == failed
    assert "tunnels" not in report.summary(compile_rules(load_game(GERMANY)), [], ["greedy"] * 2, 5)
