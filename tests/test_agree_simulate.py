"""`check`, `build` and `simulate` agree: simulate refuses a game whose rules-subject checks find an error (exit 2,
the findings as check prints them), plays one with layout errors or warnings, and never hangs on a hostile map
(a work limit per game and per run, a turn limit, a bounded longest-path search; tools/hostile_simulate.py measures
the full-size maps)."""
from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest

from generator.check import CATALOGUE, catalogue, check, run_checks
from generator.check.registry import Issue
from generator.load.game import load_game
from generator.simulate import engine, line_engine, report
from generator.simulate.engine import longest_path
from generator.simulate.family import compile_game
from generator.simulate.line_validate import replay as replay_line
from generator.simulate.rules import Rules, Track
from generator.simulate.validate import replay
from tests.conftest import FIXTURES, ROOT, load_tool
from tests.test_simulate import TINY

#: what the print checks prove: the board's drawing, fonts and layout, margins, colours as printed, artwork
PRINT = {"PNP501", "PNP502", "PNP503", "PNP504", "PNP505", "PNP506", "PNP507", "PNP508", "PNP509", "PNP510",
         "PNP701", "PNP702", "PNP703", "PNP704", "PNP705", "PNP710", "PNP720", "PNP807", "PNP808", "PNP809", "PNP901"}


