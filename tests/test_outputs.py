"""Choosing what a build writes (``--only``, ``--profile``, ``--all``) and the print-shop file per distinct face."""
from __future__ import annotations

import csv
import dataclasses
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.errors import ContentError
from generator.load.game import load_game
from generator.outputs import KINDS, PROFILES, Outputs, parse_only
from generator.writers import lay_out

ROOT = Path(__file__).resolve().parents[1]

#: New York's files per output kind (its decks, components, board, rules): what each kind alone lays out
NEW_YORK = {
    "pdf": {"transport-cards.pdf", "tickets.pdf", "taxis.pdf", "score-pad.pdf", "player-aid.pdf", "ttr-new-york-rules.pdf",
            "board-new-york-tiles-a4.pdf", "board-new-york-tiles-letter.pdf", "board-new-york-overview.pdf"},
    "print-and-play": {"ttr-new-york-print-and-play.pdf", "components.csv"},
    "print-shop": {"ttr-new-york-print-shop.pdf", "print-shop.csv", "board-new-york.pdf"},
    "svg": {"board-new-york.svg", "svg/"},
    "html": {"ttr-new-york-rules.html", "rules-img/"},
}


@pytest.fixture(scope="module")
def new_york():
    return load_game(ROOT / "content" / "ttr-new-york")


def _files(ctx) -> set[str]:
    """The files a layout would write: top-level names, and folders as ``name/``."""
    return {name.split("/", 1)[0] + "/" if "/" in name else name for name, *_ in ctx.pending}


def _outputs(game, *only: str, profile=None, every=False, print_shop="per-face") -> Outputs:
    return parse_only(only, profile, every, print_shop).resolve(game)


def test_the_table_names_every_kind():
    assert set(NEW_YORK) == set(KINDS)
    assert PROFILES["home"] == ("pdf", "print-and-play")
    assert set(PROFILES["all"]) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_alone_writes_its_files_and_no_other(new_york, kind):
    ctx = lay_out(new_york, "a4", outputs=_outputs(new_york, kind))
    files = _files(ctx)
    # taxis are New York's tokens, score-pad and player-aid its sheets; svg/ holds the taxis' and the decks' faces
    assert files == NEW_YORK[kind], sorted(files ^ NEW_YORK[kind])


def test_everything_is_every_kind_together(new_york):
    ctx = lay_out(new_york, "a4")
    assert _files(ctx) == set().union(*NEW_YORK.values())


def test_the_default_is_home_printing(new_york):
    ctx = lay_out(new_york, "a4", outputs=_outputs(new_york))
    assert _files(ctx) == NEW_YORK["pdf"] | NEW_YORK["print-and-play"]
    assert ctx.result.notes == []


def test_the_print_and_play_file_alone_still_gathers_every_part(new_york):
    """Built without its parts' own files, the print-and-play file holds the same parts, and its checklist
    names the same files, as in a build of everything."""
    alone = lay_out(new_york, "a4", outputs=_outputs(new_york, "print-and-play"))
    every = lay_out(new_york, "a4")
    assert [(p.title, p.path.name, len(p.doc.pages)) for p in alone.result.printable] == \
        [(p.title, p.path.name, len(p.doc.pages)) for p in every.result.printable]


def test_one_deck_writes_its_files_and_no_game_wide_file(new_york):
    outputs = _outputs(new_york, "tickets", every=True)
    assert outputs.parts == {"deck:tickets"}
    ctx = lay_out(new_york, "a4", outputs=outputs)
    assert _files(ctx) == {"tickets.pdf", "svg/"}
    assert {name for name, *_ in ctx.pending if name.startswith("svg/")} == {
        f"svg/tickets/{n:03d}.svg" for n in range(1, 19)} | {"svg/tickets/back.svg"}
    assert ctx.result.notes == [
        "not written: the print-and-play file and components.csv (only tickets built; build the whole game for it)",
        "not written: the print-shop PDF and print-shop.csv (only tickets built; build the whole game for it)"]


@pytest.mark.parametrize("only, files", [
    (("deck:transport-cards",), {"transport-cards.pdf"}),
    (("component:taxis",), {"taxis.pdf"}),
    (("player-aid",), {"player-aid.pdf"}),
    (("board",), {"board-new-york-tiles-a4.pdf", "board-new-york-tiles-letter.pdf", "board-new-york-overview.pdf"}),
    (("board:new-york", "print-shop"), {"board-new-york.pdf"}),
    (("rules",), {"ttr-new-york-rules.pdf"}),
    (("rules,html",), {"ttr-new-york-rules.html", "rules-img/"}),
    (("tickets", "rules", "pdf"), {"tickets.pdf", "ttr-new-york-rules.pdf"}),
])
def test_parts(new_york, only, files):
    ctx = lay_out(new_york, "a4", outputs=_outputs(new_york, *only))
    assert _files(ctx) == files


