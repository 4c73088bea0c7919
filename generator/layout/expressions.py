"""Layout expressions compiled once into Python closures that compute what Jinja would.

A deck of 10,000 tickets evaluates ``{{ card.from.name }}`` 10,000 times. Jinja's own compiled
expression builds a new context (a copy of every name the face sees) on each call, which costs
more than the expression; a closure over the parsed expression reads the face's names directly.

Nothing here runs content as Python: an expression is parsed by the layout's own sandboxed
environment (``generator.jinja_sandbox.BoundedSandbox``) and each node of the tree becomes a small
closure that does exactly what Jinja's code for that node does, through the same environment: an
attribute or item through the sandbox's ``getattr``/``getitem`` (which refuse what the sandbox
refuses), an operator the sandbox intercepts through its ``call_binop`` (which bounds sizes), a
filter or test through the environment's own (bounded) one, ``~`` through ``bounded_concat``. A
node this module does not know (a call, a slice, a dict, a statement) leaves the whole expression
to Jinja, as does any expression whose closure raises: Jinja then evaluates it again and gives the
value, or the error message, it always gave.
"""
from __future__ import annotations

import marshal
import math
import operator
import types
from collections import ChainMap
from collections.abc import Callable, Iterable
from typing import Any

import jinja2
from jinja2 import TemplateError, nodes
from jinja2.filters import FILTERS, _prepare_attribute_parts
from jinja2.nodes import EvalContext
from jinja2.parser import Parser
from jinja2.runtime import Context
from jinja2.utils import _PassArg

from generator import limits
from generator.jinja_sandbox import OUTSIDE_KINDS, PATH_TYPES, _reachable_kind

Evaluate = Callable[[dict], Any]

_COMPARE = {"eq": operator.eq, "ne": operator.ne, "gt": operator.gt, "gteq": operator.ge, "lt": operator.lt,
            "lteq": operator.le, "in": lambda a, b: a in b, "notin": lambda a, b: a not in b}
_PLAIN_BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
                 "//": operator.floordiv, "**": operator.pow, "%": operator.mod}
_NUMBERS = frozenset({int, float})
_BINOP_NODES = {nodes.Add: "+", nodes.Sub: "-", nodes.Mul: "*", nodes.Div: "/", nodes.FloorDiv: "//",
                nodes.Pow: "**", nodes.Mod: "%"}


#: the kinds of object whose attributes the sandbox looks at more closely (``jinja2.sandbox.is_internal_attribute``)
_SPECIAL = (types.FunctionType, types.MethodType, type, types.CodeType, types.TracebackType, types.FrameType,
            types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType, *OUTSIDE_KINDS)
#: values the sandbox may wrap (``str.format``: ``wrap_str_format``)
_METHODS = frozenset({types.MethodType, types.BuiltinMethodType})
_PLAIN: dict[type, bool] = {}


def _plain(kind: type) -> bool:
    """Whether the sandbox lets code read every attribute of an object of this kind that does not start with
    ``_`` (all but functions, methods, classes, code, frames, generators): then ``a.b`` is read directly and
    the sandbox's ``getattr`` is asked only for what it would treat otherwise (a method: ``str.format``; anything of a
    path, a file or a module: ``OUTSIDE_KINDS``)."""
    known = _PLAIN.get(kind)
    if known is None:
        known = _PLAIN[kind] = not issubclass(kind, _SPECIAL) and _reachable_kind(kind)   # else: the sandbox refuses
    return known


#: (the scope the last context was made for, the context), replaced as one (a thread reads both or neither);
#: ``forget_context`` lets it go once a face is drawn, or it would keep the last game's objects alive after its build
_LAST_CONTEXT: list = [(None, None)]


def forget_context() -> None:
    """Let the last context (and the scope, the card, the game it reads) go: a face is drawn."""
    _LAST_CONTEXT[0] = (None, None)


def _context(env, scope: dict) -> Context:
    """A Jinja context over ``scope`` for a filter or call that asks for one (``map``, ``tint``, a method):
    one per scope (the elements of a face share theirs), reading it live, as Jinja's own would."""
    last_scope, last = _LAST_CONTEXT[0]
    if last_scope is scope and last.environment is env:
        return last
    context = Context(env, ChainMap(scope, env.globals), None, {})  # type: ignore[arg-type]  # reads as a dict
    _LAST_CONTEXT[0] = (scope, context)
    return context


