"""`pnpgen import`, `pnpgen export ttr-map-editor` and `pnpgen fit`: a TTR Map Editor map (its JSON map
file, its CSV files) made here from the editor's documented format, imported into a game that checks and
builds; exported and imported again into the same game; malformed files refused at their file and line;
the board fitter's diff and --write on a small map."""
from __future__ import annotations

import copy
import json
import re

import pytest

from generator.errors import Source
from generator.fit import fit_game
from generator.mapio.importer import SIDECAR
from generator.mapio.ttrme import EditorMap, Stop, Track, nearest_colour, read_json, to_json
from tests.conftest import ROOT

#: a version 3 map file as the editor writes it (docs/FILE-FORMAT.md, docs/MAP-FORMAT.md): a 2×3 board,
#: 1,100 × 731 units for 790 × 525 mm
MAP = {
    "format": "ticket-to-ride-map", "version": 3, "kind": "map", "written": "2026-09-29T15:12:00.000Z",
    "app": {"name": "Map prototypes", "version": "0.1.0"}, "board": {"width": 1100, "height": 731},
    "payload": {
        "name": "Harbour Lines", "format": "board-2x3",
        "background": [{"id": "bg-lake", "type": "area", "label": "Lake", "fill": "#b8ddea",
                        "points": [{"x": 455, "y": 205}, {"x": 620, "y": 190}, {"x": 720, "y": 300}]}],
        "stops": [
            {"id": "s-west", "name": "Westport", "type": "city", "x": 130, "y": 205, "labelAngle": 165},
            {"id": "s-central", "name": "Central", "type": "city", "x": 420, "y": 345},
            {"id": "s-lake", "name": "Lakeside", "type": "city", "x": 640, "y": 185},
            {"id": "s-old", "name": "Old Town", "type": "region", "x": 690, "y": 600},
            {"id": "s-harbour", "name": "Harbour", "type": "ferry", "x": 875, "y": 455},
            {"id": "s-east", "name": "Eastgate", "type": "city", "x": 980, "y": 210},
            {"id": "s-pine", "name": "Pine Hill", "type": "city", "x": 280, "y": 575},
        ],
        "routes": [
            {"id": "r1", "a": "s-west", "b": "s-central", "length": 4, "type": "city", "color": "red",
             "points": [{"x": 265, "y": 235}], "curved": False},
            {"id": "r2", "a": "s-west", "b": "s-pine", "length": 4, "type": "city", "color": "orange"},
            {"id": "r3", "a": "s-pine", "b": "s-central", "length": 3, "type": "city", "color": "neutral"},
            {"id": "r4", "a": "s-central", "b": "s-lake", "length": 3, "type": "city", "color": "blue"},
            {"id": "r5", "a": "s-central", "b": "s-lake", "length": 3, "type": "city", "color": "green"},
            {"id": "r6", "a": "s-central", "b": "s-old", "length": 4, "type": "city", "color": "yellow",
             "wagonStyle": "tunnel"},
            {"id": "r7", "a": "s-lake", "b": "s-east", "length": 4, "type": "city", "color": "black"},
            {"id": "r8", "a": "s-lake", "b": "s-harbour", "length": 4, "type": "ferry", "color": "neutral",
             "locomotiveSlots": [0]},
            {"id": "r9", "a": "s-old", "b": "s-harbour", "length": 3, "type": "city", "color": "white"},
            {"id": "r10", "a": "s-harbour", "b": "s-east", "length": 3, "type": "city", "color": "purple"},
            {"id": "r11", "a": "s-west", "b": "s-lake", "length": 6, "type": "rail", "color": "neutral"},
        ],
        "ticketSets": [{"id": "deck-1", "label": "Base"}],
        "tickets": [
            {"id": "t1", "a": "s-west", "b": "s-east", "points": 11, "set": "deck-1"},
            {"id": "t2", "a": "s-pine", "b": "s-harbour", "points": 10, "set": "deck-1"},
            {"id": "t3", "a": "s-central", "b": "s-east", "points": 7, "set": "deck-1"},
            {"id": "t4", "a": "s-west", "b": "s-old", "points": 8, "set": "deck-1"},
            {"id": "t5", "a": "s-west", "b": "s-harbour", "points": 11, "set": "deck-1", "long": True},
        ],
        "rules": "# Rules\n\nStart at [[Westport]] and claim **routes**. A {{ curly }} brace stays text.\n\n"
                 "- Ferries need a locomotive.\n- Tunnels may cost more.\n",
    },
}


