"""Round six, hashing a game folder: every check hashed every byte of every file of the game folder for the build
cache's key (a 20 GB sparse file, a few bytes in a tar, held a check for minutes), and the preview read every file
of it, output/ included. A file larger than any content pnpgen reads stands by its size
(limits.MAX_CONTENT_FILE_BYTES); past limits.MAX_HASHED_BYTES read, the cache leaves the game uncached and the stamp
and the preview take the rest by size."""
from __future__ import annotations

import shutil
from pathlib import Path

from generator import cache, limits
from generator.load.game import load_game
from generator.model import stamp
from generator.serve import preview

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


def _mini(tmp_path: Path) -> Path:
    shutil.copytree(MINI, tmp_path / "mini")
    return tmp_path / "mini"


def test_a_huge_file_stands_by_its_size_in_the_cache_key(tmp_path, monkeypatch):
    game = _mini(tmp_path)
    monkeypatch.setattr(limits, "MAX_CONTENT_FILE_BYTES", 100)
    (game / "video.bin").write_bytes(b"a" * 1000)
    first = cache.content_digest([game])
    (game / "video.bin").write_bytes(b"b" * 1000)   # not read: the same size, the same key
    assert cache.content_digest([game]) == first
    (game / "video.bin").write_bytes(b"b" * 1001)
    assert cache.content_digest([game]) != first
    (game / "decks.yaml").write_text((game / "decks.yaml").read_text() + "\n")
    assert cache.content_digest([game]) is not None


def test_a_folder_too_large_to_read_is_not_cached(tmp_path, monkeypatch):
    game = _mini(tmp_path)
    monkeypatch.setattr(limits, "MAX_HASHED_BYTES", 5_000)
    assert cache.content_digest([game]) is not None
    (game / "notes.txt").write_bytes(b"x" * 5_000)
    assert cache.content_digest([game]) is None


def test_the_stamp_reads_at_most_max_hashed_bytes(tmp_path, monkeypatch):
    game = _mini(tmp_path)
    monkeypatch.setattr(limits, "MAX_HASHED_BYTES", 5_000)
    (game / "zz-notes.txt").write_bytes(b"x" * 5_000)
    first = stamp.content_hash([game])
    (game / "zz-notes.txt").write_bytes(b"y" * 5_000)   # past the budget: by its size
    assert stamp.content_hash([game]) == first
    (game / "decks.yaml").write_text((game / "decks.yaml").read_text() + "\n")   # within it: every byte
    assert stamp.content_hash([game]) != first


def test_the_preview_hashes_content_files_only(tmp_path, monkeypatch):
    game_folder = _mini(tmp_path)
    (game_folder / "output" / "mini").mkdir(parents=True)
    game = load_game(game_folder)
    first = preview._world_key(game)
    (game_folder / "output" / "mini" / "cards.pdf").write_bytes(b"%PDF")   # a build's output: not content
    assert preview._world_key(game) == first
    monkeypatch.setattr(preview, "MAX_CONTENT_FILE_BYTES", 100)
    (game_folder / "art.png").write_bytes(b"a" * 1000)
    second = preview._world_key(game)
    (game_folder / "art.png").write_bytes(b"b" * 1000)   # larger than any content: by its size
    assert preview._world_key(game) == second != first
