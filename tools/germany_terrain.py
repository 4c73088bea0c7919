"""One-off: Germany's outline, its neighbours and the sea, projected onto the Germany board, written
as the board's `terrain:` in content/ttr-germany/map.yaml. pnpgen never runs this: the polygons it
writes are plain content, so a build needs none of the geodata packages below.

Source: Natural Earth 1:50m Admin 0 countries (public domain, naturalearthdata.com), as shipped in
Debian's package r-cran-rnaturalearthdata 0.1.0 (CC0; the data is Natural Earth's own). Get it and
the readers into a scratch venv, outside the project:

    apt-get download r-cran-rnaturalearthdata && dpkg-deb -x r-cran-rnaturalearthdata_*.deb /tmp/ne
    python3 -m venv /tmp/geo && /tmp/geo/bin/pip install rdata shapely numpy scipy
    /tmp/geo/bin/python tools/germany_terrain.py /tmp/ne [--write]

The R package keeps its data in a lazy-load database (Rdata.rdx: a gzip index of offsets; Rdata.rdb:
chunks of 4-byte length, a type byte "Z" and raw LZMA2); `rdata` parses the serialised sp object.

The board is not a map projection: its cities were placed from a picture of the published board and
nudged until every route held its spaces (tools/germany_positions.py, `pnpgen fit`). So the outline is
fitted to the cities: longitude and latitude (equirectangular at 51° N) go to board mm by the affine
map that fits the 35 cities best (least squares), and then by a thin-plate spline through the
residuals, so each city sits where the board has it, relative to the coast and the borders, and the
map bends smoothly in between. A city the 1:50m border leaves abroad (Konstanz, on the Bodensee's
Swiss shore: this scale draws no lake) gets CITY_GROUND mm of Germany round it. Shapes are clipped
to the map inside the score track, simplified by SIMPLIFY mm and rounded to 0.1 mm.
"""
from __future__ import annotations

import argparse
import gzip
import lzma
import math
import re
import struct
import sys
import warnings
from pathlib import Path

import numpy as np
import rdata
import shapely
from scipy.interpolate import RBFInterpolator
from shapely.geometry import MultiPolygon, Polygon

MAP = Path(__file__).resolve().parents[1] / "content/ttr-germany/map.yaml"
MARKER = "    # terrain: written by tools/germany_terrain.py"
W, H, TRACK = 525.0, 790.0, 14.0          # the board and its score track's band (the map lies inside it)
SIMPLIFY = 0.6                            # mm on the board
CITY_GROUND = 6.0                         # mm of Germany round a city the outline leaves abroad
#: the cities' longitude and latitude (degrees E, N)
CITIES = {
    "Augsburg": (10.898, 48.371), "Berlin": (13.405, 52.520), "Bremen": (8.807, 53.079),
    "Bremerhaven": (8.581, 53.540), "Chemnitz": (12.921, 50.833), "Dortmund": (7.468, 51.514),
    "Dresden": (13.738, 51.050), "Düsseldorf": (6.773, 51.227), "Emden": (7.206, 53.367),
    "Erfurt": (11.029, 50.978), "Frankfurt": (8.682, 50.111), "Freiburg": (7.842, 47.999),
    "Hamburg": (9.993, 53.551), "Hannover": (9.732, 52.375), "Karlsruhe": (8.404, 49.007),
    "Kassel": (9.480, 51.312), "Kiel": (10.123, 54.323), "Koblenz": (7.589, 50.357),
    "Konstanz": (9.175, 47.660), "Köln": (6.960, 50.938), "Leipzig": (12.374, 51.340),
    "Lindau": (9.684, 47.546), "Magdeburg": (11.627, 52.121), "Mainz": (8.247, 49.993),
    "Mannheim": (8.466, 49.487), "München": (11.576, 48.137), "Münster": (7.626, 51.961),
    "Nürnberg": (11.077, 49.452), "Regensburg": (12.102, 49.013), "Rostock": (12.099, 54.092),
    "Saarbrücken": (6.997, 49.240), "Schwerin": (11.401, 53.635), "Stuttgart": (9.183, 48.776),
    "Ulm": (9.993, 48.401), "Würzburg": (9.953, 49.791),
}
#: Natural Earth's names of the countries drawn, and what the shape is called in the content
COUNTRIES = {"Germany": "Deutschland", "Denmark": "Dänemark", "Netherlands": "Niederlande", "Belgium": "Belgien",
             "Luxembourg": "Luxemburg", "France": "Frankreich", "Switzerland": "Schweiz",
             "Liechtenstein": "Liechtenstein", "Austria": "Österreich", "Czech Rep.": "Tschechien",
             "Czechia": "Tschechien", "Poland": "Polen", "Sweden": "Schweden", "Italy": "Italien"}


