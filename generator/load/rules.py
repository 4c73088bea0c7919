"""Read a game's rules: ``rules.md`` (Markdown + Jinja) → chapters of blocks.

rules.md is a Jinja template evaluated in a sandbox (content can read the
model, never call into Python or change it) with the game model in context
and the macros of ``templates/rules/macros.md.j2`` (a game folder's
``rules/`` overrides any template there, as a theme is overridden). The
macros write every figure the model knows — the component list, scoring
tables, card counts — so a rule sheet cannot disagree with the components it
ships with. The result is parsed with markdown-it-py into blocks
(``generator.model.rules``). Errors point at rules.md:line.

An add-on composed into a game (``--with``) brings its own rules.md, which
becomes its own chapter after the game's.
"""
from __future__ import annotations

import difflib
import functools
import importlib.util
import os
import traceback
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from types import CodeType
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

import jinja2
from jinja2 import BytecodeCache, ChoiceLoader, StrictUndefined, TemplateError, TemplateNotFound, TemplateSyntaxError
from jinja2.bccache import Bucket
from jinja2.loaders import split_template_path
from jinja2.sandbox import SecurityError

from generator import TEMPLATES_DIR, limits
from generator.errors import BuildError, ContentError, Source, did_you_mean

# Jinja's loader and sandbox, bounded (file size, UTF-8, work): see generator.jinja_sandbox
from generator.jinja_sandbox import BoundedFileSystemLoader as FileSystemLoader
from generator.jinja_sandbox import BoundedImmutableSandbox as ImmutableSandboxedEnvironment
from generator.layout import richtext
from generator.layout.components import KINDS
from generator.layout.components.kind import kind_label, kinds_with
from generator.layout.images import KINDS as PICTURE_KINDS
from generator.layout.richtext import PLAIN, Markup
from generator.model.examples import plan_example

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
from generator.model.game import ComponentRow, Game
from generator.model.rules import (
    RULES_FILE,
    Block,
    Chapter,
    Heading,
    ListBlock,
    Note,
    Paragraph,
    Picture,
    Rule,
    Span,
    Spans,
    Table,
    has_rules_file,
)
from generator.model.words import Words
from generator.paths import inside, special_kind
from generator.yamlsource import read_text

TEMPLATE_DIR = TEMPLATES_DIR / "rules"
MACROS = "macros.md.j2"
PICTURE_SCHEME = "component:"
EXAMPLE_SCHEME = "example:"
#: pnpgen's macros as the code Jinja compiles them to (``tools/rules_macros.py``; ``OwnMacros``)
MACROS_CODE_MODULE = "generator.load.rules_macros"
MACROS_CODE_FILE = Path(__file__).with_name("rules_macros.py")



class RulesError(ContentError):
    """A mistake in rules.md found while evaluating it (raised from template helpers)."""


def markdown_parser() -> MarkdownIt:
    """CommonMark plus tables; raw HTML is not passed through (it prints as text). markdown-it is imported here,
    when a game's Markdown is first read: a game without rules.md never needs it."""
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _block_parser() -> MarkdownIt:
    """The parser for the rule sheet's blocks: escapes (``\\:``) stay apart from the text around them, so
    ``layout.richtext`` does not read an escaped ``:`` or ``[`` as markup."""
    return markdown_parser().disable("text_join")


def rules_of(game: Game) -> list[Chapter]:
    """``load_rules(game)``, read once per game: ``pnpgen check`` reads the rules to find a template mistake and
    its dry layout lays the rule sheet out from them (Jinja, Markdown and the examples' plans, 0.1 s, once).
    Chapters are not changed after they are read; an error is raised again on the next ask, not kept."""
    kept = game.__dict__.get("_kept_rules")
    if kept is None:
        kept = game.__dict__["_kept_rules"] = load_rules(game)
    return kept


