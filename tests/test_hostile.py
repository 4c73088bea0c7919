"""Round-two hostile content: cases found by attacking a game folder (tools/hostile_cases.py runs them as a
person would). Each was a hang, a crash or a check that passed while the build failed; each is now one clear
error at the line or file that asked for it.

Cases that could exhaust memory or abort the interpreter before their fix run in a subprocess (``pnpgen``),
with a timeout, so a regression fails instead of taking pytest with it.
"""
from __future__ import annotations

import zipfile

import pytest

from generator import limits
from generator.jinja_sandbox import BoundedImmutableSandbox, BoundedSandbox, JinjaLimitError
from tests.conftest import copy_fixture
from tests.test_limits import _layout, assert_refused, pnpgen

# --------------------------------------------------------------------------- Jinja: values nested in themselves

#: each makes a value whose len() is small but whose text (or comparison) meets 10**12 items: one list
#: referred to 999,999 times. Printing it ran for minutes and ended in MemoryError.
NESTED = [
    ("{{ ([[0] * 999999] * 999999) | length }}", "repeating a list 999,999 times"),
    ("{% set a = 'x' * 999999 %}{{ [a, a] | length }}", "a list or dict written here"),
    ("{% set a = [0] * 999999 %}{{ {'k': a, 'l': a} | length }}", "a list or dict written here"),
    ("{% set a = [0] * 600000 %}{% set b = [a] %}{{ (b + b) | length }}", "joining two lists"),
]


@pytest.mark.parametrize("sandbox", [BoundedSandbox, BoundedImmutableSandbox])
@pytest.mark.parametrize("expression, words", NESTED)
def test_a_list_nested_in_itself_is_measured_with_its_nested_items(sandbox, expression, words):
    env = sandbox()
    with pytest.raises(JinjaLimitError, match="MAX_JINJA_SEQUENCE") as caught:
        env.render(env.from_string(expression), {})
    assert words in str(caught.value)


def test_printing_a_value_measures_it_before_it_becomes_text():
    """A value made outside the template's operators (here: given by the caller) is measured as it is printed,
    joined with ~, %-formatted or given to a text filter, not turned into text first."""
    env = BoundedImmutableSandbox()
    shared = [[0] * 1000] * 2000   # 2,000,000 items once printed
    for expression in ("{{ v }}", "{{ v ~ '' }}", "{{ '%s' % (v,) }}", "{{ '{}'.format(v) }}", "{{ v | string }}",
                       "{{ v | tojson }}", "{{ v | e }}", "{{ v | sort | length }}"):
        with pytest.raises(JinjaLimitError, match="MAX_JINJA_SEQUENCE"):
            env.render(env.from_string(expression), {"v": shared})


def test_the_sandbox_still_reads_literals_and_unpacks_tuples():
    env = BoundedSandbox()
    template = env.from_string("{% for a, b in [(1, 2), (3, 4)] %}{{ a }}{{ b }}{% endfor %}|{{ {'k': [1, 2]}['k'] }}|"
                               "{% set x, y = 5, 6 %}{{ x }}{{ y }}|{{ [[0] * 3] * 2 }}|{{ ([1] + [2]) | join }}")
    assert env.render(template, {}) == "1234|[1, 2]|56|[[0, 0, 0], [0, 0, 0]]|12"


def test_a_nested_list_bomb_in_a_layout_is_an_error_at_its_line(tmp_path):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    _layout(game, "elements:\n  - rect: {x: 0, y: 0, w: 1, h: 1}\n"
                  "  - text: {x: 0, y: 0, w: 40, h: 5, text: \"{{ [[0] * 999999] * 999999 }}\"}\n")
    assert_refused(pnpgen("build", game, "--out", tmp_path / "out"), 1, "ttr-train.yaml:3", "MAX_JINJA_SEQUENCE")


def test_a_nested_list_bomb_in_the_rules_is_an_error_at_its_line(tmp_path):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    (game / "rules.md").write_text("# R\n\n{% set a = [0] * 999999 %}{{ [a, a, a] }}\n", encoding="utf-8")
    assert_refused(pnpgen("check", game), 2, "rules.md:3", "MAX_JINJA_SEQUENCE")


# --------------------------------------------------------------------------- XLSX: a worksheet kept elsewhere

#: a sheet of two cells, A1 and XFD1000000: the reader builds 16 billion cells from it
FAR_SHEET = (b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml'
             b'/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>color</t></is></c></row>'
             b'<row r="1000000"><c r="XFD1000000"><v>1</v></c></row></sheetData></worksheet>')


