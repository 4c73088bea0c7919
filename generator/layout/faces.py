"""Faces drawn once per game, whoever asks: the checks, the checker's dry layout, the build, the rule sheet.

``pnpgen check`` lays every face out for the card checks and again for the
build's own layout (whose rule sheet pictures some of them a third time).
A ``SharedFaceRenderer`` draws a face once per game and hands a later asker
the same form, with the same print problems replayed to its own
``on_print_problem`` (or raised, without one), and the same error if the face
could not be drawn: as if it had drawn it itself.

A large game (``is_large``: more than ``LARGE_GAME_FACES`` distinct card faces) keeps its faces
compressed instead (``FormStore``): a 100,000-card game's forms are hundreds of MB as objects, tens
as pickles. Its documents hold ``LazyForms``, names into the store, and a face is an object only while
it is being placed or drawn into a file (issue 14: memory bounded by the largest deck, not the game).
"""
from __future__ import annotations

import copyreg
import dataclasses
import hashlib
import io
import operator
import pickle
import zlib
from collections import OrderedDict
from typing import NamedTuple

from generator.errors import BuildError
from generator.layout import primitives
from generator.layout.cardface import FaceRenderer
from generator.layout.primitives import Form
from generator.model.game import CardGeometry

#: distinct card faces above which a game keeps its faces compressed, and the check drops its layout of the
#: game once it has looked at it (``generator.check.dry``); below it, one layout is shared by check and build
LARGE_GAME_FACES = 5_000
#: forms a ``FormStore`` keeps as objects, most recently used: a page's faces, a deck's back
KEPT_FORMS = 64
#: the most zlib takes as a preset dictionary
ZDICT_BYTES = 32 * 1024
#: what a ``FormStore`` may hold of faces as objects (estimated bytes, ``face_bytes``) before it pickles the rest: a
#: 10,000-card game's faces fit (pickling and unpickling each face cost more than laying it out), a
#: 100,000-card game's first faces do and the rest are kept compressed, so memory stays bounded
FACE_OBJECT_BYTES = 24 * 1024 * 1024
#: the estimate of a face as an object: the form, its name and its items' tuple, and each primitive drawn for it
#: alone (``FaceRenderer.fresh``; the primitives it shares with other faces, a deck's constant elements and the
#: texts met before, are kept by the renderer anyway). Generous: a slotted primitive and its own floats and text
FORM_BYTES, ITEM_BYTES, PRIMITIVE_BYTES = 400, 8, 320


def face_bytes(form: Form, fresh: int) -> int:
    """The estimated bytes ``form`` holds as an object beyond what it shares (``fresh``: primitives drawn for it)."""
    return FORM_BYTES + ITEM_BYTES * len(form.items) + PRIMITIVE_BYTES * fresh


def kept_with(game, name: str) -> dict:
    """A dict that lives exactly as long as ``game`` (stored on it: a global table of games would keep
    every game loaded in a process alive, as the cached values refer back to it)."""
    return game.__dict__.setdefault(f"_kept_{name}", {})


def _key(layout_name: str, context: dict, what: str, src, prefix: str, layout_src) -> tuple[bytes, tuple]:
    """The face's key (a deck of 100,000 cards keeps 100,000 of them), and the model objects it
    names by identity: values by value where that is safe (geometry, plain data), model objects by ``id``, kept
    alive with the face so that no later object takes the same id."""
    key: list = [layout_name, what, prefix, *_place(src), *_place(layout_src)]
    kept = _context_key(context, key)
    # kept as a digest of its text: 16 bytes instead of a tuple of a few hundred (values whose text is the same
    # are equal here: plain data, a geometry, paths, ids)
    return hashlib.blake2b(repr(key).encode("utf-8"), digest_size=16).digest(), tuple(kept)


