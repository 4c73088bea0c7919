"""pnpgen: print-and-play component generator.

The package follows the pipeline: load (YAML → plain data with source lines) →
model (typed game) → check (findings) → layout (pages of drawing primitives in
mm) → render (PDF with ReportLab, SVG with svgwrite).
"""
from pathlib import Path

__version__ = "0.1.0"

#: Project root (editable install): holds ``templates/`` and ``content/``.
PROJECT_ROOT = Path(__file__).resolve().parents[1]
FONT_DIR = Path(__file__).resolve().parent / "fonts"
