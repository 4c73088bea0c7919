"""The rule sheet: ``<game>-rules.pdf`` (A4/Letter, two columns) and ``<game>-rules.html``.

Both come from the same chapters (``generator.load.rules``): the PDF is laid
out by ``generator.layout.rulesheet``, the HTML is markdown-it's rendering of
the same Markdown inside ``templates/rules/rules.html.j2``. Pictures are the
component's printed artwork: forms in the PDF, SVG files beside the HTML.

The page reads its inline text as the PDF does (``load.rules.inline_spans``): ``[red]…[/]`` is a coloured
``<span>``, ``:icon:`` the icon itself (inline SVG, or the game's picture as an ``<img>``). It carries its
fonts: ``@font-face`` rules with TrueType subsets of the characters it shows, in the faces the PDF uses.
"""
from __future__ import annotations

import base64
import functools
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

from markupsafe import Markup, escape

from generator import fonts
from generator.errors import BuildError
from generator.layout import images
from generator.layout.cardface import FaceRenderer
from generator.layout.components import KINDS, component_faces
from generator.layout.deck import draw_deck
from generator.layout.examples import example_form
from generator.layout.icons import ICONS
from generator.layout.primitives import Document, Form, Group, Image, Page, Use
from generator.layout.richtext import markup_of
from generator.layout.rulesheet import FILE_PICTURE_MM, rule_pages, shown_faces
from generator.load.rules import (
    PICTURE_SCHEME,
    html_environment,
    inline_spans,
    joins_tight,
    markdown_parser,
    picture_target,
    rules_of,
    template_errors,
)
from generator.model.game import Game
from generator.model.rules import Chapter, ListBlock, Note, Picture, Span, Spans
from generator.render.svg import MEDIA_TYPES, font_face, svg_text
from generator.writers.context import BuildContext

PICTURE_DIR = "rules-img"
_UNSAFE = re.compile(r"[^\w.-]")   # what a picture's SVG name may not hold (folders, ':', '?', '&', '=')
HTML_TEMPLATE = "rules.html.j2"
#: a table cell of at most this many characters (of Markdown) is kept on one line: a number, a kind, a colour
WHOLE_CELL = 8


def rules_file(game: Game) -> str:
    return f"{game.id}-rules.pdf"


class ComponentPictures:
    """A component's distinct faces as forms, drawn once per build with the cards' own layouts."""

    def __init__(self, game: Game, renderer: FaceRenderer | None = None):
        self.game = game
        self.renderer = renderer or FaceRenderer(game)
        self._faces: dict[str, list[Form]] = {}
        self._boards: dict = {}   # board id → (form, plan), drawn once for all the rule examples

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
        if block.example is not None:
            key = picture_name(block)
            if key not in self._faces:
                self._faces[key] = [example_form(self.game, block.example, self.renderer, self._boards)]
            return self._faces[key]
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
    if not (ctx.wants_home("rules") or ctx.wants("html", "rules")):
        return
    chapters = rules_of(game)
    ctx.progress.step("rule sheet")
    if not chapters:
        return
    pictures = ComponentPictures(game, ctx.face_renderer())
    pages, forms = rule_pages(chapters, ctx.paper, game.words("rules.footer", title=game.title), pictures.for_block,
                              ctx.print_problem_hook(), game.fonts)
    if not pages:  # an empty rules.md: no rule sheet, as without one (an empty PDF broke the print-and-play file)
        return
    doc = Document(game.words("rules.document", title=game.label), pages, forms)
    ctx.write_home_pdf(doc, rules_file(game), "rules", "rules", section=game.words["rules.section"])
    if not ctx.wants("html", "rules"):
        return
    used = _write_picture_svgs(ctx, chapters, pictures)
    ctx.write_text(f"{game.id}-rules.html", html_writer(game, chapters, used), "rules (HTML)")


def _write_picture_svgs(ctx: BuildContext, chapters: list[Chapter], pictures: ComponentPictures) -> dict:
    """One SVG per pictured component (its faces in a row, real size): component id → file name."""
    written = {}
    for block in _pictures(chapters):
        key = _picture_key(picture_name(block), block.faces)
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
    # a picture file's path may hold folders (art/x.png), an example a query (example:claim?a=…&b=…): its SVG is
    # one plainly named file of rules-img/ all the same
    return f"{_UNSAFE.sub('-', component)}-{'all' if faces is None else faces}"


