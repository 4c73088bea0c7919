"""Speed floor for the card-sheet benchmark: a plain, hand-written ReportLab script.

It draws the same kind of sheet pnpgen produces (44 x 67 mm cards, 3 mm bleed,
3 x 3 per A4 page, crop marks in the outer margin, long-edge duplex backs) with
no templating, layout engine or validation, so its time is the lower bound that
pnpgen's own pipeline is measured against.

    python benchmarks/floor_reportlab.py --cards 199 --out /tmp/floor.pdf
"""

from __future__ import annotations

import argparse
from pathlib import Path

from reportlab.lib.colors import Color, white
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

FONT_NAME = "IPAexGothic"
FONT_PATH = Path(__file__).resolve().parents[1] / "generator/fonts/ipaexg.ttf"

# Card geometry (points).
TRIM_W, TRIM_H = 44 * mm, 67 * mm
BLEED = 3 * mm
SAFE = 3 * mm  # safe zone inset from the trim
CARD_W, CARD_H = TRIM_W + 2 * BLEED, TRIM_H + 2 * BLEED  # 50 x 73 mm bleed box
COLS, ROWS = 3, 3
PER_PAGE = COLS * ROWS

PAGE_W, PAGE_H = A4
GRID_X0 = (PAGE_W - COLS * CARD_W) / 2  # left edge of the leftmost bleed box
GRID_Y0 = (PAGE_H - ROWS * CARD_H) / 2  # bottom edge of the bottom bleed box

# Crop marks: 4 mm long, 0.25 pt, starting 1 mm outside the bleed edge.
MARK_GAP, MARK_LEN, MARK_WIDTH = 1 * mm, 4 * mm, 0.25

COLOURS = [
    Color(0.80, 0.22, 0.20), Color(0.93, 0.55, 0.15), Color(0.95, 0.78, 0.20),
    Color(0.35, 0.65, 0.30), Color(0.15, 0.55, 0.55), Color(0.20, 0.40, 0.75),
    Color(0.45, 0.30, 0.70), Color(0.75, 0.30, 0.55), Color(0.40, 0.40, 0.40),
]
BACK_COLOUR = Color(0.13, 0.17, 0.30)
NAMES = [
    "ベルリン / Berlin", "東京 / Tokyo", "パリ / Paris", "ローマ / Rome",
    "大阪 / Osaka", "ウィーン / Wien", "京都 / Kyoto", "オスロ / Oslo", "リマ / Lima",
]
TITLE_SIZE = 9
POINTS_SIZE = 20
POINTS_R = 7 * mm
PAD = 1 * mm  # padding inside the safe-zone panel


def cell_origin(col: int, row: int) -> tuple[float, float]:
    """Lower-left corner of the bleed box in grid cell (col, row); row 0 is the top row."""
    return GRID_X0 + col * CARD_W, GRID_Y0 + (ROWS - 1 - row) * CARD_H


def draw_crop_marks(c: canvas.Canvas) -> None:
    """Trim marks in the outer page margin only, for the full 3 x 3 grid."""
    c.setLineWidth(MARK_WIDTH)
    c.setStrokeColor(Color(0, 0, 0))
    left, right = GRID_X0, GRID_X0 + COLS * CARD_W
    bottom, top = GRID_Y0, GRID_Y0 + ROWS * CARD_H
    lines = []
    for col in range(COLS):
        x0 = GRID_X0 + col * CARD_W + BLEED
        for x in (x0, x0 + TRIM_W):
            lines.append((x, top + MARK_GAP, x, top + MARK_GAP + MARK_LEN))
            lines.append((x, bottom - MARK_GAP, x, bottom - MARK_GAP - MARK_LEN))
    for row in range(ROWS):
        y0 = GRID_Y0 + row * CARD_H + BLEED
        for y in (y0, y0 + TRIM_H):
            lines.append((left - MARK_GAP, y, left - MARK_GAP - MARK_LEN, y))
            lines.append((right + MARK_GAP, y, right + MARK_GAP + MARK_LEN, y))
    c.lines(lines)


def draw_front(c: canvas.Canvas, i: int, x: float, y: float) -> None:
    """Card i's front with its bleed box's lower-left corner at (x, y)."""
    colour = COLOURS[i % len(COLOURS)]
    c.setFillColor(colour)
    c.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)

    # White rounded panel: the safe zone, inset 3 mm from the trim.
    inset = BLEED + SAFE
    c.setFillColor(white)
    c.roundRect(x + inset, y + inset, CARD_W - 2 * inset, CARD_H - 2 * inset,
                2 * mm, stroke=0, fill=1)

    # Title line: card number + bilingual name.
    c.setFillColor(Color(0, 0, 0))
    c.setFont(FONT_NAME, TITLE_SIZE)
    c.drawString(x + inset + PAD, y + CARD_H - inset - PAD - TITLE_SIZE,
                 f"{i + 1} {NAMES[i % len(NAMES)]}")

    # Points: big number in a circle at the lower right of the safe zone.
    cx = x + CARD_W - inset - PAD - POINTS_R
    cy = y + inset + PAD + POINTS_R
    c.setFillColor(colour)
    c.circle(cx, cy, POINTS_R, stroke=0, fill=1)
    c.setFillColor(white)
    c.setFont(FONT_NAME, POINTS_SIZE)
    c.drawCentredString(cx, cy - POINTS_SIZE * 0.35, str(i * 7 % 10 + 1))


def define_back(c: canvas.Canvas) -> str:
    """Draw the (identical) card back once as a form XObject, origin at the bleed box's corner."""
    name = "card_back"
    c.beginForm(name, lowerx=0, lowery=0, upperx=CARD_W, uppery=CARD_H)
    c.setFillColor(BACK_COLOUR)
    c.rect(0, 0, CARD_W, CARD_H, stroke=0, fill=1)
    c.setFillColor(white)
    c.setFont(FONT_NAME, 14)
    c.drawCentredString(CARD_W / 2, CARD_H / 2 + 2, "カード")
    c.setFont(FONT_NAME, 9)
    c.drawCentredString(CARD_W / 2, CARD_H / 2 - 12, "PNPGEN")
    c.endForm()
    return name


def build(n_cards: int, out_path: str) -> None:
    """Write n_cards fronts, each sheet followed by its mirrored back page, to out_path."""
    if FONT_NAME not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT_NAME, str(FONT_PATH)))
    # initialFontName: the default (Helvetica) would be referenced, unembedded,
    # in every page's preamble even though no text uses it.
    c = canvas.Canvas(out_path, pagesize=A4, invariant=1,
                      initialFontName=FONT_NAME, initialFontSize=TITLE_SIZE)
    back = define_back(c)

    for start in range(0, n_cards, PER_PAGE):
        count = min(PER_PAGE, n_cards - start)

        for k in range(count):
            row, col = divmod(k, COLS)
            draw_front(c, start + k, *cell_origin(col, row))
        draw_crop_marks(c)
        c.showPage()

        # Long-edge duplex: flipping the sheet about its vertical axis mirrors columns.
        for k in range(count):
            row, col = divmod(k, COLS)
            x, y = cell_origin(COLS - 1 - col, row)
            c.saveState()
            c.translate(x, y)
            c.doForm(back)
            c.restoreState()
        draw_crop_marks(c)
        c.showPage()

    c.save()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=199, help="number of cards (default 199)")
    parser.add_argument("--out", required=True, help="output PDF path")
    args = parser.parse_args(argv)
    build(args.cards, args.out)


if __name__ == "__main__":
    main()