#: names printed on the ground: the seas, and the neighbours that are no terminal (those carry their own name)
LABELS = {"Nordsee": ("北海", "Nordsee"), "Ostsee": ("バルト海", "Ostsee"), "Tschechien": ("チェコ", "Tschechien"),
          "Polen": ("ポーランド", "Polen"), "Belgien": ("ベルギー", "Belgien"), "Luxemburg": ("ルクセンブルク", "Luxemburg")}
LABEL_ROOM = 14.0   # mm: the least distance from a label's point to its shape's edge (else no label)


def label_at(shape) -> tuple[float, float] | None:
    """The point of ``shape`` farthest inside it (its pole of inaccessibility), if a label has room there."""
    from shapely.ops import polylabel
    best = max(getattr(shape, "geoms", [shape]), key=lambda g: g.area)
    point = polylabel(best, tolerance=0.5)
    return (round(point.x), round(point.y)) if best.exterior.distance(point) >= LABEL_ROOM else None


def countries(folder: Path) -> dict[str, MultiPolygon]:
    """Natural Earth's 1:50m countries from the R package's lazy-load database, by name (lon/lat)."""
    base = next(folder.rglob("rnaturalearthdata/data/Rdata.rdx")).with_suffix("")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        index = rdata.conversion.convert(rdata.parser.parse_data(gzip.decompress(base.with_suffix(".rdx").read_bytes())))
        offset, length = (int(v) for v in index["variables"]["countries50"])
        chunk = base.with_suffix(".rdb").read_bytes()[offset:offset + length]
        assert chunk[4:5] == b"Z", "expected an LZMA2 chunk"
        raw = lzma.decompress(chunk[5:], format=lzma.FORMAT_RAW,
                              filters=[{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME}])
        assert struct.unpack(">I", chunk[:4])[0] == len(raw)
        sp = rdata.conversion.convert(rdata.parser.parse_data(raw, expand_altrep=True))
    out = {}
    for name, polygons in zip(sp.data["name"], sp.polygons):
        shells = [Polygon(p.coords) for p in polygons.Polygons if not bool(p.hole[0])]
        holes = [Polygon(p.coords) for p in polygons.Polygons if bool(p.hole[0])]
        shape = shapely.unary_union(shells)
        if holes:
            shape = shape.difference(shapely.unary_union(holes))
        out[str(name)] = shape
    return out


def board_positions() -> dict[str, tuple[float, float]]:
    text = MAP.read_text(encoding="utf-8")
    return {m[1]: (float(m[2]), float(m[3])) for m in re.finditer(r"^  (\S+): \{.*at: \[([\d.]+), ([\d.]+)\]\}", text, re.M)}


def plane(lon, lat):
    """Equirectangular at 51° N: km-like units in which a degree of longitude is as long as it is there."""
    return np.column_stack([np.asarray(lon) * math.cos(math.radians(51.0)), np.asarray(lat)])


def fitted(board: dict[str, tuple[float, float]]):
    """A function from lon/lat arrays to board mm: the best affine map plus a thin-plate spline through its residuals."""
    names = sorted(CITIES)
    src = plane([CITIES[n][0] for n in names], [CITIES[n][1] for n in names])
    dst = np.array([board[n] for n in names])
    design = np.column_stack([src, np.ones(len(src))])
    affine, *_ = np.linalg.lstsq(design, dst, rcond=None)
    residual = dst - design @ affine
    err = np.hypot(*residual.T)
    print(f"affine fit: residuals mean {err.mean():.1f} mm, max {err.max():.1f} mm "
          f"({names[int(err.argmax())]})", file=sys.stderr)
    spline = RBFInterpolator(src, residual, kernel="thin_plate_spline", smoothing=0.0)

    def to_board(lon, lat):
        p = plane(lon, lat)
        return np.column_stack([p, np.ones(len(p))]) @ affine + spline(p)

    return to_board


def project(shape, to_board):
    """A lon/lat shape on the board (densified first, so the bend between cities follows the spline)."""
    shape = shapely.segmentize(shape.intersection(shapely.box(2.0, 44.5, 18.0, 57.5)), 0.05)

    def ring(coords):
        xy = np.asarray(coords)
        out = to_board(xy[:, 0], xy[:, 1])
        out[-1] = out[0]   # the spline, evaluated in chunks, need not give the closing point the same last bit
        return out

    polygons = [g for g in getattr(shape, "geoms", [shape]) if g.geom_type == "Polygon" and not g.is_empty]
    return shapely.make_valid(MultiPolygon([Polygon(ring(p.exterior.coords), [ring(i.coords) for i in p.interiors])
                                            for p in polygons]))


