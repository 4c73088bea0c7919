"""What the live preview shows, rebuilt in-process on every save: the game's faces as SVG, its check
findings and its rule sheet, or the error that stops the game from being read.

A rebuild has two steps, so a one-card edit shows quickly: ``faces`` reads the game and lays out
the distinct faces (``generator.export.faces``, the build's own faces), then ``checks`` runs the
checker (which lays the whole build out, the rule sheet too).

Only what an edit touches is laid out again: each deck, piece set and board is kept under a hash
of its own model and of everything game-wide a face can read (the game's model without its decks,
pieces and boards; the bytes of every other file in the game folders: layouts, pictures, fonts,
data). Each face's SVG is kept by the hash of what it draws.
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import os
import re
import stat
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator import fonts
from generator.check import Finding, run_checks
from generator.check.dry import laid_out
from generator.errors import ContentError, Diagnostic, PnpgenError
from generator.export.faces import Face, Set, export_sets
from generator.layout.primitives import Document, Form, Group, Image, Page, Use
from generator.limits import MAX_CONTENT_FILE_BYTES, MAX_HASHED_BYTES
from generator.load.game import load_game
from generator.load.rules import load_rules
from generator.model.game import Game
from generator.paths import content_files, game_roots, is_inside, resolved
from generator.render.svg import render_svg
from generator.writers.cards import printed_decks

#: SVGs kept by content hash; past this many the cache starts again (a long session of edits)
CACHE_ENTRIES = 5000


@dataclass(frozen=True)
class State:
    """One rebuild's result; the server swaps in a new one whole (readers never see half of one)."""

    version: int = 0
    title: str = ""
    sets: tuple[Set, ...] = ()
    svgs: dict = field(default_factory=dict)       # (set id, "1" … "n" | "back") → standalone SVG text
    findings: tuple[Finding, ...] | None = None    # None: not checked yet
    rules: tuple[str, ...] = ()                    # the rule sheet's pages, SVG text
    errors: tuple[Diagnostic, ...] = ()            # why the game could not be read or laid out
    seconds: float = 0.0                           # how long the faces step took
    checking: bool = False                         # the findings are the last check's, a new one runs
    places: dict = field(default_factory=dict)     # "file:line" of a card → the (set id, key) of its face
    fonts: tuple = ()                              # the game's own faces: (CSS family, bold, italic, file name)