def load_rules(game: Game) -> list[Chapter]:
    """The game's chapters: its own rules.md, then each add-on's. Empty if none has one.

    Each chapter's ``components`` are those it brought: an add-on's own, or the game's minus every add-on's.
    """
    listed = game.components()
    chapters = []
    for addon in (None, *game.addons):
        folder = game.folder if addon is None else addon.folder
        if not has_rules_file(folder):   # (a named pipe is there: reading refuses it)
            continue
        if addon is None:
            own = [c for c in listed if not any(a.owns(c.id) for a in game.addons)]
        else:
            own = [c for c in listed if addon.owns(c.id)]
        chapters.append(_chapter(game, folder, game.title if addon is None else addon.title, own, listed, addon))
    return chapters


# --------------------------------------------------------------------------- Jinja

class ContainedLoader(FileSystemLoader):
    """A FileSystemLoader that reads a template only if, links followed, it lies inside ``roots``.

    Jinja follows symbolic links: a shared game's ``rules/macros.md.j2`` could be a link to any
    file on the machine, shown in the rule sheet. The file is checked before it is read.
    """

    def __init__(self, searchpath: Path, roots: tuple[Path, ...]):
        super().__init__(searchpath)
        self.roots = roots

    def get_source(self, environment, template):
        pieces = split_template_path(template)  # refuses '..' in a template name, as Jinja does
        for searchpath in self.searchpath:
            candidate = Path(searchpath, *pieces)
            if os.path.isfile(candidate) or special_kind(candidate):   # isfile: False for a name too long
                inside(candidate, self.roots, Source(candidate), str(Source(candidate)))
                break
        return super().get_source(environment, template)


class OwnMacros(BytecodeCache):
    """Jinja's bytecode cache, holding one template: pnpgen's own ``macros.md.j2``, compiled ahead
    (``tools/rules_macros.py`` writes its code to ``rules_macros.py``, compiled with the package): Jinja's parse,
    code generation and compile of it cost 0.025 s of every check. Jinja asks it for every template the rules
    read; it answers only for the file ``templates/rules/macros.md.j2`` (not a game's own ``rules/macros.md.j2``)
    whose text has the SHA-1 the code was made from, in an environment of ``environment``'s settings (not
    autoescaped); anything else Jinja compiles as always. Nothing is ever stored."""

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key != _own_macros_key() or bucket.environment.autoescape is not False:
            return
        code = _macros_code()
        if code is not None and f"sha1:{bucket.checksum}" in code.co_consts and _jinja_made() in code.co_consts:
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Nothing is stored: the one template held is compiled ahead."""


def _jinja_made() -> str:
    """Which Jinja the code is for: another release's runtime may not run it (its generated code is Jinja's own
    business), so a code written by another one is not handed over and the template is compiled as always."""
    return f"jinja2 {jinja2.__version__}"


def _own_macros_file() -> str:
    """pnpgen's macros as ``FileSystemLoader`` names the file (Jinja's template ``filename``)."""
    return os.path.normpath(os.path.join(TEMPLATE_DIR, MACROS))


@functools.cache
def _own_macros_key() -> str:
    """The cache key Jinja gives pnpgen's macros (their name and file)."""
    return OwnMacros().get_cache_key(MACROS, _own_macros_file())


@functools.cache
def _macros_code() -> CodeType | None:
    """The code object of ``rules_macros.py`` (from its compiled file when there is a current one), or None; named
    after the template's file, as Jinja names the code it compiles (the template's ``filename``, which an error's
    place is read from: ``_template_source``)."""
    spec = importlib.util.find_spec(MACROS_CODE_MODULE)
    if spec is None or spec.loader is None:
        return None
    try:
        code = spec.loader.get_code(MACROS_CODE_MODULE)  # type: ignore[attr-defined]  # a SourceFileLoader
    except (OSError, SyntaxError):
        return None
    return None if code is None else _named(code, _own_macros_file())


