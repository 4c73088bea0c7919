"""The build cache: a build or check with nothing changed is not redone, and never gives other bytes."""
from __future__ import annotations

import filecmp
import json
import shutil
from pathlib import Path

import pytest

from generator import cache
from generator.writers import context
from tests.conftest import FIXTURES, copy_fixture

#: one card of tests/fixtures/mini changed: one face
EDIT = ("[Berlin, Hamburg, 5]", "[Berlin, Hamburg, 6]")


@pytest.fixture
def cached(tmp_path, monkeypatch) -> Path:
    """The build cache on, in a folder of this test's own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(folder))
    return folder


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _same_tree(a: Path, b: Path) -> bool:
    left = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    right = sorted(p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file())
    return left == right and all(filecmp.cmp(a / name, b / name, shallow=False) for name in left)


def _count_svgs(monkeypatch) -> list:
    """Every SVG the build draws (rather than copies from the cache) is appended to the list returned."""
    drawn: list = []
    real = context.render_svg

    def counting(doc, page, path, pictures=None):
        drawn.append(path.name)
        return real(doc, page, path, pictures)

    monkeypatch.setattr(context, "render_svg", counting)
    return drawn


def test_a_build_with_nothing_changed_is_not_redone(run, mini, tmp_path, cached):
    out = tmp_path / "out"
    first = run("build", "--all", mini, "--out", out)
    assert first.exit_code == 0, first.output
    assert "unchanged" not in first.output
    before = _files(out / "mini")
    again = run("build", "--all", mini, "--out", out)
    assert again.exit_code == 0, again.output
    assert "unchanged since the last build" in again.output
    assert "mini.pdf" in again.output or ".pdf" in again.output   # the summary is printed from the record
    assert _files(out / "mini") == before                           # not one file written again


def test_a_changed_file_a_changed_option_or_a_touched_output_builds_again(run, mini, tmp_path, cached):
    out = tmp_path / "out"
    assert run("build", "--all", mini, "--out", out).exit_code == 0
    some_pdf = next((out / "mini").glob("*.pdf"))
    some_pdf.write_bytes(some_pdf.read_bytes() + b"\n")       # the output is not as the build left it
    assert "unchanged" not in run("build", "--all", mini, "--out", out).output
    assert "unchanged" in run("build", "--all", mini, "--out", out).output
    assert "unchanged" not in run("build", "--all", mini, "--out", out, "--paper", "letter").output   # another option
    (mini / "notes.txt").write_text("a file of the game's folder\n", encoding="utf-8")        # another content file
    assert "unchanged" not in run("build", "--all", mini, "--out", out, "--paper", "letter").output
    assert "unchanged" not in run("build", "--all", mini, "--out", out, "--paper", "letter", "--no-cache").output
    # what is written is an option too: the home profile, a part, per-card print-shop pages
    assert "unchanged" not in run("build", mini, "--out", out, "--paper", "letter").output
    assert "unchanged" in run("build", mini, "--out", out, "--paper", "letter").output
    part = ("build", mini, "--out", out, "--paper", "letter", "--only", "trains")
    assert "unchanged" not in run(*part).output
    again = run(*part).output
    assert "unchanged" in again and "not written: the print-and-play file" in again   # the summary says it again
    assert "unchanged" not in run("build", "--all", mini, "--out", out, "--paper", "letter", "--print-shop",
                                  "per-card").output


def test_output_is_byte_identical_with_and_without_the_cache(run, mini, tmp_path, cached, monkeypatch):
    with_cache, without = tmp_path / "with", tmp_path / "without"
    assert run("build", "--all", mini, "--out", with_cache).exit_code == 0
    decks = mini / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8") + "\n# an edit that changes the stamp, not a face\n",
                     encoding="utf-8")
    drawn = _count_svgs(monkeypatch)
    assert run("build", "--all", mini, "--out", with_cache).exit_code == 0
    assert drawn == []                  # every face SVG came from the cache: no face changed
    monkeypatch.setenv(cache.ENV, "off")
    assert run("build", "--all", mini, "--out", without).exit_code == 0
    assert drawn                        # without the cache they are drawn
    assert _same_tree(with_cache / "mini", without / "mini")


def test_an_edited_face_is_drawn_again_and_only_it(run, mini, tmp_path, cached, monkeypatch):
    out = tmp_path / "out"
    assert run("build", "--all", mini, "--out", out).exit_code == 0
    cards = sorted((out / "mini" / "svg").rglob("*.svg"))
    drawn = _count_svgs(monkeypatch)
    decks = mini / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    assert EDIT[0] in text
    decks.write_text(text.replace(*EDIT), encoding="utf-8")
    assert run("build", "--all", mini, "--out", out).exit_code == 0
    assert 0 < len(drawn) < len(cards)
    monkeypatch.setenv(cache.ENV, "off")
    assert run("build", "--all", mini, "--out", tmp_path / "fresh").exit_code == 0
    assert _same_tree(out / "mini", tmp_path / "fresh" / "mini")


def test_the_cache_keeps_only_the_last_builds_files(run, mini, tmp_path, cached):
    out = tmp_path / "out"
    assert run("build", "--all", mini, "--out", out).exit_code == 0
    kept = {p.name for p in cached.rglob("files/*")}
    decks = mini / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace(*EDIT), encoding="utf-8")
    assert run("build", "--all", mini, "--out", out).exit_code == 0
    now = {p.name for p in cached.rglob("files/*")}
    assert len(now) == len(kept) and now != kept


def test_a_damaged_cache_is_ignored(run, mini, tmp_path, cached):
    out = tmp_path / "out"
    assert run("build", "--all", mini, "--out", out).exit_code == 0
    for record in cached.rglob("*.json"):
        record.write_text("{not json", encoding="utf-8")
    for kept in cached.rglob("files/*"):
        kept.write_bytes(b"")   # a file truncated in the cache: ignored only if its key differs …
        kept.unlink()           # … so a lost file is the case to survive
    result = run("build", "--all", mini, "--out", out)
    assert result.exit_code == 0, result.output
    assert "unchanged" not in result.output
    assert "unchanged" in run("build", "--all", mini, "--out", out).output


def test_a_check_with_nothing_changed_prints_the_same_findings(run, tmp_path, cached):
    folder = copy_fixture(tmp_path, "mini", "decks.yaml", "expected: 5", "expected: 6")   # a count error
    first = run("check", folder, "--format", "json")
    again = run("check", folder, "--format", "json")
    assert first.exit_code == again.exit_code == 1
    assert json.loads(again.output) == json.loads(first.output)
    assert json.loads(first.output)            # the fixture has findings: the record carries them
    record = next(cached.rglob("check.json"))
    assert json.loads(record.read_text(encoding="utf-8"))["findings"]


def test_no_cache_when_it_is_off(run, mini, tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV, "off")
    assert cache.cache_root() is None
    out = tmp_path / "out"
    assert run("build", "--all", mini, "--out", out).exit_code == 0
    assert "unchanged" not in run("build", "--all", mini, "--out", out).output


def test_the_cache_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv(cache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_root() == tmp_path / "pnpgen"


def test_the_key_changes_with_every_part():
    assert cache.key("a", 1) != cache.key("a", 2)
    assert cache.key("a", {"paper": "a4"}) != cache.key("a", {"paper": "letter"})
    assert cache.key("a") == cache.key("a")


def test_pnpgen_s_own_digest_covers_its_templates(tmp_path, monkeypatch):
    """A clone reads shared layouts from templates/ beside the package: an edit there is a new pnpgen."""
    templates = tmp_path / "templates"
    (templates / "layouts").mkdir(parents=True)
    layout = templates / "layouts" / "card.yaml"
    layout.write_text("size: [63, 88]\n", encoding="utf-8")
    monkeypatch.setattr(cache, "TEMPLATES_DIR", templates)
    cache.code_digest.cache_clear()
    try:
        before = cache.code_digest()
        layout.write_text("size: [63, 89]\n", encoding="utf-8")
        cache.code_digest.cache_clear()
        assert cache.code_digest() != before
    finally:
        cache.code_digest.cache_clear()


def test_an_add_on_the_game_declares_is_part_of_what_is_remembered(run, tmp_path, cached):
    """``game: with: [../add-on]`` is only known by reading game.yaml: an edit in that add-on builds again."""
    game, addon = tmp_path / "mini", tmp_path / "mini-addon"
    shutil.copytree(FIXTURES / "mini", game)
    shutil.copytree(FIXTURES / "mini-addon", addon)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("  players: [2, 4]\n", "  players: [2, 4]\n  with: [../mini-addon]\n"),
                                    encoding="utf-8")
    out = tmp_path / "out"
    first = run("build", game, "--out", out)
    assert first.exit_code == 0, first.output
    assert "unchanged" in run("build", game, "--out", out).output
    assert run("check", game).exit_code == run("check", game).exit_code
    rules = addon / "rules.md"
    rules.write_text(rules.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    assert "unchanged" not in run("build", game, "--out", out).output
    record = json.loads(next(cached.rglob("check.json")).read_text(encoding="utf-8"))
    assert str(addon) in record["folders"]