def _context_key(context: dict, key: list) -> list:
    """Add ``context`` to ``key`` (its names in order, each value's number or text, or the id of a model object) and
    give the model objects named by id."""
    kept = []
    for name, value in sorted(context.items()):
        kind = type(value)
        if kind in _BY_VALUE:
            key += (name, "=", value)
        elif kind is CardGeometry:   # its four numbers: a dataclass's repr is a Python call, three per face
            key += (name, "geometry", value.width, value.height, value.bleed, value.safe)
        elif value is None or isinstance(value, (str, int, float, bool)):
            key += (name, "=", value)
        else:
            key += (name, "id", id(value))
            kept.append(value)
    return kept


#: the kinds ``_key`` takes by value, asked by exact type first (``isinstance`` decides for a subclass)
_BY_VALUE = frozenset({str, int, float, bool, type(None)})


def _place(src) -> tuple:
    """A source as a key: its fields, not its text (``str`` resolves the file's path, 0.1 ms a card); the file as
    the text of its path (a Path's repr, twice a face, cost as much as the rest of the key)."""
    return (None, None, None) if src is None else (None if src.file is None else str(src.file), src.line, src.column)


def _identified(context: dict) -> tuple:
    """The model objects ``_key`` names by identity in ``context``, as it lists them."""
    return tuple(_context_key(context, []))


def deck_keys(game, deck, context: dict, prefix: str) -> list[bytes]:
    """The key (``_key``) of the face of each card of ``deck``, drawn by ``draw_deck`` with ``context`` (the game,
    the deck, its geometry and back; each card added as ``card``): worked out once per deck and game, not by each
    of the three that draw a large game's decks (the check, its dry layout, the build; 10 µs a card), while the
    deck, its cards and what the context holds are the same objects (kept alive with the keys: their ids stay
    theirs)."""
    memo = kept_with(game, "deck keys")
    signature = (deck.layout, prefix, tuple((name, id(value)) for name, value in sorted(context.items())))
    cards = deck.cards
    found = memo.get(id(deck))
    if found is not None and found[0] == signature and found[1] is deck and len(found[2]) == len(cards) \
            and all(map(operator.is_, found[2], cards)):
        return found[4]
    keys = [_key(deck.layout, dict(context, card=card), card.ref, card.source, prefix, deck.layout_source)[0]
            for card in cards]
    memo[id(deck)] = (signature, deck, tuple(cards), tuple(context.values()), keys)
    return keys


class SharedFaceRenderer(FaceRenderer):
    def face(self, layout_name: str, context: dict, what: str, src, prefix: str, layout_src=None,
             key: bytes | None = None):
        """``key``: the face's ``_key``, if known (``deck_keys``)."""
        found, drawn = self._shared(layout_name, context, what, src, prefix, layout_src, key)
        if isinstance(found, str):   # a large game's: kept compressed
            return drawn if drawn is not None else form_store(self.game).get(found)
        return found

    def _shared(self, layout_name: str, context: dict, what: str, src, prefix: str, layout_src,
                key: bytes | None = None):
        """The face as kept (a Form, or for a large game its name in the ``FormStore``) and the Form if drawn
        now; its print problems are replayed, the error it met is raised."""
        named = None
        if key is None:
            key, named = _key(layout_name, context, what, src, prefix, layout_src)
        drawn = kept_with(self.game, "faces")
        form = None
        if key not in drawn:
            if named is None:
                named = _identified(context)
            problems, own = [], self.on_print_problem
            self.on_print_problem = lambda kind, error: problems.append((kind, error))
            try:
                form, error = super().face(layout_name, context, what, src, prefix, layout_src), None
            except BuildError as exc:   # a ContentError (no such layout) is not kept: it stops everyone
                form, error = None, exc
            finally:
                self.on_print_problem = own
            if form is not None and is_large(self.game):   # kept in the store (compressed past its budget), by name
                form_store(self.game).put(form, face_bytes(form, self.fresh))
                drawn[key] = (form.name, error, tuple(problems), named)
            else:
                drawn[key] = (form, error, tuple(problems), named)  # ``named``: its objects' ids stay theirs
        found, error, problems, _named = drawn[key]
        for kind, problem in problems:
            self._print_problem(kind, problem)
        if error is not None:
            raise error
        return found, form