def _same(value):
    return value


#: Jinja's own ``map`` filter (the sandboxes leave it as it is): ``_map_attribute`` does what it does for an attribute
_JINJA_MAP = FILTERS["map"]


def _part_getter(getitem, part):
    """What ``getitem(item, part)`` gives, for one part of a ``map(attribute=…)`` path."""
    if type(part) is not str or part.startswith("_"):
        return lambda item: getitem(item, part)

    def get(item):
        kind = type(item)
        # ``item[part]`` fails for a kind without ``__getitem__``: the sandbox then reads the attribute, refusing
        # only what it refuses of a plain kind (a name starting with _; str.format, wrapped)
        if not hasattr(kind, "__getitem__") and _plain(kind):
            try:
                found = getattr(item, part)
            except AttributeError:
                return getitem(item, part)   # undefined, as the sandbox says
            if type(found) not in _METHODS and type(found) not in PATH_TYPES:
                return found
        return getitem(item, part)
    return get


def _mapped(value, getters):
    """Jinja's ``sync_do_map`` with an attribute getter: nothing is looked at until the generator is read."""
    if value:
        for item in value:
            for get in getters:
                item = get(item)
            yield item


class Unsupported(Exception):
    """A node this module does not compile: the expression is left to Jinja."""


def compile_expression(env, source: str, parsed: nodes.Expr | None = None) -> Evaluate | None:
    """``source`` (an expression, without ``{{ }}``) as a closure over a scope dict, or None if it uses
    something this module leaves to Jinja (or does not parse: Jinja reports that). ``parsed``: the tree of
    ``source`` already (``expression_of``)."""
    try:
        if parsed is None:
            parser = Parser(env, source, state="variable")
            parsed = parser.parse_expression()
            if not parser.stream.eos:
                return None
        return _Compiler(env).expr(parsed)
    except (Unsupported, TemplateError, RecursionError):
        return None


def expression_of(text: str, template: nodes.Template) -> nodes.Expr | None:
    """The tree ``Parser(env, inner).parse_expression()`` gives for the expression of ``text`` (one ``{{ inner }}``),
    taken from ``template`` (``text`` parsed): the template's parser reads the same tokens with the same rule. None
    where they could differ (then the expression is parsed on its own): anything but one expression printed,
    whitespace control (``{{-``: a minus sign to the expression parser), a tuple (``a, b`` is one to the template's
    parser, not to the expression's)."""
    stripped = text.strip()
    if len(stripped) < 5 or stripped[2] in "-+" or stripped[-3] in "-+":
        return None
    if len(template.body) != 1 or type(template.body[0]) is not nodes.Output:
        return None
    children = template.body[0].nodes
    if len(children) != 1 or type(children[0]) in (nodes.TemplateData, nodes.Tuple):
        return None
    return children[0]


#: the nodes of text and ``{{ }}`` expressions: what ``names_read`` walks (any other node: Jinja's own answer)
_PLAIN_NODES = frozenset({
    nodes.Output, nodes.TemplateData, nodes.Name, nodes.Const, nodes.Getattr, nodes.Getitem, nodes.Slice,
    nodes.Add, nodes.Sub, nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Pow, nodes.Mod, nodes.And, nodes.Or,
    nodes.Not, nodes.Neg, nodes.Pos, nodes.Compare, nodes.Operand, nodes.CondExpr, nodes.Filter, nodes.Test,
    nodes.Call, nodes.Keyword, nodes.List, nodes.Tuple, nodes.Dict, nodes.Pair, nodes.Concat})


