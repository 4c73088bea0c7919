"""A route map's own rules as data (``map_rules:``): stations, locomotives, tunnels, ferries, bonuses.

What the rulebook of a map says beyond claiming routes and completing tickets, written where the
checker (PNP309: rules and routes agree), ``pnpgen stats`` (points outside routes and tickets), the
rule sheet (``map_rules`` in rules.md) and the simulator can read it, instead of YAML comments.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from generator.errors import Source
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr


@dataclass(frozen=True, repr=False, eq=False)
class Stations:
    """Train stations (Europe): each player's count, the cards the 1st, 2nd … costs, points per one not built."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    count: int
    cost: tuple[int, ...] = ()
    points_per_unused: int = 0


@dataclass(frozen=True, repr=False, eq=False)
class MapRules:
    """The rules a map follows (``map_rules:``), as read."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    source: Source
    stations: Stations | None = None
    #: route kinds locomotives may only be played on (Nordic: tunnel, ferry); () = anywhere
    locomotives_only_on: tuple[str, ...] = ()
    #: any N train cards played as one locomotive (Nordic: 4); None = not allowed
    exchange: int | None = None
    #: cards turned over when claiming a tunnel (None: the map says nothing about tunnels)
    tunnel_reveal: int | None = None
    #: locomotives per marked ferry space (None: the map says nothing about ferries)
    ferry_locomotives: int | None = None
    #: end-of-game bonuses, name → points, in content order
    bonuses: dict[str, int] = field(default_factory=dict)

    @property
    def tunnels(self) -> bool:
        return self.tunnel_reveal is not None

    @property
    def ferries(self) -> bool:
        return self.ferry_locomotives is not None
