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

import builtins
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
from pathlib import Path, PosixPath, PurePath, PurePosixPath, PureWindowsPath, WindowsPath

from jinja2 import FileSystemLoader, TemplateError, TemplateNotFound, nodes
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path
from jinja2.runtime import LoopContext, Macro, Undefined, markup_join, str_join
from jinja2.sandbox import MAX_RANGE, ImmutableSandboxedEnvironment, SandboxedEnvironment, modifies_known_mutable
from jinja2.utils import Cycler, Joiner, Namespace, _PassArg
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from generator import PACKAGE_DIR, TEMPLATES_DIR, limits
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
#: what a filter's work costs, counted against MAX_JINJA_ITERATIONS as loop turns are (a turn of a Jinja loop costs
#: ~0.15 µs): (turns an item of its value costs, turns a character of a text costs). Text work in C (upper, replace,
#: escape) costs a turn per 16 characters; a filter that works word by word in Python (wordwrap, title, urlize) a
#: turn per character or more; an item read, compared or printed a turn (sort, unique two, groupby eight).
#: A filter not named here reads nothing of its value (length, first, default, attr, int) or is lazy (map: what reads
#: its items counts them)
_FILTER_WORK: dict[str, tuple[float, float]] = {
    **dict.fromkeys(("join", "list", "batch", "slice", "sum", "reverse", "min", "max", "string", "tojson", "xmlattr",
                     "format", "center", "indent", "truncate", "replace", "e", "escape", "forceescape", "trim",
                     "upper", "lower", "capitalize", "striptags", "wordcount", "filesizeformat", "urlencode", "items"),
                    (1, 1 / 16)),
    **dict.fromkeys(("sort", "unique", "dictsort"), (2, 1 / 8)),
    "groupby": (8, 1 / 8),   # a group object made for each key, the attribute read through the sandbox: ~2 µs an item
    **dict.fromkeys(("wordwrap", "title"), (1, 1)),
    "urlize": (1, 4), "pprint": (8, 1),
}
#: filters that read their value lazily (a generator): each item counted as they read it, not all at once (``map``
#: of a filter by name, ``map('string')``, four turns an item: it calls the filter through a context)
_LAZY_FILTERS = frozenset({"select", "reject", "selectattr", "rejectattr", "map"})
#: list methods that read the whole list (``b.count(x)``, ``b.index(x)``)
_SCANNING_LIST_METHODS = frozenset({"count", "index", "copy", "remove", "sort", "reverse", "insert", "pop"})
#: turns a call of a macro, and of a recursive loop (``loop(items)``), counts: each renders a body in a new context,
#: ~20 µs and ~35 µs (a macro calling itself twice, thirty deep, is 2**30 calls; a recursive loop likewise)
_MACRO_CALL, _LOOP_CALL = 24, 128
_NUMBER = re.compile(r"\d+")
#: a replacement field whose format spec holds another field: '{:>{}}'.format(1, 10**9)
_NESTED_FIELD = re.compile(r"\{[^{}]*:[^{}]*\{")


#: kinds of object that reach outside the content: a path (``game.folder``, a ``Source``'s file) can read, write and
#: delete any file by its methods (``game.folder.joinpath('/etc/passwd').read_text()``, ``….write_text(…)``), a file
#: object or a module likewise. Never reachable, whatever ``REACHABLE_KINDS`` says of a subclass
OUTSIDE_KINDS = (PurePath, io.IOBase, types.ModuleType)
#: what a template may read attributes of and call methods of: plain data, Jinja's own helpers for templates, and
#: pnpgen's own objects (any class of a ``generator`` module: the model, ``CountedRange``). Everything else (a class,
#: a function's globals, a frame, a generator, ``self`` of a template, a macro's internals, a path, a file, a module)
#: is refused, not only the kinds someone thought of (``_reachable_kind``)
REACHABLE_KINDS = frozenset({str, int, float, bool, type(None), list, tuple, dict, set, frozenset, range, bytes,
                             Markup, LoopContext, Cycler, Joiner, Namespace, types.SimpleNamespace,
                             type({}.keys()), type({}.values()), type({}.items())})
#: classes a template may call (make an object of): ``dict(a=1)``, ``namespace()``, ``cycler(...)``, ``joiner()``
_PLAIN_DATA = (str, int, float, list, tuple, dict, set, frozenset)
CALLABLE_CLASSES = frozenset({dict, Cycler, Joiner, Namespace})
_REACHABLE: dict[type, bool] = {}