def tiny(tmp_path: Path, old: str = "", new: str = "") -> Path:
    """tests/test_simulate.py's tiny route game (it has layout errors: PNP703) with ``old`` replaced by ``new``."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    text = TINY.replace("ROUTE_EXTRA", "")
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def clean(tmp_path: Path, file: str = "", old: str = "", new: str = "") -> Path:
    """tests/fixtures/check-routes made a game simulate plays (a train deck, no passengers): it checks clean."""
    folder = tmp_path / "routes"
    shutil.copytree(FIXTURES / "check-routes", folder)
    edits = [("decks.yaml", "    expected: 5\n", "    expected: 5\n    role: train\n"),
             ("game.yaml", "  setup: {passengers: 6}\n", ""), (file, old, new)]
    for name, a, b in edits:
        if name:
            path = folder / name
            text = path.read_text(encoding="utf-8")
            assert a in text, (name, a)
            path.write_text(text.replace(a, b, 1), encoding="utf-8")
    return folder


# --- subjects ---------------------------------------------------------------------------------------------------

def test_every_check_has_a_subject_and_the_print_ones_are_these():
    checks = catalogue()
    assert {c.subject for c in checks} == {"rules", "print"}
    assert {c.code for c in checks if c.subject == "print"} == PRINT
    rules = {c.code for c in checks if c.subject == "rules"}
    assert {"PNP101", "PNP201", "PNP303", "PNP401", "PNP403", "PNP601", "PNP611", "PNP621", "PNP801"} <= rules
    assert CATALOGUE["PNP807"].group == "components" and CATALOGUE["PNP801"].group == "components"   # said per check


def test_a_check_module_without_a_subject_must_say_one():
    with pytest.raises(ValueError, match="has no subject in GROUP_SUBJECTS"):
        check("PNP998", "error", "a check of a module with no subject")(lambda game: iter(()))
    with pytest.raises(ValueError, match="subject 'layout' should be one of"):
        check("PNP998", "error", "x", subject="layout")
    try:
        check("PNP998", "warning", "said", subject="print")(lambda game: iter([Issue(None, "x")]))
        assert CATALOGUE["PNP998"].subject == "print"
    finally:
        CATALOGUE.pop("PNP998", None)


def test_run_checks_of_a_subject_runs_only_those(tmp_path):
    game = load_game(tiny(tmp_path))
    every = run_checks(game)
    rules = run_checks(game, subject="rules")
    assert {f.code for f in every} == {"PNP307", "PNP404", "PNP703"}
    assert {f.code for f in rules} == {"PNP307", "PNP404"}
    assert {f.code for f in run_checks(game, subject="print")} == {"PNP703"}


def test_check_only_rules_or_print(tmp_path, run):
    folder = tiny(tmp_path)
    rules = run("check", folder, "--no-cache", "--only", "rules")
    assert rules.exit_code == 0 and "PNP703" not in rules.output and "PNP404" in rules.output, rules.output
    assert "0 errors, 3 warnings" in rules.output
    printed = run("check", folder, "--no-cache", "--only", "print")
    assert printed.exit_code == 1 and "PNP703" in printed.output and "PNP404" not in printed.output
    listed = json.loads(run("check", "--list", "--format", "json").output)
    assert {row["code"]: row["subject"] for row in listed}["PNP703"] == "print"


# --- what stops a playtest --------------------------------------------------------------------------------------

def test_simulate_refuses_a_rules_error_with_the_findings_as_check_prints_them(tmp_path, run):
    folder = tiny(tmp_path, "      - [A, B, 2]\n", "      - [A, A, 2]\n")
    played = run("simulate", folder, "--games", "5", "--players", "2")
    assert played.exit_code == 2, played.output
    line = "game.yaml:40: error PNP401 tickets card 2: ticket A–A starts where it ends"
    checked = run("check", folder, "--no-cache")
    assert checked.exit_code == 1 and line in checked.output
    assert line in played.output and "hint: fix one of its ends" in played.output
    assert "warning PNP404" in played.output            # the rules findings, warnings too, as check prints them
    assert "PNP703" not in played.output                 # not the layout's
    assert "tiny: 1 rules error: pnpgen simulate does not play a game that contradicts itself as played" in played.output
    assert f"`pnpgen check {folder}` lists every finding" in played.output
    assert "layout and print errors do not stop a playtest" in played.output
    assert "Traceback" not in played.output and "wins and scores" not in played.output


def test_a_rules_error_stops_simulate_compare_too(tmp_path, run):
    good = tiny(tmp_path)
    bad = tmp_path / "bad"
    shutil.copytree(good, bad)
    (bad / "game.yaml").write_text((good / "game.yaml").read_text().replace("[A, C, 1, red]", "[A, C, 7, red]"))
    result = run("simulate", "--compare", good, bad, "--games", "5", "--players", "2")
    assert result.exit_code == 2 and "error PNP201" in result.output and "1 rules error" in result.output, result.output


def test_a_waived_rules_error_and_warnings_do_not_stop_a_playtest(tmp_path, run):
    folder = tiny(tmp_path, "      - [A, B, 2]\n", "      - [A, A, 2]  # waive PNP401: a round trip, on purpose\n")
    result = run("simulate", folder, "--games", "20", "--players", "2", "--validate", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["games"] == 20 and any(t["ticket"] == "A – A (2)" for t in figures["tickets"])


def test_layout_errors_do_not_stop_a_playtest(tmp_path, run):
    folder = tiny(tmp_path)
    assert run("check", folder, "--no-cache").exit_code == 1    # PNP703
    result = run("simulate", folder, "--games", "5", "--players", "2")
    assert result.exit_code == 0 and "tiny: 5 games" in result.output, result.output


@pytest.mark.parametrize("file,old,new,verdict", [
    ("", "", "", (0, 0, 0)),                                                                    # clean: all play
    ("decks.yaml", "      - [Aburg, Xland, 1]", "      - [Aburg, Aburg, 1]", (1, 1, 2)),      # PNP401: rules
    ("game.yaml", "  - [Bdorf, Cstadt, 3, red]", "  - [Bdorf, Cstadt, 4, red]", (1, 1, 2)),   # PNP201: rules
    ("decks.yaml", "icon: wagon}", "icon: wagonn}", (1, 1, 0)),                                # PNP703: print
], ids=["clean", "ticket-to-itself", "length-not-scored", "unknown-icon"])
def test_check_build_and_simulate_agree(tmp_path, run, file, old, new, verdict):
    folder = clean(tmp_path, file, old, new)
    results = (run("check", folder, "--no-cache"), run("build", folder, "--no-cache", "--out", tmp_path / "out"),
               run("simulate", folder, "--games", "3", "--players", "2"))
    assert tuple(r.exit_code for r in results) == verdict, [r.output for r in results]
    assert all("Traceback" not in r.output for r in results)


# --- nothing hangs ----------------------------------------------------------------------------------------------

def _rules(tmp_path, text: str) -> Rules:
    folder = tmp_path / "hostile"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return compile_game(load_game(folder))


def hostile(name: str):
    return getattr(load_tool("hostile_simulate"), name)


def test_a_game_past_its_work_limit_ends_there_and_the_referee_agrees(tmp_path, monkeypatch):
    rules = _rules(tmp_path, hostile("grid")(8, trains=10**9))
    monkeypatch.setattr(engine, "MAX_SIMULATE_GAME_WORK", 20_000)
    result = report.play_one(rules, ["greedy", "lookahead"], 0, 0, log=True)
    assert result.end == "work limit" and 20_000 < result.work < 40_000
    assert replay(load_game(tmp_path / "hostile"), result.log, 2) == []
    text = report.text(report.summary(rules, [result], ["greedy", "lookahead"], 0))
    assert "ended by: work limit 1" in text and "1 games stopped by the work limit (MAX_SIMULATE_GAME_WORK)" in text


def test_a_run_past_its_work_limit_stops_naming_the_games_that_fit(tmp_path, run, monkeypatch):
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "game.yaml").write_text(hostile("grid")(6), encoding="utf-8")
    monkeypatch.setattr(report, "MAX_SIMULATE_WORK", 500_000)
    result = run("simulate", folder, "--games", "200", "--players", "2")
    assert result.exit_code == 1 and "pnpgen simulate stopped at game" in result.output, result.output
    assert "would take more than the MAX_SIMULATE_WORK limit (500,000 steps)" in result.output
    fit = int(result.output.split("--games ")[1].split(")")[0])
    assert 1 <= fit < 200
    again = run("simulate", folder, "--games", str(fit), "--players", "2")
    assert again.exit_code == 0, again.output
    # on two processes: the same verdict (each chunk its share), the queued chunks not played, the error pickled whole
    both = run("simulate", folder, "--games", "200", "--players", "2", "-j", "2")
    assert both.exit_code == 1 and both.output == result.output and "Traceback" not in both.output, both.output
    stopped = pickle.loads(pickle.dumps(report.RunStopped(None, "stopped", "fewer")))
    assert (stopped.message, stopped.hint, stopped.exit_code) == ("stopped", "fewer", 1)


def test_a_game_of_bots_that_never_finish_stops_at_the_turn_limit(tmp_path):
    # ten thousand trains each and tickets that go back under their deck: the greedy bots draw tickets for ever
    rules = _rules(tmp_path, hostile("ring")(trains=10**9))
    result = report.play_one(rules, ["greedy", "greedy"], 0, 0)
    assert result.end in ("stalled", "turn limit") and result.turns <= engine.MAX_TURNS


@pytest.mark.parametrize("make,args", [
    ("ring", {"deck": {"red": 1}}),                                                # a 1-card train deck
    ("parallel", {"k": 50}),                                                       # 3 tickets for 4 players
    ("many_tickets", {"n": 300, "trains": 10**9}),
], ids=["one-card-deck", "fewer-tickets-than-dealt", "300-tickets-1e9-trains"])
def test_hostile_small_maps_play_and_the_referee_agrees(tmp_path, make, args):
    rules = _rules(tmp_path, hostile(make)(players="[2, 4]", **args))
    game = load_game(tmp_path / "hostile")
    for index in range(3):
        result = report.play_one(rules, ["greedy", "random", "lookahead", "greedy"], 0, index, log=True)
        assert replay(game, result.log, 4) == [], make
        assert result.turns <= engine.MAX_TURNS and result.work <= engine.MAX_SIMULATE_GAME_WORK + 10**6


def test_the_longest_path_search_is_bounded(tmp_path):
    side = 5   # a 5 × 5 grid of routes of 1, all one player's: very many trails
    index = {(r, c): r * side + c for r in range(side) for c in range(side)}
    tracks = [Track(index[r, c], index[r, c + 1], 1, 0, 0) for r in range(side) for c in range(side - 1)]
    tracks += [Track(index[r, c], index[r + 1, c], 1, 0, 0) for r in range(side - 1) for c in range(side)]
    rules = Rules(game="g", colours=("red",), wild="", deck=(1, 0), places=tuple(str(i) for i in range(side * side)),
                  terminal=(False,) * side * side, tracks=tuple(tracks), groups=tuple((i,) for i in range(len(tracks))),
                  tickets=(), ticket_decks=(), scoring={1: 1}, players=(2, 2), trains=45, end_trains=2, all_tracks_from=4)
    owned = list(range(len(tracks)))
    assert longest_path(rules, owned[:4], limit=100) == (4, True)    # a row: a trail of 4
    length, finished = longest_path(rules, owned, limit=10_000)
    assert not finished and 8 <= length <= 40


def test_a_line_game_past_its_work_limit_is_scored_as_it_stands(monkeypatch):
    rules = compile_game(load_game(ROOT / "content" / "s-railway"))
    monkeypatch.setattr(line_engine, "MAX_SIMULATE_GAME_WORK", 2_000)
    result = report.play_one(rules, ["greedy"] * 4, 0, 0, log=True)
    assert result.end == "work limit" and result.work > 2_000 and len(result.round_ends) < rules.rounds
    figures = __import__("generator.simulate.line_report", fromlist=["summary"]).summary(rules, [result], ["greedy"] * 4, 0)
    assert figures["work_limit_games_pct"] == 100.0
    monkeypatch.setattr(line_engine, "MAX_SIMULATE_GAME_WORK", 10**9)
    whole = report.play_one(rules, ["greedy"] * 4, 0, 0, log=True)
    assert whole.end == "" and replay_line(load_game(ROOT / "content" / "s-railway"), whole.log, 4) == []


def test_the_report_weighs_tickets_within_its_limit(tmp_path):
    rules = _rules(tmp_path, hostile("many_tickets")(120))
    wanted, weighed = report._wanted(rules, limit=10**9)
    assert weighed == len(rules.tickets) == len(wanted)
    few, some = report._wanted(rules, limit=3 * (len(rules.places) + len(rules.groups)) * 10)
    assert 10 <= some < len(rules.tickets) and few[:10] == wanted[:10]
    assert all(f in (w, frozenset()) for f, w in zip(few, wanted)) and frozenset() in few


@pytest.mark.parametrize("table,words", [
    ("  play: {hand: 1000000000}\n", "tables: play: hand is 1,000,000,000; a game can be played with 0 to 38"),
    ("  play: {tickets_drawn: 0}\n", "tables: play: tickets_drawn is 0; a game can be played with 1 to 12"),
    ("  play: {tickets_dealt: -2}\n", "tables: play: tickets_dealt is -2; a game can be played with 1 to 12"),
    ("  play: {hand: abc}\n", "tables: play: hand is 'abc', not a whole number"),
    ("  play: {face_up: 2.5}\n", "tables: play: face_up is 2.5, not a whole number"),
    ("  game_end: {trains_left: abc}\n", "tables: game_end is 'abc', not a whole number"),
], ids=["hand-1e9", "drawn-0", "dealt-negative", "hand-text", "face-up-2.5", "game-end-text"])
def test_play_figures_a_game_cannot_be_played_with_are_refused(tmp_path, run, table, words):
    # a hand of a billion cards was dealt one by one for ever; a turn drawing no ticket was a "bug in the bots"
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "game.yaml").write_text(hostile("ring")(extra=table), encoding="utf-8")
    result = run("simulate", folder, "--games", "3", "--players", "2")
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output, result.output