def _named(code: CodeType, filename: str) -> CodeType:
    """``code`` and every code object inside it with ``co_filename`` ``filename``."""
    return code.replace(co_filename=filename, co_consts=tuple(
        _named(const, filename) if isinstance(const, CodeType) else const for const in code.co_consts))


def macros_code_text() -> str:
    """What ``rules_macros.py`` holds: Jinja's code of pnpgen's ``macros.md.j2`` line for line (Jinja maps an
    error's line back to the template's by it), then the template's SHA-1 and the Jinja release (``OwnMacros``)."""
    env = environment(TEMPLATE_DIR, Words())
    source, filename, _ = env.loader.get_source(env, MACROS)   # type: ignore[union-attr]
    code = env.compile(source, MACROS, filename, raw=True)
    return (f"{code.rstrip()}\n\n"
            "# Generated by `python tools/rules_macros.py` from templates/rules/macros.md.j2: do not edit. Jinja's code\n"
            "# of the template, run by generator.load.rules (``OwnMacros``) when the template has this SHA-1; never\n"
            "# imported.\n"
            "# ruff: noqa\n"
            f"TEMPLATE_SHA1 = {f'sha1:{OwnMacros().get_source_checksum(source)}'!r}\n"
            f"JINJA = {_jinja_made()!r}\n")


def environment(folder: Path, words: Words) -> ImmutableSandboxedEnvironment:
    """The sandbox rules.md runs in: templates from the game's rules/, then templates/rules/; each
    read only from the game (or add-on) folder or pnpgen's templates (``ContainedLoader``)."""
    roots = (folder, TEMPLATES_DIR)
    env = ImmutableSandboxedEnvironment(
        loader=ChoiceLoader([ContainedLoader(folder / "rules", roots), ContainedLoader(folder, roots),
                             ContainedLoader(TEMPLATE_DIR, roots)]),
        undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True, trim_blocks=True,
        lstrip_blocks=True, bytecode_cache=OwnMacros())
    env.filters["cell"] = lambda value: _cell(env.charge(value))   # its text made: counted (jinja_sandbox)
    env.filters["kind"] = lambda kind: kind_label(words, kind)
    env.globals["words"] = words
    env.root = folder   # a path the rules read or print is shown relative to the game (jinja_sandbox.shown_path)
    return env


def html_environment(folder: Path, words: Words) -> ImmutableSandboxedEnvironment:
    """The rule sheet's HTML page template: same search path, autoescaped."""
    env = environment(folder, words)
    env.autoescape = True
    env.bytecode_cache = None   # pnpgen's macros were compiled ahead for the Markdown, not for autoescaped HTML
    return env


