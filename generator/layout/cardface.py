"""Card faces from declarative layouts: YAML elements placed in mm.

A layout (``templates/layouts/<name>.yaml``, or the game folder's
``layouts/<name>.yaml``, which wins, as a theme is overridden in a static-site
generator) lists elements — rect, circle, line, polygon, text, icon, symbol, group —
whose values may be Jinja expressions over ``card``, ``deck``, ``back``,
``game`` and the geometry ``W``, ``H``, ``bleed``, ``safe``. A layout's
``vars:`` (name → expression, evaluated in order once per face, each seeing
the ones before) names a value several elements share, so it is written once.
Jinja runs sandboxed: content can read values, never call into Python.

The result of a face is a ``Form`` named by a hash of its drawing, so equal
faces (twelve red train cards) are stored and drawn once.
"""
from __future__ import annotations

import hashlib
import marshal
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from jinja2 import StrictUndefined, TemplateError, Undefined, meta, pass_context

from generator import TEMPLATES_DIR, limits
from generator.errors import BuildError, ContentError, Source, did_you_mean
from generator.fonts import PT_TO_MM, missing_glyphs
from generator.jinja_sandbox import BoundedSandbox
from generator.layout import expressions, images, richtext
from generator.layout import text as textfit
from generator.layout.expressions import compile_expression, compile_template, expression_of, forget_context, names_read
from generator.layout.icons import ICONS
from generator.layout.logo import logo
from generator.layout.primitives import Circle, Form, Group, Image, Line, Polygon, Rect
from generator.layout.symbols import SYMBOLS, placed
from generator.limits import MAX_EXTENDS
from generator.model.game import Color, Game
from generator.paths import game_roots, inside, is_inside, plain_name, resolved, special_kind
from generator.yamlsource import LDict, LList, load_yaml, read_text

TEMPLATE_DIR = TEMPLATES_DIR / "layouts"

#: element kind → the attributes it takes (the first group are required)
ELEMENTS = {
    "rect": (("x", "y", "w", "h"), ("fill", "stroke", "stroke_width", "radius")),
    "circle": (("cx", "cy", "r"), ("fill", "stroke", "stroke_width")),
    "line": (("x1", "y1", "x2", "y2"), ("stroke", "stroke_width", "dash")),
    "polygon": (("points",), ("fill", "stroke", "stroke_width", "closed")),
    "text": (("x", "y", "w", "h", "text"), ("size", "min_size", "align", "valign", "color", "bold", "italic", "leading",
                                           "max_lines", "font")),
    "icon": (("name", "x", "y", "size"), ("color", "accent", "text", "ink")),
    #: a colour's shape (generator.layout.symbols) centred on (x, y); an empty name draws nothing
    "symbol": (("name", "x", "y", "size"), ("color", "halo", "rotate")),
    "group": (("elements",), ("x", "y", "rotate")),
    "image": (("src", "x", "y", "w", "h"), ("fit", "crop", "opacity", "rotate")),
    #: the game's logo block (generator.layout.logo): its title and latin name in a badge ``w`` mm wide
    "logo": (("x", "y", "w"), ("h", "color", "accent", "ink")),
}
COMMON = ("when", "repeat", "step")
LAYOUT_KEYS = ("description", "extends", "background", "vars", "elements")
#: keys beside an element's kind that place it among the elements of the layout it extends
MERGE_KEYS = ("name", "remove", "before", "after")
#: what every face's expressions see already: a ``vars:`` name may not hide one
RESERVED = ("card", "deck", "back", "game", "geometry", "W", "H", "bleed", "safe", "palette", "n")

_env = BoundedSandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False)