def _write_map(folder, data=MAP, name="harbour.json"):
    path = folder / name
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """The map imported once, shared by the tests that only read it."""
    root = tmp_path_factory.mktemp("mapio")
    from click.testing import CliRunner

    from generator.cli import main
    result = CliRunner().invoke(main, ["import", str(_write_map(root)), "--to", str(root / "harbour")])
    assert result.exit_code == 0, result.output
    return root / "harbour"


def test_the_imported_map_has_positions_bends_colours_double_routes_and_extras(imported):
    text = (imported / "map.yaml").read_text(encoding="utf-8")
    # 130 × 205 units on a 1,100 × 731 frame of 790 × 525 mm
    assert "  Westport: {name: Westport, kind: city, at: [93.4, 147.2]}" in text
    assert "  Old Town: {name: Old Town, kind: city, at: [495.5, 430.9]}" in text
    assert "  - [Westport, Central, 4, red, {bends: [[190.3, 168.8]]}]" in text
    assert "  - [Central, Lakeside, 3, [blue, green]]" in text            # two editor routes: one double route
    assert "  - [Pine Hill, Central, 3, gray]" in text                     # neutral is gray
    assert "  - [Central, Old Town, 4, yellow, {tunnel: true}]" in text
    assert "  - [Lakeside, Harbour, 4, gray, {ferry: 1}]" in text
    assert "Westport, Lakeside" not in text                                # a pre-built line is no route
    assert "size: [790, 525]" in text
    decks = (imported / "decks.yaml").read_text(encoding="utf-8")
    assert "      - [Westport, Eastgate, 11]" in decks and "  base-long:" in decks and "expected: 4" in decks
    assert "color: {red: 12, blue: 12, green: 12, yellow: 12, black: 12, white: 12, orange: 12, purple: 12, " \
           "locomotive: 14}" in decks
    rules = (imported / "rules.md").read_text(encoding="utf-8")
    assert "A {{ '{' }}{{ '{' }} curly }} brace stays text." in rules      # the map's text never runs as Jinja
    kept = json.loads((imported / SIDECAR).read_text(encoding="utf-8"))
    assert kept["stops"]["Westport"] == {"id": "s-west", "labelAngle": 165, "type": "city"}
    assert kept["infrastructure"][0]["id"] == "r11" and kept["map"]["background"][0]["id"] == "bg-lake"


def test_the_imported_game_checks_clean_and_builds(imported, run, tmp_path):
    checked = run("check", imported, "--format", "json")
    assert checked.exit_code == 0, checked.output
    assert json.loads(checked.stdout) == []
    built = run("build", imported, "--out", tmp_path, "--all")
    assert built.exit_code == 0, built.output
    for name in ("board-map.pdf", "tickets.pdf", "base-long.pdf", "train-cards.pdf", "harbour-rules.pdf"):
        assert (tmp_path / "harbour" / name).is_file()


def test_export_then_import_gives_the_same_game(imported, run, tmp_path):
    exported = run("export", "ttr-map-editor", imported, "--out", tmp_path / "exp")
    assert exported.exit_code == 0, exported.output
    data = json.loads((tmp_path / "exp" / "harbour.json").read_text(encoding="utf-8"))
    assert (data["format"], data["version"], data["kind"], data["board"]) == (
        "ticket-to-ride-map", 3, "kind" and "map", {"width": 1100, "height": 731})
    payload = data["payload"]
    assert payload["background"] == MAP["payload"]["background"]            # what pnpgen does not use survives
    assert [s["id"] for s in payload["stops"]] == [s["id"] for s in MAP["payload"]["stops"]]
    assert {(r["a"], r["b"], r["color"]) for r in payload["routes"]} == {
        (r["a"], r["b"], r["color"]) for r in MAP["payload"]["routes"]}
    assert payload["rules"] == MAP["payload"]["rules"].strip("\n") + "\n"
    again = run("import", tmp_path / "exp" / "harbour.json", "--to", tmp_path / "again")
    assert again.exit_code == 0, again.output
    files = sorted(p.relative_to(imported) for p in imported.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "again") for p in (tmp_path / "again").rglob("*") if p.is_file())
    for name in files:
        assert (imported / name).read_bytes() == (tmp_path / "again" / name).read_bytes(), name


