"""Safe YAML loading that keeps the line of every key and item.

PyYAML's safe loader never executes anything; on top of it mappings and
sequences are built as ``LDict``/``LList`` that remember the source line of
each key and item, so later stages can point errors at the exact line.
Duplicate keys are an error (PyYAML would silently keep the last one).
The parser is libyaml's where PyYAML was built with it: the same data
and lines as the pure-Python one, read about seven times faster.
"""
from __future__ import annotations

import stat
from pathlib import Path

import yaml

from generator import limits
from generator.errors import ContentError, Source, unreadable
from generator.paths import not_a_file


class LDict(dict):
    """A mapping that knows its file, its own line and each key's line."""

    file: Path | None  # None, like a Source's, for a mapping merged from several files
    line: int | None
    key_lines: dict

    def src(self, key=None) -> Source:
        if key is not None and key in self.key_lines:
            return Source(self.file, self.key_lines[key])
        return Source(self.file, self.line)


class LList(list):
    """A sequence that knows its file, its own line and each item's line."""

    file: Path | None
    line: int | None
    item_lines: list

    def src(self, index=None) -> Source:
        if index is not None and 0 <= index < len(self.item_lines):
            return Source(self.file, self.item_lines[index])
        return Source(self.file, self.line)


#: libyaml's safe loader (C parser, Python SafeConstructor); the pure-Python one where PyYAML lacks it
try:
    from yaml import CSafeLoader as _SAFE_LOADER
except ImportError:  # PyYAML built without libyaml
    from yaml import SafeLoader as _SAFE_LOADER  # type: ignore[assignment]  # same interface, another class


def _line(mark) -> int | None:
    """The 1-based line of a parser mark (every event libyaml emits has one)."""
    return mark.line + 1 if mark is not None else None


_STR_TAG = "tag:yaml.org,2002:str"
#: scalars whose value is worked out from their text alone (kept per file by (tag, text): a deck's points, ``true``)
_PLAIN_TAGS = frozenset({"tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
                         "tag:yaml.org,2002:null"})
#: (text, implicit) → the tag the safe loader's resolver gives a plain or quoted scalar: its regular expressions are
#: run once per distinct short text (a deck names the same places thousands of times), not once per scalar
_RESOLVED: dict[tuple, str] = {}
_RESOLVED_TEXT = 64
_RESOLVED_MAX = 1 << 16