@pass_context
def tint(context, color, amount: float) -> str:
    """``color`` (a palette name or '#rrggbb') mixed with white (``amount`` > 0) or black (< 0) by |amount| (0–1),
    as '#rrggbb': a back's motif a shade off its field, written in a layout as ``{{ back.color | tint(0.15) }}``."""
    palette = context.get("palette") or {}
    text = getattr(color, "hex", color)
    if isinstance(text, str) and text in palette:
        text = palette[text].hex
    if not (isinstance(text, str) and len(text) == 7 and text.startswith("#")):
        raise TemplateError(f"tint needs a colour like '#7c1f1f', got {text!r}")
    amount = max(-1.0, min(1.0, float(amount)))
    target = 255 if amount > 0 else 0
    channels = (int(text[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (target - c) * abs(amount)):02x}" for c in channels)


_env.filters["tint"] = tint
#: layout values holding an expression, compiled by their text and shared by every renderer of the process: the
#: bundled games repeat 228 distinct expressions, each compiled once, not once per deck and game (883 times). A
#: compiled expression depends on its text alone; ``_remember`` bounds the cache.
_COMPILED: dict[str, _Compiled] = {}
MAX_COMPILED = 4096


def _remember(cache: dict, key: str, value):
    if len(cache) >= MAX_COMPILED:   # a long-running process (pnpgen serve) reading ever new layouts
        cache.clear()
    cache[key] = value
    return value


#: the parse trees of the bundled layouts' expressions (templates/layouts/*.yaml, and ``background:``'s), written by
#: tools/expression_trees.py: read back (``expressions.tree_from``) instead of lexed and parsed, 81 texts and ~0.7 M
#: instructions each at a ticket game's first face. Keyed by the exact text; a text not in it (a designer's own
#: expression, a bundled one edited without running the tool again) is parsed by ``_env`` as ever
TREES_FILE = Path(__file__).with_name("expression_trees.marshal")
_KEPT: list[dict[str, tuple]] = []
#: trees a layout's ``vars:`` were parsed into to learn what they read (``_names``), taken by ``_compile``, which
#: would parse them again
_PARSED: dict[str, Any] = {}


def bundled_expressions() -> list[str]:
    """Every text with ``{{`` in the bundled layouts (any value of their YAML) and the ones ``background:`` stands
    for: what ``TREES_FILE`` keeps."""
    texts = set(_BACKGROUND_EXPRESSIONS)
    stack: list = [load_yaml(path) for path in sorted(TEMPLATE_DIR.glob("*.yaml"))]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and "{{" in value:
            texts.add(value)
    return sorted(texts)


#: the bundled layout files as ``load_yaml`` reads them, kept by tools/layout_snapshots.py: a ticket game's three
#: layouts cost ~23 M instructions of YAML parsing at the first face. Keyed by the file's exact text (read as
#: ``load_yaml`` reads it, with its limits): a designer's own layout, or a bundled one edited, is parsed as ever
FILES_FILE = Path(__file__).with_name("layout_files.marshal")
#: the format of ``FILES_FILE`` (another is not read)
FILES_FORMAT = 1
_KEPT_FILES: list[dict[str, tuple]] = []


def _file_settings() -> tuple:
    """What ``load_yaml`` gives for a text depends on besides the text: the format kept, PyYAML and its parser."""
    return (FILES_FORMAT, yaml.__version__, bool(yaml.__with_libyaml__), limits.MAX_WHOLE_NUMBER)


def file_data(value, seen: set | None = None):
    """What ``load_yaml`` read (an ``LDict``, ``LList`` or plain value) as plain data to keep: a mapping
    ("map", its line, ((key, the key's line, value), …)), a sequence ("seq", its line, ((the item's line, item), …)).
    ValueError for anything :func:`file_from` could not make again exactly (a value read twice through an alias,
    a date, a key without its line)."""
    seen = set() if seen is None else seen
    kind = type(value)
    if kind is LDict or kind is LList:
        if id(value) in seen:
            raise ValueError("a value read twice (a YAML alias) is not kept")
        seen.add(id(value))
    if kind is LDict:
        if list(value.key_lines) != list(value) or set(vars(value)) != {"file", "line", "key_lines"}:
            raise ValueError("a mapping's keys and their lines differ")
        return ("map", value.line, tuple((key, value.key_lines[key], file_data(item, seen))
                                         for key, item in value.items()))
    if kind is LList:
        if len(value.item_lines) != len(value) or set(vars(value)) != {"file", "line", "item_lines"}:
            raise ValueError("a sequence's items and their lines differ")
        return ("seq", value.line, tuple((line, file_data(item, seen)) for line, item in zip(value.item_lines, value)))
    if kind not in _FILE_SCALARS:
        raise ValueError(f"a value of kind {kind.__name__} is not kept")
    return value


_FILE_SCALARS = frozenset({str, int, float, bool, type(None)})


def file_from(data, path: Path):
    """The ``LDict`` (``LList``, value) :func:`file_data` kept, made again as ``load_yaml(path)`` makes it: each
    mapping and sequence knows ``path``, its line and its keys' or items' lines. Makes only those and plain values."""
    kind = type(data)
    if kind is not tuple:
        if kind not in _FILE_SCALARS:
            raise ValueError(f"a kept value of kind {kind.__name__}")
        return data
    tag, line, items = data
    if type(line) is not int:
        raise ValueError("a kept line that is not a number")
    if tag == "map":
        mapping = LDict()
        key_lines: dict = {}
        mapping.file, mapping.line, mapping.key_lines = path, line, key_lines
        for key, key_line, value in items:
            if type(key) not in _FILE_SCALARS or key is None or type(key_line) is not int:
                raise ValueError(f"a kept key {key!r}")
            key_lines[key] = key_line
            mapping[key] = file_from(value, path)
        return mapping
    if tag == "seq":
        sequence = LList(file_from(value, path) for _line, value in items)
        sequence.file, sequence.line = path, line
        sequence.item_lines = [item_line for item_line, _value in items]
        if any(type(item_line) is not int for item_line in sequence.item_lines):
            raise ValueError("a kept item line that is not a number")
        return sequence
    raise ValueError(f"a kept value tagged {tag!r}")


def files_snapshot(paths) -> dict:
    """What ``FILES_FILE`` holds for the layout files ``paths``: their texts, each with ``file_data`` of what
    ``load_yaml`` reads from it, and ``_file_settings``."""
    files = {}
    for path in paths:
        try:
            files[read_text(path)] = file_data(load_yaml(path))
        except (ContentError, ValueError):
            continue
    return {"settings": _file_settings(), "files": dict(sorted(files.items()))}


def _kept_files() -> dict[str, tuple]:
    if not _KEPT_FILES:
        files: dict = {}
        try:
            saved = marshal.loads(FILES_FILE.read_bytes())
            if isinstance(saved, dict) and saved.get("settings") == _file_settings() \
                    and isinstance(saved.get("files"), dict):
                files = saved["files"]
        except (OSError, ValueError, EOFError, TypeError):
            pass
        _KEPT_FILES.append(files)
    return _KEPT_FILES[0]


def _load_layout_file(path: Path):
    """``load_yaml(path)``: what is kept for the file's text (``FILES_FILE``), made again, or the file read."""
    kept = _kept_files().get(read_text(path))   # read as ``load_yaml`` reads it: its limits, its errors
    if kept is not None:
        try:
            return file_from(kept, path)
        except (ValueError, TypeError, LookupError):   # a file not written by the tool: read instead
            pass
    return load_yaml(path)


def _parse(text: str):
    """``_env.parse(text)``: the tree kept for it (``TREES_FILE``), made again, or parsed (which raises
    ``TemplateSyntaxError`` for what is not valid Jinja, as it always did)."""
    if not _KEPT:
        try:
            _KEPT.append(expressions.kept_trees(_env, TREES_FILE.read_bytes()))
        except OSError:
            _KEPT.append({})
    data = _KEPT[0].get(text)
    if data is not None:
        try:
            return expressions.tree_from(data, _env)
        except (LookupError, ValueError, TypeError):   # a file not written by the tool: parsed instead
            pass
    return _env.parse(text)


class _Compiled:
    """One layout value with ``{{ }}`` in it: the names it reads, and how to evaluate it.

    A value that is one ``{{ expression }}`` gives the expression's value (a number stays a number);
    anything else renders to text. Both run as closures (``layout.expressions``) where they can; Jinja's
    own compiled form is made only for what those leave to it, or when a closure fails: Jinja then says
    what is wrong, in its own words."""

    __slots__ = ("text", "reads", "_fast", "_slow", "_expression")

    def __init__(self, text: str, reads: frozenset, template=None):
        self.text, self.reads = text, reads
        stripped = text.strip()
        self._expression = (stripped[2:-2].strip() if stripped.startswith("{{") and stripped.endswith("}}")
                            and stripped.count("{{") == 1 else None)
        if self._expression is not None:
            parsed = expression_of(text, template) if template is not None else None
            self._fast = compile_expression(_env, self._expression, parsed)
        else:
            self._fast = compile_template(_env, text, template)
        self._slow: Any = None

    def run(self, scope: dict):
        _env.start()
        if self._fast is not None:
            try:
                return self._fast(scope)
            except Exception:   # noqa: BLE001 - Jinja evaluates it again: its value, or its own error
                _env.start()
        return self._jinja(scope)

    def _jinja(self, scope: dict):
        if self._slow is None:
            self._slow = (_env.compile_expression(self._expression, undefined_to_none=False)
                          if self._expression is not None else _env.from_string(self.text))
        if self._expression is not None:
            return self._slow(**scope)
        return _env.render(self._slow, scope)


@dataclass
class Layout:
    name: str
    file: Path
    elements: LList
    variables: LDict | None = None   # ``vars:``, in file order
    #: the names (``card`` and the vars that read it, directly or through another var) whose value
    #: differs from card to card of a deck; an expression reading none of them is evaluated once per deck
    per_card: frozenset = frozenset({"card"})
    #: the names whose value is the same on every face a renderer draws with it (the game's, and the vars that read
    #: nothing else): an element reading no others draws the same for every deck (a ticket's mini-map of the board)
    per_game: frozenset = frozenset({"game", "palette"})


#: what a face's expressions see that is the same on every face of a game (``FaceRenderer.face``'s scope)
GAME_NAMES = frozenset({"game", "palette"})


def find_layout(name: str, game: Game, src: Source) -> Layout:
    """The layout ``name`` from the game's layouts/ (which wins) or templates/layouts/. The name is a
    plain file name and the file, links followed, must be the game's or pnpgen's: a shared game
    folder cannot make pnpgen read a file elsewhere (``generator.paths``). A layout that
    ``extends:`` another is merged onto it here (``merge_layouts``)."""
    path = _locate(name, game, src)
    parts = merge_layouts(path, game, (path.resolve(),))
    variables = parts.variables if parts.variables else None
    if variables is None:
        return Layout(Path(path).stem, path, parts.elements, variables)
    per_card, per_game = _validate_vars(variables, variables.src())
    return Layout(Path(path).stem, path, parts.elements, variables, per_card, per_game)


def _locate(name, game: Game, src: Source, skip: Path | None = None) -> Path:
    """The file of layout ``name``: the game's layouts/ first, then templates/layouts/ (``skip``, the
    layout that extends ``name``, is passed over: a game's layouts/ttr-back.yaml that says
    ``extends: ttr-back`` extends pnpgen's ttr-back, the one it overrides)."""
    name = plain_name(name, src, "layout name", "name a layout by its file name without .yaml (e.g. ttr-ticket); "
                                                "it is looked up in the game's layouts/, then templates/layouts/")
    roots = game_roots(game)
    for folder in (game.folder / "layouts", TEMPLATE_DIR):
        path = folder / f"{name}.yaml"
        if (path.is_file() or special_kind(path)) and not (skip is not None and path.resolve() == skip):
            inside(path, roots, src, f"{folder.name}/{name}.yaml")
            return path
    known = sorted({p.stem for folder in (game.folder / "layouts", TEMPLATE_DIR) if folder.is_dir()
                    and is_inside(resolved(folder, src), roots) for p in folder.glob("*.yaml")
                    if skip is None or p.resolve() != skip})
    raise ContentError(src, f"no layout named '{name}'",
                       did_you_mean(name, known) or f"add layouts/{name}.yaml to the game, or use one of: {', '.join(known)}")


# ------------------------------------------------------------------ extends: merging layouts
class _SourcedDict(LDict):
    """A layout's ``vars:`` merged from several files: each name keeps the line it was written on."""

    sources: dict[str, Source]
    origin: Source

    def src(self, key=None) -> Source:
        return self.sources.get(key, self.origin) if key is not None else self.origin


class _SourcedList(LList):
    """A layout's ``elements:`` merged from several files: each element keeps the line it was written on."""

    sources: list[Source]
    origin: Source

    def src(self, index=None) -> Source:
        return self.sources[index] if index is not None and 0 <= index < len(self.sources) else self.origin


def _sourced_dict(items: list, origin: Source) -> _SourcedDict:
    result = _SourcedDict((key, value) for key, value, _src in items)
    result.file, result.line, result.key_lines = origin.file, origin.line, {}
    result.sources, result.origin = {key: where for key, _value, where in items}, origin
    return result


def _sourced_list(items: list, origin: Source) -> _SourcedList:
    result = _SourcedList(element for element, _src in items)
    result.file, result.line, result.item_lines = origin.file, origin.line, []
    result.sources, result.origin = [where for _element, where in items], origin
    return result


@dataclass
class MergedLayout:
    """What ``merge_layouts`` gives: the elements and vars of a layout and every layout it extends."""

    elements: _SourcedList
    variables: _SourcedDict


def merge_layouts(path: Path, game: Game, chain: tuple) -> MergedLayout:
    """Read the layout at ``path`` and, if it says ``extends: <name>``, merge it onto that layout
    (found as any layout is, ``_locate``; merged first, recursively): an element whose ``name:``
    matches one of the parent's replaces it in place (``remove: true`` removes it), other elements
    are appended (or placed with ``before:``/``after:`` a named one); ``vars:`` merge by name, the
    parent's first, the child's value winning. ``chain`` holds the files being merged (a cycle is
    an error at the ``extends:`` line that closes it)."""
    data = _read_layout(path)
    origin = Source(path, 1)
    if "extends" in data:
        where = data.src("extends")
        try:
            parent_path = _locate(data["extends"], game, where, skip=Path(path).resolve())
        except ContentError:
            if str(data["extends"]) != Path(path).stem:
                raise
            raise ContentError(where, f"layout '{path.stem}' extends itself", "a layout extends another one; only a "
                               "game's layouts/<name>.yaml may extend templates/layouts/<name>.yaml, and there is "
                               f"no templates/layouts/{path.stem}.yaml") from None
        real = parent_path.resolve()
        if real in chain:
            names = " → ".join(p.stem for p in (*chain, real))
            raise ContentError(where, f"layouts extend each other in a circle: {names}",
                               "one of them must draw its own elements instead of extending the other")
        if len(chain) >= MAX_EXTENDS:
            raise ContentError(where, f"layout '{path.stem}' extends a chain of more than {MAX_EXTENDS} layouts "
                                      "(limits.MAX_EXTENDS)",
                               "extend a layout that draws its own elements; a chain this long is a mistake")
        parent = merge_layouts(parent_path, game, (*chain, real))
        elements = list(zip(parent.elements, parent.elements.sources))
        variables = [(k, v, parent.variables.src(k)) for k, v in parent.variables.items()]
    else:
        elements, variables = [], []
    own = data.get("vars")
    if own is not None:
        if not isinstance(own, LDict):
            raise ContentError(data.src("vars"), "`vars:` of a layout is a mapping of name: expression",
                               'write e.g. `vars: {scale: "{{ W / 63 }}"}`')
        index = {key: i for i, (key, _v, _s) in enumerate(variables)}
        for key, value in own.items():
            if key in index:
                variables[index[key]] = (key, value, own.src(key))
            else:
                variables.append((key, value, own.src(key)))
    own_elements = [(e, data["elements"].src(i)) for i, e in enumerate(data.get("elements", []))]
    if "background" in data:
        own_elements.insert(0, (_background(data), data.src("background")))
    _merge_elements(elements, own_elements, "extends" in data)
    return MergedLayout(_sourced_list(elements, origin), _sourced_dict(variables, data.src("vars")))


def _read_layout(path: Path) -> LDict:
    """One layout file, its keys and elements checked (before any merging)."""
    data = _load_layout_file(path)
    if not isinstance(data, LDict) or not (isinstance(data.get("elements"), list)
                                          or ("extends" in data and "elements" not in data)):
        raise ContentError(Source(path, 1), "a layout needs `elements:`, a list of elements",
                           "see templates/layouts/ for examples")
    for key in data:
        if key not in LAYOUT_KEYS:
            raise ContentError(data.src(key), f"unknown key '{key}' in layout",
                               did_you_mean(key, LAYOUT_KEYS) or "a layout has " + ", ".join(f"{k}:" for k in LAYOUT_KEYS))
    if "elements" in data:
        _validate(data["elements"], top=True, extends="extends" in data)
        if "background" in data:
            for element in data["elements"]:
                if element.get("name") == "background":
                    raise ContentError(element.src("name"), "an element is named 'background', but the layout's "
                                                            f"`background:` (line {data.src('background').line}) "
                                                            "draws the element of that name",
                                       "rename the element, or remove `background:` and draw the background yourself")
    return data


def _background(data: LDict) -> LDict:
    """``background: <colour>``: the element it stands for, a full-bleed rect drawn first, named
    ``background`` (so a layout that extends this one may replace or remove it by name);
    ``background: art/x.png`` (a picture file's name): a full-bleed picture, ``fit: fill``."""
    where = data.src("background")

    def mapping(**items) -> LDict:
        result = LDict(items)
        result.file, result.line, result.key_lines = where.file, where.line, {key: where.line for key in items}
        return result

    value = data["background"]
    x, y, w, h = _BACKGROUND_EXPRESSIONS
    if isinstance(value, str) and value.strip().lower().endswith(tuple(images.KINDS)):
        # a picture file (it may be an expression: art/{{ card.id }}.png), covering the card into the bleed
        picture = mapping(src=value, x=x, y=y, w=w, h=h, fit="fill")
        return mapping(name="background", image=picture)
    rect = mapping(x=x, y=y, w=w, h=h, fill=value)
    return mapping(name="background", rect=rect)


#: the box of ``background:``: x, y, w, h, the card and its bleed
_BACKGROUND_EXPRESSIONS = ("{{ -bleed }}", "{{ -bleed }}", "{{ W + 2*bleed }}", "{{ H + 2*bleed }}")


def _merge_elements(merged: list, own: list, extends: bool) -> None:
    """Merge a layout's own elements (element, source) onto its parent's, in place (see ``merge_layouts``)."""
    def position(name):
        return next((i for i, (e, _s) in enumerate(merged) if e.get("name") == name), None)

    parent_names = [e["name"] for e, _s in merged if "name" in e]
    for element, where in own:
        name = element.get("name")
        at = position(name) if name is not None and name in parent_names else None
        if element.get("remove"):
            if at is None:
                raise ContentError(element.src("remove"), f"remove: the layout this one extends has no element named '{name}'",
                                   did_you_mean(name, parent_names) or "name one of its elements: " + (", ".join(
                                       str(n) for n in parent_names) or "it names none (give its elements a name:)"))
            del merged[at]
            continue
        if at is not None:
            for key in ("before", "after"):
                if key in element:
                    raise ContentError(element.src(key), f"element '{name}' replaces the parent's element of that name "
                                                         f"in place, so it takes no {key}:",
                                       f"remove {key}:, or give the element a new name to add it {key} another")
            merged[at] = (element, where)
            continue
        anchor_key = "before" if "before" in element else "after" if "after" in element else None
        if anchor_key is None:
            merged.append((element, where))
            continue
        anchor = element[anchor_key]
        j = position(anchor)
        if j is None:
            names = [e["name"] for e, _s in merged if "name" in e]
            raise ContentError(element.src(anchor_key), f"{anchor_key}: no element named '{anchor}' to place this one "
                                                        f"{anchor_key}",
                               did_you_mean(anchor, names) or "name one of: " + (", ".join(str(n) for n in names) or "(none)"))
        merged.insert(j if anchor_key == "before" else j + 1, (element, where))


def _names(expression) -> set[str]:
    """The names a layout value reads (none for a plain number or word)."""
    if isinstance(expression, list):
        return set().union(*(_names(v) for v in expression)) if expression else set()
    if not (isinstance(expression, str) and "{{" in expression):
        return set()
    compiled = _COMPILED.get(expression)
    if compiled is not None:
        return set(compiled.reads)
    template = _parse(expression)
    names = set(reads_of(template))
    _remember(_PARSED, expression, template)   # for ``_compile``, after a read of what it holds (it may raise)
    return names


def reads_of(template) -> frozenset[str]:
    """The names a parsed layout value reads: ``jinja2.meta.find_undeclared_variables``'s answer, found by walking the
    tree (``expressions.names_read``; Jinja's code generator, which meta runs, costs a millisecond an expression);
    meta itself for what the walk leaves to it (a ``{% %}`` statement, an unknown filter: its error)."""
    names = names_read(_env, template)
    return names if names is not None else frozenset(meta.find_undeclared_variables(template))


def _validate_vars(variables, src: Source) -> tuple[frozenset, frozenset]:
    """Check ``vars:`` (names, valid Jinja, only earlier vars read); returns the per-card names and the per-game ones
    (``Layout.per_game``)."""
    if not isinstance(variables, LDict):
        raise ContentError(src, "`vars:` of a layout is a mapping of name: expression",
                           'write e.g. `vars: {scale: "{{ W / 63 }}"}`')
    per_card = {"card"}
    per_game = set(GAME_NAMES)
    defined: list[str] = []
    for name, expression in variables.items():
        where = variables.src(name)
        if not (isinstance(name, str) and name.isidentifier()):
            raise ContentError(where, f"layout var {name!r} is not a name", "use letters, digits and _ (e.g. scale)")
        if name in RESERVED:
            raise ContentError(where, f"layout var '{name}' would hide the face's own '{name}'",
                               "pick another name; taken: " + ", ".join(RESERVED))
        try:
            reads = _names(expression)
        except TemplateError as exc:
            raise ContentError(where, f"layout var '{name}' is not valid Jinja: {exc}", "fix the expression") from None
        later = sorted(v for v in reads if v in variables and v not in defined)
        if later:
            raise ContentError(where, f"layout var '{name}' reads '{later[0]}', which is defined after it (or is itself)",
                               "vars are evaluated in order: move it below the ones it reads")
        if reads & per_card:
            per_card.add(name)
        if reads <= per_game:
            per_game.add(name)
        defined.append(name)
    return frozenset(per_card), frozenset(per_game)


def _validate(elements: LList, top: bool = False, extends: bool = False) -> None:
    """Check a list of elements; ``top``: a layout's own list, whose elements may carry a ``name:``
    (unique) and, in a layout that ``extends:`` another, ``remove:``/``before:``/``after:``."""
    names: dict = {}
    for i, element in enumerate(elements):
        src = elements.src(i)
        if top and isinstance(element, LDict):
            _validate_merge_keys(element, src, names, extends)
            if element.get("remove") is True:
                continue
        kinds = [k for k in element if k in ELEMENTS] if isinstance(element, LDict) else []
        if len(kinds) != 1:
            raise ContentError(src, "each element is one of: " + ", ".join(ELEMENTS) + " (plus when/repeat/step)",
                               "write e.g. `- rect: {x: 0, y: 0, w: 10, h: 10}`")
        kind = kinds[0]
        allowed = COMMON + MERGE_KEYS if top else COMMON
        for key in element:
            if key != kind and key not in allowed:
                hint = did_you_mean(key, allowed) or "allowed: " + ", ".join(allowed)
                if key in MERGE_KEYS:
                    hint = "only a layout's own elements are named and placed, not those inside a group"
                raise ContentError(element.src(key), f"unknown key '{key}' beside {kind}", hint)
        attrs = element[kind]
        if not isinstance(attrs, LDict):
            raise ContentError(src, f"{kind} needs a mapping of attributes", "write e.g. {x: 0, y: 0}")
        required, optional = ELEMENTS[kind]
        for key in attrs:
            if key not in required and key not in optional:
                raise ContentError(attrs.src(key), f"unknown attribute '{key}' of {kind}",
                                   did_you_mean(key, required + optional) or "allowed: " + ", ".join(required + optional))
        for key in required:
            if key not in attrs:
                raise ContentError(src, f"{kind} needs '{key}'", f"add {key}: …")
        if kind == "group":
            if not isinstance(attrs["elements"], LList):
                raise ContentError(attrs.src("elements"), "a group's `elements:` is a list of elements",
                                   "write e.g. `elements: [{rect: {x: 0, y: 0, w: 10, h: 10}}]`")
            _validate(attrs["elements"])


def _validate_merge_keys(element: LDict, src: Source, names: dict, extends: bool) -> None:
    """``name:`` (a plain word, once per layout), ``remove: true``, ``before:``/``after:`` of one top-level element."""
    if "name" in element:
        name = element["name"]
        where = element.src("name")
        if not (isinstance(name, str) and name and not name.startswith("{{")):
            raise ContentError(where, f"element name {name!r} is not a word", "write e.g. `name: title`")
        if name in names:
            raise ContentError(where, f"two elements of this layout are named '{name}' (first at line {names[name].line})",
                               "give each element its own name: a layout that extends this one replaces elements by name")
        names[name] = where
    placing = [key for key in ("remove", "before", "after") if key in element]
    if placing and not extends:
        raise ContentError(element.src(placing[0]), f"{placing[0]}: places an element among those of the layout "
                                                    "this one extends, but this layout has no `extends:`",
                           "add `extends: <layout>`, or remove the key")
    if "remove" in element:
        if element["remove"] is not True:
            raise ContentError(element.src("remove"), f"remove: {element['remove']!r}: write `remove: true`",
                               "or leave out remove: to keep (or replace) the element")
        extra = [key for key in element if key not in ("name", "remove")]
        if "name" not in element or extra:
            raise ContentError(src, "an element with remove: true names the parent's element to remove and "
                                    "nothing else" + (f" (not {extra[0]}:)" if extra else ""),
                               "write `- {name: <element>, remove: true}`")
    if "before" in element and "after" in element:
        raise ContentError(element.src("after"), "an element is placed before: one element or after: another, not both",
                           "keep one of them")


class _Plan:
    """What one layout draws the same on every card of one deck (and back, and size): the values of expressions
    that read nothing per card, by (text, repeat index), and the primitives of elements that read nothing per
    card, by element, with the count of what they drew (``_count`` bounds a face's work all the same)."""

    __slots__ = ("layout", "values", "drawn")

    def __init__(self, layout: Layout):
        self.layout = layout
        self.values: dict[tuple, Any] = {}
        self.drawn: dict[Any, Any] = {}   # element (and its per-card values) → (primitives, count, repr)


#: drawn elements kept per deck and layout: an element whose values differ on every card (a serial number) would
#: otherwise keep a copy of each card's drawing for the whole build (100,000 cards: hundreds of MiB); past this many,
#: new ones are drawn and not kept (a ticket's city names and points are met, and kept, long before)
MAX_KEPT = 2_000
#: values a drawn element may be kept by (type and value: 1, 1.0 and True print differently)
_SCALARS = frozenset({str, int, float, bool, type(None)})
_UNKEPT = object()
#: a ``_steps`` constant that reads nothing per deck either (``Layout.per_game``): 2, true as ``True`` is
_PER_GAME = 2


def _primitives(items) -> int:
    """How many primitives ``items`` holds, a group's counted with its own."""
    return sum(_primitives(item.items) + 1 if type(item) is Group else 1 for item in items)


def _values(element, kind: str = ""):
    """(element kind, text) of every expression in a layout element, its group's elements included."""
    if isinstance(element, dict):
        for key, value in element.items():
            yield from _values(value, key if key in ELEMENTS else kind)
            if key == "image":
                yield key, ""
    elif isinstance(element, list):
        for value in element:
            yield from _values(value, kind)
    elif isinstance(element, str) and "{{" in element:
        yield kind, element


class FaceRenderer:
    """Evaluates layouts for cards; one per game so compiled expressions are shared."""

    def __init__(self, game: Game, on_print_problem=None):
        """``on_print_problem(kind, error)``, if given, receives text that overflows its box
        (kind "overflow") and glyphs the font lacks ("glyph") instead of an exception: the
        checker collects them all, ``build --force`` draws such text anyway; without it the
        first one stops the build. The checker draws every face whole, as the build does."""
        self.game = game
        _env.root = game.folder   # a path a layout reads is shown relative to the game (jinja_sandbox.shown_path)
        self.on_print_problem = on_print_problem
        self._layouts: dict[str, Layout] = {}
        self._compiled = _COMPILED   # compiled expressions and templates, by their text: one cache per process
        #: per (layout, deck, back, size): what is the same on every card of a deck (``_Plan``)
        self._plans: dict[tuple, _Plan] = {}
        self._plan: _Plan | None = None        # the plan of the face being drawn
        self._drawing: Layout | None = None    # the layout of the face being drawn
        self._drawn = 0                        # element copies and primitives of the face being drawn
        self._work = 0                         # Jinja work of the face being drawn (MAX_FACE_JINJA_WORK)
        #: primitives drawn anew for the face last drawn (not found among what earlier faces drew): what it holds
        #: of its own as an object (``layout.faces.face_bytes``)
        self.fresh = 0
        self._problems = 0                     # print problems reported so far (an element that has one is redrawn)
        self._markup: richtext.Markup | None = None   # the colours and icons the game's text may name
        self._constant: dict[tuple, Any] = {}  # (layout, element) → ``_is_constant`` (and → ``_inputs``)
        self._element_steps: dict[tuple, tuple] = {}   # (layout, list of elements) → ``_steps``
        #: (layout, element, game) → what ``_Plan.drawn`` keeps of an element that reads nothing per deck either
        #: (``_PER_GAME``): drawn once for every deck that uses the layout (the layouts stay alive in ``_layouts``)
        self._per_game: dict[tuple, Any] = {}
        self._given: dict[str, Any] | None = None   # per-card values worked out before their element is drawn
        self._reprs: list[str] | None = None          # the repr of each element of the face being drawn

    def layout(self, name: str, src: Source) -> Layout:
        if name not in self._layouts:
            self._layouts[name] = find_layout(name, self.game, src)
        return self._layouts[name]

    def face(self, layout_name: str, context: dict, what: str, src: Source, prefix: str,
             layout_src: Source | None = None) -> Form:
        """Draw one face; ``what`` names it in errors, ``src`` is the card's content line."""
        layout = self.layout(layout_name, layout_src or src)
        geometry = context["geometry"]
        scope = dict(context, W=geometry.width, H=geometry.height, bleed=geometry.bleed, safe=geometry.safe,
                     palette=self.game.palette)
        # geometry and deck values are the same on every card of a deck: the layout is part of the key, as its
        # vars give the same expression another meaning
        key = (id(layout), id(scope.get("deck")), id(scope.get("back")), geometry.width, geometry.height,
               geometry.bleed, geometry.safe)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = _Plan(layout)
        self._plan = plan
        self._drawing = layout
        self._drawn = 0
        self._work = 0
        self.fresh = 0
        # the name is a digest of repr(items), put together from each element's repr (kept with what an element
        # draws the same on many cards), as repr of a tuple writes it
        reprs: list[str] = []
        self._reprs = reprs
        try:
            if layout.variables:
                for name, expression in layout.variables.items():
                    scope[name] = self._eval(expression, scope, layout.variables.src(name), what)
            items = tuple(self._elements(layout, layout.elements, scope, what, src, top=True))
        finally:
            self._reprs = None
            forget_context()
        text = "(" + ", ".join(filter(None, reprs)) + ("," if len(items) == 1 else "") + ")"
        digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]
        b = geometry.bleed
        return Form(f"{prefix}-{digest}", items, (-b, -b, geometry.width + 2 * b, geometry.height + 2 * b))

    # ------------------------------------------------------------------ evaluation
    def _compile(self, value: str, where: Source) -> _Compiled:
        compiled = self._compiled.get(value)
        if compiled is None:
            try:
                template = _PARSED.pop(value, None)
                if template is None:
                    template = _parse(value)
                reads = reads_of(template)
            except TemplateError as exc:
                raise BuildError(where, f"layout expression {value!r} is not valid Jinja: {exc}",
                                 "fix the expression in the layout") from None
            compiled = _remember(self._compiled, value, _Compiled(value, reads, template))
        return compiled

    def _eval(self, value, scope, where: Source, what: str):
        if isinstance(value, str) and "{{" in value:
            given = self._given
            if given is not None and value in given:
                return given[value]
            compiled = self._compiled.get(value) or self._compile(value, where)
            plan = self._plan
            assert plan is not None, "expressions are evaluated while a face is drawn"
            if compiled.reads.isdisjoint(plan.layout.per_card):
                # the same on every card of the deck: evaluated once per deck (and per repeat index n: a
                # mini-map's n-th route is the same on every ticket)
                key = (value, scope.get("n"))
                memo = plan.values
                if key in memo:
                    return memo[key]
                result = memo[key] = self._run(compiled, scope, where, what)
                return result
            return self._run(compiled, scope, where, what)
        if isinstance(value, list):
            return [self._eval(v, scope, where, what) for v in value]
        return value

    def _run(self, compiled: _Compiled, scope, where: Source, what: str):
        value = compiled.text
        try:
            result = compiled.run(scope)
            self._work += _env.iterations   # what this evaluation did (counted from zero by ``run``), for the face
            if self._work > limits.MAX_FACE_JINJA_WORK:
                raise BuildError(where, f"the expressions of {what} did more than {limits.MAX_FACE_JINJA_WORK:,} turns "
                                        f"of work on one face (MAX_FACE_JINJA_WORK; {value!r} the last)",
                                 "simplify the expressions, or lower a repeat: each copy evaluates them again")
            if isinstance(result, Undefined):
                result._fail_with_undefined_error()  # raises UndefinedError, a TemplateError
            return result
        except (TemplateError, ArithmeticError, TypeError, ValueError, LookupError, NameError) as exc:
            # the sandbox stops calls into Python, not a division by zero or 'a' + 1: those are the content's too
            # (NameError: Jinja compiles the literal 1e999 to the Python name inf)
            raise BuildError(where, f"layout expression {value!r} failed for {what}: {exc}",
                             "fix the expression in the layout, or give the card the value it reads") from None
        except RecursionError:
            raise BuildError(where, f"layout expression {value!r} failed for {what}: it recurses without end",
                             "fix the expression in the layout (a macro or loop that calls itself)") from None
        except MemoryError:
            raise BuildError(where, f"layout expression {value!r} failed for {what}: it needs more memory than there is",
                             "fix the expression in the layout: it makes a value far larger than a card needs") from None

    def _is_constant(self, layout: Layout, element) -> bool | int:
        """Whether ``element`` (all its values, and its group's elements) reads nothing that differs from card
        to card: then it draws the same on every card of a deck, and is drawn once per deck (``_Plan``);
        ``_PER_GAME`` (true) when it reads nothing that differs from deck to deck either (``Layout.per_game``, and
        its own copies' ``n``): drawn once for the game. A picture is drawn per card all the same: each face records
        its use (``images.record_use``)."""
        key = (id(layout), id(element))
        known = self._constant.get(key)
        if known is None:
            per_card, per_game = layout.per_card, layout.per_game | {"n"}
            known = _PER_GAME
            try:
                for kind, text in _values(element):
                    if kind == "image":
                        known = False
                        break
                    reads = self._compile(text, layout.elements.src()).reads
                    if not reads.isdisjoint(per_card):
                        known = False
                        break
                    if known == _PER_GAME and not reads <= per_game:
                        known = True
            except BuildError:   # not valid Jinja: drawn as usual, which says so at the element's own line
                known = False
            self._constant[key] = known
        return known

    def _num(self, value, scope, where, what, name) -> float:
        result = self._eval(value, scope, where, what)
        try:
            number = float(result)
        except (TypeError, ValueError):
            number = math.nan
        if not math.isfinite(number):   # infinity or NaN cannot be drawn (ReportLab refuses them)
            raise BuildError(where, f"'{name}' should be a number for {what}, got {result!r}",
                             "give a number in mm (an expression must give a number)")
        if abs(number) > limits.MAX_LAYOUT_NUMBER:   # 1e308 mm is finite, but not once scaled to points or turned
            raise BuildError(where, f"'{name}' is {number:g} for {what}, beyond ±{limits.MAX_LAYOUT_NUMBER:,g} "
                                    f"(limits.MAX_LAYOUT_NUMBER)", "give a number in mm, pt or degrees a page can hold")
        return number

    def _list(self, a, key, scope, where, what) -> list:
        """An attribute that must give a list (a polygon's points, a line's dash, a repeat's step); absent = empty."""
        result = self._eval(a.get(key, []), scope, where, what)
        if not isinstance(result, (list, tuple)):
            hint = {"dash": "write e.g. [2, 1]", "step": "write e.g. [0, 5]"}.get(key, "write e.g. [[0, 0], [10, 0], [5, 8]]")
            raise BuildError(where, f"'{key}' should be a list for {what}, got {result!r}", hint)
        return list(result)

    def _color(self, value, scope, where, what):
        result = self._eval(value, scope, where, what)
        if result is None or result == "none":
            return None
        if isinstance(result, Color):
            return result.hex
        text = str(result).strip()
        if text.startswith("#") and len(text) == 7:
            return text.lower()
        if text in self.game.palette:
            return self.game.palette[text].hex
        raise BuildError(where, f"unknown colour '{text}' for {what}",
                         did_you_mean(text, self.game.palette) or "use '#rrggbb' or a palette name")

    def _elements(self, layout: Layout, elements: LList, scope: dict, what: str, card_src: Source,
                  top: bool = False) -> list:
        """The primitives of ``elements``; ``top`` (a layout's own list): each element's repr is added to the face's
        (``_reprs``), for its name. A list, each element's primitives added to it (not a generator: a ticket's
        mini-map passes a hundred primitives up through each level of generators)."""
        plan = self._plan
        assert plan is not None, "elements are drawn while a face is drawn"
        reprs = self._reprs if top else None
        out: list = []
        add = out.extend
        for element, where, constant, inputs in self._steps(layout, elements):
            if constant:
                kept = plan.drawn.get(id(element))
                if kept is None and constant == _PER_GAME:   # drawn for another deck of the game already
                    kept = self._per_game.get((id(layout), id(element), id(scope.get("game"))))
                if kept is not None:   # its primitives, counted against the face's bound as drawing them would be
                    items, count, text = kept
                    self._count(count, where, what)
                    if reprs is not None:
                        reprs.append(text)
                    add(items)
                    continue
                drawn_before, problems_before = self._drawn, self._problems
                items = tuple(self._element_copies(layout, element, scope, where, what, card_src))
                text = ", ".join(map(repr, items))
                if self._problems == problems_before:   # text that does not fit is reported on every card
                    plan.drawn[id(element)] = kept = (items, self._drawn - drawn_before, text)
                    if constant == _PER_GAME and len(self._per_game) < MAX_KEPT:
                        self._per_game[(id(layout), id(element), id(scope.get("game")))] = kept
                if reprs is not None:
                    reprs.append(text)
                add(items)
            else:
                add(self._per_card(layout, element, inputs, scope, where, what, card_src, reprs))
        return out

    def _steps(self, layout: Layout, elements: LList) -> tuple:
        """(element, its line, whether it reads nothing per card — ``_PER_GAME`` if nothing per deck either —, its
        per-card inputs) of each of ``elements`` (``_is_constant``, ``_inputs``): worked out once per layout and list,
        not on every card (a ticket's face walks its sixteen elements ten thousand times)."""
        key = (id(layout), id(elements))
        steps = self._element_steps.get(key)
        if steps is None:
            found = []
            for i, element in enumerate(elements):
                constant = self._is_constant(layout, element)
                found.append((element, elements.src(i), constant, None if constant else self._inputs(layout, element)))
            # the layout and the list kept alive with the steps: their ids name them
            steps = self._element_steps[key] = (tuple(found), layout, elements)
        return steps[0]

    def _per_card(self, layout: Layout, element, inputs, scope: dict, where: Source, what: str, card_src: Source,
                  reprs: list[str] | None) -> tuple:
        """An element that reads the card, drawn once per distinct set of the values it reads from it: ten
        thousand tickets name 58 cities, so a ticket's ``{{ card.from.name }}`` text is laid out 58 times,
        and its points badge once per number. Its values are worked out first (``when`` before the rest, as
        drawing does); if one fails, the element is drawn as usual, which reports what drawing would."""
        plan = self._plan
        assert plan is not None
        if inputs is None:
            items = tuple(self._element_copies(layout, element, scope, where, what, card_src))
            if reprs is not None:
                reprs.append(", ".join(map(repr, items)))
            return items
        when, texts, compiled = inputs
        run = self._run
        # ``when`` reads the card (``_inputs``), so ``_eval`` would run it: run here without asking
        shown = run(compiled[0], scope, where, what) if when is not None else True
        if not shown:
            return ()
        kept: Any
        try:
            values = [run(expression, scope, where, what) for expression in compiled[1]]
            # the element, then the values' types (1, 1.0 and True print differently), then the values
            types = tuple(map(type, values))
            key = (id(element), types, *values)
            kept = plan.drawn.get(key) if _SCALARS.issuperset(types) else _UNKEPT
        except BuildError:
            kept, key, values = _UNKEPT, None, []
        if kept is not None and kept is not _UNKEPT:
            items, count, text = kept
            self._count(count, where, what)
            if reprs is not None:
                reprs.append(text)
            return items
        given = dict(zip(texts, values))
        if when is not None:   # drawing asks it again: its value, worked out above
            given[when] = shown
        saved, self._given = self._given, given
        try:
            drawn_before, problems_before = self._drawn, self._problems
            items = tuple(self._element_copies(layout, element, scope, where, what, card_src))
        finally:
            self._given = saved
        text = ", ".join(map(repr, items))
        if kept is None and self._problems == problems_before and len(plan.drawn) < MAX_KEPT:
            plan.drawn[key] = (items, self._drawn - drawn_before, text)
        if reprs is not None:
            reprs.append(text)
        return items

    def _inputs(self, layout: Layout, element) -> tuple[str | None, tuple[str, ...], tuple] | None:
        """The per-card expressions of ``element``: its ``when`` (or None) and the others, each once (their texts;
        then compiled: the when's or None, and a tuple of the others'); None when the element is not drawn by them
        alone (a group, whose elements are looked at one by one; a picture; a value that reads the repeat index as
        well, which differs from copy to copy)."""
        key = (id(layout), id(element), "inputs")
        if key in self._constant:
            return self._constant[key]
        texts: dict[str, _Compiled] = {}
        found: tuple | None = None
        try:
            kinds = [k for k in element if k in ELEMENTS]
            if kinds and kinds[0] not in ("group", "image"):
                for _kind, text in _values(element):
                    compiled = self._compile(text, layout.elements.src())
                    if not compiled.reads.isdisjoint(layout.per_card):
                        if "n" in compiled.reads:
                            raise LookupError(text)
                        texts[text] = compiled
                when = element.get("when")
                when = when if isinstance(when, str) and when in texts else None
                others = tuple(t for t in texts if t != when)
                # compiled: the when's (or None), then the others'
                found = (when, others, (texts[when] if when is not None else None, tuple(texts[t] for t in others)))
        except (BuildError, LookupError):
            found = None
        self._constant[key] = found
        return found

    def _element_copies(self, layout: Layout, element, scope: dict, where: Source, what: str, card_src: Source):
        """One element of a layout, each of its ``repeat`` copies (none if its ``when`` is false)."""
        if "when" in element and not self._eval(element["when"], scope, where, what):
            return
        repeat = self._num(element.get("repeat", 1), scope, where, what, "repeat")
        if repeat > limits.MAX_REPEAT:
            raise BuildError(where, f"'repeat' gives {repeat:g} for {what}, more than {limits.MAX_REPEAT} copies "
                                    f"(MAX_REPEAT)",
                             "check the expression: a repeat counts copies of one element")
        repeat = int(repeat)
        step = self._list(element, "step", scope, where, what) if "step" in element else [0, 0]
        if len(step) != 2:
            raise BuildError(where, f"'step' should be [dx, dy] for {what}, got {step!r}",
                             "write e.g. step: [0, 5] (mm between repeats)")
        dx, dy = (self._num(v, scope, where, what, "step") for v in step)
        kind = next(k for k in element if k in ELEMENTS)
        for n in range(repeat):
            self._count(1, where, what)
            drawn = list(self._element(layout, kind, element[kind], dict(scope, n=n), where, what, card_src))
            self.fresh += _primitives(drawn) if kind != "group" else 1   # a group's own were counted as drawn
            if kind != "group":   # a group's own elements were counted as they were drawn
                self._count(len(drawn), where, what)
            if n and (dx or dy):
                yield Group(tuple(drawn), dx * n, dy * n)
            else:
                yield from drawn

    def _count(self, drawn: int, where: Source, what: str) -> None:
        """Bound the work of one face as it is drawn: nested repeats multiply, so a group repeated
        10,000 times around a text repeated 10,000 times stops here, not after 10^8 objects."""
        self._drawn += drawn
        if self._drawn > limits.MAX_FACE_PRIMITIVES:
            raise BuildError(where, f"{what} draws more than {limits.MAX_FACE_PRIMITIVES:,} elements and primitives on "
                                    f"one face (MAX_FACE_PRIMITIVES)",
                             "lower the repeat: counts of nested repeats multiply")

    def _element(self, layout, kind, a: LDict, scope, where, what, card_src):
        num = lambda key, default=None: (self._num(a[key], scope, where, what, key) if key in a else default)  # noqa: E731
        col = lambda key, default=None: (self._color(a[key], scope, where, what) if key in a else default)  # noqa: E731
        if kind == "rect":
            yield Rect(num("x"), num("y"), num("w"), num("h"), col("fill"), col("stroke"),
                       num("stroke_width", 0.25), num("radius", 0.0))
        elif kind == "circle":
            yield Circle(num("cx"), num("cy"), num("r"), col("fill"), col("stroke"), num("stroke_width", 0.25))
        elif kind == "line":
            dash = tuple(self._num(d, scope, where, what, "dash") for d in self._list(a, "dash", scope, where, what))
            yield Line(num("x1"), num("y1"), num("x2"), num("y2"), col("stroke", "#000000"), num("stroke_width", 0.25), dash)
        elif kind == "polygon":
            points = self._list(a, "points", scope, where, what)
            if not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in points):
                raise BuildError(where, f"'points' should be [x, y] pairs for {what}, got {points!r}",
                                 "write e.g. points: [[0, 0], [10, 0], [5, 8]]")
            pts = tuple((self._num(p[0], scope, where, what, "points"), self._num(p[1], scope, where, what, "points"))
                        for p in points)
            yield Polygon(pts, bool(self._eval(a.get("closed", True), scope, where, what)), col("fill"), col("stroke"),
                          num("stroke_width", 0.25))
        elif kind == "icon":
            name = str(self._eval(a["name"], scope, where, what))
            if name in self.game.icons:   # the game's own (``icons:``), which wins over a built-in one
                path, digest = self.game.icons[name]
                yield Image(num("x"), num("y"), num("size"), num("size"), path, digest)
                return
            if name not in ICONS:
                known = [*ICONS, *self.game.icons]
                raise BuildError(where, f"unknown icon '{name}'", did_you_mean(name, known) or "icons: " + ", ".join(known))
            extra: dict = {"typeset": self.game.typeset}
            if "text" in a:
                extra["text"] = str(self._eval(a["text"], scope, where, what))
            if "ink" in a:
                extra["ink"] = col("ink")
            yield from ICONS[name](num("x"), num("y"), num("size"), col("color", "#000000"), accent=col("accent"), **extra)
        elif kind == "symbol":
            name = self._eval(a["name"], scope, where, what)
            name = "" if name is None else str(name).strip()
            if not name:   # a colour without a symbol (a wild card, a back): nothing to draw
                return
            if name not in SYMBOLS:
                raise BuildError(where, f"unknown symbol '{name}'",
                                 did_you_mean(name, SYMBOLS) or "symbols: " + ", ".join(SYMBOLS))
            yield placed(name, num("x"), num("y"), num("size"), col("color") or "#000000", col("halo"), num("rotate", 0.0))
        elif kind == "group":
            inner = tuple(self._elements(layout, a["elements"], scope, what, card_src))
            yield Group(inner, num("x", 0.0), num("y", 0.0), num("rotate", 0.0))
        elif kind == "text":
            yield from self._text(a, scope, where, what, card_src, num, col)
        elif kind == "image":
            yield from self._image(a, scope, where, what, num)
        elif kind == "logo":
            game = self.game
            yield from logo(game.typeset, game.title, game.latin, num("x"), num("y"), num("w"), num("h"),
                            col("color"), col("accent"), col("ink"))

    def _print_problem(self, kind: str, error: BuildError) -> None:
        self._problems += 1
        if self.on_print_problem is None:
            raise error
        self.on_print_problem(kind, error)

    def _text(self, a, scope, where, what, card_src, num, col):
        """A text box: rich text (``layout.richtext``: bold, italic, colour, icons) wrapped, shrunk and aligned."""
        value = self._eval(a["text"], scope, where, what)
        # a model object's text (``{{ game }}``) names files by absolute paths, a function's its address: shown
        # relative to the game, without (jinja_sandbox.hide_folders)
        content = "" if value is None else _env.hide_folders(value if type(value) is str else str(value)).strip()
        if not content:
            return
        if self._markup is None:
            self._markup = richtext.markup_of(self.game)
        spans = richtext.parse(content, self._markup)
        typeface = richtext.Typeface.of(self._family(a, scope, where, what), self.game.fonts,
                                        bool(self._eval(a.get("bold", False), scope, where, what)),
                                        bool(self._eval(a.get("italic", False), scope, where, what)))
        missing = sorted({c for span in spans if not span.icon for c in missing_glyphs(span.text, typeface.face(span).name)})
        if missing:
            self._print_problem("glyph", BuildError(card_src, f"{what}: the font has no glyph for {' '.join(missing)} "
                                                              f"in {content!r}",
                                                    "replace those characters; they would print as empty boxes"))
        x, y, w, h = num("x"), num("y"), num("w"), num("h")
        size = num("size", 9.0)
        min_size = num("min_size", size)
        for key, points in (("size", size), ("min_size", min_size)):   # the fit steps down 0.5 pt at a time
            if not 0 < points <= limits.MAX_TEXT_PT:
                raise BuildError(where, f"text {key} {points:g} pt for {what} cannot be printed",
                                 f"give a size in points above 0, at most {limits.MAX_TEXT_PT:g} (limits.MAX_TEXT_PT)")
        leading = num("leading", 1.2)
        max_lines = int(num("max_lines", 0)) or None
        fitted = richtext.fit(spans, w, h, size, min_size, leading, max_lines, typeface)
        if fitted is None:
            self._print_problem("overflow", BuildError(
                card_src, f"{what}: text {content!r} does not fit its box "
                          f"({w:g} × {h:g} mm, {size:g} pt down to {min_size:g} pt; layout {where})",
                "shorten the text, or give the layout a larger box or a smaller min_size"))
            # reported, and drawn anyway (``build --force``): at the smallest size, visibly too long
            lines = richtext.wrap(spans, w, min_size, typeface) or richtext.wrap(spans, math.inf, min_size, typeface)
            fitted = richtext.Fitted(tuple(lines or ()), min_size, min_size * PT_TO_MM * leading)
        align = str(self._eval(a.get("align", "left"), scope, where, what))
        valign = str(self._eval(a.get("valign", "top"), scope, where, what))
        if align not in ("left", "center", "right") or valign not in ("top", "middle", "bottom"):
            raise BuildError(where, f"text align '{align}' / valign '{valign}' for {what}",
                             "align is left, center or right; valign is top, middle or bottom")
        top = {"top": y, "middle": y + (h - fitted.height) / 2, "bottom": y + h - fitted.height}[valign]
        color = col("color", "#000000")
        cap = textfit.cap_height(fitted.size)
        for i, runs in enumerate(fitted.lines):
            yield from richtext.draw_line(runs, x, top + cap + i * fitted.line_height, fitted.size, color, align, w,
                                          typeface, whole=True)

    def _family(self, a, scope, where, what) -> str | None:
        """The family of a text element: its ``font:`` (one the game declares), else None (pnpgen's own)."""
        if "font" not in a:
            return None
        family = str(self._eval(a["font"], scope, where, what))
        if family not in self.game.fonts:
            raise ContentError(where, f"{what}: font '{family}' is not a family the game declares",
                               did_you_mean(family, self.game.fonts) or
                               ("declared: " + ", ".join(self.game.fonts) if self.game.fonts else
                                "declare it in game.yaml: `fonts: {" + family + ": {regular: fonts/….ttf}}`"))
        return family

    def _image(self, a, scope, where, what, num):
        """A picture file of the game (``src``, relative to the game folder, or to pnpgen's templates/
        for bundled art) in the box x, y, w, h; a missing or malformed file is a ContentError here."""
        name = self._eval(a["src"], scope, where, what)
        shown = "" if name is None else str(name).strip()
        if not shown:
            return
        picture = images.named(self.game, shown, where)
        fit = str(self._eval(a.get("fit", "fit"), scope, where, what))
        if fit not in images.FITS:
            raise BuildError(where, f"image fit '{fit}' for {what}", did_you_mean(fit, images.FITS)
                             or "fit is fit (whole, in proportion), fill (cover the box, cropped) or stretch")
        crop = None
        if "crop" in a:
            values = self._list(a, "crop", scope, where, what)
            crop = tuple(self._num(v, scope, where, what, "crop") for v in values)
            if len(crop) != 4 or not (0 <= crop[0] < 1 and 0 <= crop[1] < 1 and crop[2] > 0 and crop[3] > 0
                                      and crop[0] + crop[2] <= 1 + 1e-9 and crop[1] + crop[3] <= 1 + 1e-9):
                raise BuildError(where, f"image crop {values!r} for {what}",
                                 "crop is [x, y, w, h] as fractions of the picture, e.g. [0.25, 0, 0.5, 1] "
                                 "(the middle half); it must stay inside the picture")
        opacity = num("opacity", 1.0)
        if not 0 <= opacity <= 1:
            raise BuildError(where, f"image opacity {opacity:g} for {what}", "opacity is from 0 (invisible) to 1")
        w, h = num("w"), num("h")
        if w <= 0 or h <= 0:
            raise BuildError(where, f"image box {w:g} × {h:g} mm for {what}", "give w and h above 0 mm")
        image = Image(num("x"), num("y"), w, h, picture.path, picture.digest, fit, crop,
                      opacity, num("rotate", 0.0))
        images.record_use(self.game, images.PictureUse(where, what, shown, picture, image))
        yield image