def test_a_game_of_pnpgen_travels_too(run, tmp_path):
    """The starter game (curves, its own board size) out to the editor and back: the same map."""
    assert run("new", tmp_path / "start").exit_code == 0
    assert run("export", "ttr-map-editor", tmp_path / "start", "--out", tmp_path / "exp").exit_code == 0
    back = run("import", tmp_path / "exp" / "start.json", "--to", tmp_path / "back")
    assert back.exit_code == 0, back.output
    text = (tmp_path / "back" / "map.yaml").read_text(encoding="utf-8")
    assert "  Northport: {name: Northport, kind: city, at: [95, 85]}" in text and "size: [500, 380]" in text
    assert "  - [Riverton, Ferndale, 3, [green, gray]]" in text
    checked = run("check", tmp_path / "back", "--format", "json")
    assert checked.exit_code == 0 and json.loads(checked.stdout) == [], checked.output


def test_csv_files_are_told_apart_by_their_headers(run, tmp_path):
    (tmp_path / "a.csv").write_text("\ufeffName,Type,X,Y\r\nWestport,Regular,130,205\r\nCentral,,420,345\r\n"
                                    "Lakeside,,640,185\r\nEastgate,,980,210\r\n", encoding="utf-8")
    (tmp_path / "b.csv").write_text("From;To;Length;Colour;Wagon style;Locomotives\nwestport;Central;4;Red;;\n"
                                    "Central;Lakeside;3;Blue;Tunnel;\nCentral;Lakeside;3;Green;Tunnel;\n"
                                    "Lakeside;Eastgate;4;Grey;;1\n", encoding="utf-8")
    (tmp_path / "c.csv").write_text("Deck,From,To,Points,Long deck\nShort,Westport,Lakeside,7,\n"
                                    "Short,Central,Eastgate,7,\nLong,Westport,Eastgate,11,yes\n", encoding="utf-8")
    result = run("import", tmp_path / "c.csv", tmp_path / "b.csv", tmp_path / "a.csv", "--to", tmp_path / "g")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "g" / "map.yaml").read_text(encoding="utf-8")
    assert "  Westport: {name: Westport, kind: city, at: [93.4, 147.2]}" in text
    assert "  - [Westport, Central, 4, red]" in text
    assert "  - [Central, Lakeside, 3, [blue, green], {tunnel: true}]" in text
    assert "  - [Lakeside, Eastgate, 4, gray, {ferry: 1}]" in text
    decks = (tmp_path / "g" / "decks.yaml").read_text(encoding="utf-8")
    assert "  tickets:\n    name: Short" in decks and "  long-long:\n    name: Long (long)" in decks
    checked = run("check", tmp_path / "g")
    assert checked.exit_code == 0, checked.output


def _broken(**change):
    data = copy.deepcopy(MAP)
    for where, value in change.items():
        listed, index, key = where.split("__")
        data["payload"][listed][int(index)][key] = value
    return data


@pytest.mark.parametrize("data, words", [
    (_broken(routes__2__color="pink"), r"harbour\.json:\d+: routes\[2\] \(r3\)\.color: the colour 'pink' is not one"),
    (_broken(routes__6__b="s-nowhere"), r"harbour\.json:\d+: routes\[6\] \(r7\)\.b names the stop 's-nowhere', "
                                        r"which the map does not have"),
    (_broken(tickets__1__a="s-gone"), r"tickets\[1\] \(t2\)\.a names the stop 's-gone'"),
    (_broken(routes__0__length=0), r"routes\[0\] \(r1\)\.length should be a whole number from 1"),
    (_broken(stops__0__x=5000), r"stop 'Westport' at \[3590.9, 147.2\] mm is off the board"),
])
def test_a_malformed_map_is_refused_at_its_line_and_field_and_nothing_is_written(run, tmp_path, data, words):
    result = run("import", _write_map(tmp_path, data), "--to", tmp_path / "game")
    assert result.exit_code == 2, result.output
    assert re.search(words, result.stderr), result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "game").exists() and [p.name for p in tmp_path.iterdir()] == ["harbour.json"]