def _xlsx_with_sheet_at(path, member: str) -> None:
    """A minimal workbook whose one worksheet is the member ``member`` (the workbook's relationships name it)."""
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    package = "http://schemas.openxmlformats.org/package/2006/relationships"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                      'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxml'
                      'formats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
                      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
                      'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/' + member + '" '
                      'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                      '</Types>')
        book.writestr("_rels/.rels", f'<?xml version="1.0"?><Relationships xmlns="{package}"><Relationship Id="rId1" '
                      f'Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        book.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/'
                      f'spreadsheetml/2006/main" xmlns:r="{rel}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/>'
                      '</sheets></workbook>')
        book.writestr("xl/_rels/workbook.xml.rels", f'<?xml version="1.0"?><Relationships xmlns="{package}">'
                      f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="{member[3:]}"/></Relationships>')
        book.writestr(member, FAR_SHEET)


def test_a_worksheet_outside_xl_worksheets_is_measured_too():
    from generator.sheets import _xlsx_extent
    assert _xlsx_extent({"xl/data/far.xml": FAR_SHEET}) == (1_000_000, 16_384)
    assert _xlsx_extent({"xl/data/far.bin": FAR_SHEET, "xl/sharedStrings.xml": b"<sst><si><t>c</t></si></sst>"}) == \
        (1_000_000, 16_384)


def test_an_xlsx_bomb_kept_outside_xl_worksheets_is_refused_before_it_is_read(tmp_path):
    """It was measured only under xl/worksheets/: the reader then asked for 500 GB and aborted the process."""
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "    cards:\n      - {color: red, count: 2}\n"
                        "      - {color: blue, count: 2}\n      - {color: locomotive, count: 1}\n",
                        "    cards: {from: trains.xlsx}\n")
    _xlsx_with_sheet_at(game / "trains.xlsx", "xl/data/far.xml")
    assert_refused(pnpgen("check", game), 2, "trains.xlsx", "MAX_SHEET_ROWS")
    assert limits.MAX_SHEET_ROWS < 1_000_000


# --------------------------------------------------------------------------- SVG pictures: work and numbers

def _svg_game(tmp_path, svg: str):
    from tests.test_images import game
    folder = game(tmp_path, '  - image: {src: art/x.svg, x: 0, y: 0, w: 20, h: 20}\n')
    (folder / "art").mkdir()
    (folder / "art" / "x.svg").write_text(svg, encoding="utf-8")
    return folder


SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">{}</svg>'


def test_svg_elements_count_each_use_as_what_it_copies():
    from lxml import etree

    from generator.layout.images import _svg_elements
    group = '<defs><g id="g">' + '<rect width="1" height="1"/>' * 10 + "</g></defs>"
    assert _svg_elements(etree.fromstring(SVG.format(group)), 10**6) == 1 + 1 + 1 + 10
    assert _svg_elements(etree.fromstring(SVG.format(group + '<use xlink:href="#g"/>' * 3)), 10**6) == 13 + 3 * 12
    loop = '<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>'
    assert _svg_elements(etree.fromstring(SVG.format(loop)), 10**6) < 20   # svglib skips a use that loops


@pytest.mark.parametrize("svg", [
    SVG.format('<rect width="1" height="1"/>' * 25_000),
    SVG.format('<defs><g id="g">' + '<rect width="1" height="1"/>' * 1000 + '</g></defs>' + '<use xlink:href="#g"/>' * 100),
], ids=["many-shapes", "use-copies"])
def test_an_svg_with_too_many_elements_is_refused_before_svglib_draws_it(tmp_path, run, svg):
    """svglib draws ~5,000 elements a second: 100 uses of a group of 1,000 shapes took 22 s, a 28 MB file
    of a million shapes more than two minutes, in check and again in build."""
    folder = _svg_game(tmp_path, svg)
    assert_refused(run("check", folder), 2, "layouts/card.yaml:5", "MAX_SVG_ELEMENTS")


@pytest.mark.parametrize("svg, words", [
    ('<svg xmlns="http://www.w3.org/2000/svg" width="1e308" height="1e308" viewBox="0 0 1e-308 1e-308">'
     '<rect width="1" height="1"/></svg>', "has a size of"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="1e-300" height="1e-300"><rect width="1" height="1"/></svg>',
     "has a size of"),
    (SVG.format('<g transform="scale(1e30)"><rect width="1" height="1"/></g>'), "MAX_SVG_NUMBER"),
    (SVG.format('<path d="M0 0 L1e30 5 Z"/>'), "MAX_SVG_NUMBER"),
], ids=["huge-size", "tiny-size", "huge-scale", "huge-point"])
def test_an_svg_whose_numbers_cannot_be_written_is_refused_by_check_and_build(tmp_path, run, svg, words):
    """The check passed and the build ended in a ReportLab traceback ("number too large") as the PDF was saved."""
    folder = _svg_game(tmp_path, svg)
    assert_refused(run("check", folder), 2, "layouts/card.yaml:5", words)
    assert_refused(run("build", "--all", folder, "--out", tmp_path / "out"), 2, "layouts/card.yaml:5", words)


