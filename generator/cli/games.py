"""The game folders a command is given: a module of its own, without the consoles (rich), so that
``pnpgen --version`` and ``pnpgen -h`` load click and nothing else beyond the base."""
from __future__ import annotations

from pathlib import Path

from generator.errors import ContentError


def find_games(paths: tuple[str, ...]) -> list[Path]:
    """Game folders named on the command line, or every folder under content/."""
    if paths:
        return [Path(p) for p in paths]
    root = Path("content")
    if not root.is_dir():
        raise ContentError(None, "no game folder named, and no content/ folder here to take the games from",
                           "name a game folder (the folder that holds game.yaml), e.g. pnpgen build path/to/my-game; "
                           "with none named, pnpgen takes every game under content/ in the current folder "
                           "(in the pnpgen repository: the bundled games)")
    games = sorted(p for p in root.iterdir() if (p / "game.yaml").is_file())
    if not games:
        raise ContentError(None, "content/ holds no game folder (a folder with game.yaml)", "add a game folder")
    return games


def _games_for(games: tuple[str, ...], addons: tuple[str, ...]) -> list[Path]:
    """The games to load; composing add-ons needs the base games named."""
    if addons and not games:
        raise ContentError(None, "--with composes an add-on into a game: name the game too",
                           "e.g. pnpgen build content/ttr-germany --with content/ttr-dice")
    return find_games(games)
