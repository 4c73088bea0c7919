"""One-off: lay out the 15 New York locations (the data has no positions) from a rough sketch of
Manhattan (north up, Brooklyn across the East River), relaxed so each route's ends sit about as far
apart as its spaces need; writes `at: [x, y]` into content/ttr-new-york/map.yaml. Hand and
adjustments made with `pnpgen fit` follow in the YAML."""
import math
import re
from pathlib import Path

MAP = Path("content/ttr-new-york/map.yaml")
SKETCH = {  # rough geography, mm on the 380 × 560 board
    "Lincoln Center": (95, 110), "Central Park": (190, 60), "Midtown West": (80, 200),
    "Times Square": (170, 170), "United Nations": (290, 150), "Empire State Building": (180, 250),
    "Chelsea": (80, 290), "Gramercy Park": (260, 270), "Greenwich Village": (150, 350),
    "East Village": (280, 360), "Soho": (100, 420), "Chinatown": (190, 440),
    "Lower East Side": (280, 430), "Wall Street": (170, 510), "Brooklyn": (320, 510),
}


def target(length):
    return 20 * length + 2 * (length - 1) + 44


text = MAP.read_text(encoding="utf-8")
routes = [(a, b, int(n)) for a, b, n in re.findall(r"^  - \[([^,]+), ([^,]+), (\d+),", text, re.M)]
pos = {k: list(v) for k, v in SKETCH.items()}
linked = {frozenset((a, b)) for a, b, _ in routes}
names = list(pos)
for _ in range(3000):
    force = {k: [0.0, 0.0] for k in pos}
    for a, b, n in routes:
        (ax, ay), (bx, by) = pos[a], pos[b]
        d = math.hypot(bx - ax, by - ay) or 1
        f = (d - target(n)) / d * 0.1
        force[a][0] += (bx - ax) * f
        force[a][1] += (by - ay) * f
        force[b][0] -= (bx - ax) * f
        force[b][1] -= (by - ay) * f
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if frozenset((a, b)) in linked:
                continue
            (ax, ay), (bx, by) = pos[a], pos[b]
            d = math.hypot(bx - ax, by - ay) or 1
            if d < 105:
                f = (105 - d) / d * 0.05
                force[a][0] -= (bx - ax) * f
                force[a][1] -= (by - ay) * f
                force[b][0] += (bx - ax) * f
                force[b][1] += (by - ay) * f
    for k in pos:
        pos[k][0] = min(400, max(40, pos[k][0] + force[k][0]))
        pos[k][1] = min(600, max(40, pos[k][1] + force[k][1]))
for name, (x, y) in pos.items():
    pattern = re.compile(rf"^(  {re.escape(name)}: +\{{.*?)(, at: \[[^\]]*\])?\}}$", re.M)
    text, n = pattern.subn(rf"\g<1>, at: [{round(x)}, {round(y)}]}}", text)
    assert n == 1, name
MAP.write_text(text, encoding="utf-8")
for a, b, n in routes:
    print(f"{a:>22} – {b:<22} {n}: {math.dist(pos[a], pos[b]):5.1f} (target {target(n)})")