class FaceName(NamedTuple):
    """A face by name only: what card sheets, the print-shop file and SVG pages place (``Use(name)``)."""

    name: str


class NamingFaceRenderer(SharedFaceRenderer):
    """A large game's faces as ``FaceName``s, for ``draw_deck``: drawn (or found) and kept compressed, never unpickled
    for a sheet that only names them; documents take them with ``add_face``. A small game's are its Forms."""

    def face(self, layout_name: str, context: dict, what: str, src, prefix: str, layout_src=None,
             key: bytes | None = None):
        found, _drawn = self._shared(layout_name, context, what, src, prefix, layout_src, key)
        return FaceName(found) if isinstance(found, str) else found


def add_face(doc, face) -> str:
    """Add a Form, or a ``FaceName`` the document's ``LazyForms`` store holds, to ``doc``."""
    if isinstance(face, FaceName):
        doc.forms.add_name(face.name)
        return face.name
    return doc.add_form(face)


def is_large(game) -> bool:
    """Whether ``game`` has more than ``LARGE_GAME_FACES`` distinct card faces (its faces are kept compressed)."""
    kept = kept_with(game, "size")
    if "large" not in kept:
        kept["large"] = sum(len(deck.cards) for deck in game.decks.values()) > LARGE_GAME_FACES
    return kept["large"]


class FormStore:
    """A large game's forms by name (a form's name is a hash of its drawing: one name, one drawing): as objects while
    their estimated size stays within ``FACE_OBJECT_BYTES``, each of the others pickled and compressed once; ``get``
    unpickles those, keeping the ``KEPT_FORMS`` most recently asked for."""

    def __init__(self):
        self._objects: dict[str, Form] = {}   # forms kept as they are (``put`` with their size, within the budget)
        self.object_bytes = 0                 # their estimated size
        self.pickled = 0                      # forms pickled (``put``), for tests
        self._blobs: dict[str, bytes] = {}
        self._dicts: dict[str, bytes] = {}   # name prefix → the zlib dictionary its forms are compressed against
        self._recent: OrderedDict[str, Form] = OrderedDict()
        #: name → the pictures the form draws (``primitives.own_pictures``), for the forms that draw any; worked out
        #: as a form is put (it is an object then), so that a document's pictures are known without unpickling
        #: its faces. Equal tuples are kept once (a deck's faces share their artwork).
        self._pictures: dict[str, tuple] = {}
        self._same_pictures: dict[tuple, tuple] = {}
        self._placing: set[str] = set()   # forms that place other forms: their pictures are found when asked
        self.unpickled = 0   # forms unpickled (``get``), for tests: one per face per document at most

    def __contains__(self, name: str) -> bool:
        return name in self._blobs or name in self._objects

    def __len__(self) -> int:
        return len(self._blobs) + len(self._objects)

    def put(self, form: Form, size: int | None = None) -> None:
        """Keep ``form``: as the object itself if its estimated ``size`` (None: not known, pickled) fits the budget."""
        if form.name in self._objects or form.name in self._blobs:
            return
        if size is not None and self.object_bytes + size <= FACE_OBJECT_BYTES:
            self.object_bytes += size
            self._objects[form.name] = form
            self._note_pictures(form)
            return
        out = io.BytesIO()
        pickler = pickle.Pickler(out, protocol=5)
        pickler.dispatch_table = _PRIMITIVES   # documented: a per-pickler table
        pickler.dump(form)
        data = out.getvalue()
        self.pickled += 1
        self._note_pictures(form)
        # a deck's faces differ in a few words: compressed against the deck's first face (one dictionary per
        # name prefix, the deck's), a face takes ~100 bytes instead of ~550
        zdict = self._dicts.setdefault(_prefix(form.name), data[-ZDICT_BYTES:])
        packer = zlib.compressobj(6, zdict=zdict)
        self._blobs[form.name] = packer.compress(data) + packer.flush()

    def _note_pictures(self, form: Form) -> None:
        found = primitives.own_pictures(form)
        if found is None:
            self._placing.add(form.name)
        elif found:
            self._pictures[form.name] = self._same_pictures.setdefault(found, found)

    def get(self, name: str) -> Form:
        kept = self._objects.get(name)
        if kept is not None:
            return kept
        form = self._recent.get(name)
        if form is None:
            unpacker = zlib.decompressobj(zdict=self._dicts[_prefix(name)])
            form = pickle.loads(unpacker.decompress(self._blobs[name]) + unpacker.flush())
            self.unpickled += 1
            self._recent[name] = form
            if len(self._recent) > KEPT_FORMS:
                self._recent.popitem(last=False)
        else:
            self._recent.move_to_end(name)
        return form


    def pictures(self, name: str, forms: dict) -> tuple:
        """What ``primitives.pictures`` finds in form ``name`` (``(digest, Image)`` in visiting order), without
        unpickling it unless it places other forms (``forms``: where to find them)."""
        if name in self._placing:
            return primitives.form_pictures(self.get(name), forms)
        return self._pictures.get(name, ())