def yaml_points(points, indent: str) -> str:
    cells = [f"[{x:.1f}, {y:.1f}]".replace(".0,", ",").replace(".0]", "]") for x, y in points]
    lines, line = [], ""
    for cell in cells:
        if len(line) + len(cell) + 2 > 104:
            lines.append(line.rstrip())
            line = ""
        line += cell + ", "
    lines.append(line.rstrip(", "))
    return f"[{lines[0]}" + "".join(f"\n{indent}{more}" for more in lines[1:]) + "]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, help="where r-cran-rnaturalearthdata was unpacked")
    parser.add_argument("--write", action="store_true", help="write the terrain into map.yaml")
    args = parser.parse_args()
    world = countries(args.folder)
    to_board = fitted(board_positions())
    frame = shapely.box(TRACK, TRACK, W - TRACK, H - TRACK)
    shapes = [("sea", "Nord- und Ostsee", [list(frame.exterior.coords)[:-1]])]
    for ne_name, name in COUNTRIES.items():
        if ne_name not in world:
            continue
        on_board = project(world[ne_name], to_board).intersection(frame)
        if ne_name == "Germany":   # a city that 1:50m leaves abroad (Konstanz: the scale has no Bodensee) keeps its ground
            board = board_positions()
            astray = [c for c in sorted(CITIES) if not on_board.contains(shapely.Point(board[c]))]
            print(f"cities given ground: {astray}", file=sys.stderr)
            astray = [shapely.Point(board[c]).buffer(CITY_GROUND, 8) for c in astray]
            on_board = shapely.unary_union([on_board, *astray])
        on_board = on_board.simplify(SIMPLIFY, preserve_topology=True)
        parts = [g for g in getattr(on_board, "geoms", [on_board]) if g.geom_type == "Polygon" and g.area > 4.0]
        if parts:
            kind = "land" if ne_name == "Germany" else "region"
            shapes.append((kind, name, [[(round(x, 1), round(y, 1)) for x, y in p.exterior.coords[:-1]]
                                        for p in sorted(parts, key=lambda p: -p.area)]))
    shapes.sort(key=lambda s: ("sea", "region", "land").index(s[0]))   # Germany last: its coast over the sea
    land = shapely.unary_union([Polygon(p) for _k, _n, parts in shapes[1:] for p in parts])
    seas = [g for g in getattr(frame.difference(land), "geoms", [frame.difference(land)]) if g.area > 400]
    labels: dict[str, list[tuple[str, str, tuple[float, float]]]] = {}
    for sea_name, part in (("Nordsee", min(seas, key=lambda g: g.centroid.x)), ("Ostsee", max(seas, key=lambda g: g.centroid.x))):
        at = label_at(part)
        if at:
            labels.setdefault("Nord- und Ostsee", []).append((*LABELS[sea_name], at))
    for _kind, name, parts in shapes:
        if name in LABELS and (at := label_at(Polygon(parts[0]))):
            labels.setdefault(name, []).append((*LABELS[name], at))
    out = [MARKER + " from Natural Earth 1:50m countries (public domain;",
           "    # Debian's r-cran-rnaturalearthdata, CC0), fitted to the cities' positions: do not edit by hand",
           "    terrain:"]
    for kind, name, parts in shapes:
        for n, points in enumerate(parts):
            label = name if len(parts) == 1 else f"{name} {n + 1}"
            out.append(f"      - kind: {kind}\n        name: {label}\n        points: "
                       + yaml_points(points, " " * 17))
            if n == 0 and name in labels:
                out.append("        labels:\n" + "\n".join(f"          - {{text: {text}, latin: {latin}, at: [{x}, {y}]}}"
                                                          for text, latin, (x, y) in labels[name]))
    block = "\n".join(out) + "\n"
    total = sum(len(p) for _k, _n, parts in shapes for p in parts)
    print(f"{sum(len(parts) for _k, _n, parts in shapes)} shapes, {total} points", file=sys.stderr)
    if args.write:
        text = MAP.read_text(encoding="utf-8")
        head = text.split(MARKER)[0].rstrip("\n") + "\n"
        MAP.write_text(head + block, encoding="utf-8")
    else:
        sys.stdout.write(block)


if __name__ == "__main__":
    main()