def test_the_line_of_a_field_is_the_line_of_its_object(run, tmp_path):
    path = _write_map(tmp_path, _broken(routes__2__color="pink"))
    line = next(i for i, text in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if '"id": "r3"' in text)
    result = run("import", path, "--to", tmp_path / "game")
    assert f"harbour.json:{line}: routes[2] (r3).color" in result.stderr


def test_bad_json_and_bad_csv_are_refused_with_file_and_line(run, tmp_path):
    (tmp_path / "bad.json").write_text('{\n  "format": "ticket-to-ride-map",\n  "version": 3,\n  "payload": {,}\n}\n',
                                       encoding="utf-8")
    result = run("import", tmp_path / "bad.json", "--to", tmp_path / "g")
    assert result.exit_code == 2 and "bad.json:4:15: malformed JSON: Expecting property name" in result.stderr
    newer = copy.deepcopy(MAP)
    newer["version"] = 9
    result = run("import", _write_map(tmp_path, newer), "--to", tmp_path / "g")
    assert result.exit_code == 2 and "version 9; pnpgen reads versions up to 4" in result.stderr
    (tmp_path / "s.csv").write_text("Name,X,Y\nA,10,10\nB,100,100\n", encoding="utf-8")
    (tmp_path / "r.csv").write_text("From,To,Length,Colour\nA,B,3,red\nA,C,2,blue\nB,A,2,pink\n", encoding="utf-8")
    result = run("import", tmp_path / "s.csv", tmp_path / "r.csv", "--to", tmp_path / "g")
    assert result.exit_code == 2 and "r.csv:3:B: the route names the stop 'C', which the stop file does not have" \
        in result.stderr, result.stderr
    (tmp_path / "r.csv").write_text("From,To,Length,Colour\nA,B,3,pink\n", encoding="utf-8")
    result = run("import", tmp_path / "s.csv", tmp_path / "r.csv", "--to", tmp_path / "g")
    assert result.exit_code == 2 and "r.csv:2:D: the route: the colour 'pink' is not one of the editor's" \
        in result.stderr, result.stderr
    assert not (tmp_path / "g").exists()


def test_a_folder_that_is_not_empty_is_refused(run, tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "mine.txt").write_text("mine", encoding="utf-8")
    result = run("import", _write_map(tmp_path), "--to", tmp_path / "taken")
    assert result.exit_code == 2 and "already exists and is not an empty folder" in result.stderr
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["mine.txt"]


# ------------------------------------------------------------------------------------------ pnpgen fit


@pytest.fixture
def crowded(run, tmp_path):
    """The starter with Riverton moved onto Millbrook – Kingsbridge (a tunnel, with a comment)."""
    game = tmp_path / "crowded"
    assert run("new", game).exit_code == 0
    path = game / "map.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("at: [225, 260]}", "at: [245, 178]}   # moved")
    text = text.replace("  - [Millbrook, Kingsbridge, 3, gray]",
                        "  - [Millbrook, Kingsbridge, 3, gray, {tunnel: true}]  # gray: any colour")
    path.write_text(text, encoding="utf-8")
    return game


def _board_findings(run, game):
    checked = run("check", game, "--format", "json")
    return sorted((f["code"], f["line"]) for f in json.loads(checked.stdout) if f["code"].startswith("PNP5"))


def test_fit_shows_a_diff_and_writes_only_with_write(run, crowded):
    before = (crowded / "map.yaml").read_text(encoding="utf-8")
    assert len(_board_findings(run, crowded)) >= 3
    shown = run("fit", crowded)
    assert shown.exit_code == 0, shown.output
    assert "--- a/map.yaml" in shown.stdout and "+++ b/map.yaml" in shown.stdout
    assert "nothing written" in shown.stdout
    assert (crowded / "map.yaml").read_text(encoding="utf-8") == before
    written = run("fit", crowded, "--write")
    assert written.exit_code == 0, written.output
    after = (crowded / "map.yaml").read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.split("\n"), after.split("\n")) if a != b]
    assert len(before.split("\n")) == len(after.split("\n")) and 1 <= len(changed) <= 4
    for old, new in changed:   # each changed line keeps its comment, its alignment and its other extras
        assert old.split("#")[1:] == new.split("#")[1:]
        assert re.sub(r"[-0-9.]+", "N", old.split("#")[0].replace(", curve: N", "")) == re.sub(
            r"[-0-9.]+", "N", new.split("#")[0]).replace(", curve: N", "").replace(", {curve: N}", "")
    reported = re.findall(r"map\.yaml:(\d+): (PNP5\d\d)", written.stdout)
    assert sorted((code, int(line)) for line, code in reported) == _board_findings(run, crowded)