def _cell(value) -> str:
    """A value as one Markdown table cell: pipes escaped, no line breaks."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def _chapter(game: Game, folder: Path, title: str, components: list[ComponentRow], listed: list[ComponentRow],
             addon) -> Chapter:
    path = folder / RULES_FILE
    inside(path, (folder,), Source(path), RULES_FILE)  # a link to a file elsewhere is not the game's rules
    source_text = read_text(path, "rules file")  # every failed read (a bad byte at its line and column) a ContentError
    env = environment(folder, game.words)
    context = {
        "game": game, "title": title, "players": game.players, "decks": game.decks, "tables": game.tables,
        "places": game.collections.get("place", {}), "components": components,
        "all_components": listed, "addon": addon is not None,
        # an add-on's rules may name the game it is played with
        "base": game if addon is not None else None,
        "component": lambda id: _component(game, id), "deck": lambda id: _lookup(game.decks, id, "deck"),
        "table": lambda name: _lookup(game.tables, name, "table"),
        # a walk of the deck's cards: counted as the sandbox counts a loop (10**5 tallies of 20,000 cards: hours)
        "tally": lambda deck_id, field: _tally(game, deck_id, field, env.tick),
        "map_rules": game.map_rules,   # stations, locomotives, tunnels, ferries, bonuses (None: not stated)
        "parts": game.parts, "die_faces": lambda id: _die_faces(game, id), "stacks": lambda id: _stacks(game, id),
    }
    with template_errors(path, folder):
        macros = env.get_template(MACROS).make_module(context)
        context.update({name: getattr(macros, name) for name in dir(macros) if not name.startswith("_")})
        markdown = env.render(env.get_template(RULES_FILE), context)
    blocks = parse(markdown, path, _line_map(source_text, markdown), richtext.markup_of(game))
    _examples(game, blocks, addon is not None)
    return Chapter(title, markdown, blocks, Source(path), tuple(c.id for c in components))


def _examples(game: Game, blocks: list, addon: bool) -> None:
    """Work out every rule example (``example:KIND?a=…&b=…``) from the game's data; its caption, unless the
    rules give one, is the example's own sentence in the game's language. ``addon``: the chapter is an
    add-on's (its examples play by the add-on, e.g. with dice; the game's own chapter keeps its cards)."""
    for block in blocks:
        if isinstance(block, ListBlock):
            for item in block.items:
                _examples(game, item, addon)
        elif isinstance(block, Note):
            _examples(game, block.blocks, addon)
        elif isinstance(block, Picture) and block.component.startswith(EXAMPLE_SCHEME):
            parts = urlsplit(block.component[len(EXAMPLE_SCHEME):])
            query = {key: values[0] for key, values in parse_qs(parts.query).items()}
            block.example = plan_example(game, parts.path, query, block.source, addon)
            block.caption = block.caption or block.example.caption


@contextmanager
def template_errors(path: Path, folder: Path):
    """Turn Jinja's errors inside the block into a RulesError at the template's line (never a traceback).

    ``path`` is the rules.md being rendered (an error in a macro it calls names both lines);
    ``folder`` the game or add-on folder whose ``rules/`` may hold the template.
    """
    try:
        yield
    except (ContentError, BuildError) as error:  # a content or build error raised inside a helper: at the template's line
        # a template that cannot be read names its own line (a bad byte); one that may not be read, the line
        # that includes it (or itself, when pnpgen reads it: macros); a helper's mistake, its caller's line
        where = error.source
        if where.line is None:
            including = _template_source(error, path)
            where = including if including.line is not None or where.file is None else where
        raise RulesError(where, error.message, error.hint) from None
    except TemplateSyntaxError as error:
        where = Source(Path(error.filename), error.lineno) if error.filename else Source(path, error.lineno)
        raise RulesError(where, f"rules template syntax: {error.message}",
                         "fix the Jinja on this line: {{ value }}, {% for … %}…{% endfor %}") from None
    except SecurityError as error:
        raise RulesError(_template_source(error, path), f"rules may only read the game model: {error}",
                         "use the values and macros the rules get (game, decks, tables, components_table() …)") from None
    except TemplateNotFound as error:
        raise RulesError(_template_source(error, path), f"no rules template named '{error.name}'",
                         f"put it in {folder.name}/rules/ or templates/rules/") from None
    except RecursionError as error:
        raise RulesError(*_include_loop(error, path)) from None
    except (ArithmeticError, MemoryError, TypeError, ValueError, LookupError) as error:  # 1/0, 'a' + 1, a value too large
        raise RulesError(_template_source(error, path), f"rules template: {type(error).__name__}: {error}",
                         "fix the expression on this line") from None
    except TemplateError as error:
        raise RulesError(_template_source(error, path), f"rules template: {error}",
                         "check the names used on this line; the rules see game, decks, tables, places, "
                         "components and the macros in templates/rules/macros.md.j2") from None


def _include_loop(error: RecursionError, path: Path) -> tuple:
    """Where an endless {% include %} loop starts (rules.md's include line) and the files it goes round."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if f.filename.endswith((".md", ".j2", ".html")) and Path(f.filename).is_file()]
    loop: list = []
    for frame in frames:
        step = (frame.filename, frame.lineno)
        if step in loop:
            break
        loop.append(step)
    where = Source(Path(loop[0][0]), loop[0][1]) if loop else Source(path)
    chain = " → ".join(f"{Path(name).name}:{line}" for name, line in loop)
    return (where, "the rules include themselves (an endless {% include %} loop" + (f": {chain})" if chain else ")")
            + ", or a macro calls itself without end",
            "include only other files from rules.md, none that includes it back; give a recursive macro a way to stop")


def _template_source(error: Exception, path: Path) -> Source:
    """Where in the templates an error arose: rules.md's line, and the macro's if it was inside one.

    Jinja rewrites tracebacks so that template frames carry the template's file and line.
    """
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if f.filename.endswith((".md", ".j2", ".html")) and Path(f.filename).is_file()]
    rules = [f for f in frames if Path(f.filename) == path]
    inner = frames[-1] if frames else None
    if rules:
        source = Source(path, rules[-1].lineno)
        if inner is not None and Path(inner.filename) != path:
            return _Within(path, rules[-1].lineno, Source(Path(inner.filename), inner.lineno))
        return source
    if inner is not None:
        return Source(Path(inner.filename), inner.lineno)
    if isinstance(error, ContentError) and error.source.file is not None:
        return error.source  # raised before any template ran (a template file refused by ContainedLoader)
    return Source(path)