def _reachable_kind(kind: type) -> bool:
    """Whether a template may read attributes of (and call methods of) an object of ``kind``."""
    known = _REACHABLE.get(kind)
    if known is None:
        module = getattr(kind, "__module__", None) or ""
        known = (not issubclass(kind, OUTSIDE_KINDS)
                 and (kind in REACHABLE_KINDS or issubclass(kind, (Undefined, *_PLAIN_DATA))
                      or module == "generator" or module.startswith("generator.")))
        if len(_REACHABLE) < 4096:
            _REACHABLE[kind] = known
    return known


def allow_kind(kind: type) -> None:
    """Let templates read objects of ``kind`` as they read the model's (a stand-in for a model object in a test)."""
    _REACHABLE[kind] = True


def reachable(value) -> bool:
    """``_reachable_kind`` of a value's type (asked of the type once)."""
    return _reachable_kind(type(value))


def _safe_to_call(obj) -> bool:
    """A method of a reachable object, a function of pnpgen's (a rules helper) or of a template (a macro), or one of
    ``CALLABLE_CLASSES``: nothing else a template meets may be called."""
    if isinstance(obj, type):
        return obj in CALLABLE_CLASSES
    owner = getattr(obj, "__self__", None)
    if owner is not None and not isinstance(obj, (types.FunctionType, Macro)):
        return not isinstance(owner, types.ModuleType) and reachable(owner)
    if isinstance(obj, (Macro, Undefined, LoopContext, Joiner)):
        return True   # a template's own macro, a recursive loop, a joiner; an undefined value raises its own error
    module = getattr(obj, "__module__", None) or ""
    return module == "generator" or module.startswith("generator.")


#: the kinds of path the model holds (``game.folder``, a ``Source``'s file, a font's file): a template reading one gets
#: it as text relative to the game's folder (``shown_path``), never the designer's absolute folder
PATH_TYPES = frozenset({Path, PosixPath, WindowsPath, PurePath, PurePosixPath, PureWindowsPath})


#: pnpgen's own folders as a model object's text shows them (``{{ game }}`` names pnpgen's palette by its path)
_PNPGEN_FOLDERS = tuple((str(folder), f"<pnpgen>/{folder.name}") for folder in (TEMPLATES_DIR, PACKAGE_DIR))


def shown_path(path: PurePath, root: Path | None) -> str:
    """``path`` as a game may show it: relative to ``root`` (its folder: ``.`` for the folder itself), or, outside it
    or with no root known, its name alone. A rule sheet or a card printed ``/home/<designer>/games/…``."""
    if not path.is_absolute():
        return path.as_posix()
    if root is not None:
        for base in (Path(root), Path(os.path.abspath(root))):
            try:
                return path.relative_to(base).as_posix() or "."
            except ValueError:
                continue
    for base in (TEMPLATES_DIR, PACKAGE_DIR):
        try:
            return f"<pnpgen>/{base.name}/{path.relative_to(base).as_posix()}"
        except ValueError:
            continue
    return path.name


#: where an object's default text names its memory address (``<function f at 0x7f…>``): another on every run
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def unaddressed(text: str) -> str:
    """``text`` without the memory addresses of objects printed in it (``{{ 'x'.upper }}``, ``{{ tally }}``): the
    same content makes the same files, byte for byte."""
    return _ADDRESS.sub("", text) if " at 0x" in text else text


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
        elif shape is _NAMESPACE:   # ``namespace()``: what it holds is printed with it
            attrs = object.__getattribute__(item, "_Namespace__attrs")
            size += 2 * len(attrs)
            stack.extend(attrs.values())
    return size


_TEXT, _SEQUENCE, _MAPPING, _NAMESPACE, _OTHER = "text", "sequence", "mapping", "namespace", "other"
_VIEWS = frozenset({type({}.keys()), type({}.values()), type({}.items())})
#: what ``_deep_size`` counts of a value, by its exact type (asked of ``isinstance`` once per type): every value a
#: layout's expressions meet, measured on every card, was asked four ``isinstance`` questions
_SHAPES: dict[type, str] = {str: _TEXT, list: _SEQUENCE, tuple: _SEQUENCE, dict: _MAPPING, int: _OTHER,
                            float: _OTHER, bool: _OTHER, type(None): _OTHER, Namespace: _NAMESPACE}


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
        if shape is _MAPPING or shape is _NAMESPACE:
            if shape is _NAMESPACE or value:
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