def _make_loader(path: Path):
    class LineLoader(_SAFE_LOADER):
        def resolve(self, kind, value, implicit):
            if kind is not yaml.ScalarNode or len(value) > _RESOLVED_TEXT or self.yaml_path_resolvers:
                return super().resolve(kind, value, implicit)
            key = (value, implicit)
            tag = _RESOLVED.get(key)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(_RESOLVED) >= _RESOLVED_MAX:
                    _RESOLVED.clear()
                _RESOLVED[key] = tag
            return tag

        def construct_object(self, node, deep=False):
            try:
                value = super().construct_object(node, deep)
            except (ValueError, OverflowError, IndexError, KeyError, AttributeError, TypeError) as exc:  # a PyYAML
                # constructor given a value it cannot read (2024-13-45, !!int x, an empty !!int, !!bool or !!timestamp) raises
                # these, not a YAMLError
                kind = str(node.tag).rsplit(":", 1)[-1]
                article = "an" if kind[:1] in "aeiou" else "a"
                raise ContentError(Source(path, node.start_mark.line + 1),
                                   f"malformed YAML: {node.value!r} cannot be read as {article} {kind} ({exc})",
                                   "quote it to keep it as text, or write a valid value") from None
            if type(value) is int and not -limits.MAX_WHOLE_NUMBER <= value <= limits.MAX_WHOLE_NUMBER:
                raise too_large(value, Source(path, node.start_mark.line + 1))
            return value

    scalars: dict[tuple, object] = {}

    def value_of(loader, node):
        """``loader.construct_object(node, deep=True)``, with a text given as it is (the safe constructor's
        ``construct_yaml_str`` returns the node's value) and a number, bool or null worked out once per text."""
        if type(node) is yaml.ScalarNode:
            tag = node.tag
            if tag == _STR_TAG:
                return node.value
            if tag in _PLAIN_TAGS:
                key = (tag, node.value)
                if key not in scalars:
                    scalars[key] = loader.construct_object(node, deep=True)
                return scalars[key]
        return loader.construct_object(node, deep=True)

    def construct_mapping(loader, node, deep=False):
        result = LDict()
        result.file, result.line, result.key_lines = path, node.start_mark.line + 1, {}
        for key_node, value_node in node.value:
            key = value_of(loader, key_node)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise ContentError(Source(path, key_node.start_mark.line + 1),
                                   f"a key must be a plain name, not {key!r}",
                                   "write the key as a word or number (quote it if it has special characters)")
            if key in result:
                raise ContentError(
                    Source(path, key_node.start_mark.line + 1),
                    f"duplicate key '{key}' (first at line {result.key_lines[key]})",
                    "remove or rename one of them: YAML would silently keep only the last")
            result.key_lines[key] = key_node.start_mark.line + 1
            result[key] = value_of(loader, value_node)
        return result

    def construct_sequence(loader, node, deep=False):
        result = LList([value_of(loader, child) for child in node.value])
        result.file, result.line = path, node.start_mark.line + 1
        result.item_lines = [child.start_mark.line + 1 for child in node.value]
        return result

    LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, construct_sequence)
    return LineLoader


def loader_for(path: Path):
    """The safe loader content files are read with (lines kept, duplicate keys and whole numbers past
    MAX_WHOLE_NUMBER refused), for YAML written elsewhere: a spreadsheet cell's ``[a, b]`` or ``{north: [x, y]}``."""
    return _make_loader(path)


def too_large(value: int, src: Source) -> ContentError:
    """A whole number past MAX_WHOLE_NUMBER (YAML's or a spreadsheet cell's), at its line."""
    digits = int(value.bit_length() * 0.30103) + 1   # about; str() of a 0x number of 6,000 digits is refused
    return ContentError(src, f"a whole number of about {digits:,} digits is larger than {limits.MAX_WHOLE_NUMBER:,} "
                             "(MAX_WHOLE_NUMBER)",
                        "no size, count or score is this large: write the number it should be (or quote it as text)")


def read_text(path: Path, what: str = "file") -> str:
    """A content file's text, refused before it is read when it is too large, and with the
    line and column of the first byte that is not UTF-8 (an editor can jump there)."""
    data = read_bounded(path, limits.MAX_FILE_BYTES, "MAX_FILE_BYTES", what,
                        "split it into smaller files; no real game needs a content file this large")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise unreadable(path, error, what, data) from None