class Preview:
    """One game folder, rebuilt on demand; ``state`` is the latest result."""

    def __init__(self, folder: Path, addons: tuple = ()):
        self.folder = Path(folder)
        self.addons = tuple(addons)
        self.state = State()
        self._game: Game | None = None
        self._cache: dict[str, str] = {}
        #: the pictures the faces draw, by the name their SVGs ask /picture/ for → the file (inside the game's folders)
        self.pictures: dict[str, Path] = {}
        #: the game's font files, by the name /font/ serves each under → the file (inside the game's folders)
        self.font_files: dict[str, Path] = {}
        self._roots: tuple = ()
        self._sets: dict[tuple[str, str], tuple[str, Set]] = {}   # (what, id) → (its hash, its faces)
        self.relaid: list[str] = []   # the sets the last rebuild laid out again (the rest came from the cache)
        self._lock = threading.Lock()         # held while ``state`` is swapped
        self._faces_lock = threading.Lock()   # one ``faces`` at a time
        self._tmp = tempfile.TemporaryDirectory(prefix="pnpgen-serve-")

    def served(self, path: Path, limit: int) -> bytes | None:
        """The bytes of a picture or a font file the faces use (``pictures``, ``font_files``), read as the build
        reads one: a regular file inside the game's folders of at most ``limit`` bytes, else None. The file was
        checked when the faces were drawn; since then it may have been edited into a named pipe (a read would wait
        forever, holding the server), a link to a file outside the game, or a file of gigabytes."""
        try:
            real = resolved(path, None)
        except ContentError:
            return None
        if not is_inside(real, self._roots):
            return None
        try:
            # not blocking: a named pipe opens at once, and is then refused by its mode
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None
        with os.fdopen(fd, "rb") as file:
            status = os.fstat(file.fileno())
            if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
                return None
            data = file.read(limit + 1)
        return data if len(data) <= limit else None

    def rebuild(self) -> None:
        self.faces()
        self.checks()

    def faces(self) -> State:
        """Read the game and lay out its faces; the last check's findings are shown (as being checked
        again) until ``checks`` runs. One ``faces`` at a time; ``checks`` may run beside it."""
        with self._faces_lock:
            started = time.perf_counter()
            try:
                game = load_game(self.folder, self.addons)
                self._roots = game_roots(game)
                sets = self._laid_out(game)
                svgs: dict = {}
                places: dict[str, tuple[str, str]] = {}
                sources = {card.ref: str(card.source) for deck in printed_decks(game) for card in deck.cards}
                for one in sets:
                    for key, face in faces_of(one):
                        svgs[(one.id, key)] = self._svg(face.form)
                        if one.kind == "deck":
                            places |= {sources[ref]: (one.id, key) for ref in face.cards if ref in sources}
            except PnpgenError as error:
                with self._lock:
                    self._game = None
                    self.state = replace(self.state, version=self.state.version + 1, errors=tuple(error.diagnostics),
                                         checking=False, seconds=time.perf_counter() - started)
                    return self.state
            with self._lock:
                self._game = game
                self.state = State(self.state.version + 1, game.label, tuple(sets), svgs, self.state.findings,
                                   self.state.rules, (), time.perf_counter() - started, checking=True,
                                   places=places, fonts=self._fonts(game))
                return self.state

    def checks(self) -> State:
        """Run the checker on the game ``faces`` read last, and draw the rule sheet from the layout it made.
        If ``faces`` read the game again meanwhile, this result is dropped (a check of the new one follows)."""
        game = self._game
        if game is None:
            return self.state
        try:
            load_rules(game)
            findings = tuple(run_checks(game))
            rules = self._rules(game)
            errors: tuple[Diagnostic, ...] = ()
        except PnpgenError as error:
            findings, rules, errors = (), (), tuple(error.diagnostics)
        with self._lock:
            if self._game is game:
                self.state = replace(self.state, version=self.state.version + 1, findings=findings, rules=rules,
                                     errors=errors, checking=False)
            return self.state

    def _laid_out(self, game: Game) -> list[Set]:
        """``export_sets`` of the game, laying out only the decks, pieces and boards whose hash changed."""
        world = _world_key(game)
        keys = {("deck", d.id): _key(world, d) for d in printed_decks(game)}
        keys |= {("part", p.id): _key(world, p) for p in game.parts.values()}
        keys |= {("board", b.id): _key(world, b) for b in game.boards.values()}
        stale = {what for what, key in keys.items() if self._sets.get(what, ("",))[0] != key}
        fresh = copy.copy(game)   # the same game, with only what changed in it
        fresh.decks = {i: d for i, d in game.decks.items() if ("deck", i) in stale or d.replaced_by is not None}
        fresh.parts = {i: p for i, p in game.parts.items() if ("part", i) in stale}
        fresh.boards = {i: b for i, b in game.boards.items() if ("board", i) in stale}
        # text that would not print is drawn all the same: the checks report it
        made = {_what(one): one for one in export_sets(fresh, force=True)}
        self.relaid = sorted(f"{what} {i}" for what, i in made)
        self._sets = {what: (keys[what], made[what]) for what in made} | {
            what: kept for what, kept in self._sets.items() if what in keys and what not in made}
        order = [("deck", d.id) for d in printed_decks(game)] + [("part", i) for i in game.parts] + [
            ("board", i) for i in game.boards]
        return [self._sets[what][1] for what in order if what in self._sets and self._sets[what][0] == keys[what]]

    def _rules(self, game: Game) -> tuple[str, ...]:
        ctx = laid_out(game).ctx
        if ctx is None:
            return ()
        pages = []
        for printable in ctx.result.printable:  # type: ignore[attr-defined]
            if printable.kind == "rules":
                doc = printable.doc
                pages += [self._render(doc, page, self._pictures(page.items, doc.forms)) for page in doc.pages]
        return tuple(pages)

    def _svg(self, form: Form) -> str:
        key = hashlib.sha1(repr((form.box, form.items)).encode("utf-8")).hexdigest()
        text = self._cache.get(key)
        if text is None:
            if len(self._cache) >= CACHE_ENTRIES:
                self._cache.clear()
            x, y, w, h = form.box
            text = self._cache[key] = self._render(Document(form.name, forms={form.name: form}),
                                                   Page(w, h, [Use(form.name, -x, -y)]), self._pictures(form.items))
        return text

    def _fonts(self, game: Game) -> tuple:
        """The faces of the families the game declares, as the SVGs name them, for the page's @font-face rules."""
        faces = []
        for family in game.fonts.values():
            for path in (family.regular, family.bold, family.italic, family.bold_italic):
                if path is not None and is_inside(resolved(Path(path), None), self._roots):
                    name = fonts.register_file(Path(path))
                    css_family, bold, italic = fonts.css(name)
                    self.font_files[f"{name}.ttf"] = Path(path)
                    faces.append((css_family.replace("'", "").replace("\\", ""), bold, italic, f"{name}.ttf"))
        return tuple(sorted(set(faces)))

    def _pictures(self, items, forms: dict | None = None, seen: set | None = None) -> dict[str, str]:
        """The pictures in ``items`` (and in the ``forms`` they place), digest → the URL the page loads each from
        (once, however many faces draw it), rather than each face carrying a copy of it."""
        hrefs: dict[str, str] = {}
        seen = set() if seen is None else seen
        for item in items:
            if isinstance(item, Group):
                hrefs |= self._pictures(item.items, forms, seen)
            elif isinstance(item, Use) and forms and item.name in forms and item.name not in seen:
                seen.add(item.name)
                hrefs |= self._pictures(forms[item.name].items, forms, seen)
            elif isinstance(item, Image) and is_inside(resolved(Path(item.path), None), self._roots):
                name = f"{item.digest[:16]}{Path(item.path).suffix.lower()}"
                self.pictures[name] = Path(item.path)
                hrefs[item.digest] = f"/picture/{name}"
        return hrefs

    def _render(self, doc: Document, page: Page, pictures: dict | None = None) -> str:
        """The SVG the build would write for ``page``; its pictures are embedded unless ``pictures`` names them."""
        path = Path(self._tmp.name) / f"page-{threading.get_ident()}.svg"   # faces and checks run side by side
        render_svg(doc, page, path, pictures)
        return path.read_text(encoding="utf-8")


