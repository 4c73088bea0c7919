"""A Jinja sandbox that also bounds work: the one layouts and rules.md both run in.

Jinja's own sandbox stops content from calling into Python, not from asking
for ``9**(9**9)``, ``'a' * 10**9``, ``'a'.center(10**9)`` or three nested loops
over ``range(10**5)``: each of those hangs or exhausts memory with a few bytes
of content. This environment checks the size of what an operator, a call or a
filter would produce *before* producing it, counts loop iterations, and caps
the rendered output — each against a ceiling of ``generator.limits``. Hitting
one raises ``JinjaLimitError``, a ``TemplateError``, so callers report it at
the template's or the expression's line like any other Jinja mistake.

It imports nothing of pnpgen but the limits and the file reader, so both
``generator.load`` and ``generator.layout`` can use it without cycles.
"""
from __future__ import annotations

import functools
import io
import itertools
import math
import os
import posixpath
import re
import threading
import types
from collections.abc import Callable
from pathlib import Path, PurePath

from jinja2 import FileSystemLoader, TemplateError, TemplateNotFound, nodes
from jinja2.loaders import split_template_path
from jinja2.runtime import markup_join, str_join
from jinja2.sandbox import MAX_RANGE, ImmutableSandboxedEnvironment, SandboxedEnvironment, modifies_known_mutable
from jinja2.utils import _PassArg
from jinja2.visitor import NodeTransformer

from generator import limits
from generator.yamlsource import read_text

#: string methods whose output can be far larger than their input
_GROWING_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs", "replace", "join"})
#: ... because a whole-number argument is a width: 'a'.center(10**9)
_WIDTH_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})
#: filters whose output can be far larger than their input (each result is measured too)
_GROWING_FILTERS = ("center", "indent", "wordwrap", "format", "join", "replace", "truncate", "list", "batch",
                    "slice", "sum", "string", "urlize", "xmlattr", "tojson", "pprint", "filesizeformat")
#: ... because a whole-number argument is a width or a count of pieces: 'a'|center(10**9), [1]|batch(10**9, 0)
_WIDTH_FILTERS = frozenset({"center", "indent", "wordwrap", "batch", "slice"})
#: filters that turn their value into text (or compare its items): measured, nested items counted, before
_TEXT_FILTERS = ("e", "escape", "forceescape", "trim", "upper", "lower", "title", "capitalize", "striptags",
                 "wordcount", "safe", "sort", "unique", "dictsort", "groupby", "min", "max")
#: methods by which a template adds to a list or dict it holds (a mutable sandbox allows them): ``l.extend(l)``
#: in a loop doubles ``l`` each time, 2**40 items from forty iterations
_GROWING_CONTAINER_METHODS = frozenset({"append", "extend", "insert", "update", "setdefault"})
_NUMBER = re.compile(r"\d+")
#: a replacement field whose format spec holds another field: '{:>{}}'.format(1, 10**9)
_NESTED_FIELD = re.compile(r"\{[^{}]*:[^{}]*\{")


#: kinds of object that reach outside the content: a path (``game.folder``, a ``Source``'s file) can read, write and
#: delete any file by its methods (``game.folder.joinpath('/etc/passwd').read_text()``, ``….write_text(…)``), a file
#: object or a module likewise. Jinja's sandboxes let a template call any method that is not an underscore's or a
#: known container's mutator, so nothing of these is readable from content: a template may print one, no more
OUTSIDE_KINDS = (PurePath, io.IOBase, types.ModuleType)


class JinjaLimitError(TemplateError):
    """An expression or template asked for more than a limit of ``generator.limits`` allows."""


def _refuse(what: str, limit_name: str) -> JinjaLimitError:
    return JinjaLimitError(f"{what}, more than {getattr(limits, limit_name):,} ({limit_name})")


def _length(value) -> int | None:
    """The length of a string or list (what a size limit measures), None for anything else."""
    return len(value) if isinstance(value, (str, list, tuple)) else None


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_ints(args, what: str) -> None:
    """A whole-number argument beyond MAX_JINJA_SEQUENCE is a width or count that would allocate as much."""
    for value in args:
        if _is_int(value) and abs(value) > limits.MAX_JINJA_SEQUENCE:
            raise _refuse(f"{what} was given {value:,}", "MAX_JINJA_SEQUENCE")


