"""Round five, a picture of more than ``limits.MAX_UNREDUCED_PIXELS``: it is scaled down to the size it prints
before it is embedded, but Pillow's ``reduce`` of an RGBA picture first copies all of it premultiplied, so a
79-megapixel PNG took a build to two full decodes at once (760 MB; four such pictures 790 MB). ``images.reduced``
reduces a band of rows at a time: the same pixels, one decode's memory (four pictures: 505 MB)."""
from __future__ import annotations

import pytest
from PIL import Image as PILImage

from generator import limits
from generator.layout import images


@pytest.mark.parametrize("mode", ["RGBA", "LA", "RGB", "L"])
@pytest.mark.parametrize("factor", [2, 3, 7])
def test_reducing_a_band_at_a_time_gives_the_whole_images_pixels(monkeypatch, mode, factor):
    monkeypatch.setattr(limits, "REDUCE_BAND_PIXELS", 20_000)
    picture = PILImage.linear_gradient("L").resize((1001, 777)).convert(mode)
    banded, whole = images.reduced(picture, factor), picture.reduce(factor)
    assert (banded.mode, banded.size) == (whole.mode, whole.size) and banded.tobytes() == whole.tobytes()


def test_a_large_picture_is_never_reduced_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "REDUCE_BAND_PIXELS", 50_000)
    path = tmp_path / "big.png"
    PILImage.linear_gradient("L").resize((1200, 900)).convert("RGBA").save(path)
    heights = []
    original = PILImage.Image.reduce

    def reduce(self, factor, box=None):
        heights.append(self.height)
        return original(self, factor, box)
    monkeypatch.setattr(PILImage.Image, "reduce", reduce)
    result = images.decoded_at(str(path), (300, 225))
    assert result.size == (300, 225) and heights and max(heights) <= 50_000 // 1200 + 4, heights
