"""`check` and `build` agree: whatever the build refuses, the check has found, by running the same code.

Each case breaks a copy of tests/fixtures/mini in one way and runs both
commands: the same verdict (check fails ⇔ build fails), the right exit code,
the message at the file:line to change, and never a traceback.
"""
from __future__ import annotations

import pytest

from tests.conftest import ROOT, copy_fixture

LAYOUTS = ROOT / "templates" / "layouts"


def _both(run, folder, tmp_path, *extra):
    """(check, build) results for ``folder``; the build writes under tmp_path."""
    check = run("check", folder)
    build = run("build", folder, "--out", tmp_path / "out", *extra)
    for result in (check, build):
        assert "Traceback" not in result.output
    return check, build


def _override_layout(folder, name, old, new):
    """Give the game its own copy of a bundled layout, with ``old`` replaced by ``new``."""
    text = (LAYOUTS / f"{name}.yaml").read_text(encoding="utf-8")
    assert old in text, f"templates/layouts/{name}.yaml no longer contains {old!r}"
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / f"{name}.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")


def _element_line(path, needle: str) -> int:
    """The line of the layout element (its ``- `` item) whose text holds ``needle``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if needle in line)
    return next(i for i in range(at, -1, -1) if lines[i].lstrip().startswith("- ")) + 1


def test_a_shape_attribute_that_fails_is_found_by_check_at_the_layout_line(tmp_path, run):
    folder = copy_fixture(tmp_path, "mini", "game.yaml", "include: [decks.yaml]", "include: [decks.yaml]")
    _override_layout(folder, "ttr-back", "r: 10, fill: white", 'r: "{{ 1e999 }}", fill: white')
    line = _element_line(folder / "layouts" / "ttr-back.yaml", "1e999")
    check, build = _both(run, folder, tmp_path)
    assert (check.exit_code, build.exit_code) == (1, 1), check.output
    assert f"layouts/ttr-back.yaml:{line}: error PNP703 layout expression '{{{{ 1e999 }}}}' failed" in check.output
    assert f"layouts/ttr-back.yaml:{line}" in build.output and "build refused" in build.output
    forced = run("build", folder, "--out", tmp_path / "out", "--force")
    assert forced.exit_code == 1, "a face that cannot be drawn cannot be built, even with --force"
    assert f"layouts/ttr-back.yaml:{line}: layout expression '{{{{ 1e999 }}}}' failed" in forced.output
    assert not (tmp_path / "out" / "mini").exists()


def test_an_unknown_icon_is_found_by_check_at_the_layout_line(tmp_path, run):
    folder = copy_fixture(tmp_path, "mini", "decks.yaml", "icon: wagon}", "icon: wagonn}")
    check, build = _both(run, folder, tmp_path)
    assert (check.exit_code, build.exit_code) == (1, 1), check.output
    line = _element_line(LAYOUTS / "ttr-back.yaml", 'name: "{{ motif_icon }}"')   # the motif draws it first
    assert f"templates/layouts/ttr-back.yaml:{line}: error PNP703 unknown icon 'wagonn'" in check.output
    assert "did you mean 'wagon'" in check.output
    assert "PNP703" in build.output and "build refused" in build.output


def test_a_glyph_the_font_lacks_in_rules_md_is_a_check_error_and_force_prints_it(tmp_path, run):
    folder = copy_fixture(tmp_path, "mini", "game.yaml", "include: [decks.yaml]", "include: [decks.yaml]")
    (folder / "rules.md").write_text("# ルール\n\n駒♞を置く。\n", encoding="utf-8")
    check, build = _both(run, folder, tmp_path)
    assert (check.exit_code, build.exit_code) == (1, 1), check.output
    assert "rules.md:3: error PNP704 the font has no glyph for ♞" in check.output
    assert "build refused" in build.output and not (tmp_path / "out" / "mini").exists()
    forced = run("build", folder, "--out", tmp_path / "out", "--force")
    assert forced.exit_code == 0, forced.output
    assert "--force: building mini despite 1 check error" in forced.output
    assert (tmp_path / "out" / "mini" / "mini-rules.pdf").is_file()
    assert (tmp_path / "out" / "mini" / "mini-print-and-play.pdf").is_file()


@pytest.mark.parametrize("size,words", [
    ("[.nan, 68]", "print.card.size.0 is nan, not a number"), ("[44, .inf]", "print.card.size.1 is inf, not a number"),
    ("[0, 68]", "a card width of 0 mm"), ("[-44, 68]", "a card width of -44 mm"),
    ("[4, 68]", "a card width of 4 mm"),
    ("[10000, 10000]", "pieces of 10000 × 10000 mm (plus 3 mm bleed) do not fit on A4"),
    ("[200, 268]", "pieces of 200 × 268 mm (plus 3 mm bleed) do not fit on A4"),
    ("[150, 265]", "pieces of 150 × 265 mm (plus 3 mm bleed) do not fit on Letter"),  # A4 holds it
], ids=["nan", "inf", "zero", "negative", "below-minimum", "10-m", "too-big", "too-tall-for-letter"])
def test_a_card_size_that_cannot_be_printed_is_refused_at_the_print_line(tmp_path, run, size, words):
    folder = copy_fixture(tmp_path, "mini", "game.yaml", "size: [44, 68]", f"size: {size}")
    check, build = _both(run, folder, tmp_path)
    assert (check.exit_code, build.exit_code) == (2, 2), check.output
    for result in (check, build):
        assert "mini/game.yaml:8: " in result.output and ("print: card:" in result.output or "print.card" in result.output)
        assert words in result.output, result.output


@pytest.mark.parametrize("line,words", [
    ("    size: [.nan, 68]", "decks.trains.size.0 is nan, not a number"),
    ("    size: [300, 68]", "deck 'trains' pieces of 300 × 68 mm"),
    ("    bleed: .nan", "decks.trains.bleed is nan, not a number"),
    ("    bleed: -2", "decks.trains.bleed: -2 is less than the minimum of 0"),
    ("    safe: -2", "decks.trains.safe: -2 is less than the minimum of 0"),
    ("    safe: .inf", "decks.trains.safe is inf, not a number"),
    ("    safe: 22", "deck 'trains' safe: 22 mm on each side leaves nothing"),
    ("    bleed: 80", "deck 'trains' pieces of 44 × 68 mm (plus 80 mm bleed) do not fit"),
], ids=["size-nan", "size-too-big", "bleed-nan", "bleed-negative", "safe-negative", "safe-inf", "safe-too-wide",
        "bleed-too-big"])
def test_a_decks_own_geometry_is_refused_at_its_line(tmp_path, run, line, words):
    folder = copy_fixture(tmp_path, "mini", "decks.yaml", "    layout: ttr-train\n", f"    layout: ttr-train\n{line}\n")
    check, build = _both(run, folder, tmp_path)
    assert (check.exit_code, build.exit_code) == (2, 2), check.output
    for result in (check, build):
        assert "mini/decks.yaml:7: " in result.output and words in result.output, result.output


def test_an_include_cycle_in_rules_md_names_the_include_line(tmp_path, run):
    folder = copy_fixture(tmp_path, "mini", "game.yaml", "include: [decks.yaml]", "include: [decks.yaml]")
    (folder / "rules.md").write_text("# ルール\n\n{% include 'more.md' %}\n", encoding="utf-8")
    (folder / "more.md").write_text("もっと\n{% include 'rules.md' %}\n", encoding="utf-8")
    check, build = _both(run, folder, tmp_path)
    assert (check.exit_code, build.exit_code) == (2, 2), check.output
    for result in (check, build):
        assert "mini/rules.md:3: " in result.output and "endless {% include %} loop: rules.md:3 → more.md:2" in result.output


#: (file, old, new): one change each, that the check and the build must judge alike
MUTATIONS = [
    ("game.yaml", "include: [decks.yaml]", "include: [decks.yaml]"),                   # clean: both build
    ("decks.yaml", "    expected: 5\n", "    expected: 6\n"),                          # a count (PNP101)
    ("decks.yaml", "title: 列車,", "title: 列車♞,"),                                   # a glyph on a back
    ("decks.yaml", "latin: Train,", "latin: " + "Train" * 20 + ","),                   # text that does not fit
    ("decks.yaml", "icon: station}", "icon: 7}"),                                       # a value layouts cannot use
    ("decks.yaml", "back: {layout: ttr-back,", "back: {layout: ttr-bak,"),             # no such layout (exit 2)
    ("decks.yaml", "color: black,", "color: blak,"),                                   # an unknown colour
    ("game.yaml", "bleed: 3", "bleed: 10"),                                            # the largest bleed allowed
    ("game.yaml", "size: [44, 68]", "size: [185, 255]"),                               # a card both papers just hold
    ("game.yaml", "title: ミニゲーム", "title: " + "ミニゲーム" * 30),                  # the cover's and backs' title
]


@pytest.mark.parametrize("file,old,new", MUTATIONS, ids=[f"{m[0]}:{m[2][:24]}" for m in MUTATIONS])
def test_check_and_build_give_the_same_verdict(tmp_path, run, file, old, new):
    folder = copy_fixture(tmp_path, "mini", file, old, new)
    check, build = _both(run, folder, tmp_path)
    assert (check.exit_code != 0) == (build.exit_code != 0), (check.output, build.output)
    if check.exit_code == 2:
        assert build.exit_code == 2, build.output
    if build.exit_code == 0:
        assert (tmp_path / "out" / "mini" / "mini-print-and-play.pdf").is_file()