def _check_format_string(text, what: str) -> None:
    """A width or precision written into a format string ('%1000000000d', '{:>1000000000}')."""
    if isinstance(text, str):
        for match in _NUMBER.finditer(text):
            if len(match.group()) > 7 and int(match.group()) > limits.MAX_JINJA_SEQUENCE:
                raise _refuse(f"{what} asks for a width of {int(match.group()):,}", "MAX_JINJA_SEQUENCE")


def _check_percent_format(text: str, arguments, what: str) -> None:
    """'%1000000000d' % 1, or a width given as an argument ('%*d' % (10**9, 1))."""
    _check_format_string(text, what)
    if "*" in text:
        _check_ints(arguments if isinstance(arguments, tuple) else (arguments,), f"a width for {what}")


def _check_size(size: int, what: str) -> None:
    if size > limits.MAX_JINJA_SEQUENCE:
        raise _refuse(f"{what} would make {size:,} characters or items", "MAX_JINJA_SEQUENCE")


def _deep_size(value, budget: int) -> int:
    """Items and characters in ``value``, lists, tuples and dicts nested in it counted each time they occur
    (``[[0]*999999]*999999`` holds one list, but printing or comparing it meets 10**12 items); the count
    stops once it passes ``budget``, so measuring costs at most that much work."""
    size, stack = 0, [value]
    shapes = _SHAPES
    while stack and size <= budget:
        item = stack.pop()
        shape = shapes.get(type(item))
        if shape is None:
            shape = _shape(item)
        if shape is _TEXT:
            size += len(item)
        elif shape is _SEQUENCE:
            size += len(item)
            stack.extend(item)
        elif shape is _MAPPING:
            size += 2 * len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
    return size


_TEXT, _SEQUENCE, _MAPPING, _OTHER = "text", "sequence", "mapping", "other"
#: what ``_deep_size`` counts of a value, by its exact type (asked of ``isinstance`` once per type): every value a
#: layout's expressions meet, measured on every card, was asked four ``isinstance`` questions
_SHAPES: dict[type, str] = {str: _TEXT, list: _SEQUENCE, tuple: _SEQUENCE, dict: _MAPPING, int: _OTHER,
                            float: _OTHER, bool: _OTHER, type(None): _OTHER}


def _shape(item) -> str:
    shape = (_TEXT if isinstance(item, str) else _SEQUENCE if isinstance(item, (list, tuple))
             else _MAPPING if isinstance(item, dict) else _OTHER)
    if item.__class__ is type(item) and len(_SHAPES) < 1024:   # what ``isinstance`` asks about is its type alone
        _SHAPES[type(item)] = shape
    return shape


def _check_deep(values, what: str) -> None:
    """Refuse ``values`` whose nested items, counted as printing them would meet them, pass MAX_JINJA_SEQUENCE.
    A text on its own is not measured: it is made already, and printing it costs its length (the operators
    that make texts are measured themselves; the rules page prints its whole body at once)."""
    if _flat_size(values) <= limits.MAX_JINJA_SEQUENCE:
        return
    values = [value for value in values if not isinstance(value, str)]
    size = _deep_size(values, limits.MAX_JINJA_SEQUENCE + len(values)) - len(values)
    if size > limits.MAX_JINJA_SEQUENCE:
        raise _refuse(f"{what} holds more than {size:,} items or characters, nested ones counted",
                      "MAX_JINJA_SEQUENCE")


