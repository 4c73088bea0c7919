"""pnpgen: print-and-play component generator.

The package follows the pipeline: load (YAML → plain data with source lines) →
model (typed game) → check (findings) → layout (pages of drawing primitives in
mm) → render (PDF with ReportLab, SVG with svgwrite).
"""
from pathlib import Path

__version__ = "0.1.0"

#: The version of the content format: what a game folder may say (its files, sections, keys
#: and their meaning, rules.md's template language) and pnpgen reads. It changes only when
#: a game folder that was read before would now be refused or read differently; new optional
#: keys or sections do not change it. ``pnpgen --version`` names it beside the program's version.
FORMAT_VERSION = "1"

PACKAGE_DIR = Path(__file__).resolve().parent
FONT_DIR = PACKAGE_DIR / "fonts"


def _templates_dir() -> Path:
    """pnpgen's own templates (layouts, rules, palette): the copy the wheel carries when installed
    (``generator/templates``, put there by the build), else the repository's ``templates/`` (an
    editable install or a run from the clone)."""
    bundled = PACKAGE_DIR / "templates"
    return bundled if bundled.is_dir() else PACKAGE_DIR.parent / "templates"


#: The one place that says where pnpgen's templates are; every reader of templates uses it.
TEMPLATES_DIR = _templates_dir()
