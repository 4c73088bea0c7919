"""A game folder's files: game.yaml, the files it includes, each read safely and merged by section.

Every file is checked (links followed) to lie inside the game folder, read with the
limits of ``generator.yamlsource``, and validated against the JSON Schema; sections
other than game:/include:/print: may be spread over files and are merged by key.
"""
from __future__ import annotations

from pathlib import Path

from generator.errors import ContentError, Source, did_you_mean
from generator.load.schema import fast_valid, first_error, game_validator, schema_error, schema_keys
from generator.load.sheetdata import expand_sheets
from generator.paths import NAME_HINT, folder_name, inside, not_a_file, plain_name
from generator.yamlsource import LDict, load_yaml

SINGLE_FILE_SECTIONS = ("game", "include", "print")


def merged_sections() -> tuple[str, ...]:
    """Sections that may appear in any content file and are merged by key."""
    return tuple(k for k in schema_keys("properties") if k not in SINGLE_FILE_SECTIONS and k != "routes")


def read_main(folder: Path) -> LDict:
    if not folder.is_dir():
        raise ContentError(Source(folder), "no such game folder",
                           "give a folder under content/ that holds game.yaml")
    main_file = folder / "game.yaml"
    not_a_file(main_file, Source(main_file), "game.yaml", folder_too=True)
    if not main_file.is_file():
        raise ContentError(Source(folder), "no game.yaml in this folder",
                           "every game folder needs game.yaml with a `game:` section")
    inside(main_file, (folder,), Source(main_file))  # a link to a file elsewhere is not the game's
    main = read_content_file(main_file)
    if "game" not in main:
        raise ContentError(main.src(), "game.yaml has no `game:` section", "add `game:` with at least `title:`")
    return main


def collect(folder: Path, main: LDict, merged: dict, routes: list, merge) -> None:
    """Read game.yaml's sections and its included files' into ``merged`` (by key) and ``routes``."""
    main_file = (folder / "game.yaml").resolve()
    files = [main_file]
    for i, name in enumerate(main.get("include", [])):
        path = included_file(folder, name, main["include"].src(i))
        if path in files:  # read twice, every key of it would be "defined twice" at its own line
            raise ContentError(main["include"].src(i), "include: lists game.yaml itself" if path == main_file
                               else f"include: lists '{name}' twice",
                               "list each file once under include: (game.yaml is always read)")
        files.append(path)
    for path in files:
        data = main if path == main_file else read_content_file(path)
        if expand_sheets(data, folder):  # the spreadsheets' rows are checked like the YAML's, at their cells
            _validate(data)
        for key in SINGLE_FILE_SECTIONS:
            if key in data and path != main_file:
                raise ContentError(data.src(key), f"`{key}:` belongs in game.yaml only", "move it to game.yaml")
        for section in merged_sections():
            if section in data:
                merge(merged, section, data[section])
        if "routes" in data:
            routes += [(row, data["routes"].src(i)) for i, row in enumerate(data["routes"])]


def included_file(folder: Path, name: str, src: Source) -> Path:
    path = inside(folder / str(name), (folder,), src, name)
    not_a_file(path, src, name, folder_too=True)   # not "does not exist" for a folder or a named pipe of that name
    if not path.is_file():
        raise ContentError(src, f"included file '{name}' does not exist",
                           did_you_mean(name, [p.name for p in folder.glob("*.y*ml")]) or "check the file name")
    return path


def read_content_file(path: Path) -> LDict:
    data = load_yaml(path)
    if not isinstance(data, LDict):
        raise ContentError(Source(path, 1), "a content file must be a mapping of sections (game:, decks:, …)",
                           "start each section at the left margin as `name:` (a list or a bare value cannot be read)")
    _validate(data)
    return data


def _validate(data: LDict) -> None:
    if fast_valid(data):   # the common case without jsonschema (generator/load/schema.py)
        return
    error = first_error(game_validator(), data)
    if error is not None:
        raise _include_error(data, error) or schema_error(data, error)


def _include_error(data: LDict, error) -> ContentError | None:
    """An entry of include: that the schema's pattern refuses, said in words (not as the regular expression)."""
    path = list(error.absolute_path)
    if error.validator != "pattern" or len(path) != 2 or path[0] != "include":
        return None
    name, src = str(error.instance), data["include"].src(path[1])
    if name.startswith(("/", "\\")):
        return ContentError(src, f"include: lists '{name}', a path from the top of the disk",
                            "name the file from the game folder (e.g. decks.yaml): a game reads only its own files")
    if name.lower().endswith((".yaml", ".yml")):
        return ContentError(src, f"include: lists '{name}': the ending must be written .yaml or .yml (lower case)",
                            "rename the file, and the entry, with a lower-case ending")
    if not name.endswith((".yaml", ".yml")):
        return ContentError(src, f"include: lists '{name}', but only YAML files (ending .yaml or .yml) can be included",
                            "a spreadsheet is read where its rows go, not included: cards: {from: cards.csv} in a "
                            "deck (or places:, routes: {from: …}); see the README, 'Spreadsheet data'")
    return None


def merge_by_key(merged: dict, section: str, value: LDict) -> None:
    target = merged.setdefault(section, {})
    for key, item in value.items():
        if key in target:
            first = target[key][1]
            raise ContentError(value.src(key), f"'{key}' is defined twice in {section} (first at {first})",
                               "rename or remove one of them")
        target[key] = (item, value.src(key))


# --------------------------------------------------------------------------- build


def game_id_of(folder: Path, main: LDict) -> str:
    """The id that names the game's output folder: `game: id:`, else the folder's name (a plain name either way)."""
    meta = main["game"]
    if "id" in meta:
        return plain_name(meta["id"], meta.src("id"), "game id")
    return plain_name(folder_name(folder), main.src("game"), "the game folder's name",
                      "rename the folder, or give the game an id in game.yaml (`game: {id: my-game}`); " + NAME_HINT)