def _flat_size(values) -> float:
    """What ``_check_deep`` measures of ``values`` when none of them nests a list or dict in a list or dict (a
    filter's value and its options, a list written in a layout: ``[card.to]``): their items and the characters
    of their texts, counted in one pass over each; infinity when it cannot tell at once (something nested, or
    more items than the ceiling), and ``_check_deep`` walks them as it always did."""
    size = 0
    ceiling = limits.MAX_JINJA_SEQUENCE
    for value in values:
        shape = _SHAPES.get(type(value)) or _shape(value)
        if shape is _TEXT or shape is _OTHER:   # a text on its own is not measured; a number or object is 0
            continue
        if shape is _MAPPING:
            if value:
                return math.inf
            continue
        if len(value) > ceiling:
            return math.inf
        size += len(value)
        for item in value:
            inner = _SHAPES.get(type(item)) or _shape(item)
            if inner is _TEXT:
                size += len(item)
            elif inner is not _OTHER:
                return math.inf
    return size


def _binop_estimate(operator: str, left, right) -> None:
    """Refuse an operation whose result would be too large, from the sizes of its operands alone."""
    if operator == "**" and _is_int(left) and _is_int(right) and right > 0 and abs(left) > 1:
        bits = (abs(left).bit_length() - 1) * right
        if bits > limits.MAX_JINJA_INT_BITS:
            raise _refuse(f"{left} ** {right} would have about {bits:,} bits", "MAX_JINJA_INT_BITS")
    elif operator == "*":
        if _is_int(left) and _is_int(right):
            bits = abs(left).bit_length() + abs(right).bit_length()
            if bits > limits.MAX_JINJA_INT_BITS:
                raise _refuse(f"a product of about {bits:,} bits", "MAX_JINJA_INT_BITS")
        for sequence, count in ((left, right), (right, left)):
            length = _length(sequence)
            if length is not None and _is_int(count):
                _check_size(length * count, "repeating a text or list")
                if not isinstance(sequence, str) and count > 1:   # a list of lists repeats its nested items too
                    deep = _deep_size(sequence, limits.MAX_JINJA_SEQUENCE // count + 1)
                    if deep * count > limits.MAX_JINJA_SEQUENCE:
                        raise _refuse(f"repeating a list {count:,} times would make at least {deep * count:,} "
                                      f"items, nested ones counted", "MAX_JINJA_SEQUENCE")
    elif operator == "+":
        if _length(left) is not None and _length(right) is not None:
            _check_size(len(left) + len(right), "joining two texts or lists")
            if not isinstance(left, str):
                _check_deep((left, right), "joining two lists")
    elif operator == "%" and isinstance(left, str):
        _check_percent_format(left, right, "%-formatting")
        _check_deep((right,), "a value for %-formatting")


def _int_result(value, what: str):
    if _is_int(value) and value.bit_length() > limits.MAX_JINJA_INT_BITS:
        raise _refuse(f"{what} gives a number of {value.bit_length():,} bits", "MAX_JINJA_INT_BITS")
    return value


class _CountLoops(NodeTransformer):
    """Route every ``{% for %}`` through the environment's counter and every ``~`` through its size check."""

    def visit_For(self, node: nodes.For) -> nodes.For:
        self.generic_visit(node)
        node.iter = nodes.Call(nodes.EnvironmentAttribute("counted_loop"), [node.iter], [], None, None,
                               lineno=node.iter.lineno)
        return node

    def visit_List(self, node: nodes.List) -> nodes.Call:
        return self._measured(node)

    def visit_Dict(self, node: nodes.Dict) -> nodes.Call:
        return self._measured(node)

    def visit_Tuple(self, node: nodes.Tuple) -> nodes.Node:
        return self._measured(node) if node.ctx == "load" else self.generic_visit(node)

    def _measured(self, node):
        """A list, tuple or dict written in the template, measured as it is made: ``[a, a, a]`` of a long
        ``a`` nests what one name holds many times over (``bounded_literal``)."""
        self.generic_visit(node)
        return nodes.Call(nodes.EnvironmentAttribute("bounded_literal"), [node], [], None, None, lineno=node.lineno)

    def visit_Concat(self, node: nodes.Concat) -> nodes.Call:
        self.generic_visit(node)
        return nodes.Call(nodes.EnvironmentAttribute("bounded_concat"), [nodes.List(node.nodes, lineno=node.lineno)],
                          [], None, None, lineno=node.lineno)


class _BoundedMixin:
    """What both sandboxes add: work and size ceilings (see the module's docstring)."""

    autoescape: bool | Callable[[str | None], bool]  # the Environment's: this mixes into one

    intercepted_binops = frozenset({"**", "*", "+", "%", "//"})

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.finalize is None:
            self.finalize = self.bounded_finalize
        self.iterations = 0
        self.grown = 0
        self._local = threading.local()   # ``made``, per thread: the preview lays faces out beside its checks
        self.globals["range"] = self.counted_range
        for name in (*_GROWING_FILTERS, *_TEXT_FILTERS):
            if name in self.filters:
                self.filters[name] = _bounded_filter(name, self.filters[name])

    # ---------------------------------------------------------------- counting
    def start(self) -> None:
        """A new evaluation of a template or expression: its loops and what it adds to lists start from zero."""
        self.iterations = 0
        self.grown = 0
        self._local.made = {}

    @property
    def made(self) -> dict[int, object]:
        """id → the lists and dicts this evaluation wrote (``[]``, ``{}``, ``[0] * 9``): the only ones a layout may
        change (``BoundedSandbox``); held until the next evaluation in the same thread starts."""
        made = getattr(self._local, "made", None)
        if made is None:
            made = self._local.made = {}
        return made

    def grow(self, args: tuple, kwargs: dict, what: str) -> tuple:
        """Count what ``append``/``extend``/``insert``/``update``/``setdefault`` add to a list or dict (items and
        characters, nested ones counted) against MAX_JINJA_SEQUENCE for the whole evaluation: the size of every
        list a template builds up, whatever aliases it. An iterable given to ``extend``/``update`` is read into a
        list first (at most that many items), so that it is measured before it is added."""
        budget = limits.MAX_JINJA_SEQUENCE - self.grown
        if what in ("extend", "update") and args and not isinstance(args[0], (list, tuple, dict, str)):
            args = (list(itertools.islice(iter(args[0]), max(0, budget) + 1)), *args[1:])
        added = _deep_size((args, kwargs), budget + 2) - 2
        self.grown = self.grown + added
        if self.grown > limits.MAX_JINJA_SEQUENCE:
            raise _refuse(f"'{what}' has added {self.grown:,} items or characters to lists or dicts, nested ones "
                          f"counted", "MAX_JINJA_SEQUENCE")
        return args

    def tick(self, count: int = 1) -> None:
        self.iterations += count
        if self.iterations > limits.MAX_JINJA_ITERATIONS:
            raise _refuse(f"the loops ran {self.iterations:,} times", "MAX_JINJA_ITERATIONS")

    def counted_loop(self, iterable):
        """A ``{% for %}``'s iterable, each item counted (a ``range()`` counts its own)."""
        return iterable if isinstance(iterable, CountedRange) else self._count_each(iterable)

    def _count_each(self, iterable):
        for item in iterable:
            self.tick()
            yield item

    def counted_range(self, *args) -> CountedRange:
        """``range()`` for content: at most the sandbox's MAX_RANGE numbers, each counted when iterated."""
        if not all(_is_int(a) for a in args):
            raise JinjaLimitError(f"range() takes whole numbers, not {', '.join(repr(a) for a in args)}")
        numbers = range(*args)
        if len(numbers) > MAX_RANGE:
            raise JinjaLimitError(f"range() of {len(numbers):,} numbers, more than the sandbox's {MAX_RANGE:,}")
        return CountedRange(numbers, self)

    def bounded_literal(self, value):
        """A list, tuple or dict literal, refused when what it nests passes MAX_JINJA_SEQUENCE; a list or dict is
        noted as the evaluation's own (``BoundedSandbox`` lets a layout change only those)."""
        _check_deep((value,), "a list or dict written here")
        if type(value) is list or type(value) is dict:
            self.made[id(value)] = value
        return value

    def bounded_finalize(self, value):
        """What ``{{ … }}`` prints, measured before it is turned into text (``finalize``)."""
        _check_deep((value,), "a value to print")
        return value

    def bounded_concat(self, values) -> str:
        _check_deep(values, "a value joined with ~")
        texts = [str(v) for v in values]
        _check_size(sum(len(t) for t in texts), "joining texts with ~")
        return (markup_join if self.autoescape else str_join)(values)

    # ---------------------------------------------------------------- what content may reach
    def is_safe_attribute(self, obj, attr, value) -> bool:
        """Jinja's rule, and nothing of a path, a file or a module (``OUTSIDE_KINDS``)."""
        return not isinstance(obj, OUTSIDE_KINDS) and super().is_safe_attribute(obj, attr, value)  # type: ignore[misc]

    def is_safe_callable(self, obj) -> bool:
        """Jinja's rule, and no method of a path, a file or a module, however it was reached (``OUTSIDE_KINDS``)."""
        return (not isinstance(getattr(obj, "__self__", None), OUTSIDE_KINDS)
                and super().is_safe_callable(obj))  # type: ignore[misc]

    # ---------------------------------------------------------------- interception
    def call_binop(self, context, operator, left, right):
        _binop_estimate(operator, left, right)
        result = super().call_binop(context, operator, left, right)
        if type(result) is list:   # a new list (``[0] * 9``, ``a + b``): the evaluation's own, as a literal is
            self.made[id(result)] = result
        return _int_result(result, f"'{operator}'")

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        name = getattr(__obj, "__name__", "")
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, str) and name in _GROWING_METHODS:
            what = f"'{name}'"
            if name in _WIDTH_METHODS:
                _check_ints([*args, *kwargs.values()], what)
            if name == "replace" and len(args) >= 2 and all(isinstance(a, str) for a in args[:2]):
                count = owner.count(args[0]) if args[0] else len(owner) + 1
                _check_size(len(owner) + count * max(0, len(args[1]) - len(args[0])), what)
            if name == "join" and args:
                items = list(args[0])
                _check_size(sum(len(i) for i in items if isinstance(i, str)) + len(owner) * max(0, len(items) - 1), what)
                args = (items, *args[1:])
            if name == "expandtabs":
                _check_size(len(owner) * max([8, *(a for a in args if _is_int(a))]), what)
        if isinstance(owner, (list, dict)) and name in _GROWING_CONTAINER_METHODS:
            args = __self.grow(args, kwargs, name)
        result = super().call(__context, __obj, *args, **kwargs)
        if _length(result) is not None:
            _check_size(len(result), f"calling {name or 'a function'}")
        return _int_result(result, f"calling {name or 'a function'}")

    def wrap_str_format(self, value):
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        template = getattr(value, "__self__", None)

        @functools.wraps(wrapped)
        def bounded(*args, **kwargs):
            _check_format_string(template, "a format string")
            _check_deep((args, kwargs), "a value for 'format'")
            if isinstance(template, str) and _NESTED_FIELD.search(template):
                _check_ints([*args, *kwargs.values()], "a width for 'format'")
            return wrapped(*args, **kwargs)

        return bounded

    # ---------------------------------------------------------------- compiling and rendering
    def _generate(self, source, name, filename, defer_init=False):
        return super()._generate(_CountLoops().visit(source), name, filename, defer_init)

    def render(self, template, context: dict) -> str:
        """``template.render(context)``, counted from zero and refused once it passes MAX_JINJA_OUTPUT."""
        self.start()
        parts, size = [], 0
        chunks = template.generate(context)
        for part in chunks:
            size += len(part)
            if size > limits.MAX_JINJA_OUTPUT:
                # raised inside the template, where it is writing: its traceback names the template's line
                chunks.throw(_refuse(f"the template writes {size:,} characters", "MAX_JINJA_OUTPUT"))
            parts.append(part)
        return "".join(parts)