@pytest.mark.parametrize("args, message, hint", [
    (("--only", "tokens"), "--only tokens: ttr-new-york has no output kind or part of that name",
     "use one of: pdf, print-and-play, print-shop, svg, html, board:new-york, component:player-aid, "
     "component:score-pad, component:taxis, deck:tickets, deck:transport-cards, rules, board"),
    (("--only", "svg", "--all"), "--only with output kinds and --all both choose what to write",
     "use one: --only KIND[,KIND], --profile home|shop|web|all, or --all"),
    (("--profile", "office"), "--profile office: no such profile", "use one of: home, shop, web, all"),
    (("--print-shop", "per-sheet"), "--print-shop per-sheet: no such mode", "use one of: per-face, per-card"),
])
def test_unknown_names_are_refused_with_the_names_that_would_do(run, tmp_path, args, message, hint):
    result = run("build", "content/ttr-new-york", *args, "--out", tmp_path)
    assert result.exit_code == 2, result.output
    assert f"error: {message}" in result.output
    assert f"hint: {hint}" in result.output
    assert not (tmp_path / "ttr-new-york").exists()


def test_a_name_two_parts_share_must_be_prefixed(new_york, monkeypatch):
    deck = new_york.decks["tickets"]
    monkeypatch.setitem(new_york.parts, "tickets", dataclasses.replace(new_york.parts["taxis"], id="tickets"))
    with pytest.raises(ContentError) as caught:
        parse_only(("tickets",), None, False).resolve(new_york)
    assert caught.value.message == "--only tickets: ttr-new-york has more than one part of that name " \
                                   "(component:tickets, deck:tickets)"
    assert deck.id == "tickets"


def test_the_shared_face_counts_are_the_pages_and_the_csv(built_game):
    """Germany's print-shop file: a page per distinct face and one for its back; the outline and the CSV say
    how many copies of each, and per deck the counts add up to the deck."""
    out = built_game("ttr-germany")
    reader = PdfReader(out / "ttr-germany-print-shop.pdf")
    rows = list(csv.DictReader((out / "print-shop.csv").open(encoding="utf-8")))
    assert len(rows) == 9 + 55 + 34 + 1   # distinct faces: 9 train colours, every ticket, the bonus card
    assert len(reader.pages) == 2 * len(rows)
    assert [int(r["page"]) for r in rows] == list(range(1, 2 * len(rows), 2))
    totals = Counter()
    for row in rows:
        totals[row["deck"]] += int(row["count"])
    assert totals == {"train-cards": 110, "short-tickets": 55, "long-tickets": 34, "bonus-cards": 1}
    assert rows[0] == {"page": "1", "back_page": "2", "deck": "train-cards", "face": "001", "card": "紫 / purple",
                       "count": "12"}
    outline = [(o.title, reader.get_destination_page_number(o)) for o in reader.outline]
    assert outline[0] == ("列車カード / Train cards 001 · 紫 / purple ×12", 0)
    assert outline[8] == ("列車カード / Train cards 009 · 機関車 / Locomotive ×14", 16)
    assert len(outline) == len(rows)


def test_per_card_is_a_page_per_printed_card_and_its_back(run, tmp_path):
    result = run("build", "tests/fixtures/mini", "--profile", "shop", "--print-shop", "per-card", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    out = tmp_path / "mini"
    assert len(PdfReader(out / "mini-print-shop.pdf").pages) == 2 * (5 + 11)
    rows = list(csv.DictReader((out / "print-shop.csv").open(encoding="utf-8")))
    assert len(rows) == 16 and {r["count"] for r in rows} == {"1"}
    assert [r["face"] for r in rows[:5]] == ["001", "001", "002", "002", "003"]


def test_a_part_build_says_what_it_left_out_and_matches_the_full_build(run, tmp_path):
    full = run("build", "tests/fixtures/mini", "--all", "--out", tmp_path / "full")
    part = run("build", "tests/fixtures/mini", "--only", "trains", "--all", "--out", tmp_path / "part")
    assert full.exit_code == part.exit_code == 0, part.output
    assert "not written: the print-and-play file and components.csv (only trains built" in part.output
    written = sorted(str(p.relative_to(tmp_path / "part" / "mini")) for p in (tmp_path / "part" / "mini").rglob("*")
                     if p.is_file())
    assert written == ["svg/trains/001.svg", "svg/trains/002.svg", "svg/trains/003.svg", "svg/trains/back.svg",
                       "trains.pdf"]
    for name in written:
        assert (tmp_path / "part" / "mini" / name).read_bytes() == (tmp_path / "full" / "mini" / name).read_bytes()


def test_the_check_still_covers_the_whole_game(tmp_path, run):
    """A check error in one deck refuses a build of another: check and build agree."""
    from tests.conftest import copy_fixture
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "expected: 11", "expected: 12")
    result = run("build", game, "--only", "trains", "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert "PNP" in result.output and "build refused" in result.output
    assert not (tmp_path / "out" / "mini").exists()