def names_read(env, template: nodes.Template) -> frozenset[str] | None:
    """The names ``jinja2.meta.find_undeclared_variables`` gives for ``template`` (parsed by ``env``), without
    running Jinja's code generator for it (which it does to learn them): for text and ``{{ }}`` expressions alone,
    which declare nothing, every name an expression reads but the environment's globals. None when the template
    holds anything else (a ``{% %}`` statement, whose scopes only Jinja follows) or a filter or test the
    environment lacks outside a conditional (Jinja refuses it, in its own words): the caller asks Jinja."""
    names: set[str] = set()
    globals_, filters, tests = env.globals, env.filters, env.tests
    stack: list = [(node, False) for node in template.body]
    while stack:
        node, soft = stack.pop()
        kind = type(node)
        if kind not in _PLAIN_NODES:
            return None
        if kind is nodes.Name:
            if node.ctx != "load":
                return None
            if node.name not in globals_ and node.name != "self":   # Jinja binds self (the template) itself
                names.add(node.name)
            continue
        if kind is nodes.Filter or kind is nodes.Test:
            # Jinja's code generator refuses an unknown one, except in a conditional expression's frame
            if node.node is None or (not soft and (filters if kind is nodes.Filter else tests).get(node.name) is None):
                return None
        elif kind is nodes.CondExpr:
            soft = True
        # ``node.iter_child_nodes()``, without its generators: a field's node, or the nodes of a field's list
        state = node.__dict__
        for field in kind.fields:
            value = state.get(field)
            if type(value) is list:
                stack.extend((child, soft) for child in value if isinstance(child, nodes.Node))
            elif isinstance(value, nodes.Node):
                stack.append((value, soft))
    return frozenset(names)


def compile_template(env, source: str, template: nodes.Template | None = None) -> Evaluate | None:
    """``source`` (text with ``{{ }}`` in it) as a closure giving the text Jinja renders, or None if the
    template holds more than text and expressions (``{% %}`` statements: left to Jinja). ``template``: ``source``
    parsed by ``env`` already."""
    try:
        if template is None:
            template = env.parse(source)
        if not template.body:
            return lambda scope: ""
        if len(template.body) != 1 or not isinstance(template.body[0], nodes.Output):
            return None
        compiler = _Compiler(env)
        parts: list = []
        for child in template.body[0].nodes:
            if isinstance(child, nodes.TemplateData):
                parts.append(child.data)
            else:
                parts.append(compiler.expr(child))
    except (Unsupported, TemplateError, RecursionError):
        return None
    ceiling = limits.MAX_JINJA_OUTPUT
    finalize = env.finalize or _same   # the sandbox measures what it prints (nested lists counted) before

    def render(scope: dict) -> str:
        text = "".join(part if type(part) is str else str(finalize(part(scope))) for part in parts)
        if len(text) > ceiling:   # Jinja refuses it, in its own words (the caller asks it again)
            raise Unsupported("too long")
        return text
    return render


