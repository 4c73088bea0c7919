"""The drawing model shared by every renderer.

Everything pnpgen prints is described once as these primitives, in
millimetres with the origin at the top-left and y growing downwards (as in
SVG). Renderers translate them to their backend; nothing is drawn twice in
two backends' own terms. Artwork repeated many times (card faces, backs) is a
``Form`` placed with ``Use``, so a PDF stores it once.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from operator import attrgetter

from generator.model import dataclass_eq, dataclass_repr

Color = str | None  # "#rrggbb" or None for "no paint"


def _compared_by(*names: str):
    """The ``__eq__`` and ``__hash__`` ``@dataclass`` compiles for a frozen class (its fields compared and hashed as
    one tuple, only with an object of the same class), made here from ``names`` instead: the primitives are
    compared in every PDF (a form drawn again) and hashed, so they keep methods as quick as the compiled ones, and
    their module is imported by every build (with ``__repr__``, compiled at import they were 27 ``exec``s).
    ``tests/test_importdiet.py`` holds each to what ``@dataclass`` writes."""
    fields = attrgetter(*names)

    def __eq__(self, other) -> bool:
        if other.__class__ is self.__class__:
            return fields(self) == fields(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(fields(self))

    return __eq__, __hash__


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Rect:
    __eq__, __hash__ = _compared_by("x", "y", "w", "h", "fill", "stroke", "stroke_width", "radius")

    x: float
    y: float
    w: float
    h: float
    fill: Color = None
    stroke: Color = None
    stroke_width: float = 0.25  # mm
    radius: float = 0.0

    def __repr__(self) -> str:
        return (f"Rect(x={self.x!r}, y={self.y!r}, w={self.w!r}, h={self.h!r}, fill={self.fill!r}, "
                f"stroke={self.stroke!r}, stroke_width={self.stroke_width!r}, radius={self.radius!r})")


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Circle:
    __eq__, __hash__ = _compared_by("cx", "cy", "r", "fill", "stroke", "stroke_width")

    cx: float
    cy: float
    r: float
    fill: Color = None
    stroke: Color = None
    stroke_width: float = 0.25

    def __repr__(self) -> str:
        return (f"Circle(cx={self.cx!r}, cy={self.cy!r}, r={self.r!r}, fill={self.fill!r}, stroke={self.stroke!r}, "
                f"stroke_width={self.stroke_width!r})")


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Line:
    __eq__, __hash__ = _compared_by("x1", "y1", "x2", "y2", "stroke", "stroke_width", "dash")

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Color = "#000000"
    stroke_width: float = 0.25
    dash: tuple[float, ...] = ()

    def __repr__(self) -> str:
        return (f"Line(x1={self.x1!r}, y1={self.y1!r}, x2={self.x2!r}, y2={self.y2!r}, stroke={self.stroke!r}, "
                f"stroke_width={self.stroke_width!r}, dash={self.dash!r})")


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Polygon:
    """Straight segments through ``points``; closed polygons may be filled."""

    __eq__, __hash__ = _compared_by("points", "closed", "fill", "stroke", "stroke_width")

    points: tuple[tuple[float, float], ...]
    closed: bool = True
    fill: Color = None
    stroke: Color = None
    stroke_width: float = 0.25

    def __repr__(self) -> str:
        return (f"Polygon(points={self.points!r}, closed={self.closed!r}, fill={self.fill!r}, stroke={self.stroke!r}, "
                f"stroke_width={self.stroke_width!r})")


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Text:
    """One line of text; wrapping happens in layout, so renderers agree."""

    __eq__, __hash__ = _compared_by("x", "y", "text", "size", "fill", "anchor", "bold", "font", "italic", "spacing")

    x: float
    y: float  # baseline
    text: str
    size: float  # points, as designers think of type
    fill: Color = "#000000"
    anchor: str = "start"  # start | middle | end
    bold: bool = False     # synthesised bold (the face has no bold file): filled and outlined
    #: the registered face it was measured with (``fonts.resolve``): renderers draw with the same one
    font: str = "IPAexGothic"
    italic: bool = False   # synthesised italic (the face has no italic file): slanted
    #: mm added after every character (PDF's Tc, SVG's letter-spacing): a Japanese line set justified
    spacing: float = 0.0

    def __repr__(self) -> str:
        """The dataclass's own form, ``spacing`` only when set: a card form's name is a digest of its items'
        repr, so the field must not rename every form drawn before it existed."""
        extra = f", spacing={self.spacing!r}" if self.spacing else ""
        return (f"Text(x={self.x!r}, y={self.y!r}, text={self.text!r}, size={self.size!r}, fill={self.fill!r}, "
                f"anchor={self.anchor!r}, bold={self.bold!r}, font={self.font!r}, italic={self.italic!r}{extra})")


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Image:
    """A picture file in the box (x, y, w, h) mm: PNG/JPEG drawn as an image, SVG as vectors.

    ``path`` is absolute and already kept inside the game (or pnpgen's own files); ``digest`` is
    the sha256 of its bytes, so equal pictures share one embedded object and a face's hash changes
    when its picture does.
    """

    __eq__, __hash__ = _compared_by("x", "y", "w", "h", "path", "digest", "fit", "crop", "opacity", "rotate")

    x: float
    y: float
    w: float
    h: float
    #: left out of repr: a face's form is named by a hash of its drawing's repr, and the same game built
    #: from another folder must give the same bytes (the digest says which picture it is)
    path: str = field(repr=False)
    digest: str
    fit: str = "fit"       # fit (whole picture, kept in proportion) | fill (cover the box, cropped) | stretch
    #: the part of the picture to use, as fractions of its width and height: (x, y, w, h)
    crop: tuple[float, float, float, float] | None = None
    opacity: float = 1.0
    rotate: float = 0.0    # degrees clockwise about the box's centre

    def __repr__(self) -> str:
        return (f"Image(x={self.x!r}, y={self.y!r}, w={self.w!r}, h={self.h!r}, digest={self.digest!r}, "
                f"fit={self.fit!r}, crop={self.crop!r}, opacity={self.opacity!r}, rotate={self.rotate!r})")


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Group:
    """Items moved by (dx, dy), turned by ``rotate`` degrees (clockwise) and then scaled by ``scale``."""

    __eq__, __hash__ = _compared_by("items", "dx", "dy", "rotate", "scale")

    items: tuple
    dx: float = 0.0
    dy: float = 0.0
    rotate: float = 0.0
    scale: float = 1.0   # e.g. a whole board shrunk onto one sheet

    def __repr__(self) -> str:
        return (f"Group(items={self.items!r}, dx={self.dx!r}, dy={self.dy!r}, rotate={self.rotate!r}, "
                f"scale={self.scale!r})")


@dataclass(frozen=True, slots=True, repr=False, eq=False)
class Use:
    """Place the form ``name`` with its origin at (x, y); ``clip`` (x, y, w, h, from the form's origin), when
    given, draws only that part of it (a card with less bleed on a home sheet than in its own file)."""

    __eq__, __hash__ = _compared_by("name", "x", "y", "clip")

    name: str
    x: float
    y: float
    clip: tuple[float, float, float, float] | None = None

    def __repr__(self) -> str:
        return f"Use(name={self.name!r}, x={self.x!r}, y={self.y!r}, clip={self.clip!r})"


# weakly referred to by ``_FORM_PICTURES``
@dataclass(frozen=True, slots=True, weakref_slot=True, repr=False, eq=False)
class Form:
    """Reusable artwork; ``box`` = (x, y, w, h) clips it (e.g. a card's bleed box)."""

    __eq__, __hash__ = _compared_by("name", "items", "box")

    name: str
    items: tuple
    box: tuple[float, float, float, float]
    #: the forms its items place (``Use``): whoever adds this form to a document adds them too (a rule
    #: example places the board and the cards it shows)
    needs: tuple = field(default=(), repr=False, compare=False)

    def __repr__(self) -> str:
        return f"Form(name={self.name!r}, items={self.items!r}, box={self.box!r})"


def register(forms: dict[str, Form], form: Form) -> str:
    """Add ``form`` and every form it needs to ``forms`` (a document's), each once."""
    forms.setdefault(form.name, form)
    for needed in form.needs:
        register(forms, needed)
    return form.name


def distinct_forms(forms) -> list[Form]:
    """Each form once, in first-seen order: equal faces share a name (twelve red train cards, one form)."""
    seen: dict[str, Form] = {}
    for form in forms:
        seen.setdefault(form.name, form)
    return list(seen.values())


def pictures(items, forms: dict[str, Form]) -> dict[str, Image]:
    """The distinct pictures ``items`` draw, by digest: inside groups, and inside the forms they place
    (each form read once). What a renderer stores once per file, whatever the number of uses.

    A form's pictures are worked out once per process (``_form_pictures``): a thousand faces are each placed in
    the deck's file, the print-and-play file and an SVG of their own. The picture kept for a digest is the one
    met first in the order ``_drawn`` visits them (the last item first, each group and form where it is met)."""
    return pictures_placed(items, lambda name: _form_pictures(forms[name], forms))


#: form name → (the hash of its items, the pictures it draws in visiting order, the form they were last found for,
#: weakly): a form's name is a digest of its drawing; the hash, not the items, so that faces a large game keeps
#: compressed are not kept alive here; the very form asked again (a face in its deck's file, the print-and-play
#: file, the print-shop file, its SVG) is known without hashing its items again
_FORM_PICTURES: dict[str, tuple[int, tuple[tuple[str, Image], ...], weakref.ref]] = {}
_EXPANDING: set[str] = set()


def _form_pictures(form: Form, forms: dict[str, Form]) -> tuple[tuple[str, Image], ...]:
    """Every picture ``form`` draws, with the forms it places (all of them: a form already met elsewhere adds
    only pictures met already), in the order ``_drawn`` visits them."""
    kept = _FORM_PICTURES.get(form.name)
    if kept is not None and kept[2]() is form:
        return kept[1]
    try:
        fingerprint: int | None = hash(form.items)
    except TypeError:   # an unhashable value in a primitive: not kept
        fingerprint = None
    if kept is not None and fingerprint is not None and kept[0] == fingerprint:
        _FORM_PICTURES[form.name] = (fingerprint, kept[1], weakref.ref(form))
        return kept[1]
    if form.name in _EXPANDING:   # forms placing each other in a circle (names are digests: none do)
        return ()
    found: dict[str, Image] = {}
    _EXPANDING.add(form.name)
    try:
        _pictures_placed_in(form.items, lambda name: _form_pictures(forms[name], forms), found, {form.name})
    finally:
        _EXPANDING.discard(form.name)
    pictures_found = tuple(found.items())
    if fingerprint is not None:
        if len(_FORM_PICTURES) >= 50_000:
            _FORM_PICTURES.clear()
        _FORM_PICTURES[form.name] = (fingerprint, pictures_found, weakref.ref(form))
    return pictures_found


def form_pictures(form: Form, forms: dict[str, Form]) -> tuple[tuple[str, Image], ...]:
    """The pictures ``form`` draws with the forms it places, ``(digest, Image)`` in the order ``pictures`` meets
    them: what ``pictures(form.items, forms)`` finds, as pairs."""
    return _form_pictures(form, forms)


def own_pictures(form: Form) -> tuple[tuple[str, Image], ...] | None:
    """``form_pictures`` of a form that places no other form, worked out from the form alone (None: it places
    one). A large game's faces are kept compressed (``layout.faces.FormStore``), so what a document draws is
    known without unpickling each face again."""
    found: dict[str, Image] = {}
    if not _own_pictures_in(form.items, found):
        return None
    return tuple(found.items())


def _own_pictures_in(items, found: dict[str, Image]) -> bool:
    for item in reversed(items):   # the order of ``_pictures_placed_in``
        if isinstance(item, Image):
            found.setdefault(item.digest, item)
        elif isinstance(item, Group):
            if not _own_pictures_in(item.items, found):
                return False
        elif isinstance(item, Use):
            return False
    return True


def pictures_placed(items, form_pictures_of) -> dict[str, Image]:
    """``pictures(items, forms)`` with each placed form's pictures from ``form_pictures_of(name)`` (its
    ``form_pictures``, kept by whoever keeps the forms) instead of from the form itself."""
    found: dict[str, Image] = {}
    _pictures_placed_in(items, form_pictures_of, found, set())
    return found


def _pictures_placed_in(items, form_pictures_of, found: dict[str, Image], seen: set[str]) -> None:
    """The walk ``pictures`` and ``pictures_placed`` share: the last item first, each group where it is met, each
    placed form's pictures (``form_pictures_of(name)``) once."""
    for item in reversed(items):
        if type(item) in _PLAIN:   # a page's crop marks, a face's shapes and words: no picture in them
            continue
        if isinstance(item, Image):
            found.setdefault(item.digest, item)
        elif isinstance(item, Group):
            _pictures_placed_in(item.items, form_pictures_of, found, seen)
        elif isinstance(item, Use) and item.name not in seen:
            seen.add(item.name)
            for digest, image in form_pictures_of(item.name):
                found.setdefault(digest, image)


#: primitives that draw no picture and place no form (exactly these types: a subclass is looked at as before)
_PLAIN = frozenset({Rect, Circle, Line, Polygon, Text})


def forms_used(items, forms: dict[str, Form]) -> list[str]:
    """The names of the forms ``items`` place, directly or through other forms, sorted: with the items,
    everything a one-page file drawn from them depends on."""
    used: set[str] = set()
    for _item in _drawn(items, forms, used):
        pass
    return sorted(used)


def _drawn(items, forms: dict[str, Form], seen_forms: set[str]):
    """Every item ``items`` draw: inside groups, and inside the forms they place (each form once, its name
    added to ``seen_forms``)."""
    stack = list(items)
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, Group):
            stack.extend(item.items)
        elif isinstance(item, Use) and item.name not in seen_forms:
            seen_forms.add(item.name)
            stack.extend(forms[item.name].items)


# a 100,000-card build holds tens of thousands of pages: no __dict__ for each
@dataclass(slots=True, repr=False, eq=False)
class Page:
    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    width: float
    height: float
    items: list = field(default_factory=list)
    trim_box: tuple[float, float, float, float] | None = None   # x, y, w, h in mm
    bleed_box: tuple[float, float, float, float] | None = None
    label: str = ""
    #: pieces cut from this side only (one-sided sheets, fold-over strips, die nets): a file printed double-sided
    #: must leave its back blank, or cutting them out would cut through what is printed behind them
    one_sided: bool = False


@dataclass(repr=False, eq=False)
class Document:
    """Pages plus the forms they use; what a renderer turns into one file."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    title: str
    pages: list[Page] = field(default_factory=list)
    forms: dict[str, Form] = field(default_factory=dict)
    #: bookmarks a PDF viewer lists (the print-and-play file's parts): (title, index of the page)
    outline: list[tuple[str, int]] = field(default_factory=list)

    def add_form(self, form: Form) -> str:
        return register(self.forms, form)