def _what(one: Set) -> tuple[str, str]:
    return ("deck" if one.kind == "deck" else "board" if one.kind == "board" else "part", one.id)


def _key(world: str, model) -> str:
    return hashlib.sha1((world + repr(model)).encode("utf-8")).hexdigest()


def _world_key(game: Game) -> str:
    """A hash of everything game-wide a face may read: the game's model less its decks, pieces and boards
    (and the stamp, which no face prints), and every file of the game's folders but those the decks,
    pieces and boards were read from (their content is in their own models)."""
    model = dataclasses.replace(game, decks={}, parts={}, boards={}, stamp="")
    digest = hashlib.sha1(repr(model).encode("utf-8"))
    own = {Path(m.source.file).resolve() for m in [*game.decks.values(), *game.parts.values(), *game.boards.values()]
           if getattr(m, "source", None) is not None and m.source.file is not None}
    budget = MAX_HASHED_BYTES
    for folder in [game.folder, *(addon.folder for addon in game.addons)]:
        # the content files (``content_files``: not output/, hidden ones or links out of the folder, at most
        # MAX_CONTENT_FILES), where every file of the folder was listed and sorted, then read up to 4 MB each
        for path in content_files(Path(folder).resolve()):
            if path in own:
                continue
            digest.update(str(path).encode("utf-8"))
            try:
                size = path.stat().st_size
                if size > MAX_CONTENT_FILE_BYTES or size > budget:   # never read as content, or read enough: its size
                    digest.update(b"size" + size.to_bytes(8, "big"))
                    continue
                budget -= size
                with path.open("rb") as file:
                    digest.update(hashlib.file_digest(file, "sha1").digest())
            except OSError:   # the stage that reads it says what is wrong
                digest.update(b"unreadable")
    return digest.hexdigest()


def faces_of(one: Set) -> list[tuple[str, Face]]:
    """A set's faces by the key their URL uses: "1" … "n", then "back"."""
    keyed = [(str(n), face) for n, face in enumerate(one.faces, start=1)]
    return keyed + ([("back", one.back)] if one.back is not None else [])


_TAG = re.compile(r"<[^>]+>")
_ID = re.compile(r'\b(id="|href="#)')


def inline_svg(text: str, prefix: str, css_class: str) -> str:
    """A standalone SVG made fit to sit in an HTML page beside others: no XML declaration, its ids
    (and the references to them) prefixed so two SVGs on one page never share one, and a class."""
    text = text[text.index("<svg"):] if "<svg" in text else text
    text = _TAG.sub(lambda tag: _ID.sub(lambda m: m.group(1) + prefix, tag.group(0)), text)
    return text.replace("<svg ", f'<svg class="{css_class}" ', 1)