def read_bounded(path: Path, limit: int, limit_name: str, what: str, hint: str) -> bytes:
    """A content file's bytes, refused by its size before it is read (``limit``, named as in limits.py)."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):   # a named pipe would be read forever: refused by its mode, unopened
            not_a_file(path, Source(path), folder_too=True)
        size = status.st_size
        if size > limit:
            raise ContentError(Source(path), f"the {what} is {size:,} bytes, more than the limit of "
                                             f"{limit:,} ({limit_name})", hint)
        return path.read_bytes()
    except OSError as error:
        raise unreadable(path, error, what) from None


def check_shape(text: str, path: Path) -> None:
    """Refuse nesting deeper than MAX_YAML_DEPTH and aliases that expand past MAX_YAML_NODES,
    before any Python object is built.

    libyaml's event stream is produced lazily and iteratively, so a 100,000-deep ``[[[…`` stops
    here after a few hundred bytes; composing or constructing it would recurse (a RecursionError,
    or a crash in C). An alias costs the expanded size of what it names ("billion laughs"),
    counted as the events go: an anchored collection's size is the count at its end minus the
    count at its start, so shared nodes are measured once.
    """
    expanded = 0
    depth = 0
    open_anchors: list[tuple[str | None, int]] = []   # per open collection: its anchor, the count at its start
    sizes: dict[str | None, int] = {}
    scalar = yaml.ScalarEvent
    for event in yaml.parse(text, Loader=_SAFE_LOADER):
        if type(event) is scalar and event.anchor is None:   # most events: asked first, by type
            expanded += 1
            if expanded <= limits.MAX_YAML_NODES:
                continue
        elif isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > limits.MAX_YAML_DEPTH:
                raise ContentError(Source(path, _line(event.start_mark)),
                                   f"YAML nested more than {limits.MAX_YAML_DEPTH} levels deep (MAX_YAML_DEPTH)",
                                   "flatten the data: no game needs lists or mappings nested this deeply")
            open_anchors.append((event.anchor, expanded))
            expanded += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            anchor, start = open_anchors.pop()
            if anchor is not None:
                sizes[anchor] = expanded - start
        elif isinstance(event, yaml.ScalarEvent):
            expanded += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            expanded += sizes.get(event.anchor, 1)   # an unknown alias is the loader's error, with its line
        else:
            continue
        if expanded > limits.MAX_YAML_NODES:
            raise ContentError(Source(path, _line(event.start_mark)),
                               f"YAML expands to more than {limits.MAX_YAML_NODES:,} values (MAX_YAML_NODES)"
                               + (f": alias *{event.anchor} repeats too much" if isinstance(event, yaml.AliasEvent) else ""),
                               "use fewer aliases (*name), or write the data out: aliases that repeat aliases "
                               "multiply, a 'billion laughs' bomb")


#: what ``_one_pass`` answers when the file holds anything it leaves to the two passes
_TWO_PASSES = object()


def _one_pass(text: str, path: Path):
    """The data ``load_yaml`` reads from ``text``, in one pass of libyaml's events, for the files content is made
    of: one document of mappings, sequences and plain or quoted scalars that are text, numbers, booleans or null,
    within the limits. Anything else (a tag, an anchor, an alias, a date, a key that is no plain name, a duplicate,
    a limit passed, malformed YAML) answers ``_TWO_PASSES``, and ``check_shape`` then ``yaml.load`` read the file as
    they always did, with their errors. The events are those ``check_shape`` walks, and each value is made as the
    loader's constructors make it (``_make_loader``): the same data, keys in the same order, the same lines. Parsing
    once, not twice, and no node tree: about half of a 199-card game's load."""
    loader = _make_loader(path)(text)
    try:
        return _events_to_data(loader, path)
    except Exception:   # noqa: BLE001 - whatever went wrong, the two passes say it (or find it was nothing)
        return _TWO_PASSES
    finally:
        loader.dispose()


