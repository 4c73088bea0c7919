"""The package's layers import downwards only, and no module imports inside a function.

Read from the source with ``ast`` (nothing is imported), so a new upward edge or a
cycle fails here with the module and line that made it.
"""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "generator"

#: bottom to top: a module may import its own layer and the layers below it
LAYERS = [
    ("base", {"__init__", "collector", "errors", "limits", "paths", "fonts", "fontsubset", "fontparse", "papers", "yamlsource", "jinja_sandbox", "sheets", "csvcells",
              "cache", "outputs"}),
    ("model", {"model"}),
    ("layout", {"layout"}),
    ("load", {"load"}),
    ("render", {"render"}),
    ("writers", {"writers"}),
    ("check", {"check"}),
    ("simulate", {"simulate"}),
    ("pipeline", {"output_folder", "pipeline", "pipeline_parallel", "new", "export", "incremental", "mapio", "fit"}),
    ("serve", {"serve"}),
    ("cli", {"cli"}),
]


def _layer(module: str) -> int:
    part = module.split(".")[1] if "." in module else "__init__"
    for rank, (_name, members) in enumerate(LAYERS):
        if part in members:
            return rank
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS in {__file__}")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports():
    """(importer, imported, line, inside a function, for annotations only) for every import of a generator module."""
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nested = {id(node) for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for node in ast.walk(fn)}
        typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
                       for node in ast.walk(block)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "generator":
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                target = next((n for n in reversed(names) if _exists(n)), node.module)
                yield module, target, f"{path.name}:{node.lineno}", id(node) in nested, id(node) in typing_only
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "generator":
                        yield (module, alias.name, f"{path.name}:{node.lineno}", id(node) in nested,
                               id(node) in typing_only)


def _is_type_checking(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``): imports for annotations, never run."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _exists(module: str) -> bool:
    relative = Path(*module.split(".")[1:])
    return (PACKAGE / relative).with_suffix(".py").is_file() or (PACKAGE / relative / "__init__.py").is_file()


def test_every_import_goes_down_or_stays_in_its_layer():
    upward = [f"{where}: {a} ({LAYERS[_layer(a)][0]}) imports {b} ({LAYERS[_layer(b)][0]})"
              for a, b, where, _, _ in _imports() if _layer(b) > _layer(a)]
    assert not upward, "imports that go up a layer:\n" + "\n".join(upward)


def test_no_import_inside_a_function():
    inner = [f"{where}: {a} imports {b} inside a function" for a, b, where, nested, _ in _imports() if nested]
    assert not inner, "imports inside functions (a sign of a cycle dodged):\n" + "\n".join(inner)


def test_no_import_cycle_between_modules():
    # an import under `if TYPE_CHECKING:` never runs: it names a type for annotations, it cannot make a cycle
    graph = nx.DiGraph((a, b) for a, b, _, _, typing_only in _imports() if a != b and _exists(b) and not typing_only)
    cycles = sorted(" → ".join(cycle + cycle[:1]) for cycle in nx.simple_cycles(graph))
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_layer_test_sees_an_upward_edge():
    """The test above can fail: a layout module importing the writers is upward."""
    assert _layer("generator.writers.cards") > _layer("generator.layout.cardface")
    assert _layer("generator.load.game") > _layer("generator.model.game")
