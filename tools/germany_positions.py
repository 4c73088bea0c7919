"""One-off: scale the reference pixel positions of ../shared/data/germany_cities.csv onto the
525 × 790 mm portrait board and write them as `at: [x, y]` into content/ttr-germany/map.yaml.
Hand adjustments made afterwards live in the YAML (this script is kept for the record)."""
import csv
import re
import sys
from pathlib import Path

CSV = Path("/work/shared/data/germany_cities.csv")
MAP = Path("content/ttr-germany/map.yaml")
W, H, BORDER, PAD = 525.0, 790.0, 14.0, 13.0

rows = [r for r in csv.DictReader(line for line in CSV.open(encoding="utf-8") if not line.startswith("#"))]
main = {r["name"]: (float(r["x"]), float(r["y"])) for r in rows if int(r["id"]) < 1000}
xs = [x for x, _ in main.values()]
ys = [y for _, y in main.values()]
s = min((W - 2 * (BORDER + PAD)) / (max(xs) - min(xs)), (H - 2 * (BORDER + PAD)) / (max(ys) - min(ys)))
ox = (W - (max(xs) - min(xs)) * s) / 2
oy = (H - (max(ys) - min(ys)) * s) / 2
print(f"scale {s:.4f} mm/px", file=sys.stderr)
text = MAP.read_text(encoding="utf-8")
for name, (x, y) in main.items():
    bx, by = round(ox + (x - min(xs)) * s), round(oy + (y - min(ys)) * s)
    pattern = re.compile(rf"^(  {re.escape(name)}: \{{.*?)(, at: \[[^\]]*\])?\}}$", re.M)
    text, n = pattern.subn(rf"\g<1>, at: [{bx}, {by}]}}", text)
    assert n == 1, name
MAP.write_text(text, encoding="utf-8")