def test_fit_adds_a_curve_inside_a_row_s_extras(crowded):
    result = fit_game(crowded)
    assert not result.after and len(result.before) >= 3
    new = result.texts[crowded / "map.yaml"][1]
    row = next(line for line in new.split("\n") if line.startswith("  - [Millbrook, Kingsbridge"))
    assert re.fullmatch(r"  - \[Millbrook, Kingsbridge, 3, gray, \{tunnel: true(, curve: -?\d+)?\}\]  # gray: any colour",
                        row), row


def test_germany_goes_out_to_the_editor_and_comes_back_checking_without_errors(run, tmp_path):
    exported = run("export", "ttr-map-editor", ROOT / "content" / "ttr-germany", "--out", tmp_path)
    assert exported.exit_code == 0, exported.output
    payload = json.loads((tmp_path / "ttr-germany.json").read_text(encoding="utf-8"))["payload"]
    assert (len(payload["stops"]), len(payload["routes"]), len(payload["tickets"])) == (40, 110, 89)
    assert payload["orientation"] == "portrait" and payload["pnpgen"]["terminals"] == ["country"]
    assert sum(1 for r in payload["routes"] if "pnpgen" in r) > 0          # the arcs travel as pnpgen curves
    back = run("import", tmp_path / "ttr-germany.json", "--to", tmp_path / "back")
    assert back.exit_code == 0, back.output
    checked = json.loads(run("check", tmp_path / "back", "--format", "json").stdout)
    assert [f for f in checked if f["severity"] == "error"] == []
    assert {f["code"] for f in checked} <= {"PNP404"}                      # the waivers were comments: not carried


def test_a_colour_the_editor_lacks_travels_as_its_nearest_and_comes_back(tmp_path):
    own = {"pink": {"hex": "#d6508e", "symbol": "heart", "latin": "pink"}}
    board = EditorMap("M", (790.0, 525.0), [Stop("a", "A", (100.0, 100.0), Source(None)),
                                            Stop("b", "B", (300.0, 100.0), Source(None))],
                      [Track("a", "b", 3, nearest_colour("#d6508e"), Source(None), own_colour="pink")], palette=own)
    path = tmp_path / "m.json"
    path.write_text(to_json(board, "test"), encoding="utf-8")
    route = json.loads(path.read_text(encoding="utf-8"))["payload"]["routes"][0]
    assert (route["color"], route["pnpgen"]) == ("purple", {"color": "pink"})   # the editor draws its nearest
    back = read_json(path)
    assert (back.tracks[0].own_colour, back.tracks[0].colour, back.palette) == ("pink", "purple", own)
    assert back.stops[1].at == (300.0, 100.0) and back.size == (790.0, 525.0)


def test_fit_moves_a_row_s_bend_points_in_place(run, tmp_path):
    game = tmp_path / "bent"
    assert run("new", game).exit_code == 0
    path = game / "map.yaml"
    text = path.read_text(encoding="utf-8").replace("at: [225, 260]}", "at: [245, 185]}").replace(
        "  - [Millbrook, Kingsbridge, 3, gray]",
        "  - [Millbrook, Kingsbridge, 3, gray, {bends: [[245, 178]], tunnel: true}]   # bent")
    path.write_text(text, encoding="utf-8")
    result = fit_game(game)
    assert len(result.before) == 3 and result.after == []
    rows = [line for line in result.texts[path][1].split("\n") if line.startswith("  - [Millbrook, Kingsbridge")]
    assert len(rows) == 1 and re.fullmatch(
        r"  - \[Millbrook, Kingsbridge, 3, gray, \{bends: \[\[\d+, \d+\]\], tunnel: true\}\]   # bent", rows[0])