class _Compiler:
    """One closure per node, mirroring ``jinja2.compiler.CodeGenerator`` for a sandboxed environment."""

    def __init__(self, env):
        self.env = env

    def expr(self, node) -> Evaluate:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node)

    def _Const(self, node):
        value = node.value
        if isinstance(value, float) and not math.isfinite(value):
            raise Unsupported("1e999: Jinja writes it as the Python name inf, which it then cannot find")
        return lambda scope: value

    def _Name(self, node):
        if node.ctx != "load":
            raise Unsupported("store")
        name, env = node.name, self.env
        globals_ = env.globals

        def load(scope):
            if name in scope:
                return scope[name]
            if name in globals_:
                return globals_[name]
            return env.undefined(name=name)
        return load

    def _Getattr(self, node):
        inner, attr, sandboxed = self.expr(node.node), node.attr, self.env.getattr
        if attr.startswith("_"):   # refused by the sandbox (or a name it reads as an item): its own way
            return lambda scope: sandboxed(inner(scope), attr)

        undefined = self.env.undefined

        def get(scope):
            obj = inner(scope)
            kind = type(obj)
            plain = _PLAIN.get(kind)   # ``_plain``, its answer looked up here first (a call less per attribute)
            if plain is None:
                plain = _plain(kind)
            if plain:
                try:
                    value = getattr(obj, attr)
                except AttributeError:
                    if not hasattr(kind, "__getitem__"):   # ``obj[attr]`` fails too: the sandbox's answer, at once
                        return undefined(obj=obj, name=attr)
                    return sandboxed(obj, attr)   # an item (a dict's key), or undefined
                if type(value) not in _METHODS and type(value) not in PATH_TYPES:   # a path: the sandbox shows it
                    return value
            return sandboxed(obj, attr)
        return get

    def _Getitem(self, node):
        if isinstance(node.arg, nodes.Slice):
            raise Unsupported("slice")
        inner, arg, getitem = self.expr(node.node), self.expr(node.arg), self.env.getitem
        return lambda scope: getitem(inner(scope), arg(scope))

    def _binop(self, node, op: str):
        left, right = self.expr(node.left), self.expr(node.right)
        env = self.env
        fn = _PLAIN_BINOPS[op]
        if op in env.intercepted_binops:
            call, fn = env.call_binop, getattr(env, "binop_table", _PLAIN_BINOPS)[op]   # the sandbox's operator

            def bounded(scope):
                a, b = left(scope), right(scope)
                # a float with a float or an int: the sandbox's checks (sizes of texts and lists, bits of whole
                # numbers) find nothing to measure in a float, and its operator is the plain one (``W - 2*safe``)
                if (type(a) is float and type(b) in _NUMBERS) or (type(b) is float and type(a) in _NUMBERS):
                    return fn(a, b)
                return call(None, op, a, b)
            return bounded
        return lambda scope: fn(left(scope), right(scope))

    def _Add(self, node):
        return self._binop(node, "+")

    def _Sub(self, node):
        return self._binop(node, "-")

    def _Mul(self, node):
        return self._binop(node, "*")

    def _Div(self, node):
        return self._binop(node, "/")

    def _FloorDiv(self, node):
        return self._binop(node, "//")

    def _Pow(self, node):
        return self._binop(node, "**")

    def _Mod(self, node):
        return self._binop(node, "%")

    def _And(self, node):
        left, right = self.expr(node.left), self.expr(node.right)
        return lambda scope: left(scope) and right(scope)

    def _Or(self, node):
        left, right = self.expr(node.left), self.expr(node.right)
        return lambda scope: left(scope) or right(scope)

    def _Not(self, node):
        inner = self.expr(node.node)
        return lambda scope: not inner(scope)

    def _unop(self, node, op: str, fn):
        if op in self.env.intercepted_unops:
            raise Unsupported("intercepted unary operator")
        inner = self.expr(node.node)
        return lambda scope: fn(inner(scope))

    def _Neg(self, node):
        return self._unop(node, "-", operator.neg)

    def _Pos(self, node):
        return self._unop(node, "+", operator.pos)

    def _CondExpr(self, node):
        if node.expr2 is None:
            raise Unsupported("if without else")
        test, a, b = self.expr(node.test), self.expr(node.expr1), self.expr(node.expr2)
        return lambda scope: a(scope) if test(scope) else b(scope)

    def _Compare(self, node):
        first = self._compared(node.expr)
        ops = [(_COMPARE[op.op], self._compared(op.expr)) for op in node.ops]
        if len(ops) == 1:
            (fn, right), = ops
            return lambda scope: fn(first(scope), right(scope))

        def chain(scope):
            left = first(scope)
            result = True
            for fn, right_of in ops:
                right = right_of(scope)
                result = fn(left, right)
                if not result:
                    return result
                left = right
            return result
        return chain

    def _compared(self, node) -> Evaluate:
        """One side of a comparison, what comparing it reads (a long text, a list) counted by the sandbox's
        ``compared``, as its compiled templates do; a constant as it is."""
        value = self.expr(node)
        compared = getattr(self.env, "compared", None)
        if compared is None or isinstance(node, nodes.Const):
            return value
        return lambda scope: compared(value(scope))

    def _literal(self):
        """What the sandbox does with a list or tuple written in an expression: measure what it nests
        (``bounded_literal``: ``[a, a, a]`` of a long ``a``), as its compiled templates do."""
        return getattr(self.env, "bounded_literal", _same)

    def _List(self, node):
        items, measured = [self.expr(item) for item in node.items], self._literal()
        return lambda scope: measured([item(scope) for item in items])

    def _Tuple(self, node):
        if node.ctx != "load":
            raise Unsupported("store")
        items, measured = [self.expr(item) for item in node.items], self._literal()
        return lambda scope: measured(tuple(item(scope) for item in items))

    def _Concat(self, node):
        parts, concat = [self.expr(part) for part in node.nodes], self.env.bounded_concat
        return lambda scope: concat([part(scope) for part in parts])

    def _Filter(self, node):
        if node.node is None:
            raise Unsupported("filter block")
        fn = self.env.filters.get(node.name)
        if getattr(fn, "__wrapped__", fn) is _JINJA_MAP and not node.args and node.dyn_args is None and node.dyn_kwargs is None \
                and len(node.kwargs) == 1 and node.kwargs[0].key == "attribute" \
                and type(node.kwargs[0].value) is nodes.Const and type(node.kwargs[0].value.value) is str:
            return self._map_attribute(self.expr(node.node), node.kwargs[0].value.value)
        return self._call(node, fn, self.expr(node.node))

    def _map_attribute(self, value: Evaluate, attribute: str) -> Evaluate:
        """``map(attribute='a.b')``, the commonest filter of a layout (``ends | map(attribute='name') | join``), without
        making the filter's context and attribute getter on every card: a generator, like Jinja's, that looks each
        part up as Jinja's ``make_attrgetter`` does (the sandbox's ``getitem``: an item first, else a safe
        attribute), reading a plain object's attribute directly where that is what ``getitem`` would end with."""
        getitem = self.env.getitem
        getters = tuple(_part_getter(getitem, part) for part in _prepare_attribute_parts(attribute))

        def mapped(scope):
            return _mapped(value(scope), getters)
        return mapped

    def _Test(self, node):
        return self._call(node, self.env.tests.get(node.name), self.expr(node.node))

    def _Call(self, node):
        """A method call (``ids.index(x)``, ``stations.values()``): through the sandbox's ``call``, which refuses
        what is not safe to call and bounds what grows, as Jinja's generated code does."""
        if node.dyn_args is not None or node.dyn_kwargs is not None:
            raise Unsupported("*args")
        fn = self.expr(node.node)
        args = [self.expr(arg) for arg in node.args]
        kwargs = [(kw.key, self.expr(kw.value)) for kw in node.kwargs]
        env = self.env

        def call(scope):
            context = _context(env, scope)
            return env.call(context, fn(scope), *(arg(scope) for arg in args),
                            **{key: arg(scope) for key, arg in kwargs})
        return call

    def _call(self, node, fn, value):
        """A filter or test: called as Jinja's generated code calls it (the context, the eval context or
        the environment first when it asks for one), with its arguments."""
        if fn is None or node.dyn_args is not None or node.dyn_kwargs is not None:
            raise Unsupported("unknown filter or test, or *args")
        args = [self.expr(arg) for arg in node.args]
        kwargs = [(kw.key, self.expr(kw.value)) for kw in node.kwargs]
        env = self.env
        passes = _PassArg.from_obj(fn)
        if not kwargs and len(args) <= 1 and passes in (None, _PassArg.eval_context) \
                and not callable(env.autoescape):
            return _called(fn, value, args[0] if args else None,
                           EvalContext(env) if passes is _PassArg.eval_context else None)

        def call(scope):
            given = [value(scope), *(arg(scope) for arg in args)]
            named = {key: arg(scope) for key, arg in kwargs}
            if passes is None:
                return fn(*given, **named)
            if passes is _PassArg.environment:
                return fn(env, *given, **named)
            if passes is _PassArg.eval_context:   # ``join``: what a context would make, without the context
                return fn(EvalContext(env), *given, **named)
            context = _context(env, scope)
            first = context if passes is _PassArg.context else context.eval_ctx
            return fn(first, *given, **named)
        return call