class CountedRange:
    """A range whose iteration counts against MAX_JINJA_ITERATIONS; otherwise a range (len, index, in)."""

    def __init__(self, numbers: range, env: _BoundedMixin):
        self._numbers, self._env = numbers, env  # private: the sandbox hides _names from content

    def __iter__(self):
        return self._env._count_each(self._numbers)

    def __reversed__(self):
        return self._env._count_each(reversed(self._numbers))

    def __len__(self) -> int:
        return len(self._numbers)

    def __getitem__(self, index):
        item = self._numbers[index]
        return CountedRange(item, self._env) if isinstance(item, range) else item

    def __contains__(self, value) -> bool:
        return value in self._numbers

    def __eq__(self, other) -> bool:
        return self._numbers == (other._numbers if isinstance(other, CountedRange) else other)

    __hash__ = None  # type: ignore[assignment]  # unhashable (the usual idiom; typeshed types __hash__ as a method)

    def __repr__(self) -> str:
        return repr(self._numbers)


def _bounded_filter(name: str, original):
    """A filter refused when a number it is given, or what it makes, is beyond MAX_JINJA_SEQUENCE."""
    passes_arg = _PassArg.from_obj(original) is not None
    # what the filter is checked for, by its name: asked once here, not on every call
    what = f"the '{name}' filter"
    value_what = f"the value of {what}"
    measured = name in _TEXT_FILTERS or name in _GROWING_FILTERS
    counts_widths, grows = name in _WIDTH_FILTERS, name in _GROWING_FILTERS

    @functools.wraps(original)
    def bounded(*args, **kwargs):
        given = args[1:] if passes_arg else args   # the environment or context first, then the value
        value, options = (given[0], given[1:]) if given else (None, ())
        if measured:
            _check_deep((value, options, kwargs), value_what)
        if counts_widths:
            _check_ints([*options, *kwargs.values()], what)
        if name == "format" and isinstance(value, str):
            _check_percent_format(value, tuple(options), what)
        if name == "indent" and isinstance(value, str):
            width = (options or [kwargs.get("width", 4)])[0]
            width = width if _is_int(width) else len(str(width))
            _check_size(len(value) + (value.count("\n") + 1) * width, what)
        if name == "replace" and isinstance(value, str) and len(options) >= 2:
            old, new = str(options[0]), str(options[1])
            count = value.count(old) if old else len(value) + 1
            _check_size(len(value) + count * max(0, len(new) - len(old)), what)
        if name == "join" and value is not None and not isinstance(value, str):
            items = list(value)
            separator = str(options[0]) if options else str(kwargs.get("d", ""))
            _check_size(sum(len(i) for i in items if isinstance(i, str)) + len(separator) * max(0, len(items) - 1), what)
            if passes_arg and not kwargs and len(options) <= 1 and not args[0].autoescape:
                result = separator.join(map(str, items))   # what Jinja's join makes then, without its wrappers
                if grows:
                    _check_size(len(result), what)
                return result
            args = (*args[:len(args) - len(given)], items, *options)
        result = original(*args, **kwargs)
        if grows and _length(result) is not None:
            _check_size(len(result), what)
        return result

    return bounded