# --------------------------------------------------------------------------- fonts: broken glyphs

def test_a_font_with_a_broken_glyph_is_refused_by_check_not_by_the_pdf_writer(tmp_path, run):
    """Glyph 0 made a composite of glyph 65534, which the font has not: the check passed and the build's
    PDF writer raised IndexError (a traceback) as it subset the font."""
    import struct

    from tests.test_fonts import TEST_FONT, _refused
    data = bytearray(TEST_FONT.read_bytes())
    tables = {bytes(data[12 + 16 * i:16 + 16 * i]): struct.unpack_from(">I", data, 20 + 16 * i)[0]
              for i in range(struct.unpack_from(">H", data, 4)[0])}
    struct.pack_into(">hhhhhHHbb", data, tables[b"glyf"], -1, 0, 0, 10, 10, 0, 0xFFFE, 0, 0)
    message = " ".join(_refused(tmp_path, run, bytes(data), "Broken.ttf").split())
    assert "font 'Broken.ttf' cannot be read as a TrueType font" in message


# --------------------------------------------------------------------------- layout text sizes

@pytest.mark.parametrize("sizes, shown", [("size: 1.0e+5, min_size: 1.0e-300", "size 100000 pt"),
                                          ("size: 0", "size 0 pt"), ("size: 9, min_size: -1", "min_size -1 pt")])
def test_a_text_size_out_of_range_is_an_error_at_the_layout_line(tmp_path, sizes, shown):
    """size 1e300 stepped down 0.5 pt at a time towards min_size: check and build never finished (1e300 itself is now
    beyond limits.MAX_LAYOUT_NUMBER first; 1e5 is within it and beyond MAX_TEXT_PT)."""
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    _layout(game, "elements:\n  - rect: {x: 0, y: 0, w: 1, h: 1}\n"
                  f"  - text: {{x: 0, y: 0, w: 40, h: 5, text: x, {sizes}}}\n")
    assert_refused(pnpgen("check", game), 1, "ttr-train.yaml:3", shown, "MAX_TEXT_PT")


# --------------------------------------------------------------------------- file names too long for a file system

LONG = "a" * 300


@pytest.mark.parametrize("file, old, new, where", [
    ("game.yaml", "include: [decks.yaml]", f"include: [{LONG}.yaml]", "game.yaml:6"),
    ("decks.yaml", "    cards:\n      - {color: red, count: 2}\n      - {color: blue, count: 2}\n"
                   "      - {color: locomotive, count: 1}\n", f"    cards: {{from: {LONG}.csv}}\n", "decks.yaml:10"),
    ("game.yaml", "players: [2, 4]", f"players: [2, 4]\nicons:\n  x: art/{LONG}.svg", "game.yaml:7"),
    ("game.yaml", "players: [2, 4]", f"players: [2, 4]\nfonts:\n  body: {{regular: fonts/{LONG}.ttf}}", "game.yaml:7"),
], ids=["include", "spreadsheet", "icon", "font"])
def test_a_file_name_longer_than_a_file_system_allows_is_an_error_at_its_line(tmp_path, run, file, old, new, where):
    """pathlib's is_file() and exists() raise OSError (ENAMETOOLONG) for a 300-byte name: a traceback."""
    game = copy_fixture(tmp_path, "mini", file, old, new)
    assert_refused(run("check", game), 2, where, "longer than 255 bytes")


