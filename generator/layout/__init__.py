"""Layout: components → pages of drawing primitives in millimetres."""