class _Within(Source):
    """rules.md:12 (in templates/rules/macros.md.j2:8)."""

    def __init__(self, file, line, inner: Source):
        super().__init__(file, line)
        self.inner = inner

    def __str__(self) -> str:
        return f"{super().__str__()} (in {self.inner})"


def _lookup(items: dict, key, what: str):
    if key not in items:
        raise ContentError(None, f"the rules name a {what} '{key}' that the game does not have",
                           did_you_mean(key, items) or f"{what}s: " + (", ".join(map(str, items)) or "none"))
    return items[key]


def _component(game: Game, component_id: str) -> ComponentRow:
    found = {c.id: c for c in game.components(replaced=True)}  # the base rules may picture a replaced deck
    return _lookup(found, component_id, "component")


def _tally(game: Game, deck_id: str, field: str, tick=None) -> list[tuple[str, int]]:
    """(value, cards) per distinct value of a deck's field, in card order; ``tick(n)`` is told the cards walked."""
    deck = _lookup(game.decks, deck_id, "deck")
    if tick is not None:
        tick(len(deck.cards))
    if field not in deck.fields:
        raise ContentError(None, f"deck '{deck_id}' has no field '{field}'",
                           did_you_mean(field, deck.fields) or "fields: " + ", ".join(deck.fields))
    counts: dict[str, int] = {}
    for card in deck.cards:
        key = str(card.values[field])
        counts[key] = counts.get(key, 0) + card.count
    return list(counts.items())


def _part(game: Game, component_id: str, helper: str):
    """The component ``helper`` (a rules.md function) reads: one whose kind lists it in ``rules_helpers``."""
    part = _lookup(game.parts, component_id, "component")
    if helper not in KINDS[part.kind].rules_helpers:
        names = kinds_with("rules_helpers", helper)
        raise ContentError(None, f"component '{component_id}' is a {part.kind}, not a {' or '.join(names)}",
                           " or ".join(KINDS[name].unit for name in names) + ": "
                           + (", ".join(p.id for p in game.parts.values()
                                        if helper in KINDS[p.kind].rules_helpers) or "none"))
    return part


def _die_faces(game: Game, component_id: str) -> list[tuple[str, int]]:
    """(label, sides) of a die, in the order its faces are declared."""
    part = _part(game, component_id, "die_faces")
    labels = part.options.labels
    counts: dict[str, int] = {}
    for face in part.faces:
        for symbol in face.values.get("symbols", []):
            label = str(labels.get(symbol, symbol))
            counts[label] = counts.get(label, 0) + 1
    return list(counts.items())


