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