def picture_name(block: Picture) -> str:
    """What a picture is known by: its target, and for a rule example in an add-on's chapter the add-on too
    (``example:claim`` with the dice is not the game's own ``example:claim`` with cards)."""
    chapter = block.example.chapter if block.example is not None else ""
    return f"{block.component}@{chapter}" if chapter else block.component


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
    """The rules as one HTML page: markdown-it's HTML of each chapter in an autoescaped template, its inline
    text read as the PDF reads it (colours, icons), with the fonts it shows embedded (``page_fonts``)."""
    return html_writer(game, chapters, pictures)()


def html_writer(game: Game, chapters: list[Chapter], pictures: dict) -> Callable[[], str]:
    """The page of ``render_html`` in two steps: its text is made now (a mistake in the game's template is
    found by the check's layout), its fonts — subsets cut from the font files, most of the cost — by the
    function returned, which the build calls when it writes the file (after the SVGs' font masters are cut)."""
    md = markdown_parser().disable("text_join")   # escapes stay apart, as the PDF's parser keeps them
    renderer = _rich_text_class()(md, markup_of(game))
    md.renderer = renderer
    # a rule example's caption is worked out with it (generator.model.examples), unless the rules give one
    # a rule example's picture and caption are worked out with it (generator.model.examples), chapter by chapter
    examples = [{b.component: b for b in _pictures([chapter]) if b.example is not None} for chapter in chapters]

    def image(self, tokens, idx, options, env):
        token = tokens[idx]
        target = str(token.attrs.get("src", ""))
        example = examples[self.chapter].get(target) if self.chapter is not None else None
        key = (_picture_key(picture_name(example), None) if example is not None else
               _picture_key(*picture_target(target)) if target.startswith(PICTURE_SCHEME) else _picture_key(target, None))
        src = escape(pictures.get(key, ""))
        caption = escape(self.renderInlineAsText(token.children or [], options, env)
                         or (example.caption if example is not None else ""))
        return (f'<span class="picture"><img src="{src}" alt="{caption}">'
                f'<span class="caption">{caption}</span></span>')

    def softbreak(self, tokens, idx, options, env):
        before = tokens[idx - 1].content if idx else ""
        after = tokens[idx + 1].content if idx + 1 < len(tokens) else ""
        return "" if joins_tight(before, after) else "\n"  # as the PDF joins the lines (load.rules._spans)

    def table_open(self, tokens, idx, options, env):   # a table wider than its column scrolls, whole
        return '<div class="table">' + self.renderToken(tokens, idx, options, env)

    def table_close(self, tokens, idx, options, env):
        return self.renderToken(tokens, idx, options, env) + "</div>\n"

    def cell_open(self, tokens, idx, options, env):   # a short cell (a number, a kind) never wraps
        inline = tokens[idx + 1] if idx + 1 < len(tokens) else None
        if inline is not None and inline.type == "inline" and len(inline.content) <= WHOLE_CELL:
            tokens[idx].attrJoin("class", "whole")
        return self.renderToken(tokens, idx, options, env)

    md.add_render_rule("image", image)
    md.add_render_rule("softbreak", softbreak)
    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    md.add_render_rule("td_open", cell_open)
    md.add_render_rule("th_open", cell_open)
    parts = []
    for n, chapter in enumerate(chapters):
        renderer.where, renderer.chapter = chapter.source, n
        parts.append({"title": chapter.title, "html": Markup(md.render(chapter.markdown))})
    family = fonts.resolve(None, families=game.fonts).name
    with template_errors(game.folder / "rules" / HTML_TEMPLATE, game.folder):  # a game may override the page
        template = html_environment(game.folder, game.words).get_template(HTML_TEMPLATE)
        values = dict(game=game, title=game.label, chapters=parts, language=game.language,
                      font_family=Markup(_css_string(family)))
        page = template.render(**values, fonts=Markup(""))

    def with_fonts() -> str:
        css = page_fonts(game, family, page)
        if not css:
            return page
        with template_errors(game.folder / "rules" / HTML_TEMPLATE, game.folder):
            return template.render(**values, fonts=Markup(css))
    return with_fonts


