"""``pnpgen new``: a small, complete starter game written into a new folder.

The starters are real files under ``templates/new/<template>/``: YAML with comments that teach
the format, and a rules.md. A file is written for every language unless its name carries one
(``rules.en.md`` is the English game's ``rules.md``; ``rules.ja.md`` is left out of it). In the
text, ``[[key]]`` is replaced by the key's words in the chosen language, from the template's
``words.yaml`` (``{en: {key: …}, ja: {…}, de: {…}}``), and ``[[game]]`` by the folder's name,
which is the game's id. Nothing else is interpreted: rules.md's own Jinja is left as it is.

``new`` refuses a folder that exists and is not empty, a name starting with ``-`` (an option to every command
given it) or holding ``..``, and writes only inside the folder, never over a file.
"""
from __future__ import annotations

import os
import re
from functools import partial
from pathlib import Path

import yaml

from generator.errors import ContentError
from generator.paths import TEMPLATES_DIR, folder_name, plain_name

#: the starters' folder
STARTERS_DIR = TEMPLATES_DIR / "new"
#: the starters, the first the default
TEMPLATES = ("route", "cards", "line")
LANGUAGES = ("en", "ja", "de")
PLACEHOLDER = re.compile(r"\[\[([A-Za-z0-9_-]+)\]\]")
LANGUAGE_SUFFIX = re.compile(r"\.(" + "|".join(LANGUAGES) + r")(?=\.[^.]+$)")


def create_game(folder: Path, template: str = "route", language: str = "en") -> list[Path]:
    """Write the starter ``template`` in ``language`` into ``folder`` (made if missing); the files written."""
    if template not in TEMPLATES:
        raise ContentError(None, f"unknown template '{template}'", f"choose one of: {', '.join(TEMPLATES)}")
    if language not in LANGUAGES:
        raise ContentError(None, f"unknown language '{language}'", f"choose one of: {', '.join(LANGUAGES)}")
    folder = Path(os.path.abspath(folder))  # 'a/b/../..' is the folder it names, not a/b made on the way
    game_id = plain_name(folder_name(folder), None, "game folder name",
                         "name the folder with letters, digits, '-', '_', '.' and '+' only (e.g. mygame): "
                         "it is the game's id")
    if game_id.startswith("-") or ".." in game_id:
        raise ContentError(None, f"game folder name '{game_id}' "
                           + ("starts with '-': every command given it would read it as an option (pnpgen check -rf)"
                              if game_id.startswith("-") else "contains '..': it reads as a way up to the folder above"),
                           "name the folder with a letter or digit first and no '..' (e.g. mygame): it is the game's id")
    if folder.is_symlink() or folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ContentError(None, f"{folder} already exists and is not an empty folder",
                           "name a new folder (pnpgen new makes it), or empty this one first")
    words = _words(template, language, game_id)
    files = _files(template, language)
    texts = {target: _filled(source, words) for source, target in files}  # every file ready before one is written
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    try:
        for target, text in texts.items():
            path = folder / target
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "x", encoding="utf-8") as stream:   # never over a file made since the folder was looked at
                stream.write(text)
            written.append(path)
    except OSError as error:
        for path in written:   # no half-written starter: what this run wrote is taken back
            path.unlink(missing_ok=True)
        raise ContentError(None, f"cannot write the starter into {folder}: {error.strerror or error}"
                           + (f" ({error.filename})" if error.filename else ""),
                           "name a new folder (pnpgen new makes it) on a writable disk") from None
    return written


def _files(template: str, language: str) -> list[tuple[Path, Path]]:
    """(starter file, path in the new game) for this language: words.yaml and other languages' files left out."""
    root = STARTERS_DIR / template
    pairs = []
    for source in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = source.relative_to(root)
        if relative == Path("words.yaml"):
            continue
        match = LANGUAGE_SUFFIX.search(relative.name)
        if match:
            if match.group(1) != language:
                continue
            relative = relative.with_name(LANGUAGE_SUFFIX.sub("", relative.name))
        pairs.append((source, relative))
    return pairs


def _words(template: str, language: str, game_id: str) -> dict[str, str]:
    path = STARTERS_DIR / template / "words.yaml"
    table = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}
    words = {str(k): str(v) for k, v in (table or {}).get(language, {}).items()}
    words["game"] = game_id
    return words


def _filled(source: Path, words: dict[str, str]) -> str:
    """The starter file's text with its [[key]]s replaced by the language's words."""
    return PLACEHOLDER.sub(partial(_word, words, source), source.read_text(encoding="utf-8"))


def _word(words: dict[str, str], source: Path, match: re.Match) -> str:
    key = match.group(1)
    if key not in words:  # a mistake in pnpgen's own starter, not in the user's content
        raise ContentError(None, f"starter file {source} names [[{key}]], which its words.yaml lacks",
                           "add the key to every language in the template's words.yaml")
    return words[key]
