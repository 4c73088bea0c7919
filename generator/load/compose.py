"""Add-ons: a game folder composed into another (the dice expansion into any TTR map).

An add-on is an ordinary game folder (game.yaml + included files, rules.md).
Composing it reads its sections into the base game's, by key, before the
model is built — so its decks, components and tables are the game's like any
other, and its rules become a chapter after the game's own. A key both define
is an error unless both define it the same way (a shared colour, say).

Two ways in: ``pnpgen build content/ttr-germany --with content/ttr-dice`` (an
ad-hoc composition, built into ``output/ttr-germany+ttr-dice/`` so the plain
game's output stays as it is), or ``game: {with: [../ttr-dice]}`` in the
game's game.yaml (the add-on is then part of the game, same output folder).
A declared add-on must be a folder beside the game (``../ttr-dice``), links followed:
not the content folder itself, nor a link to a folder elsewhere; its own files are read
under the same containment as the game's (``generator.paths``).
"""
from __future__ import annotations

from pathlib import Path

from generator.errors import ContentError, Source
from generator.load.files import collect, game_id_of, read_main
from generator.model.game import AddOn
from generator.paths import folder_name, resolved
from generator.yamlsource import LDict


def compose(folder: Path, main: LDict, merged: dict, routes: list, extra: tuple) -> list[AddOn]:
    """Merge every add-on into ``merged``/``routes``; returns them in order (declared first)."""
    wanted: list[tuple[Path, Source]] = []
    declared = main["game"].get("with", [])
    content_root = folder.resolve().parent
    for i, name in enumerate(declared):
        src = declared.src(i)
        path = resolved(folder / str(name), src)
        if path.parent != content_root:  # not ../.. (which holds every game), nor a link to a folder elsewhere
            raise ContentError(src, f"add-on '{name}' is outside {content_root.name}/" if not path.is_relative_to(
                                   content_root) else f"add-on '{name}' is not a folder beside {folder_name(folder)}",
                               "an add-on named in game.yaml must be a game folder beside this one, e.g. ../ttr-dice")
        wanted.append((path, src))
    wanted += [(Path(name).resolve(), Source(Path(name))) for name in extra]
    addons: list[AddOn] = []
    seen = {folder.resolve()}
    for path, src in wanted:
        if path in seen:
            raise ContentError(src, f"'{path.name}' is composed twice (or into itself)",
                               "name each add-on once, in game.yaml's with: or on the command line")
        seen.add(path)
        if not (path / "game.yaml").is_file():
            raise ContentError(src, f"add-on '{path.name}' is not a game folder (no game.yaml)",
                               "give the add-on's folder, e.g. content/ttr-dice")
        addons.append(_merge_addon(path, src, merged, routes))
    return addons


def _merge_addon(folder: Path, src: Source, merged: dict, routes: list) -> AddOn:
    main = read_main(folder)
    meta = main["game"]
    if "with" in meta:
        raise ContentError(meta.src("with"), "an add-on cannot itself compose add-ons",
                           "name every add-on in the base game's with: (or on the command line)")
    before = {section: set(entries) for section, entries in merged.items()}
    game_id = game_id_of(folder, main)

    def merge(target: dict, section: str, value: LDict) -> None:
        entries = target.setdefault(section, {})
        for key, item in value.items():
            if key in entries:
                if entries[key][0] == item:
                    continue  # the same definition twice (a shared colour): one is enough
                raise ContentError(value.src(key), f"add-on '{game_id}' defines '{key}' in {section} differently "
                                                   f"from the game (at {entries[key][1]})",
                                   "rename it in the add-on, or define it the same way")
            entries[key] = (item, value.src(key))

    collect(folder, main, merged, routes, merge)
    keys = {section: frozenset(set(entries) - before.get(section, set())) for section, entries in merged.items()}
    return AddOn(game_id, str(meta["title"]), str(meta.get("latin", "")), folder, src,
                 {section: k for section, k in keys.items() if k}, tuple(str(r) for r in meta.get("replaces", [])),
                 meta.src("replaces") if "replaces" in meta else None)
