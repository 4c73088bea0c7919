"""Forms to PNG files at exact pixel sizes: through a PDF (the build's renderer), rasterised by PDFium.

Each image is one page of a throwaway PDF whose size is the image's pixel size
(so PDFium's page-to-bitmap rounding cannot add a row), with the face centred on
it: the cut stays within half a pixel of where the face says.
Images are made one at a time, for the caller to write before the next. The PNG is written
by Pillow with fixed options and no text chunks: the same face gives the same bytes.
"""
from __future__ import annotations

import math
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pypdfium2
from PIL import Image as PILImage

from generator.errors import ContentError
from generator.layout.primitives import Document, Form, Group, Page, Use
from generator.limits import MAX_EXPORT_PX_SIDE
from generator.render.pdf import render_pdf

MM_PER_INCH = 25.4


def pixels(mm: float, dpi: float) -> int:
    """The pixels ``mm`` takes at ``dpi``: round(mm / 25.4 × dpi) (44 + 2 × 3 mm at 300 dpi → 591)."""
    return max(1, round(mm / MM_PER_INCH * dpi))


@dataclass(frozen=True)
class Shot:
    """One image to make: ``form`` clipped to the box (x, y, w, h in the form's mm) at ``dpi``,
    scaled to exactly ``size`` pixels when given (a print-shop size), else at round(mm × dpi)."""

    form: Form
    box: tuple[float, float, float, float]
    dpi: float
    size: tuple[int, int] | None = None

    @property
    def pixel_size(self) -> tuple[int, int]:
        if self.size is not None:
            return self.size
        return pixels(self.box[2], self.dpi), pixels(self.box[3], self.dpi)


def check_size(shot: Shot, what: str) -> None:
    """An image larger than MAX_EXPORT_PX_SIDE on a side is refused before anything is drawn."""
    width, height = shot.pixel_size
    if max(width, height) > MAX_EXPORT_PX_SIDE:
        raise ContentError(None, f"{what} would be {width} × {height} px at {shot.dpi:g} dpi, more than "
                                 f"{MAX_EXPORT_PX_SIDE} px on a side (generator/limits.py)",
                           "export it at a lower --dpi (boards: --board-dpi)")


def render_images(shots: list[Shot], title: str, step=None) -> Iterator[PILImage.Image]:
    """The shots as RGB images of their exact pixel sizes, in order, one at a time (a deck at 600 dpi would
    not fit in memory at once); ``step(i)`` after each one."""
    if not shots:
        return
    doc = Document(title)
    for shot in shots:
        doc.add_form(shot.form)
        doc.pages.append(_page(shot))
    with tempfile.TemporaryDirectory(prefix="pnpgen-export-") as tmp:
        path = Path(tmp) / "faces.pdf"
        render_pdf(doc, path)
        pdf = pypdfium2.PdfDocument(str(path))
        try:
            for index, shot in enumerate(shots):
                width, height = shot.pixel_size
                page = pdf[index]
                scale = width / page.get_width()  # the page is width × height pixels at this scale
                bitmap = page.render(scale=scale, fill_color=(255, 255, 255, 255), draw_annots=False)
                image = bitmap.to_pil().convert("RGB")
                if image.size != (width, height):   # PDFium rounds up: a float's last bit may add a row
                    image = image.crop((0, 0, width, height))
                page.close()
                if step is not None:
                    step(index)
                yield image
        finally:
            pdf.close()


def _page(shot: Shot) -> Page:
    """A page of ``shot``'s pixel size (in mm at the shot's scale), the box centred on it."""
    x, y, w, h = shot.box
    width, height = shot.pixel_size
    sx, sy = width / w, height / h            # pixels per mm; equal unless a print-shop size stretches
    scale = min(sx, sy)
    page_w, page_h = width / scale, height / scale
    if math.isclose(sx, sy, rel_tol=1e-9):
        return Page(page_w, page_h, [Use(shot.form.name, (page_w - w) / 2 - x, (page_h - h) / 2 - y)])
    # whole pixels are a hair off the face's aspect (a print-shop size: a little more): cover the page, centred,
    # so that no white sliver shows at an edge (what is cut is under half a pixel, or a sliver of the bleed)
    cover = max(sx, sy) / scale
    from_left, from_top = (page_w - w * cover) / 2 - x * cover, (page_h - h * cover) / 2 - y * cover
    return Page(page_w, page_h, [Group((Use(shot.form.name, 0.0, 0.0),), from_left, from_top, scale=cover)])


def save_png(image: PILImage.Image, path: Path, dpi: float) -> None:
    """PNG bytes that depend on the pixels and the dpi only (no time, no text chunks)."""
    image.save(path, format="PNG", optimize=False, compress_level=6, dpi=(round(dpi), round(dpi)))