def _stacks(game: Game, component_id: str) -> list[dict]:
    """A tile set's stacks in content order: title, condition, tiles and their values, top first."""
    part = _part(game, component_id, "stacks")
    stacks: dict[str, dict] = {}
    for face in part.faces:
        title = str(face.values.get("title") or face.values.get("text") or part.name)
        stack = stacks.setdefault(title, {"title": title, "text": face.values.get("text") or "", "count": 0,
                                          "values": []})
        stack["count"] += face.count
        if face.values.get("value") is not None:
            stack["values"] += [face.values["value"]] * face.count
    return list(stacks.values())


# --------------------------------------------------------------------------- Markdown

def _line_map(source: str, rendered: str) -> list[int]:
    """For each rendered line, the rules.md line it most likely came from.

    Jinja changes line counts (macros expand to tables), so rendered lines are
    matched back to source lines; a generated line maps to the line before it.
    """
    src, out = source.splitlines(), rendered.splitlines()
    mapping = [max(1, len(src))] * (len(out) + 1)
    head = tail = 0
    if len(src) * len(out) > limits.MAX_LINE_MAP_WORK:
        head, tail = _unchanged_ends(src, out)
    # the lines before the first change and after the last map one to one; the diff sees only the middle,
    # whose cost grows with the product of its lengths (thousands of equal lines: minutes)
    for j in range(head):
        mapping[j] = j + 1
    for k in range(1, tail + 1):
        mapping[len(out) - k] = len(src) - k + 1
    middle_src, middle_out = src[head:len(src) - tail], out[head:len(out) - tail]
    opcodes: Sequence[tuple[str, int, int, int, int]]
    if not (middle_src and middle_out):   # lines only added (or only removed): no diff to run
        opcodes = [("insert", 0, len(middle_src), 0, len(middle_out))]
    elif len(middle_src) * len(middle_out) > limits.MAX_LINE_MAP_WORK:   # approximate: line by line from the change
        opcodes = [("replace", 0, len(middle_src), 0, len(middle_out))]
    else:
        opcodes = difflib.SequenceMatcher(None, middle_src, middle_out, autojunk=False).get_opcodes()
    for op, i1, i2, j1, j2 in opcodes:
        for j in range(j1, j2):
            if op == "insert":
                mapping[head + j] = max(1, head + i1)
            else:  # equal or replace: line by line, the last source line for any extra output
                mapping[head + j] = head + i1 + 1 + min(j - j1, max(0, i2 - i1 - 1))
    return mapping


def _unchanged_ends(src: list[str], out: list[str]) -> tuple[int, int]:
    """How many lines at the start, and then at the end, ``src`` and ``out`` share."""
    head = next((i for i, (a, b) in enumerate(zip(src, out)) if a != b), min(len(src), len(out)))
    tail = next((i for i, (a, b) in enumerate(zip(reversed(src[head:]), reversed(out[head:]))) if a != b),
                min(len(src), len(out)) - head)
    return head, tail



def parse(markdown: str, path: Path, line_map: list[int] | None = None, markup: Markup = PLAIN) -> list:
    """Markdown → blocks (``generator.model.rules``); ``markup``: the colours and icons inline text may name."""
    def src(node) -> Source:
        line = node.map[0] if node.map else 0
        return Source(path, line_map[min(line, len(line_map) - 1)] if line_map else line + 1)

    _bounded_markdown(markdown, path)
    try:
        from markdown_it.tree import SyntaxTreeNode
        return _blocks(SyntaxTreeNode(_block_parser().parse(markdown)).children, src, markup)
    except RecursionError:   # markdown-it bounds nested blocks, not emphasis: '*' * 50000 + 'x' + '*' * 50000
        raise ContentError(Source(path), "the Markdown nests too deeply (emphasis, links or lists inside each "
                                         "other, thousands of levels)",
                           "write the text plainly: a rule sheet nests a few levels at most") from None