def _called(fn, value: Evaluate, arg: Evaluate | None, eval_context: EvalContext | None) -> Evaluate:
    """A filter or test with its value and at most one argument, called as ``_Compiler._call``'s closure calls it,
    without the list and dict of arguments it makes for any number of them (``ends | join(' / ')``, ``x is
    sequence``, twice or three times a card). ``eval_context``: the one the filter asks for (``join``), made once, as
    each call would make it the same (what it holds is read from the environment: its ``autoescape``, which is not a
    function here, and no template name)."""
    if eval_context is None:
        if arg is None:
            return lambda scope: fn(value(scope))
        return lambda scope: fn(value(scope), arg(scope))
    if arg is None:
        return lambda scope: fn(eval_context, value(scope))
    return lambda scope: fn(eval_context, value(scope), arg(scope))


# ------------------------------------------------------------------ parse trees kept (tools/expression_trees.py)
#: the format of :func:`trees_snapshot`'s bytes (another is not read: every text is parsed)
TREES_FORMAT = 1
#: the node classes a kept tree may name: Jinja's own, and only those it makes objects of
_NODE_KINDS = {name: kind for name, kind in vars(nodes).items()
               if isinstance(kind, type) and issubclass(kind, nodes.Node) and not kind.abstract}
#: the values a node's field may hold besides nodes and lists (a ``Const``'s value, a ``Name``'s name)
_SCALAR_KINDS = frozenset({str, int, float, bool, type(None)})
#: a node's line: a number, or None (the parser gives an ``Operand`` none)
_LINE_KINDS = frozenset({int, type(None)})


