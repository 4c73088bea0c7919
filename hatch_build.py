"""Build step: the wheel carries the repository's ``templates/`` tree as ``generator/templates``.

``templates/`` stays at the top of the repository; an installed pnpgen (``pip install .``,
a wheel, pipx) has no repository, so the wheel takes a copy (layouts, rules, palette and any
folder added later: catalogues, starter games). An editable install (``pip install -e .``)
gets no copy: it reads ``templates/`` in the clone, so an edit there shows at once
(``generator.TEMPLATES_DIR`` picks whichever is present). hatchling runs this hook by itself
(``[tool.hatch.build.targets.wheel.hooks.custom]`` in pyproject.toml).
"""
from __future__ import annotations

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class TemplatesHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version != "editable":
            build_data["force_include"]["templates"] = "generator/templates"
