"""The game's printed words: ``templates/catalogues/<language>.yaml`` and the game's ``words:`` section.

``game: language:`` picks the catalogue (default ``ja``); an unknown language is a
ContentError at that line, naming the languages there are. The game's ``words:``
entries (in any of its content files) add to or override the catalogue's; an entry
whose key no catalogue knows is a ContentError with a "did you mean". Keys the
reference catalogue (``ja.yaml``) has and the chosen one lacks are recorded on
``Words.missing``, for the checker (PNP901): a missing word is never filled in
from another language.
"""
from __future__ import annotations

from generator.errors import ContentError, Source, did_you_mean
from generator.load.schema import kinds as _kinds
from generator.load.templates import load_template
from generator.model.words import Words
from generator.paths import TEMPLATES_DIR
from generator.yamlsource import LDict

CATALOGUE_DIR = TEMPLATES_DIR / "catalogues"
REFERENCE = "ja"
DEFAULT_LANGUAGE = "ja"


def languages() -> list[str]:
    """The languages there is a catalogue for."""
    return sorted(path.stem for path in CATALOGUE_DIR.glob("*.yaml"))


def catalogue(language: str) -> LDict:
    """The catalogue of ``language`` as read (every value text)."""
    data = load_template(CATALOGUE_DIR / f"{language}.yaml")   # a snapshot of pnpgen's own file, unless edited
    for key, value in data.items():
        if not isinstance(value, str):
            raise ContentError(data.src(key), f"catalogue entry '{key}' is not text", "write it as a string")
    return data


def known_keys(reference: LDict | None = None) -> list[str]:
    """Every key a game's ``words:`` may set: the reference catalogue's (``reference``, if already read) and each
    component kind's."""
    keys = list(catalogue(REFERENCE) if reference is None else reference)
    return keys + [key for key in (kind.label_key for kind in _kinds().values()) if key not in keys]


def load_words(meta: LDict, overrides: dict) -> Words:
    """The words for the game whose ``game:`` section is ``meta``; ``overrides``: its ``words:``
    section merged by key (key → (text, Source))."""
    language = str(meta.get("language", DEFAULT_LANGUAGE))
    where = meta.src("language") if "language" in meta else meta.src()
    available = languages()
    if language not in available:
        raise ContentError(where, f"language: there is no catalogue for '{language}'",
                           (did_you_mean(language, available) or "") +
                           f" (languages: {', '.join(available)}; a catalogue is templates/catalogues/<language>.yaml)")
    chosen = catalogue(language)
    # the reference catalogue read once (a ja game's is its own): three YAML reads were ~20 M instructions a load
    reference = chosen if language == REFERENCE else catalogue(REFERENCE)
    entries = dict(chosen)
    known = known_keys(reference) if overrides else []   # (the kinds' keys: their modules, imported)
    for key, (text, src) in overrides.items():
        if str(key) not in known:
            raise ContentError(src, f"words: unknown key '{key}'",
                               did_you_mean(str(key), known) or "the keys are those of templates/catalogues/ja.yaml")
        entries[str(key)] = str(text)
    missing = tuple(key for key in reference if key not in entries)
    return Words(entries, language, Source(where.file, where.line), missing)
