"""PNP71x — colours: train colours a colour-blind player could not tell apart.

About 8 % of men see colour with one kind of cone missing or shifted. Their view of a colour is
simulated with the model of Machado, Oliveira & Fernandes (2009, "A physiologically-based model
for simulation of color vision deficiency", IEEE TVCG 15(6)), at severity 100 (dichromacy:
protanopia, deuteranopia, tritanopia), as the ``colorspacious`` library implements it, and two
simulated colours are compared by their distance in CAM02-UCS (Luo, Cui & Li 2006), a space in
which equal distances look equally different. A pair that comes closer than ``MIN_DELTA_E`` for
any of the three is reported unless something other than colour tells the two apart: each has a
symbol of its own (palette ``symbol:``, printed on the cards and the train spaces), or one is the
gray of routes any colour may claim, which the board hatches.

The colours compared are those a player must match: the colours of routes and of cards with a
``color`` field (train cards), wild colours left out (their cards carry a picture of their own).
"""
from __future__ import annotations

import itertools
import math
from functools import lru_cache

from generator import cache
from generator.check.maps import ANY_COLOUR, card_colours, route_sets, wild_colours
from generator.check.registry import Issue, check
from generator.model.game import Color

#: The smallest CAM02-UCS distance (ΔE) at which two simulated colours count as told apart.
#: ΔE ≈ 1 is a just-noticeable difference between patches side by side; telling a lone card's
#: colour from another across a table needs far more. The closest pair of train colours in the
#: bundled games for normal vision is orange–yellow at ΔE 22, which players tell apart; half of
#: that, rounded up, is where a pair stops being one a player can name at a glance. It flags
#: red–green (5.9) and pink–gray (6.1) for deuteranopes and blue–purple (6.6) for protanopes.
MIN_DELTA_E = 12.0

#: the three dichromacies of the Machado model, by the name colorspacious gives them
DEFICIENCIES = (("deuteranomaly", "deuteranopia"), ("protanomaly", "protanopia"), ("tritanomaly", "tritanopia"))


@lru_cache(maxsize=1024)
def simulated(hex_color: str, cvd_type: str) -> tuple[float, float, float]:
    """``hex_color`` as seen with the dichromacy ``cvd_type``, in CAM02-UCS (J', a', b')."""
    import colorspacious  # with numpy, 0.1–0.4 s to import: only when a game has colours to compare

    rgb = [int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    space = {"name": "sRGB1+CVD", "cvd_type": cvd_type, "severity": 100}
    j, a, b = colorspacious.cspace_convert(rgb, space, "CAM02-UCS")
    return float(j), float(a), float(b)


def palette_views(hexes) -> dict[str, dict[str, tuple[float, float, float]]]:
    """Each colour as each dichromacy sees it (``simulated``): hex → cvd type → (J', a', b').

    Worked out once per palette and kept in the build cache (``generator.cache.keep_derived``): a check of a
    game whose palette did not change reads them back instead of importing colorspacious and numpy (0.1 s)."""
    palette = sorted(set(hexes))
    kept = cache.recall_derived("colour-views", palette)
    if kept is not None and _well_formed(kept, palette):
        return {h: {cvd: (kept[h][cvd][0], kept[h][cvd][1], kept[h][cvd][2]) for cvd, _ in DEFICIENCIES}
                for h in palette}
    views = {h: {cvd: simulated(h, cvd) for cvd, _ in DEFICIENCIES} for h in palette}
    cache.keep_derived("colour-views", palette, views)
    return views


def _well_formed(kept: dict, palette: list[str]) -> bool:
    """A kept record has every colour and dichromacy asked, each three finite numbers (JSON keeps floats exactly)."""
    try:
        return all(len(kept[h][cvd]) == 3 and all(isinstance(v, float) and math.isfinite(v) for v in kept[h][cvd])
                   for h in palette for cvd, _ in DEFICIENCIES)
    except (KeyError, TypeError):
        return False


def closest_view(hex_a: str, hex_b: str, views: dict | None = None) -> tuple[float, str]:
    """The smallest CAM02-UCS distance between two colours over the three dichromacies, and which
    (``views``: ``palette_views`` of a palette holding both, else each is simulated here)."""
    found = []
    for cvd_type, label in DEFICIENCIES:
        if views is not None:
            a, b = views[hex_a][cvd_type], views[hex_b][cvd_type]
        else:
            a, b = simulated(hex_a, cvd_type), simulated(hex_b, cvd_type)
        found.append((sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5, label))
    return min(found)


def mark(color: Color) -> str:
    """What besides colour tells ``color`` apart on cards and board: its symbol, gray's hatching, or ""."""
    return color.symbol or ("hatching" if color.id == ANY_COLOUR else "")


def matched_colours(game) -> list[Color]:
    """The colours a player matches cards to routes by, in content order, wild ones left out."""
    found: dict[str, Color] = {}
    for route in (r for routes in route_sets(game) for r in routes):
        for colour in route.colors:
            found.setdefault(colour.id, colour)
    palette = game.collections.get("color", {})
    for colour_id in card_colours(game):
        if colour_id in palette:
            found.setdefault(colour_id, palette[colour_id])
    wild = wild_colours(game)
    return [c for c in found.values() if c.id not in wild]


@check("PNP710", "warning", "two train colours look alike to colour-blind players and no symbol tells them apart")
def indistinct_colours(game):
    # a pair told apart by two different marks is never reported, however alike its colours: only the others
    # are simulated (a palette with a symbol for every colour, as the bundled games have, needs no colour science)
    pairs = [(a, b) for a, b in itertools.combinations(matched_colours(game), 2)
             if a.hex != b.hex   # one colour under two names: PNP3xx's business, not a matter of sight
             and not (mark(a) and mark(b) and mark(a) != mark(b))]
    views = palette_views(c.hex for pair in pairs for c in pair) if pairs else {}
    for a, b in pairs:
        distance, seen_by = closest_view(a.hex, b.hex, views)
        if distance >= MIN_DELTA_E:
            continue
        mark_a, mark_b = mark(a), mark(b)
        why = (f"both have the symbol '{mark_a}'" if mark_a and mark_a == mark_b
               else "neither has a symbol" if not (mark_a or mark_b)
               else f"'{b.id if mark_a else a.id}' has no symbol")
        yield Issue(b.source, f"colours '{a.id}' and '{b.id}' look alike with {seen_by} (ΔE {distance:.1f} in "
                              f"CAM02-UCS, under {MIN_DELTA_E:g}) and {why}",
                    "give each a distinct symbol: in the palette (symbol: circle, square, triangle, …), "
                    "or change one colour")