def _blocks(nodes, src, markup: Markup) -> list[Block]:
    blocks: list[Block] = []
    for node in nodes:
        kind = node.type
        if kind == "heading":
            blocks.append(Heading(int(node.tag[1]), _spans(node.children[0], src(node), markup), src(node)))
        elif kind == "paragraph":
            inline = node.children[0]
            images = [c for c in inline.children if c.type == "image"]
            if images:
                blocks.append(_picture(inline, images, src(node)))
            else:
                blocks.append(Paragraph(_spans(inline, src(node), markup), src(node)))
        elif kind in ("bullet_list", "ordered_list"):
            start = int(node.attrs.get("start", 1)) if kind == "ordered_list" else 1
            items = [_blocks(item.children, src, markup) for item in node.children]
            blocks.append(ListBlock(kind == "ordered_list", start, items, src(node)))
        elif kind == "table":
            blocks.append(_table(node, src, markup))
        elif kind == "blockquote":
            blocks.append(Note(_blocks(node.children, src, markup), src(node)))
        elif kind == "hr":
            blocks.append(Rule(src(node)))
        elif kind in ("code_block", "fence"):
            blocks.append(Paragraph((Span(node.content.rstrip("\n")),), src(node)))
        elif kind == "html_block":
            blocks.append(Paragraph((Span(node.content.strip()),), src(node)))
    return blocks


def _picture(inline, images, where: Source) -> Picture:
    others = [c for c in inline.children if c.type not in ("image", "softbreak") and not
              (c.type == "text" and not c.content.strip())]
    if len(images) != 1 or others:
        raise RulesError(where, "a picture stands alone in its paragraph",
                         "put {{ picture('id') }} on its own line with blank lines around it")
    image = images[0]
    target = str(image.attrs.get("src", ""))
    if target.startswith(EXAMPLE_SCHEME):   # worked out from the game when the chapter is read (_examples)
        return Picture(target, "".join(c.content for c in image.children if c.type == "text"), None, where)
    if not target.startswith(PICTURE_SCHEME):
        if not urlsplit(target).scheme and PurePosixPath(target).suffix.lower() in PICTURE_KINDS:
            # a picture file of the game (never a URL: nothing is fetched), read when it is drawn
            caption = "".join(c.content for c in image.children if c.type == "text")
            return Picture(target, caption, None, where, file=True)
        raise RulesError(where, f"picture '{target}' is not a component nor a PNG, JPEG or SVG file",
                         "rule sheets draw components themselves: write {{ picture('<component id>') }}; "
                         "or name a picture file of the game, e.g. ![A river](art/river.png)")
    component, faces = picture_target(target)
    if faces == -1:
        raise RulesError(where, f"picture '{target}': faces= is not a number", "write faces=4")
    caption = "".join(c.content for c in image.children if c.type == "text")
    return Picture(component, caption, faces, where)


def picture_target(target: str) -> tuple[str, int | None]:
    """``component:<id>?faces=N`` → (id, N or None); N is -1 when it is not a number."""
    parts = urlsplit(target[len(PICTURE_SCHEME):])
    faces = parse_qs(parts.query).get("faces", [None])[0]
    if faces is None:
        return parts.path, None
    return parts.path, int(faces) if faces.isascii() and faces.isdigit() else -1  # "²".isdigit() too


def _bounded_markdown(markdown: str, path: Path) -> None:
    """Refuse a rule sheet's Markdown (as rendered by Jinja) that is far beyond any rule sheet before markdown-it
    reads it: its parser and tree cost ~0.2 ms a token (a 200 × 2,000 table: 70 s; 20,000 list items: 10 s)."""
    for what, count, limit, name in (
            ("characters", len(markdown), limits.MAX_RULES_MARKDOWN, "MAX_RULES_MARKDOWN"),
            ("lines", markdown.count("\n") + 1, limits.MAX_RULES_LINES, "MAX_RULES_LINES"),
            ("'|' (table cells)", markdown.count("|"), 2 * limits.MAX_RULES_TABLE_CELLS, "MAX_RULES_TABLE_CELLS × 2"),
            ("marks of emphasis, code, links and escapes (* _ ` [ \\ &)", sum(map(markdown.count, "*_`[\\&")),
             limits.MAX_RULES_MARKS, "MAX_RULES_MARKS")):
        if count > limit:
            raise ContentError(Source(path), f"the rule sheet's Markdown has {count:,} {what}, more than {limit:,} "
                                             f"(limits.{name}), once its Jinja is run",
                               "a rule sheet is a few pages: split the text, or show the figures with the macros")


