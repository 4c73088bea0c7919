"""The decks-only half of bench_cards.py: a game's deck PDFs and nothing else, in a fresh process.

    python benchmarks/decks_only.py GAME OUT

It is its own small script, not a mode of bench_cards.py, so that the process the benchmark times compiles and
imports what the deck PDFs need and no more: run as ``bench_cards.py --decks-only`` it also compiled the
640-line harness and imported its argparse, json, subprocess and platform (78 million instructions under
cachegrind at 199 cards, 5 % of the figure), which the floor script does not carry either.
"""
from __future__ import annotations

import sys
from pathlib import Path


def decks_only(game_folder: str, out_dir: str, paper: str = "a4") -> None:
    """build_game's per-deck PDF work and nothing else; writes OUT/<deck>.pdf."""
    import gc

    import generator.check.counts  # noqa: F401  # registers the count checks (PNP101), not the whole catalogue
    from generator import collector
    from generator.check.registry import CATALOGUE
    from generator.layout.cardface import FaceRenderer
    from generator.layout.deck import draw_deck
    from generator.layout.primitives import Document
    from generator.layout.sheets import duplex_sheets
    from generator.layout.stamp import stamped
    from generator.load.game import load_game
    from generator.render.pdf import render_pdf

    game = load_game(Path(game_folder))
    # collected as build_game collects while it builds (``generator.collector.fewer_collections``), for the rest
    # of this process
    gc.freeze()
    gc.set_threshold(max(gc.get_threshold()[0], collector.THRESHOLD), *gc.get_threshold()[1:])
    assert not list(CATALOGUE["PNP101"].run(game)), "deck counts differ from their declared counts"
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    renderer = FaceRenderer(game)
    for deck in game.decks.values():
        art = draw_deck(game, deck, renderer)
        order = art.print_order()
        doc = Document(f"{game.label} — {deck.label}")
        for form in [*art.faces, art.back]:
            doc.add_form(form)
        doc.pages = duplex_sheets(order, [art.back.name] * len(order), deck.geometry, paper,
                                  game.back_offset, deck.id, deck.source, game.printer_margin, game.home_bleed)
        # the build stamps every page of a home PDF (BuildContext.write_pdf): so does this, or the files differ
        render_pdf(stamped(doc, game.stamp, game.typeset, game.printer_margin), out / f"{deck.id}.pdf")


if __name__ == "__main__":
    decks_only(sys.argv[1], sys.argv[2])
