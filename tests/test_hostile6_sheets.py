"""Round six, spreadsheets: YAML written in a cell (``[a, b]``, ``{north: [x, y]}``) is read as a content file is. A
duplicate key was silently kept last (YAML in a file is an error at its line), and a 31-digit whole number passed."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import ContentError, Source
from generator.load.sheetdata import typed
from generator.sheets import Cell


@pytest.mark.parametrize("text, type_name, message", [
    ("{north: [1, 2], north: [3, 4]}", "points", "duplicate key 'north'"),
    ("[1" + "0" * 30 + ", 2]", "pair", "MAX_WHOLE_NUMBER"),
    ("{? [1]: 2}", "points", "a key must be a plain name"),
])
def test_yaml_in_a_cell_is_read_as_content(text, type_name, message):
    with pytest.raises(ContentError, match=message) as error:
        typed(Cell(text, Source(Path("map.csv"), 4, "C")), type_name)
    assert str(error.value.source) == "map.csv:4:C"


def test_yaml_in_a_cell_still_reads():
    cell = Source(Path("map.csv"), 4, "C")
    assert typed(Cell("{north: [1, 2.5]}", cell), "points") == {"north": [1, 2.5]}
    assert typed(Cell("[Berlin, Hamburg]", cell), "list of place") == ["Berlin", "Hamburg"]
