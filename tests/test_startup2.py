"""The last fixed costs of a cold check (issue 14, branch startup2): rich imported only when the findings go to a
terminal (or the environment asks for colour), the content schema not assembled for a valid game, and pnpgen's own
rules macros run from code compiled ahead (``tools/rules_macros.py``) instead of Jinja compiling them in every
process. Each import case runs in a fresh interpreter (``tests.test_startup._imported``)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2.bccache import Bucket

from generator.errors import ContentError
from generator.load import rules, schema
from generator.load.game import load_game
from tests.conftest import ROOT
from tests.test_startup import _imported, _loaded

GERMANY = ROOT / "content" / "ttr-germany"
COLD = {**os.environ, "PNPGEN_CACHE_DIR": "off"}
for _name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
    COLD.pop(_name, None)

#: the third-party packages a cold check of Germany imports, and no other
GERMANY_PACKAGES = {"click", "jinja2", "markdown_it", "markupsafe", "mdurl", "rustworkx", "yaml"}


def _third_party(modules: set[str]) -> set[str]:
    stdlib = set(sys.stdlib_module_names) | {"__main__", "_distutils_hack", "_cython_3_1_4", "cython_runtime"}
    return {m.split(".")[0] for m in modules if not m.startswith("generator")} - stdlib - {
        m for m in modules if m.startswith("_")}


def test_a_cold_check_of_germany_imports_these_packages_and_not_rich():
    modules = _imported("check", str(GERMANY), env=COLD)
    assert "generator.check.dry" in modules and "generator.load.rules" in modules   # the check ran
    assert _third_party(modules) == GERMANY_PACKAGES
    assert not [m for m in ("rich", "jsonschema", "networkx", "fontTools", "reportlab.pdfgen", "openpyxl")
                if _loaded(modules, m)]
    # the macros' code is run through Jinja's bytecode cache, never imported as a module
    assert rules.MACROS_CODE_MODULE not in modules


def test_colour_asked_for_prints_through_rich_the_same_characters():
    """FORCE_COLOR or TTY_COMPATIBLE: rich decides (and prints); off a terminal its characters are the plain ones."""
    plain = subprocess.run([sys.executable, "-m", "generator.cli", "check", str(GERMANY)], cwd=ROOT, env=COLD,
                           capture_output=True, check=False)
    through_rich = subprocess.run([sys.executable, "-m", "generator.cli", "check", str(GERMANY)], cwd=ROOT,
                                  env={**COLD, "TTY_COMPATIBLE": "0"}, capture_output=True, check=False)
    assert plain.returncode == through_rich.returncode == 0
    assert plain.stdout == through_rich.stdout
    assert plain.stdout.decode().endswith("1 game checked: 0 errors, 0 warnings, 2 waived (explained in the content)\n")
    assert "rich" in {m.split(".")[0] for m in _imported("check", str(GERMANY), env={**COLD, "FORCE_COLOR": "1"})}


def test_a_coloured_check_has_its_markup(tmp_path):
    out = subprocess.run([sys.executable, "-m", "generator.cli", "check", str(GERMANY)], cwd=ROOT,
                         env={**COLD, "FORCE_COLOR": "1"}, capture_output=True, check=False).stdout.decode()
    assert "\x1b[1;32m1 game checked" in out and "\x1b[1m" in out


def test_the_schema_keys_are_the_assembled_schemas():
    assembled = schema.content_schema()
    assert schema.schema_keys("properties") == tuple(assembled["properties"])
    assert schema.schema_keys("$defs", "spreadsheet", "properties") == \
        tuple(assembled["$defs"]["spreadsheet"]["properties"])


def test_the_compiled_macros_are_current():
    """Run `python tools/rules_macros.py` after editing templates/rules/macros.md.j2 (or the rules' environment)."""
    assert rules.MACROS_CODE_FILE.read_text(encoding="utf-8") == rules.macros_code_text()


def _compiled(monkeypatch) -> list[str]:
    """The names of the templates Jinja compiles from here on."""
    names: list[str] = []
    original = rules.ImmutableSandboxedEnvironment.compile

    def compile_spy(self, source, name=None, *args, **kwargs):
        names.append(name)
        return original(self, source, name, *args, **kwargs)

    monkeypatch.setattr(rules.ImmutableSandboxedEnvironment, "compile", compile_spy)
    return names


def test_pnpgens_macros_are_not_compiled_and_render_as_compiled(monkeypatch):
    for game_dir in sorted((ROOT / "content").iterdir()):
        if not (game_dir / "rules.md").is_file():
            continue
        game = load_game(game_dir)
        with monkeypatch.context() as patch:
            compiled = _compiled(patch)
            ahead = rules.load_rules(game)
        assert rules.MACROS not in compiled and "rules.md" in compiled, game_dir.name
        with monkeypatch.context() as patch:
            patch.setattr(rules.OwnMacros, "load_bytecode", lambda self, bucket: None)
            compiled = _compiled(patch)
            as_before = rules.load_rules(game)
        assert rules.MACROS in compiled
        assert [c.markdown for c in ahead] == [c.markdown for c in as_before], game_dir.name


def test_a_games_own_macros_are_compiled(tmp_path, monkeypatch):
    folder = tmp_path / "ttr-germany"
    shutil.copytree(GERMANY, folder)
    own = (rules.TEMPLATE_DIR / rules.MACROS).read_text(encoding="utf-8")
    (folder / "rules").mkdir()
    (folder / "rules" / rules.MACROS).write_text(own + "{% macro hello() %}hello from the game{% endmacro %}\n",
                                                encoding="utf-8")
    with (folder / "rules.md").open("a", encoding="utf-8") as f:
        f.write("\n{{ hello() }}\n")
    compiled = _compiled(monkeypatch)
    chapters = rules.load_rules(load_game(folder))
    assert rules.MACROS in compiled
    assert "hello from the game" in chapters[0].markdown


def test_an_edited_template_is_not_answered_from_the_compiled_code():
    env = rules.environment(rules.TEMPLATE_DIR, rules.Words())
    cache = rules.OwnMacros()
    source = (rules.TEMPLATE_DIR / rules.MACROS).read_text(encoding="utf-8")
    filename = os.path.normpath(os.path.join(rules.TEMPLATE_DIR, rules.MACROS))
    assert cache.get_bucket(env, rules.MACROS, filename, source).code is not None
    assert cache.get_bucket(env, rules.MACROS, filename, source + "\n").code is None   # not the SHA-1 it was made of
    assert cache.get_bucket(env, rules.MACROS, str(Path("/elsewhere") / rules.MACROS), source).code is None
    html = rules.html_environment(rules.TEMPLATE_DIR, rules.Words())
    assert html.bytecode_cache is None
    env.autoescape = True
    bucket = Bucket(env, cache.get_cache_key(rules.MACROS, filename), cache.get_source_checksum(source))
    cache.load_bytecode(bucket)
    assert bucket.code is None   # autoescaped: not the code it was made for


def test_code_written_for_another_jinja_release_is_not_handed_to_jinja(monkeypatch):
    env = rules.environment(rules.TEMPLATE_DIR, rules.Words())
    source = (rules.TEMPLATE_DIR / rules.MACROS).read_text(encoding="utf-8")
    filename = os.path.normpath(os.path.join(rules.TEMPLATE_DIR, rules.MACROS))
    assert rules.OwnMacros().get_bucket(env, rules.MACROS, filename, source).code is not None
    monkeypatch.setattr(rules.jinja2, "__version__", "9.9.9")   # a Jinja the code was not written by
    assert rules.OwnMacros().get_bucket(env, rules.MACROS, filename, source).code is None


def test_a_mistake_inside_a_macro_names_the_macros_line_as_before(tmp_path, monkeypatch):
    folder = tmp_path / "ttr-germany"
    shutil.copytree(GERMANY, folder)
    with (folder / "rules.md").open("a", encoding="utf-8") as f:
        f.write("\n{{ card_counts('no-such-deck', 'color', 'x') }}\n")
    game = load_game(folder)
    with pytest.raises(ContentError) as ahead:
        rules.load_rules(game)
    monkeypatch.setattr(rules.OwnMacros, "load_bytecode", lambda self, bucket: None)
    with pytest.raises(ContentError) as as_before:
        rules.load_rules(game)
    assert str(ahead.value.source) == str(as_before.value.source)
    assert "macros.md.j2:" in str(ahead.value.source) and ahead.value.message == as_before.value.message