def parse_settings(env) -> tuple:
    """What ``env.parse`` gives depends on besides the text: Jinja's version, the delimiters and whitespace rules its
    lexer is made by (``jinja2.lexer.get_lexer``'s key) and the extensions that filter its tokens. A snapshot made
    with other settings is not read."""
    return (jinja2.__version__, env.block_start_string, env.block_end_string, env.variable_start_string,
            env.variable_end_string, env.comment_start_string, env.comment_end_string, env.line_statement_prefix,
            env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks, env.newline_sequence,
            env.keep_trailing_newline, tuple(sorted(env.extensions)))


def tree_data(node: nodes.Node, env) -> tuple:
    """``node`` (of a tree ``env.parse`` gave) as plain data to keep: (class name, line, each field). ValueError
    for anything :func:`tree_from` could not make again exactly (another attribute, a value of another kind)."""
    kind = type(node)
    state = vars(node)
    if _NODE_KINDS.get(kind.__name__) is not kind or tuple(state) != (*kind.fields, "lineno", "environment") \
            or state["environment"] is not env or type(state["lineno"]) not in _LINE_KINDS:
        raise ValueError(f"a {kind.__name__} node not kept: {state}")
    return (kind.__name__, state["lineno"], *(_field_data(state[field], env) for field in kind.fields))


def _field_data(value, env):
    if isinstance(value, nodes.Node):
        return tree_data(value, env)
    if type(value) is list:   # of nodes and plain values (a list of lists is not kept)
        return [tree_data(item, env) if isinstance(item, nodes.Node) else _scalar(item) for item in value]
    if type(value) in _SCALAR_KINDS:
        return value
    raise ValueError(f"a field of kind {type(value).__name__} not kept")


def tree_from(data: tuple, env) -> nodes.Node:
    """The tree :func:`tree_data` kept, made again for ``env``: the same node classes, fields, line numbers and
    environment ``env.parse`` gave. Makes only Jinja's node objects (``_NODE_KINDS``), of plain values."""
    kind = _NODE_KINDS[data[0]]
    fields = kind.fields
    if len(data) != len(fields) + 2 or type(data[1]) not in _LINE_KINDS:
        raise ValueError(f"a kept {data[0]} node of {len(data) - 2} fields")
    node = object.__new__(kind)
    state = node.__dict__
    scalars = _SCALAR_KINDS
    for field, value in zip(fields, data[2:]):
        held = type(value)
        if held is tuple:
            value = tree_from(value, env)
        elif held is list:
            value = [tree_from(item, env) if type(item) is tuple else _scalar(item) for item in value]
        elif held not in scalars:
            raise ValueError(f"a kept field of kind {held.__name__}")
        state[field] = value
    state["lineno"] = data[1]
    state["environment"] = env
    return node


def _scalar(value):
    """An item of a kept list that is not a node: a plain value (a list of lists is never kept)."""
    if type(value) not in _SCALAR_KINDS:
        raise ValueError(f"a kept item of kind {type(value).__name__}")
    return value


def trees_snapshot(env, texts: Iterable[str]) -> bytes:
    """The trees ``env.parse`` gives for ``texts`` (a text it refuses left out: parsed, and refused, as before), as
    ``marshal`` bytes of plain data, keyed by the exact text and by ``parse_settings``."""
    return marshal.dumps({"format": TREES_FORMAT, "settings": parse_settings(env), "trees": snapshot_data(env, texts)})


def snapshot_data(env, texts: Iterable[str]) -> dict[str, tuple]:
    """text → :func:`tree_data` of its tree, for each of ``texts`` ``env`` parses."""
    trees = {}
    for text in sorted(set(texts)):
        try:
            trees[text] = tree_data(env.parse(text), env)
        except (TemplateError, ValueError):
            continue
    return trees


def kept_trees(env, kept: bytes) -> dict[str, tuple]:
    """The trees of a :func:`trees_snapshot` (text → data for :func:`tree_from`), none where it was made in another
    format or with other settings than ``env``'s (another Jinja, other delimiters), or is not readable."""
    try:
        saved = marshal.loads(kept)
    except (ValueError, EOFError, TypeError):
        return {}
    if not (isinstance(saved, dict) and saved.get("format") == TREES_FORMAT
            and saved.get("settings") == parse_settings(env) and isinstance(saved.get("trees"), dict)):
        return {}
    return saved["trees"]
