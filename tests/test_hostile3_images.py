"""Round three, pictures: a picture of many pixels costs the memory of the size it is printed at, not of its own."""
from __future__ import annotations

import pytest
from PIL import Image as PILImage

from generator import limits
from generator.layout import images
from generator.layout.primitives import Document, Group, Image, Page
from generator.render.pdf import render_pdf


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A 4,200 × 4,000 picture: 16.8 million pixels, over MAX_UNREDUCED_PIXELS."""
    path = tmp_path_factory.mktemp("big") / "big.png"
    PILImage.linear_gradient("L").resize((4200, 4000)).convert("RGB").save(path, compress_level=1)
    return images.read(path, None)


def test_a_large_picture_on_a_card_is_embedded_at_600_dpi_of_its_print(tmp_path, big):
    picture = big
    assert picture.width * picture.height > limits.MAX_UNREDUCED_PIXELS
    card = Image(0, 0, 63.5, 60.5, str(picture.path), picture.digest, fit="fit")
    doc = Document("t", [Page(100, 100, [card])])
    render_pdf(doc, tmp_path / "t.pdf")
    data = (tmp_path / "t.pdf").read_bytes()
    # 63.5 mm at 600 dpi is 1,500 pixels; 4,200 × 4,000 pixels were not embedded
    assert b"/Width 1500" in data and b"/Height 1429" in data
    assert b"/Width 4200" not in data


def test_the_largest_print_decides_and_an_enlarging_group_counts(big):
    picture = big
    small = Image(0, 0, 25.4, 25.4, str(picture.path), picture.digest)
    large = Group((Image(0, 0, 50.8, 50.8, str(picture.path), picture.digest),), scale=2.0)
    found = images.largest_prints([small, large], {}, {picture.digest})
    assert found == {picture.digest: (101.6, 101.6 * 4000 / 4200)}
    # 101.6 mm at 600 dpi: 2,400 pixels across
    assert images.embedded_pixels(picture, found[picture.digest]) == (2400, 2286)


def test_a_picture_printed_large_enough_is_embedded_as_it_is(tmp_path, big):
    picture = big
    assert images.embedded_pixels(picture, (200.0, 200.0)) is None   # 4,200 px over 200 mm: 533 dpi
    doc = Document("t", [Page(300, 300, [Image(0, 0, 200, 200, str(picture.path), picture.digest)])])
    render_pdf(doc, tmp_path / "t.pdf")
    assert b"/Width 4200" in (tmp_path / "t.pdf").read_bytes()


def test_a_small_picture_is_never_scaled(tmp_path):
    path = tmp_path / "small.png"
    PILImage.new("RGB", (3000, 3000), (10, 20, 30)).save(path)
    picture = images.read(path, None)
    assert images.embedded_pixels(picture, (5.0, 5.0)) is None   # 9 million pixels: under MAX_UNREDUCED_PIXELS
