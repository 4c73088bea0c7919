"""Round three, ``pnpgen fit`` on a board from anyone: a move re-plans the routes near it; where a crowd of routes
is near (196 places crammed into 40 × 40 mm), that cost as much as checking the whole board, twice a move, and
400 moves ran for more than 5 minutes. A crowd is not priced (MAX_FIT_REGION_ROUTES); the routes priced in all
are bounded (MAX_FIT_WORK)."""
from __future__ import annotations

from generator import fit, limits
from generator.new import create_game


def _crowded(tmp_path):
    game = tmp_path / "crowded"
    create_game(game)
    path = game / "map.yaml"
    text = path.read_text(encoding="utf-8").replace("at: [225, 260]}", "at: [245, 178]}   # moved")
    path.write_text(text, encoding="utf-8")
    return game


def _priced(monkeypatch) -> list[int]:
    sizes: list[int] = []
    cost = fit._Search._cost

    def counting(self, routes, places):
        sizes.append(len(routes))
        return cost(self, routes, places)
    monkeypatch.setattr(fit._Search, "_cost", counting)
    return sizes


def test_a_crowd_of_routes_is_not_priced(tmp_path, monkeypatch):
    game = _crowded(tmp_path)
    monkeypatch.setattr(limits, "MAX_FIT_REGION_ROUTES", 0)
    sizes = _priced(monkeypatch)
    result = fit.fit_game(game)
    assert result.before and [(d.code, d.source.line) for d in result.after] == \
        [(d.code, d.source.line) for d in result.before]
    assert sizes == [] and result.texts == {}


def test_the_routes_priced_in_all_are_bounded(tmp_path, monkeypatch):
    game = _crowded(tmp_path)
    monkeypatch.setattr(limits, "MAX_FIT_WORK", 1)
    sizes = _priced(monkeypatch)
    fit.fit_game(game, iterations=400)
    assert 1 <= len(sizes) <= 4   # the first move or two priced (after and before), then it stops


def test_an_ordinary_crowded_corner_is_fitted(tmp_path):
    result = fit.fit_game(_crowded(tmp_path))
    assert result.before and not result.after
