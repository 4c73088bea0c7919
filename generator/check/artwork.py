"""PNP720 — pictures: printed sharp enough.

The pictures are found where the build finds them: the whole build is laid out
(``dry.laid_out``, as PNP704–705 do), and every picture a face, board or rule
sheet drew was recorded with the line that named it and its printed size
(``images.recorded_uses``). A picture that cannot be used at all (missing, not a
PNG/JPEG/SVG, malformed, too large, outside the game folder) is not a finding:
the layout raises a ContentError at that line, so ``check`` exits 2 exactly as
``build`` does.
"""
from __future__ import annotations

from generator.check.dry import laid_out
from generator.check.registry import Issue, check
from generator.layout import images


@check("PNP720", "warning", f"a raster picture prints below {images.MIN_DPI} dpi at its printed size")
def low_resolution(game):
    laid_out(game)   # lays out every face, board and page the build writes, recording their pictures
    reported = set()
    for use in images.recorded_uses(game):
        if not use.picture.raster:
            continue
        dpi = images.dpi(use.picture, use.image)
        key = (str(use.source), use.picture.path)
        if dpi >= images.MIN_DPI - 0.5 or key in reported:
            continue
        reported.add(key)
        shown = images.placement(use.image, use.picture.width, use.picture.height)
        need_w = round(shown.w / images.MM_PER_INCH * images.MIN_DPI)
        need_h = round(shown.h / images.MM_PER_INCH * images.MIN_DPI)
        yield Issue(use.source,
                    f"picture '{use.shown}' ({use.picture.width:.0f} × {use.picture.height:.0f} px) prints at "
                    f"{dpi:.0f} dpi on {use.what}, drawn {shown.w:.1f} × {shown.h:.1f} mm: below {images.MIN_DPI} dpi "
                    "it prints soft",
                    f"use a picture of at least {need_w} × {need_h} px, or print it smaller")
