"""What a cold check of Germany imports (issue 14): its route network from rustworkx, not networkx (0.15 s), and
its content accepted by the schema's generated code, without jsonschema (0.05 s) — which a file with an error
still imports, for the message it has always given."""
from __future__ import annotations

import os

from tests.conftest import ROOT
from tests.test_startup import _imported, _loaded


def _top(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_a_cold_check_of_germany_imports_neither_networkx_nor_jsonschema():
    modules = _imported("check", str(ROOT / "content" / "ttr-germany"), env={**os.environ, "PNPGEN_CACHE_DIR": "off"})
    assert "generator.check.tickets" in modules and "generator.model.examples" in modules   # the checks ran
    assert "rustworkx" in _top(modules) and "generator.load.schema_fast" in modules
    assert not [m for m in ("networkx", "jsonschema", "fastjsonschema") if _loaded(modules, m)]


def test_a_content_error_is_still_jsonschemas(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.yaml").write_text("game: {title: T, players: [2, many]}\n", encoding="utf-8")
    modules = _imported("check", str(folder), env={**os.environ, "PNPGEN_CACHE_DIR": "off"})
    assert "jsonschema" in _top(modules)