class BoundedSandbox(_BoundedMixin, SandboxedEnvironment):
    """Layout expressions: read values, never call into Python, never run away; change only the lists and dicts
    they wrote themselves (``{% set l = [] %}{{ l.append(x) }}``), never the game's: ``deck.cards.clear()`` in a
    layout emptied the deck for every stage after it (a traceback in the build, and a check that saw another game)."""

    def is_safe_attribute(self, obj, attr, value) -> bool:
        if modifies_known_mutable(obj, attr) and id(obj) not in self.made:
            return False
        return super().is_safe_attribute(obj, attr, value)


class BoundedImmutableSandbox(_BoundedMixin, ImmutableSandboxedEnvironment):
    """rules.md: as ``BoundedSandbox``, and the model cannot be changed either."""


class BoundedFileSystemLoader(FileSystemLoader):
    """Templates read with the limits of every content file (``read_text``): refused when larger
    than MAX_FILE_BYTES, before reading; a byte that is not UTF-8 named by line and column."""

    def get_source(self, environment, template):
        pieces = split_template_path(template)
        for folder in self.searchpath:
            filename = posixpath.join(folder, *pieces)
            if os.path.isfile(filename):
                break
        else:
            raise TemplateNotFound(template)
        contents = read_text(Path(filename), f"template '{template}'")
        mtime = os.path.getmtime(filename)

        def uptodate() -> bool:
            try:
                return os.path.getmtime(filename) == mtime
            except OSError:
                return False

        return contents, os.path.normpath(filename), uptodate
