"""The rule sheet: ``<game>-rules.pdf`` (A4/Letter, two columns) and ``<game>-rules.html``.

Both come from the same chapters (``generator.load.rules``): the PDF is laid
out by ``generator.layout.rulesheet``, the HTML is markdown-it's rendering of
the same Markdown inside ``templates/rules/rules.html.j2``. Pictures are the
component's printed artwork: forms in the PDF, SVG files beside the HTML.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from generator.errors import BuildError
from generator.layout import images
from generator.layout.cardface import FaceRenderer
from generator.layout.components import KINDS, component_faces
from generator.layout.deck import draw_deck
from generator.layout.primitives import Document, Form, Group, Image, Page, Use
from generator.layout.rulesheet import FILE_PICTURE_MM, rule_pages, shown_faces
from generator.load.rules import (
    PICTURE_SCHEME,
    html_environment,
    joins_tight,
    load_rules,
    markdown_parser,
    picture_target,
    template_errors,
)
from generator.model.game import Game
from generator.model.rules import Chapter, ListBlock, Note, Picture
from generator.writers.context import BuildContext

PICTURE_DIR = "rules-img"
HTML_TEMPLATE = "rules.html.j2"


def rules_file(game: Game) -> str:
    return f"{game.id}-rules.pdf"


class ComponentPictures:
    """A component's distinct faces as forms, drawn once per build with the cards' own layouts."""

    def __init__(self, game: Game, renderer: FaceRenderer | None = None):
        self.game = game
        self.renderer = renderer or FaceRenderer(game)
        self._faces: dict[str, list[Form]] = {}

    def faces(self, component_id: str, source=None) -> list[Form]:
        if component_id not in self._faces:
            deck = self.game.decks.get(component_id)
            part = self.game.parts.get(component_id)
            if deck is not None:
                forms = draw_deck(self.game, deck, self.renderer).faces
            elif part is not None and KINDS[part.kind].pictured:
                forms = component_faces(self.game, part, self.renderer)
            else:
                raise BuildError(source, f"no picture for component '{component_id}'",
                                 "picture() draws a deck, tokens, tiles or dice: "
                                 + ", ".join([*self.game.decks, *(p.id for p in self.game.parts.values()
                                                                  if KINDS[p.kind].pictured)]))
            seen, distinct = set(), []
            for form in forms:
                if form.name not in seen:
                    seen.add(form.name)
                    distinct.append(form)
            self._faces[component_id] = distinct
        return self._faces[component_id]

    def for_block(self, block: Picture) -> list[Form]:
        if block.file:
            return [self.picture_file(block)]
        return self.faces(block.component, block.source)

    def picture_file(self, block: Picture) -> Form:
        """A picture file of the game as a form, its longest side FILE_PICTURE_MM (the rule sheet draws it
        at most that large, smaller where the column is narrower); a missing or malformed file is a
        ContentError at the rules.md line. Its resolution is checked at that size (PNP720)."""
        shown = block.component
        picture = images.read(images.picture_path(self.game, shown, block.source), block.source, shown)
        scale = FILE_PICTURE_MM / max(picture.width, picture.height)
        w, h = picture.width * scale, picture.height * scale
        image = Image(0.0, 0.0, w, h, picture.path, picture.digest)
        images.record_use(self.game, images.PictureUse(block.source, "the rule sheet", shown, picture, image))
        return Form(f"picture-{picture.digest[:16]}", (image,), (0.0, 0.0, w, h))


def produce_rules(game: Game, ctx: BuildContext) -> None:
    chapters = load_rules(game)
    ctx.progress.step("rule sheet")
    if not chapters:
        return
    pictures = ComponentPictures(game, ctx.face_renderer())
    pages, forms = rule_pages(chapters, ctx.paper, game.words("rules.footer", title=game.title), pictures.for_block,
                              ctx.print_problem_hook(), game.fonts)
    if not pages:  # an empty rules.md: no rule sheet, as without one (an empty PDF broke the print-and-play file)
        return
    doc = Document(game.words("rules.document", title=game.label), pages, forms)
    ctx.write_pdf(doc, rules_file(game), "rules", section=game.words["rules.section"])
    used = _write_picture_svgs(ctx, chapters, pictures)
    ctx.write_text(f"{game.id}-rules.html", render_html(game, chapters, used), "rules (HTML)")


def _write_picture_svgs(ctx: BuildContext, chapters: list[Chapter], pictures: ComponentPictures) -> dict:
    """One SVG per pictured component (its faces in a row, real size): component id → file name."""
    written = {}
    for block in _pictures(chapters):
        key = _picture_key(block.component, block.faces)
        if key in written:
            continue
        faces = shown_faces(pictures.for_block(block), block.faces)
        gap = 3.0
        x, items, doc = 0.0, [], Document(block.component)
        for form in faces:
            doc.add_form(form)
            bx, by, w, h = form.box
            items.append(Group((Use(form.name, 0.0, 0.0),), x - bx, -by))
            x += w + gap
        height = max(f.box[3] for f in faces)
        page = Page(x - gap, height, items)
        name = f"{PICTURE_DIR}/{key}.svg"
        ctx.write_svg(doc, page, name, embed_pictures=True)   # shown with <img>, which loads no other file
        written[key] = name
    if written:
        ctx.note_folder(PICTURE_DIR, "rules pictures")
    return written


def _picture_key(component: str, faces: int | None) -> str:
    # a picture file's path may hold folders (art/x.png): its SVG is one file of rules-img/ all the same
    return f"{component.replace('/', '-')}-{'all' if faces is None else faces}"


def _pictures(chapters: list[Chapter]):
    def walk(blocks):
        for block in blocks:
            if isinstance(block, Picture):
                yield block
            elif isinstance(block, Note):
                yield from walk(block.blocks)
            elif isinstance(block, ListBlock):
                for item in block.items:
                    yield from walk(item)
    for chapter in chapters:
        yield from walk(chapter.blocks)


def render_html(game: Game, chapters: list[Chapter], pictures: dict) -> str:
    """The rules as one HTML page: markdown-it's HTML of each chapter in an autoescaped template."""
    md = markdown_parser()

    def image(self, tokens, idx, options, env):
        token = tokens[idx]
        target = str(token.attrs.get("src", ""))
        key = _picture_key(*picture_target(target)) if target.startswith(PICTURE_SCHEME) else _picture_key(target, None)
        src = escape(pictures.get(key, ""))
        caption = escape(self.renderInlineAsText(token.children or [], options, env))
        return (f'<span class="picture"><img src="{src}" alt="{caption}">'
                f'<span class="caption">{caption}</span></span>')

    def softbreak(self, tokens, idx, options, env):
        before = tokens[idx - 1].content if idx else ""
        after = tokens[idx + 1].content if idx + 1 < len(tokens) else ""
        return "" if joins_tight(before, after) else "\n"  # as the PDF joins the lines (load.rules._spans)

    md.add_render_rule("image", image)
    md.add_render_rule("softbreak", softbreak)
    parts = [{"title": chapter.title, "html": Markup(md.render(chapter.markdown))} for chapter in chapters]
    with template_errors(game.folder / "rules" / HTML_TEMPLATE, game.folder):  # a game may override the page
        template = html_environment(game.folder, game.words).get_template(HTML_TEMPLATE)
        return template.render(game=game, title=game.label, chapters=parts, language=game.language)

