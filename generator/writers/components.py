"""Tokens, tiles, dice and sheets: one PDF per component (two for dice), an SVG per distinct face.

Counts are not checked here: the checker's PNP101 compares every entry of
``Game.components()`` with its `expected:` before any producer runs.
"""
from __future__ import annotations

from generator.layout.components import KINDS, component_faces
from generator.layout.primitives import Document, Page, Use
from generator.model.game import Game
from generator.writers.context import BuildContext


def produce_components(game: Game, ctx: BuildContext) -> None:
    renderer = ctx.face_renderer()
    for part in game.parts.values():
        kind = KINDS[part.kind]
        key = f"component:{part.id}"
        if not (ctx.wants_home(key) or ctx.wants("svg", key)):
            continue
        ctx.progress.step(f"{part.id}: {part.kind}")
        if ctx.wants_home(key):
            for output in kind.outputs(game, part, renderer, ctx.paper):
                ctx.write_home_pdf(output.doc, output.name, part.kind, key, section=output.section, component=part.id)
        if kind.pictured and ctx.wants("svg", key):   # pieces get an SVG per distinct face; a sheet is a page
            doc = Document(part.label)
            for n, form in enumerate(component_faces(game, part, renderer), start=1):
                doc.add_form(form)
                x, y, w, h = form.box
                page = Page(w, h, [Use(form.name, -x, -y)])
                ctx.write_svg(doc, page, f"svg/{part.id}/{n:03d}.svg")
    ctx.note_folder("svg", "svg")  # the cards' producer may have counted it: this updates the count