def _events_to_data(loader, path: Path):
    get, resolve, construct = loader.get_event, loader.resolve, loader.construct_object
    scalar_node, scalar_event = yaml.ScalarNode, yaml.ScalarEvent
    map_start, seq_start = yaml.MappingStartEvent, yaml.SequenceStartEvent
    map_end, seq_end = yaml.MappingEndEvent, yaml.SequenceEndEvent
    if type(get()) is not yaml.StreamStartEvent:
        return _TWO_PASSES
    event = get()
    if type(event) is yaml.StreamEndEvent:
        return None
    if type(event) is not yaml.DocumentStartEvent:
        return _TWO_PASSES
    scalars: dict[tuple, object] = {}   # (tag, text) → its value, as value_of keeps them
    # open collections: [LDict, key or _TWO_PASSES while none is pending] or [LList]
    stack: list[list] = []
    nodes, depth_limit, node_limit = 0, limits.MAX_YAML_DEPTH, limits.MAX_YAML_NODES
    root = _TWO_PASSES
    while True:
        event = get()
        kind = type(event)
        if kind is scalar_event:
            if event.anchor is not None or event.tag is not None:
                return _TWO_PASSES
            nodes += 1
            value = event.value
            tag = resolve(scalar_node, value, event.implicit)
            if tag != _STR_TAG:
                if tag not in _PLAIN_TAGS:
                    return _TWO_PASSES
                key = (tag, value)
                if key not in scalars:
                    scalars[key] = construct(scalar_node(tag, value, event.start_mark, event.end_mark, event.style),
                                             deep=True)
                value = scalars[key]
            line = event.start_mark.line + 1
        elif kind is map_start or kind is seq_start:
            if event.anchor is not None or event.tag is not None or len(stack) >= depth_limit:
                return _TWO_PASSES
            nodes += 1
            if nodes > node_limit:
                return _TWO_PASSES
            if kind is map_start:
                mapping = LDict()
                mapping.file, mapping.line, mapping.key_lines = path, event.start_mark.line + 1, {}
                stack.append([mapping, _TWO_PASSES, 0])
            else:
                sequence = LList()
                sequence.file, sequence.line, sequence.item_lines = path, event.start_mark.line + 1, []
                stack.append([sequence])
            continue
        elif kind is map_end or kind is seq_end:
            value = stack.pop()[0]
            line = value.line
        elif kind is yaml.DocumentEndEvent:
            return root if type(get()) is yaml.StreamEndEvent and not stack else _TWO_PASSES
        else:   # an alias, or what the loader's own passes should judge
            return _TWO_PASSES
        if nodes > node_limit:
            return _TWO_PASSES
        if not stack:
            root = value
            continue
        top = stack[-1]
        if len(top) == 1:
            top[0].append(value)
            top[0].item_lines.append(line)
        elif top[1] is _TWO_PASSES:   # a key: a plain name, once
            if type(value) not in (str, int, float, bool) or value in top[0]:
                return _TWO_PASSES
            top[1], top[2] = value, line
        else:
            top[0].key_lines[top[1]] = top[2]
            top[0][top[1]] = value
            top[1] = _TWO_PASSES


def load_yaml(path: Path):
    """Read one YAML file safely; every failure (and every limit hit) becomes a ContentError."""
    text = read_text(path)
    data = _one_pass(text, path)
    if data is not _TWO_PASSES:
        if data is None:
            data = LDict()
            data.file, data.line, data.key_lines = path, 1, {}
        return data
    try:
        check_shape(text, path)
        data = yaml.load(text, Loader=_make_loader(path))  # noqa: S506 - a safe loader's subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or "malformed YAML"
        context = f" ({exc.context})" if exc.context else ""
        if "tag:yaml.org,2002:merge" in problem:   # ``<<: *base``: pnpgen's loader keeps each key's line, not merges
            raise ContentError(Source(path, line), "a YAML merge key ('<<: *anchor') is not supported",
                               "write the keys out here, or repeat the whole value with its anchor (back: *base); "
                               "a layout can share elements with 'extends:'") from None
        raise ContentError(Source(path, line), f"malformed YAML: {problem}{context}",
                           "check indentation, colons and quotes on this line and the one before") from None
    except yaml.reader.ReaderError:  # a character YAML does not allow; its position is libyaml's byte offset
        bad = yaml.reader.Reader.NON_PRINTABLE.search(text)
        line = text.count("\n", 0, bad.start()) + 1 if bad else None
        what = f"character U+{ord(bad.group()):04X} (not printable)" if bad else "a character that is not printable"
        raise ContentError(Source(path, line), f"malformed YAML: {what} is not allowed",
                           "delete it (or write it as an escape such as \\u0007 in a double-quoted string)") from None
    except yaml.YAMLError as exc:
        raise ContentError(Source(path), f"malformed YAML: {exc}",
                           "check the file in a YAML-aware editor; save it as UTF-8 text") from None
    if data is None:
        data = LDict()
        data.file, data.line, data.key_lines = path, 1, {}
    return data
