"""List the user-facing ``raise`` statements of generator/ that no test executes (issue 10).

    coverage run --source=generator -m pytest -q && coverage json -o coverage.json
    python tools/uncovered_raises.py                 # reads coverage.json
    python tools/uncovered_raises.py --all           # every user-facing raise, executed or not

A user-facing raise makes an error a designer reads: ContentError and its kinds (BuildError,
RulesError, ContentErrors, ChecksFailed), a dice-net NetError and a Jinja limit (``_refuse``);
each call of one counts, raised or returned (load/schema.py's schema_error) or reported as a
finding. A bare re-raise (``raise error``) or an internal ValueError/TypeError is not one. Prints
``file:line  Kind  message…`` per raise, then the count; exits 1 when any is not executed.
"""
from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
USER_FACING = {"ContentError", "ContentErrors", "BuildError", "RulesError", "ChecksFailed", "NetError",
               "JinjaLimitError", "_refuse"}


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _message(call: ast.Call) -> str:
    """The first argument written as text (the message), shortened."""
    for arg in [*call.args, *(k.value for k in call.keywords if k.arg == "message")]:
        if isinstance(arg, (ast.JoinedStr, ast.BinOp)) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            text = ast.unparse(arg)
            return text if len(text) <= 70 else text[:67] + "..."
    return ast.unparse(call)[:70]


def user_facing_raises(root: Path = ROOT):
    """(relative path, line, kind, message) of every user-facing error generator/ makes: each call
    of an error class (raised, returned to be raised, or handed on as a finding), at the line of its
    statement (the line coverage reports)."""
    for path in sorted((root / "generator").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in USER_FACING:
                statement = node
                while not isinstance(statement, ast.stmt):
                    statement = parents[statement]
                yield path.relative_to(root).as_posix(), statement.lineno, _name(node.func), _message(node)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("coverage_json", nargs="?", default="coverage.json", help="from `coverage json` (coverage.json)")
    parser.add_argument("--all", action="store_true", help="list executed raises too")
    args = parser.parse_args(argv)
    report = json.loads(Path(args.coverage_json).read_text(encoding="utf-8"))
    missing: dict[str, set[int]] = {}
    for file, data in report["files"].items():
        rel = Path(file).resolve().relative_to(ROOT).as_posix() if Path(file).is_absolute() else Path(file).as_posix()
        missing[rel] = set(data["missing_lines"])
    raises = sorted(user_facing_raises())
    uncovered = [r for r in raises if r[1] in missing.get(r[0], set()) or r[0] not in missing]
    for file, line, kind, message in (raises if args.all else uncovered):
        mark = "  " if (file, line, kind, message) not in uncovered else "✗ " if args.all else ""
        print(f"{mark}{file}:{line}  {kind}  {message}")
    print(f"{len(uncovered)} of {len(raises)} user-facing raises are not executed by the tests")
    return 1 if uncovered else 0


if __name__ == "__main__":
    sys.exit(main())