@functools.cache
def _rich_text_class() -> type:
    """``_RichText``, made (and markdown-it's renderer imported) when a rule page is first written in HTML."""
    from markdown_it.renderer import RendererHTML

    class _RichText(RendererHTML):
        """markdown-it's HTML renderer, inline runs drawn from their spans (``load.rules.inline_spans``): bold,
        italic, ``[colour]…[/]`` and ``:icon:`` as the PDF draws them, not as the characters the designer typed.
        A run with a link or a picture keeps markdown-it's own rendering (links stay links)."""

        def __init__(self, parser, markup):
            super().__init__(parser)
            self.markup = markup
            self.where = None
            self.chapter: int | None = None   # which chapter is being rendered (its rule examples are its own)

        def renderInline(self, tokens, options, env):
            if any(t.type in ("image", "link_open") for t in tokens):
                return super().renderInline(tokens, options, env)
            return spans_html(inline_spans(tokens, self.where, self.markup))
    return _RichText


def spans_html(spans: Spans) -> str:
    """Rich-text spans as HTML: ``<strong>``, ``<em>``, ``<span style="color:…">``, icons inline."""
    out = []
    for span in spans:
        html = _icon_html(span) if span.icon else str(escape(span.text)).replace("\n", "<br>\n")
        if span.italic:
            html = f"<em>{html}</em>"
        if span.bold:
            html = f"<strong>{html}</strong>"
        if span.color:
            html = f'<span style="color:{escape(span.color)}">{html}</span>'
        out.append(html)
    return "".join(out)


def _icon_html(span: Span) -> str:
    """A built-in icon as inline SVG drawn in the text's colour (``currentColor``); a game's own picture as an
    ``<img>`` carrying its bytes (the page needs no other file for it)."""
    name = str(escape(span.icon))
    if span.picture is not None:
        path = Path(span.picture[0])
        kind = images.KINDS.get(path.suffix.lower(), "png")
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return f'<img class="icon" alt="{name}" src="data:{MEDIA_TYPES[kind]};base64,{data}">'
    svg = svg_text(ICONS[span.icon](0.0, 0.0, 10.0, "currentColor"), (0.0, 0.0, 10.0, 10.0), ("1.1em", "1.1em"))
    return svg.replace("<svg ", f'<svg class="icon" role="img" aria-label="{name}" ', 1)


def _css_string(name: str) -> str:
    return "'" + "".join(ch for ch in name if ch not in "'\\<>") + "'"


#: elements whose text a browser draws bold or italic in the page's stylesheet
_BOLD = {"strong", "b", "th", "h1", "h2", "h3", "h4", "h5", "h6"}
_ITALIC = {"em", "i"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _PageText(HTMLParser):
    """The characters a page shows, by style (bold, italic): text outside ``<head>``, ``<style>``, ``<script>``."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.chars: dict[tuple[bool, bool], set[str]] = {}

    def handle_starttag(self, tag, attrs):
        if tag not in _VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in self.open:
            while self.open.pop() != tag:
                pass

    def handle_data(self, data):
        if any(t in ("head", "style", "script", "title") for t in self.open):
            return
        key = (any(t in _BOLD for t in self.open), any(t in _ITALIC for t in self.open))
        self.chars.setdefault(key, set()).update(data)


def page_fonts(game: Game, family: str, page: str) -> str:
    """``@font-face`` rules for the rendered ``page``, all under ``family``: the game's body faces (those
    the PDF's rule sheet prints with), each a subset of the characters shown in its style. A style the
    family has no file for is left to the browser to synthesise from the regular face, as the PDF does."""
    reader = _PageText()
    reader.feed(page)
    reader.close()
    shown = reader.chars
    rules = []
    for bold, italic in ((False, False), (True, False), (False, True), (True, True)):
        face = fonts.resolve(None, bold, italic, game.fonts)
        if (bold or italic) and (face.fake_bold or face.fake_italic):
            continue
        text = set().union(*(chars for (b, i), chars in shown.items() if (b or not bold) and (i or not italic)))
        rule = font_face(family, face.name, bold, italic, text)
        if rule is not None:
            rules.append(rule)
    return "\n".join(rules)
