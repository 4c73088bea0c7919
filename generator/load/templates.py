"""pnpgen's own YAML files (templates/: the word catalogues, the palette) read back from snapshots, not parsed.

Every load reads the palette and its language's catalogue (the reference one too for another language): parsed,
about 9 million instructions of a 199-card game's load. ``template_snapshots`` (written by
``tools/template_snapshots.py``, a test fails while it is stale) keeps each file's data with the sha256 of its
bytes; a file whose bytes are those is given back from it, the same data ``load_yaml`` makes (keys in order,
lines, the file); any other file, or one edited since, is parsed as before.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from generator import TEMPLATES_DIR, limits
from generator.load.template_snapshots import SNAPSHOTS
from generator.yamlsource import LDict, LList, load_yaml, read_bounded


def load_template(path: Path):
    """``load_yaml(path)`` for a file of templates/, from its snapshot where the file is the one snapshotted."""
    try:
        name = path.relative_to(TEMPLATES_DIR).as_posix()
    except ValueError:
        return load_yaml(path)
    kept = SNAPSHOTS.get(name)
    if kept is None:
        return load_yaml(path)
    # as load_yaml reads it (a file too large or not a file is its error), then parsed only if it is another
    data = read_bounded(path, limits.MAX_FILE_BYTES, "MAX_FILE_BYTES", "file",
                        "split it into smaller files; no real game needs a content file this large")
    if hashlib.sha256(data).hexdigest() != kept[0]:
        return load_yaml(path)
    return _restored(kept[1], path)


def _restored(node, path: Path):
    """A snapshot's node (``tools/template_snapshots._node``) as ``load_yaml`` gives it."""
    if type(node) is not tuple:
        return node
    kind, line, items = node
    if kind == "m":
        mapping = LDict()
        mapping.file, mapping.line, mapping.key_lines = path, line, {}
        for key, key_line, value in items:
            mapping.key_lines[key] = key_line
            mapping[key] = _restored(value, path)
        return mapping
    sequence = LList([_restored(value, path) for value, _line in items])
    sequence.file, sequence.line, sequence.item_lines = path, line, [item_line for _value, item_line in items]
    return sequence
