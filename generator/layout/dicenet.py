"""The geometry of a paper die: six squares on a grid that fold into a cube.

A net is a list of grid cells (column, row), one per die face. ``fold`` walks
the net from its first square and turns each neighbour up by 90° along the
shared edge, tracking each square's frame in 3D; the squares' outward normals
must then be the six directions of a cube, each once. The same fold tells
which free edges meet on the cube, so exactly one of each meeting pair gets a
glue tab (seven tabs for every valid net). Checking the net by folding it,
rather than trusting a drawing, is what makes a misprinted net impossible.
"""
from __future__ import annotations

from dataclasses import dataclass

Vec = tuple[int, int, int]

#: the classic cross: a column of four (top, front, bottom, back) with two arms (left, right) on the second row
CROSS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2))

#: edge name → (grid step to the neighbour across it)
EDGES = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}


def _neg(v: Vec) -> Vec:
    return (-v[0], -v[1], -v[2])


@dataclass(frozen=True)
class Frame:
    """A square's orientation in 3D: ``u`` along the paper's x, ``v`` along its y, ``n`` its outward normal."""

    u: Vec
    v: Vec
    n: Vec

    def step(self, dx: int, dy: int) -> Frame:
        """The frame of the neighbouring square after folding it up along the shared edge."""
        if (dx, dy) == (1, 0):
            return Frame(_neg(self.n), self.v, self.u)
        if (dx, dy) == (-1, 0):
            return Frame(self.n, self.v, _neg(self.u))
        if (dx, dy) == (0, 1):
            return Frame(self.u, _neg(self.n), self.v)
        if (dx, dy) == (0, -1):
            return Frame(self.u, self.n, _neg(self.v))
        raise ValueError(f"not a grid step: {(dx, dy)}")

    def toward(self, edge: str) -> Vec:
        """The 3D direction in which ``edge`` of this square points (the normal of the face beyond it)."""
        dx, dy = EDGES[edge]
        if dx:
            return self.u if dx > 0 else _neg(self.u)
        return self.v if dy > 0 else _neg(self.v)


class NetError(ValueError):
    """Squares that do not fold into a cube."""


@dataclass(frozen=True)
class FoldedNet:
    cells: tuple[tuple[int, int], ...]
    frames: tuple[Frame, ...]           # per cell
    folds: tuple[tuple[int, str], ...]  # (cell index, edge) of edges shared with a neighbour (each once)
    tabs: tuple[tuple[int, str], ...]   # (cell index, edge) of free edges that carry a glue tab
    glued: tuple[tuple[int, str], ...]  # (cell index, edge) of free edges a tab is glued to

    @property
    def normals(self) -> tuple[Vec, ...]:
        return tuple(frame.n for frame in self.frames)

    def cube_edge(self, cell: int, edge: str) -> frozenset:
        """The cube edge a square's edge lands on: the pair of faces it separates."""
        return frozenset((self.frames[cell].n, self.frames[cell].toward(edge)))


def fold(cells=CROSS) -> FoldedNet:
    """Fold ``cells`` into a cube; raise NetError unless every cube face is covered exactly once."""
    cells = tuple(tuple(c) for c in cells)
    if len(cells) != 6 or len(set(cells)) != 6:
        raise NetError(f"a die net needs six different squares, got {len(set(cells))}")
    index = {cell: i for i, cell in enumerate(cells)}
    frames: dict[int, Frame] = {0: Frame((1, 0, 0), (0, 1, 0), (0, 0, -1))}
    queue = [0]
    while queue:
        i = queue.pop(0)
        col, row = cells[i]
        for dx, dy in EDGES.values():
            j = index.get((col + dx, row + dy))
            if j is not None and j not in frames:
                frames[j] = frames[i].step(dx, dy)
                queue.append(j)
    if len(frames) != 6:
        raise NetError("the squares of the net are not all joined edge to edge")
    ordered = tuple(frames[i] for i in range(6))
    normals = [f.n for f in ordered]
    if len(set(normals)) != 6:
        doubled = [cells[i] for i, n in enumerate(normals) if normals.count(n) > 1]
        raise NetError(f"squares {doubled} fold onto the same cube face")
    folds, free = [], []
    for i, (col, row) in enumerate(cells):
        for edge, (dx, dy) in EDGES.items():
            j = index.get((col + dx, row + dy))
            if j is None:
                free.append((i, edge))
            elif i < j:
                folds.append((i, edge))
    net = FoldedNet(cells, ordered, tuple(folds), (), ())
    tabs, glued, seen = [], [], {}
    for i, edge in free:
        key = net.cube_edge(i, edge)
        if key in seen:
            glued.append((i, edge))
        else:
            seen[key] = (i, edge)
            tabs.append((i, edge))
    return FoldedNet(cells, ordered, tuple(folds), tuple(tabs), tuple(glued))