def _work(value, budget: float, per_item: float = 1, per_char: float = 1 / 16) -> float:
    """Turns reading ``value`` whole costs (its items, nested ones each time they occur, and its characters, at the
    given rates); stops once past ``budget``, so measuring costs at most that much."""
    if type(value) is str or isinstance(value, str):
        return len(value) * per_char
    work, stack = 0.0, [value]
    while stack and work <= budget:
        item = stack.pop()
        shape = _SHAPES.get(type(item)) or _shape(item)
        if shape is _TEXT:
            work += len(item) * per_char
        elif shape is _SEQUENCE:
            work += len(item) * per_item
            stack.extend(item)
        elif shape is _MAPPING:
            work += 2 * len(item) * per_item
            stack.extend(item.keys())
            stack.extend(item.values())
        elif shape is _NAMESPACE:
            attrs = object.__getattribute__(item, "_Namespace__attrs")
            work += 2 * len(attrs) * per_item
            stack.extend(attrs.values())
        elif isinstance(item, (set, frozenset, CountedRange)) or type(item) in _VIEWS:
            work += len(item) * per_item
    return work


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

    def visit_Compare(self, node: nodes.Compare) -> nodes.Compare:
        """Each side of a comparison through ``compared``: ``x in b``, ``a == b`` read their texts and lists."""
        self.generic_visit(node)
        node.expr = self._compared(node.expr)
        for operand in node.ops:
            operand.expr = self._compared(operand.expr)
        return node

    @staticmethod
    def _compared(expr):
        if isinstance(expr, nodes.Const):
            return expr
        return nodes.Call(nodes.EnvironmentAttribute("compared"), [expr], [], None, None, lineno=expr.lineno)

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
        #: the game's folder: paths a template reads are shown relative to it (``shown_path``, ``hide_folders``)
        self.root: Path | None = None
        self.globals["range"] = self.counted_range
        self.globals["lipsum"] = self.bounded_lipsum
        for name in {*_GROWING_FILTERS, *_TEXT_FILTERS, *_FILTER_WORK, *_LAZY_FILTERS}:
            if name in self.filters:
                self.filters[name] = _bounded_filter(name, self.filters[name], self)
        contains = self.tests["in"]
        self.tests["in"] = lambda value, seq: contains(value, self.compared(seq))

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

    def charge(self, value, per_item: float = 1, per_char: float = 1 / 16):
        """Count what reading ``value`` whole costs (``_work``) against MAX_JINJA_ITERATIONS, before it is read: a
        loop of 10**6 turns over ``b | sort`` of a 10**5-item ``b`` is 10**11 items sorted, one turn each counted. An
        iterator (a ``map``'s, a ``select``'s) is given back counting its items as they are read; a ``range()``
        counts its own."""
        if isinstance(value, CountedRange):
            return value
        if hasattr(value, "__next__"):
            return self._count_each(value, per_item)
        budget = limits.MAX_JINJA_ITERATIONS - self.iterations
        work = _work(value, builtins.max(budget, limits.MAX_JINJA_SEQUENCE), per_item, per_char)
        if work > limits.MAX_JINJA_SEQUENCE:   # more than a template may make: refused as such
            raise _refuse(f"a value of more than {int(work):,} items or characters, nested ones counted",
                          "MAX_JINJA_SEQUENCE")
        if work >= 1:
            self.tick(int(work))
        return value

    def compared(self, value):
        """A value compared or searched (``x in b``, ``a == b``, ``is in``), what the comparison reads counted."""
        kind = type(value)
        if kind is str:
            if len(value) > 64:
                self.tick(len(value) // 16)
        elif kind is list or kind is tuple or kind is dict:
            self.tick(len(value))
        return value

    def bounded_lipsum(self, n: int = 5, html: bool = True, min: int = 20, max: int = 100):  # noqa: A002 - Jinja's
        """Jinja's ``lipsum()``, its counts bounded before it writes (``lipsum(10**6)`` wrote for a minute)."""
        from jinja2.utils import generate_lorem_ipsum
        if not all(_is_int(v) for v in (n, min, max)):
            raise JinjaLimitError("lipsum() takes whole numbers")
        words = builtins.max(0, n) * builtins.max(0, max)
        self.tick(words)
        _check_size(words * 12, "lipsum()")
        return generate_lorem_ipsum(n, html, min, max)

    def counted_loop(self, iterable):
        """A ``{% for %}``'s iterable, each item counted (a ``range()`` counts its own)."""
        return iterable if isinstance(iterable, CountedRange) else self._count_each(iterable)

    def _count_each(self, iterable, per_item: float = 1):
        cost = builtins.max(1, int(per_item))
        for item in iterable:
            self.tick(cost)
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
        kind = type(value)
        if kind is list or kind is tuple or kind is dict:
            self.charge(value)
            return self.hide_folders(str(value)) if self.root is not None else value
        if kind in PATH_TYPES:
            return shown_path(value, self.root)
        if kind not in _PLAIN_DATA and not issubclass(kind, (str, Undefined)):
            return self.hide_folders(str(value))   # a model object's text (``{{ game }}``) names its files
        return value

    def bounded_concat(self, values) -> str:
        _check_deep(values, "a value joined with ~")
        texts = [str(v) for v in values]
        size = sum(len(t) for t in texts)
        _check_size(size, "joining texts with ~")
        if size > 256:
            self.tick(size // 16)
        return unaddressed((markup_join if self.autoescape else str_join)(values))

    # ---------------------------------------------------------------- what content may reach
    def is_safe_attribute(self, obj, attr, value) -> bool:
        """Jinja's rule, and only of an object a template may reach (``REACHABLE_KINDS``, pnpgen's own)."""
        return reachable(obj) and super().is_safe_attribute(obj, attr, value)  # type: ignore[misc]

    def getitem(self, obj, argument):
        """``obj[argument]`` only of an object a template may reach: any other's ``__getitem__`` is its own code. A
        path is given as text relative to the game (``shown_path``)."""
        if not reachable(obj):
            return self.unsafe_undefined(obj, str(argument))
        value = super().getitem(obj, argument)
        return shown_path(value, self.root) if type(value) in PATH_TYPES else value

    def getattr(self, obj, attribute):
        """As ``getitem``: a path is given as text relative to the game."""
        value = super().getattr(obj, attribute)
        return shown_path(value, self.root) if type(value) in PATH_TYPES else value

    def hide_folders(self, text: str) -> str:
        """``text`` with the game's absolute folder (``root``) written relative to the game: what ``{{ game }}`` or
        ``{{ game.source }}`` print (a model object's text) names files by their absolute paths."""
        root = self.root
        if not isinstance(text, str):
            return text
        text = unaddressed(text)
        if root is None or os.sep not in text:
            return text
        for base in sorted({str(root), os.path.abspath(root), str(Path(root).resolve())}, key=len, reverse=True):
            if base in text:
                text = text.replace(base + os.sep, "").replace(base, ".")
        for base, shown in _PNPGEN_FOLDERS:   # pnpgen's own files (its palette, fonts): where it is installed
            if base in text:
                text = text.replace(base, shown)
        return text

    def is_safe_callable(self, obj) -> bool:
        """Jinja's rule, and only a method of a reachable object, a function of pnpgen's or a macro
        (``_safe_to_call``)."""
        return _safe_to_call(obj) and super().is_safe_callable(obj)  # type: ignore[misc]

    # ---------------------------------------------------------------- interception
    def call_binop(self, context, operator, left, right):
        _binop_estimate(operator, left, right)
        result = super().call_binop(context, operator, left, right)
        kind = type(result)
        if kind is list:   # a new list (``[0] * 9``, ``a + b``): the evaluation's own, as a literal is
            self.made[id(result)] = result
        if (kind is list or kind is str) and len(result) > 256:   # 'a' * 999999 in a loop: what it writes, counted
            self.tick(len(result) // 16)   # (in C: ~1 ns an item or character)
        return _int_result(result, f"'{operator}'")

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        name = getattr(__obj, "__name__", "")
        owner = getattr(__obj, "__self__", None)
        if owner is __self:   # the sandbox's own helpers the compiled template calls (``bounded_literal``, ``compared``)
            return super().call(__context, __obj, *args, **kwargs)
        if not _safe_to_call(__obj):
            raise SecurityError(f"a template may not call {name or type(__obj).__name__!r} (a "
                                f"{type(__obj).__name__}): only methods of the game's objects and of plain values, "
                                f"macros and pnpgen's own functions")
        # a call is a turn; a macro's or a recursive loop's more (``_MACRO_CALL``)
        if not (name in _GROWING_CONTAINER_METHODS and isinstance(owner, (list, dict))):   # those: ``grow`` counts
            __self.tick(_MACRO_CALL if type(__obj) is Macro else _LOOP_CALL if type(__obj) is LoopContext else 1)
        if isinstance(__obj, LoopContext):   # ``loop(items)`` of a recursive loop: a loop too
            args = (__self.counted_loop(args[0]), *args[1:]) if args else args
        kind = type(owner)
        if kind is str or kind is Markup:
            if len(owner) > 256:
                __self.tick(len(owner) // 16)   # a text method reads the text: 'a…'.count('b'), .split(), .find()
        elif (kind is list or kind is tuple) and name in _SCANNING_LIST_METHODS or kind is dict and name == "copy":
            __self.tick(len(owner))
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
        if (args or kwargs) and not (name in _GROWING_CONTAINER_METHODS and isinstance(owner, (list, dict))):
            args = tuple(__self.charge(a) for a in args)   # what a call is given, it reads (``loop.changed(b)``)
            for value in kwargs.values():
                __self.charge(value)
        result = super().call(__context, __obj, *args, **kwargs)
        if _length(result) is not None:
            _check_size(len(result), f"calling {name or 'a function'}")
            if len(result) > 256:   # what it made (``'x'.center(999999)`` in a loop), counted as made
                __self.tick(len(result) // 16)
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

        bounded.__module__ = __name__   # pnpgen's own: a template may call it (``_safe_to_call``)
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
        return unaddressed(self.hide_folders("".join(parts)))


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


def _bounded_filter(name: str, original, env: _BoundedMixin):
    """A filter refused when a number it is given, or what it makes, is beyond MAX_JINJA_SEQUENCE, and its work
    (``_FILTER_WORK``: what it reads of its value) counted against MAX_JINJA_ITERATIONS before it does it."""
    passes_arg = _PassArg.from_obj(original) is not None
    per_item, per_char = _FILTER_WORK.get(name, (1, 0))
    lazy = name in _LAZY_FILTERS
    charged = name in _FILTER_WORK or lazy
    # what the filter is checked for, by its name: asked once here, not on every call
    what = f"the '{name}' filter"
    value_what = f"the value of {what}"
    measured = name in _TEXT_FILTERS or name in _GROWING_FILTERS
    counts_widths, grows = name in _WIDTH_FILTERS, name in _GROWING_FILTERS

    @functools.wraps(original)
    def bounded(*args, **kwargs):
        given = args[1:] if passes_arg else args   # the environment or context first, then the value
        value, options = (given[0], given[1:]) if given else (None, ())
        if charged and given and (lazy or hasattr(value, "__next__")):
            if lazy:
                # a lazy filter's value counted item by item as it is read (``b | select('gt', 10**9) | first`` reads
                # all of ``b``); ``map`` of a filter by name four turns an item; a ``range()`` counts its own
                cost = 4 if name == "map" and options else 1
                if (hasattr(value, "__iter__") and not isinstance(value, (str, dict))
                        and (cost > 1 or not isinstance(value, CountedRange))):
                    value = env._count_each(value, cost)
            else:
                # an iterator (a ``map``'s, a ``select``'s) given to a filter that reads it all: read into a list, at
                # most as many items as the turns left allow, and counted, before the filter works on them
                left = (limits.MAX_JINJA_ITERATIONS - env.iterations) // builtins.max(1, int(per_item)) + 1
                value = list(itertools.islice(value, builtins.max(0, left)))
                env.tick(int(len(value) * per_item))
            args = (*args[:len(args) - len(given)], value, *options)
            given = (value, *options)
        if measured:
            _check_deep((value, options, kwargs), value_what)
        if counts_widths:
            _check_ints([*options, *kwargs.values()], what)
            if name in ("batch", "slice") and options and _is_int(options[0]) and \
                    (len(options) > 1 or "fill_with" in kwargs):   # the filler it adds: [1] | batch(999999, 0)
                env.tick(abs(options[0]) // 16)
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
        if charged and given and not lazy and not hasattr(value, "__next__"):
            env.charge(value, per_item, per_char)   # a list or text: its size known, counted before it is read
        result = original(*args, **kwargs)
        if grows and _length(result) is not None:
            _check_size(len(result), what)
            if len(result) > 256:   # what it wrote (``'%*d' | format(999999, 1)`` in a loop), counted as written
                env.tick(len(result) // 16)
            if isinstance(result, str) and " at 0x" in result:   # ``f | string``: a function's text, its address
                result = unaddressed(result)
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