def test_a_picture_or_rules_file_name_too_long_is_an_error_at_its_line(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    _layout(game, f"elements:\n  - image: {{src: art/{LONG}.png, x: 0, y: 0, w: 5, h: 5}}\n")
    assert_refused(run("check", game), 2, "ttr-train.yaml:2", "longer than 255 bytes")
    (game / "layouts" / "ttr-train.yaml").unlink()
    (game / "rules.md").write_text(f"# R\n\n![x](art/{LONG}.png)\n", encoding="utf-8")
    assert_refused(run("check", game), 2, "rules.md:3", "longer than 255 bytes")
    (game / "rules.md").write_text(f"# R\n\n{{% include '{LONG}.md' %}}\n", encoding="utf-8")
    assert_refused(run("check", game), 2, "rules.md:3", "no rules template named")


def test_a_long_text_is_printed_and_filtered_as_before():
    """Only values that nest lists are measured when printed: a rules page prints its whole body (MBs) at once."""
    env = BoundedImmutableSandbox()
    body = "x" * (limits.MAX_JINJA_SEQUENCE + 1)
    assert len(env.render(env.from_string("{{ v }}{{ v | e }}{{ v | trim }}"), {"v": body})) == 3 * len(body)


# --------------------------------------------------------------------------- rules.md: Markdown that nests or repeats

def test_emphasis_nested_fifty_thousand_deep_is_an_error_not_a_recursion_traceback(tmp_path, run):
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    # 4,999 deep: within MAX_RULES_MARKS (10,000 marks), which refuses 20,000 deep before markdown-it reads it
    (game / "rules.md").write_text("# R\n\n" + "*" * 4_999 + "x" + "*" * 4_999 + "\n", encoding="utf-8")
    assert_refused(run("check", game), 2, "rules.md", "the Markdown nests too deeply")


def test_the_rules_line_map_diffs_only_what_changed_and_only_so_much(monkeypatch):
    """20,000 equal list items took minutes in difflib (its cost is the product of the line counts, times the
    changes); past MAX_LINE_MAP_WORK the unchanged ends map one to one and the middle line by line."""
    import difflib

    from generator.load.rules import _line_map

    def refuse(*args, **kwargs):
        raise AssertionError("diffed")

    monkeypatch.setattr(limits, "MAX_LINE_MAP_WORK", 100)
    monkeypatch.setattr(difflib, "SequenceMatcher", refuse)
    same = "\n".join(["1. x"] * 20_000)
    assert _line_map(same, same)[:20_000] == list(range(1, 20_001))
    source = "\n".join(["a", "b", "{{ x }}", *["1. x"] * 30, "{{ y }}", "c"])
    rendered = "\n".join(["a", "b", "X", "X2", *["1. x"] * 30, "Y", "c"])
    mapping = _line_map(source, rendered)
    assert mapping[:2] == [1, 2] and mapping[-2] == 35   # 'c': the last line of both
    assert mapping[2:4] == [3, 4]                        # the changed middle, line by line


@pytest.mark.parametrize("body, where, words", [
    ("1. x\n" * 5_001, "rules.md", "MAX_RULES_LINES"),
    ("word " * 21_000, "rules.md", "MAX_RULES_MARKDOWN"),
    ("|" + "a|" * 101 + "\n|" + "-|" * 101 + "\n" + ("|" + "x|" * 101 + "\n") * 99, "rules.md:3",
     "a table of 10,100 cells"),
], ids=["lines", "characters", "table"])
def test_a_rule_sheet_far_beyond_any_is_refused_before_markdown_reads_it(tmp_path, run, body, where, words):
    """markdown-it costs ~0.2 ms a token: 20,000 list items took 10 s, a 200 × 2,000 table 70 s, and
    49,000 emphasised words over two minutes, in check and again in build."""
    game = copy_fixture(tmp_path, "mini", "game.yaml", "game:", "game:")
    (game / "rules.md").write_text("# R\n\n" + body, encoding="utf-8")
    assert_refused(run("check", game), 2, where, words)


def test_rich_text_of_many_runs_is_measured_from_the_run_that_holds_the_range():
    """A paragraph of 49,000 emphasised words was measured from its first run for every range (quadratic)."""
    from generator.layout import richtext
    spans = tuple(richtext.Span(t, b, False, None) for t, b in [("ab ", False), ("cd", True), ("", False), (" ef", False)])
    flat, bounds = richtext._flat(spans)
    assert [s.text for s in richtext._slice(spans, bounds, 4, 7)] == ["d", " e"]
    width = richtext._measure(spans, bounds, 10, richtext.Typeface())
    whole = richtext._measure(spans[1:2], [(0, 2)], 10, richtext.Typeface())
    assert width(3, 5) == pytest.approx(whole(0, 2))


# --------------------------------------------------------------------------- output names that clash

def test_two_parts_whose_ids_make_the_same_file_name_are_refused_by_check_and_build(tmp_path, run):
    """A deck named like a fixed output ('<game>-print-and-play') wrote one file over the other: the build said
    it succeeded, and the print-and-play file (or the deck) was missing."""
    game = copy_fixture(tmp_path, "mini", "decks.yaml", "  tickets:", "  mini-print-and-play:")
    assert_refused(run("check", game), 1, "game.yaml", "two outputs of the game are both named mini-print-and-play.pdf")
    assert_refused(run("build", game, "--out", tmp_path / "out"), 1, "game.yaml", "mini-print-and-play.pdf")
    assert not (tmp_path / "out" / "mini").exists()
