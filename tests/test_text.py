"""Text fitting: wrapping, shrinking, and Japanese line-breaking rules."""
from __future__ import annotations

from generator.fonts import PT_TO_MM, text_width_mm
from generator.layout.text import NO_LINE_END, NO_LINE_START, Fitted, fit, wrap

SAMPLE = "ゲーム終了時、達成した行き先チケットの枚数が一番多いプレイヤーが「ボーナス」（15点）を受け取る。同数なら全員が受け取る。"


def test_lines_fit_their_width():
    for width in (12, 18, 25, 34):
        lines = wrap(SAMPLE, width, 7)
        assert lines and all(text_width_mm(line, 7) <= width + 1e-6 for line in lines)
        assert "".join(lines) == SAMPLE


def test_kinsoku_no_line_starts_with_closing_or_ends_with_opening_punctuation():
    for width in range(8, 40):
        lines = wrap(SAMPLE, width, 7) or []
        for line in lines[1:]:
            assert line[0] not in NO_LINE_START, (width, lines)
        for line in lines[:-1]:
            assert line[-1] not in NO_LINE_END, (width, lines)


def test_latin_breaks_at_spaces_only():
    lines = wrap("Bremerhaven to Regensburg via Hannover", 22, 9)
    assert lines == ["Bremerhaven to", "Regensburg via", "Hannover"] or all(" " not in line or line.count(" ") <= 2 for line in lines)
    assert all(word in " ".join(lines).split() for word in ("Bremerhaven", "Regensburg", "Hannover"))


def test_shrinks_to_fit_and_refuses_what_cannot():
    fitted = fit("ブレーマーハーフェン", 34, 6, 10, 6)
    assert fitted is not None and 6 <= fitted.size <= 10 and len(fitted.lines) == 1
    assert fit("ブレーマーハーフェン" * 10, 34, 6, 10, 6) is None
    assert fit("Unbreakablewordthatiswaytoolong", 10, 20, 9, 8) is None


def test_fitted_lines_are_placed_by_baseline_one_line_height_apart():
    """A box holds the first line's cap height (0.88 of the size) plus one line height per further line."""
    fitted = Fitted(("ベルリン", "Berlin"), 10.0, 4.0)
    cap = 10.0 * PT_TO_MM * 0.88
    assert fitted.height == cap + 4.0
    first, second = fitted.texts(20.0, 5.0, "middle", "#000000", True)
    assert (first.x, first.y, first.text, first.anchor, first.bold) == (20.0, 5.0 + cap, "ベルリン", "middle", True)
    assert (second.y, second.text, second.size) == (5.0 + cap + 4.0, "Berlin", 10.0)
    # fit() refuses a box a hair lower than that height
    one = fit("ベルリン", 30, cap, 10)
    assert one is not None and one.height == cap
    assert fit("ベルリン", 30, cap - 0.01, 10) is None