def _table(node, src, markup: Markup) -> Table:
    rows = [tr for part in node.children for tr in part.children]
    count = sum(len(tr.children) for tr in rows)
    if count > limits.MAX_RULES_TABLE_CELLS:   # each cell is measured and set: 400,000 took 70 s
        raise ContentError(src(node), f"a table of {count:,} cells, more than {limits.MAX_RULES_TABLE_CELLS:,} "
                                      f"(limits.MAX_RULES_TABLE_CELLS)", "split it, or keep the figures in the game's "
                                                                         "tables and show a part of them")
    cells = [[_spans(cell.children[0], src(node), markup) if cell.children else () for cell in tr.children] for tr in rows]
    align = []
    for cell in rows[0].children:
        style = str(cell.attrs.get("style", ""))
        align.append("right" if "right" in style else "center" if "center" in style else "left")
    width = len(align)
    body = [row + [()] * (width - len(row)) for row in cells[1:]]
    return Table(cells[0], body, align, src(node))


def _spans(inline, where: Source, markup: Markup = PLAIN) -> Spans:
    """Inline children → spans (``layout.richtext``): Markdown decides bold (``**``) and italic (``*``);
    colours ``[red]…[/]`` and icons ``:name:`` are read in the text between; a line break inside
    Japanese text joins without a space."""
    out: list[tuple[str, bool, bool]] = []

    def walk(node, bold, italic):
        for child in node.children:
            if child.type == "text":
                out.append((child.content, bold, italic))
            elif child.type in ("text_special", "code_inline"):  # an escape (\*, \:) or code: printed as written
                out.append((_escaped(child.content), bold, italic))
            elif child.type == "strong":
                walk(child, True, italic)
            elif child.type == "em":
                walk(child, bold, True)
            elif child.type in ("link", "s"):
                walk(child, bold, italic)
            elif child.type == "softbreak":
                out.append(("\u2028", bold, italic))  # decided below, once both neighbours are known
            elif child.type == "hardbreak":
                out.append(("\n", bold, italic))
            elif child.type == "image":
                raise RulesError(where, "a picture stands alone in its paragraph",
                                 "put {{ picture('id') }} on its own line with blank lines around it")

    walk(inline, False, False)
    segments = []
    for i, (text, bold, italic) in enumerate(out):
        if text == "\u2028":
            before = out[i - 1][0] if i else ""
            after = out[i + 1][0] if i + 1 < len(out) else ""
            text = "" if joins_tight(before, after) else " "
        segments.append((text, bold, italic))
    return richtext.parse_segments(segments, markup)


def inline_spans(tokens, where: Source, markup: Markup = PLAIN) -> Spans:
    """The spans of one run of inline tokens (a paragraph's, a cell's children, from ``markdown_parser``
    with ``text_join`` off), as the rule sheet reads them: the HTML page shows the same colours and icons."""
    from markdown_it.tree import SyntaxTreeNode
    return _spans(SyntaxTreeNode(tokens, create_root=True), where, markup)


def _escaped(text: str) -> str:
    """Text that must print as it is, with every character richtext could read as markup escaped."""
    return "".join("\\" + ch if ch in richtext.ESCAPABLE else ch for ch in text)


def joins_tight(before: str, after: str) -> bool:
    """A line break inside a paragraph joins without a space when the text on either side is
    Japanese (CJK, kana, full-width forms); between Latin words it is a space."""
    return any(ch and ord(ch) >= 0x2E80 for ch in (before[-1:], after[:1]))
