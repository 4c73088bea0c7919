"""Read ``map_rules:`` (already checked by the schema) into ``MapRules``; what the schema cannot say is
checked here, at its line: a station cost per station."""
from __future__ import annotations

from generator.errors import ContentError
from generator.model.game import Game
from generator.model.maprules import MapRules, Stations


def load_map_rules(game: Game) -> MapRules | None:
    spec = game.sections.get("map_rules")
    if not spec:
        return None
    first = next(iter(spec.values()))
    source = first[1]
    parts = {key: value for key, (value, _src) in spec.items()}
    where = {key: src for key, (_value, src) in spec.items()}
    stations = None
    if "stations" in parts:
        raw = parts["stations"]
        cost = tuple(int(c) for c in raw.get("cost", ()))
        if cost and len(cost) != raw["count"]:
            raise ContentError(where["stations"], f"map_rules: stations cost lists {len(cost)} values for "
                                                  f"{raw['count']} stations",
                               "write one cost per station, e.g. cost: [1, 2, 3] for count: 3")
        stations = Stations(int(raw["count"]), cost, int(raw.get("points_per_unused", 0)))
    locomotives = parts.get("locomotives", {})
    return MapRules(source=source, stations=stations,
                    locomotives_only_on=tuple(str(k) for k in locomotives.get("only_on", ())),
                    exchange=int(locomotives["exchange"]) if "exchange" in locomotives else None,
                    tunnel_reveal=int(parts["tunnels"].get("reveal", 3)) if "tunnels" in parts else None,
                    ferry_locomotives=int(parts["ferries"].get("locomotive_per_mark", 1)) if "ferries" in parts else None,
                    bonuses={str(k): int(v) for k, v in parts.get("bonuses", {}).items()})