def _prefix(name: str) -> str:
    """A form's name without its hash (``train-cards-face``): forms drawn by one layout."""
    return name.rsplit("-", 1)[0]


def _by_fields(cls):
    names = tuple(field.name for field in dataclasses.fields(cls))
    fields = operator.attrgetter(*names)   # the fields as a tuple, read in C (every primitive has two or more)
    assert len(names) > 1, cls
    return lambda obj: (cls, fields(obj))


#: primitives pickled as their class and fields (``cls(*fields)``): the dataclasses' own pickling (``__getstate__``
#: of a slotted dataclass) lists its fields again for every object, twice the time; a table of this pickler's own,
#: so no other pickle's bytes change (the build cache's keys)
_PRIMITIVES = copyreg.dispatch_table.copy()
for _cls in (primitives.Rect, primitives.Circle, primitives.Line, primitives.Polygon, primitives.Text,
             primitives.Image, primitives.Group, primitives.Use, primitives.Form):
    _PRIMITIVES[_cls] = _by_fields(_cls)


def form_store(game) -> FormStore:
    """The game's ``FormStore`` (one per game, it lives as long as the game)."""
    kept = kept_with(game, "forms")
    if "store" not in kept:
        kept["store"] = FormStore()
    return kept["store"]


class LazyForms(dict):
    """A document's forms as names into a ``FormStore``: read like the dict ``Document.forms`` is (a form is
    unpickled when asked for), written like it (a form added is stored compressed). Only the methods documents'
    readers use are overridden; the dict itself maps each name to None."""

    def __init__(self, store: FormStore):
        super().__init__()
        self.store = store

    def __setitem__(self, name: str, form: Form) -> None:
        self.store.put(form)
        super().__setitem__(name, None)

    def __getitem__(self, name: str) -> Form:
        if not super().__contains__(name):
            raise KeyError(name)
        return self.store.get(name)

    def get(self, name, default=None):
        return self[name] if super().__contains__(name) else default

    def setdefault(self, name: str, form: Form) -> Form:  # type: ignore[override]
        if not super().__contains__(name):
            self[name] = form
            return form
        return self[name]

    def add_name(self, name: str) -> None:
        """Add a form the store holds already (another document's: the print-and-play file's parts)."""
        assert name in self.store, name
        super().__setitem__(name, None)

    def update(self, *args, **kwargs) -> None:
        for name, form in dict(*args, **kwargs).items():
            self[name] = form

    def values(self):  # one at a time: a deck's forms are never all objects at once
        return (self.store.get(name) for name in self)

    def items(self):
        return ((name, self.store.get(name)) for name in self)

    def copy(self) -> LazyForms:
        other = LazyForms(self.store)
        for name in self:
            other.add_name(name)
        return other


def document_forms(game) -> dict:
    """What a document of ``game``'s faces keeps its forms in: a plain dict, or for a large game ``LazyForms``."""
    return LazyForms(form_store(game)) if is_large(game) else {}
