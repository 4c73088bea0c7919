"""Render: documents of primitives → PDF (ReportLab) and SVG (svgwrite)."""
