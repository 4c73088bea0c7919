"""What a build writes: output *kinds* (pdf, print-and-play, print-shop, svg, html), profiles of them, and parts.

A producer asks its context ``ctx.wants(kind, part)`` before laying out a file; the answer comes from
the ``Outputs`` the build was given (``pnpgen build --only/--profile/--all``). Adding an output kind is
one line in ``KINDS`` and the ``wants`` calls of the producer that writes it.

A *part* is one deck, component, board or the rule sheet (``deck:tickets``, ``component:trains``,
``board:germany``, ``rules``). A build of some parts only writes no game-wide file (the
print-and-play file, ``components.csv``, the print-shop PDF): each would silently lack the rest of the game.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from generator.errors import ContentError

#: output kind → what it writes (the CLI's help and the README's table say the same)
KINDS = {
    "pdf": "home-printer PDFs, one per deck, component and board (tiles on A4 and Letter, overview) and the rules",
    "print-and-play": "<game>-print-and-play.pdf (everything to print in one file) and components.csv",
    "print-shop": "<game>-print-shop.pdf and print-shop.csv (one page per distinct face and its back, with "
                  "the count), board-<id>.pdf (each board at full size)",
    "svg": "svg/<deck or component>/NNN.svg (every distinct face and back), board-<id>.svg",
    "html": "<game>-rules.html and rules-img/ (the rules as a web page)",
}
#: kinds whose every file is game-wide: written only when the whole game is built
GAME_WIDE = frozenset({"print-and-play"})
#: profile → the kinds it writes; ``home`` is the default
PROFILES = {
    "home": ("pdf", "print-and-play"),
    "shop": ("pdf", "print-shop"),
    "web": ("svg", "html"),
    "all": tuple(KINDS),
}
DEFAULT_PROFILE = "home"
#: how the print-shop PDF pages its cards: one page per distinct face (and its back), or per printed card
PRINT_SHOP_MODES = ("per-face", "per-card")
#: part prefixes: ``deck:ID``, ``component:ID``, ``board:ID``; ``board`` alone is every board, ``rules`` the rules
PART_PREFIXES = ("deck", "component", "board")


@dataclass(frozen=True)
class Outputs:
    """The kinds a build writes, for which parts (None: the whole game), and how the print-shop file pages."""

    kinds: frozenset = frozenset(PROFILES[DEFAULT_PROFILE])
    parts: frozenset | None = None      # canonical part keys (``resolve``), or names as given before it
    print_shop: str = "per-face"
    named: tuple = field(default=(), compare=False)   # the parts as the command line named them (for messages)

    @classmethod
    def everything(cls, print_shop: str = "per-face") -> Outputs:
        """Every kind for the whole game: what the checker lays out, and ``--all``."""
        return cls(frozenset(KINDS), None, print_shop)

    def key(self) -> dict:
        """These outputs as plain data, for the build cache's key (``generator.incremental``)."""
        return {"kinds": sorted(self.kinds), "parts": None if self.parts is None else sorted(self.parts),
                "print_shop": self.print_shop}

    @property
    def whole(self) -> bool:
        return self.parts is None

    def wants(self, kind: str, part: str | None = None) -> bool:
        """Whether the build writes files of ``kind`` for ``part`` (a part key, e.g. ``deck:tickets``); without
        a part, the kind's game-wide file (the print-shop PDF), written only when the whole game is built."""
        assert kind in KINDS, kind   # a producer asking for a kind no one declared is a bug, not content
        if kind not in self.kinds:
            return False
        if self.parts is None:
            return True
        return part is not None and kind not in GAME_WIDE and part in self.parts

    def resolve(self, game) -> Outputs:
        """These outputs with the parts named on the command line turned into part keys of ``game``; an
        unknown or ambiguous name is a ContentError (exit 2) that lists the names ``game`` has."""
        if self.parts is None:
            return self
        known = part_names(game)
        keys = set()
        for name in sorted(self.parts):
            keys |= _part_keys(name, known, game)
        return Outputs(self.kinds, frozenset(keys), self.print_shop, tuple(sorted(self.parts)))

    def not_written(self) -> list[str]:
        """What a part build leaves out that the whole game's build of these kinds would write (for the summary)."""
        if self.parts is None:
            return []
        named = ", ".join(self.named or sorted(self.parts))
        left = []
        if "print-and-play" in self.kinds:
            left.append("the print-and-play file and components.csv")
        if "print-shop" in self.kinds:
            left.append("the print-shop PDF and print-shop.csv")
        return [f"not written: {what} (only {named} built; build the whole game for it)" for what in left]


def part_names(game) -> dict[str, str]:
    """Every part name of ``game`` → its key: ``deck:ID``, ``component:ID``, ``board:ID``, ``board``, ``rules``."""
    names = {"rules": "rules", "board": "board"}
    for deck in game.decks.values():
        if deck.replaced_by is None:
            names[f"deck:{deck.id}"] = f"deck:{deck.id}"
    for part in game.parts.values():
        names[f"component:{part.id}"] = f"component:{part.id}"
    for board in game.boards.values():
        names[f"board:{board.id}"] = f"board:{board.id}"
    return names


def _part_keys(name: str, known: dict[str, str], game) -> set[str]:
    if name in ("board", "boards"):
        return {key for key in known.values() if key.startswith("board:")}
    if name in known:
        return {known[name]}
    matches = sorted(key for key in known.values() if ":" in key and key.split(":", 1)[1] == name)
    if len(matches) == 1:
        return {matches[0]}
    valid = ", ".join([*KINDS, *sorted(k for k in known if k != "board"), "board"])
    if matches:
        raise ContentError(None, f"--only {name}: {game.id} has more than one part of that name ({', '.join(matches)})",
                           f"name the one you mean: {' or '.join(matches)}")
    raise ContentError(None, f"--only {name}: {game.id} has no output kind or part of that name",
                       f"use one of: {valid} (a deck, component or board may also be named by its id alone)")


def parse_only(values: tuple[str, ...], profile: str | None, every: bool, print_shop: str = "per-face") -> Outputs:
    """``--only`` values (repeatable, comma-separated), ``--profile`` and ``--all`` as one ``Outputs``.

    A name in ``KINDS`` is a kind; any other is a part, resolved per game (``Outputs.resolve``). Kinds come from
    ``--only`` kinds, else ``--all``, else ``--profile`` (default ``home``); naming two of them is a ContentError.
    """
    names = [n.strip() for value in values for n in value.split(",") if n.strip()]
    kinds = [n for n in names if n in KINDS]
    parts = [n for n in names if n not in KINDS]
    sources = [what for what, given in (("--only with output kinds", kinds), ("--all", every),
                                        ("--profile", profile is not None)) if given]
    if len(sources) > 1:
        raise ContentError(None, f"{' and '.join(sources)} both choose what to write",
                           "use one: --only KIND[,KIND], --profile " + "|".join(PROFILES) + ", or --all")
    if profile is not None and profile not in PROFILES:
        raise ContentError(None, f"--profile {profile}: no such profile",
                           f"use one of: {', '.join(PROFILES)}")
    if print_shop not in PRINT_SHOP_MODES:
        raise ContentError(None, f"--print-shop {print_shop}: no such mode", f"use one of: {', '.join(PRINT_SHOP_MODES)}")
    chosen = kinds or PROFILES["all" if every else profile or DEFAULT_PROFILE]
    return Outputs(frozenset(chosen), frozenset(parts) if parts else None, print_shop, tuple(parts))
