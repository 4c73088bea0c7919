"""Golden outputs: what of a build is kept under tests/golden/<game>/, and how it is compared.

Kept per game (see tests/golden/README.md):

* ``svg/…`` — a chosen set of SVG faces, byte for byte: per face folder the first two faces, the last one
  and the back; every board SVG; every rule-sheet picture (``rules-img/``). An embedded font (a base64
  ``data:font/…`` URL in the SVG's ``@font-face``) is kept as its size and a hash of its bytes.
* ``pdf/<file>.txt`` — a readable summary of every PDF the build writes: page count, fonts (embedded,
  subset), each form XObject and each page with its boxes (mm), a hash of its normalised content stream
  and what it draws (placements, line widths, colours, rectangles, text positions, in mm rounded to 0.01).

``python tools/update_golden.py [GAME…]`` rewrites them; ``tests/test_golden.py`` compares them.
"""
from __future__ import annotations

import base64
import difflib
import hashlib
import re
import shutil
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden"
GAMES = ["ttr-germany", "ttr-new-york", "ttr-dice", "s-railway", "thurn-and-taxis", "demo-artwork"]
UPDATE = "python tools/update_golden.py"
MM = 72 / 25.4
#: readable items listed per page or form (placements, rectangles, texts); the hash covers the rest
MAX_ITEMS = 24

_TOKEN = re.compile(rb"""
    (?P<str>\((?:\\.|[^\\)])*\))
  | (?P<hex><[0-9A-Fa-f\s]*>)
  | (?P<name>/[^\s/\[\]()<>{}%]+)
  | (?P<open>\[) | (?P<close>\])
  | (?P<num>[-+]?(?:\d+\.?\d*|\.\d+))
  | (?P<op>[A-Za-z'"*]+\d?\*?)
    """, re.X | re.S)


# ------------------------------------------------------------------------------------------- selection

def golden_svgs(out: Path) -> list[str]:
    """The SVGs of a built game folder that are kept as goldens (paths relative to it)."""
    chosen: list[str] = []
    for folder in sorted(p for p in (out / "svg").iterdir() if p.is_dir()) if (out / "svg").is_dir() else []:
        numbered = sorted(p.name for p in folder.glob("*.svg") if p.stem.isdigit())
        picks = numbered[:2] + numbered[-1:] + [p.name for p in folder.glob("back.svg")]
        chosen += [f"svg/{folder.name}/{name}" for name in dict.fromkeys(picks)]
    chosen += [p.name for p in sorted(out.glob("board-*.svg"))]
    chosen += [f"rules-img/{p.name}" for p in sorted((out / "rules-img").glob("*.svg"))]
    return chosen


# ------------------------------------------------------------------------------------------- PDF summary

def _mm(v: float) -> str:
    s = f"{v / MM:.2f}"
    return "0.00" if s == "-0.00" else s


def _num(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _mul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _apply(m, x, y):
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _colour(op: bytes, args) -> str:
    kind = "fill" if op.islower() else "stroke"
    if len(args) == 3:
        return f"{kind} #" + "".join(f"{round(float(v) * 255):02x}" for v in args)
    if len(args) == 1:
        return f"{kind} gray {_num(float(args[0]))}"
    return f"{kind} " + " ".join(_num(float(v)) for v in args)


def summarise_stream(data: bytes, alias: dict[str, str] | None = None) -> tuple[str, list[str]]:
    """(header facts, item lines) of one content stream: its hash and what it draws, in mm.

    ``alias`` renames forms (their names carry a hash of their drawing) so that a changed face shows as
    a changed form, not as one form gone and another new."""
    alias = alias or {}
    ctm, stack = (1, 0, 0, 1, 0, 0), []
    tm = tlm = (1, 0, 0, 1, 0, 0)
    font = ""
    args: list[bytes] = []
    widths, colours, items = set(), set(), []
    counts = {"paths": 0, "rects": 0, "texts": 0, "places": 0}
    shown = 0   # items are formatted only while they will be listed; all are counted

    def nums():
        return [float(a) for a in args if a[:1] in b"+-.0123456789"]

    for m in _TOKEN.finditer(data):
        if m.lastgroup != "op":
            args.append(m.group())
            continue
        op = m.group()
        if op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
            counts["paths"] += 1
        elif op in (b"m", b"l", b"c", b"v", b"y", b"n", b"h", b"W", b"W*"):
            pass
        elif op == b"q":
            stack.append(ctm)
        elif op == b"Q" and stack:
            ctm = stack.pop()
        elif op == b"cm" and len(nums()) == 6:
            ctm = _mul(tuple(nums()), ctm)
        elif op == b"w" and nums():
            widths.add(_mm(nums()[0] * (abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) ** 0.5)))
        elif op in (b"rg", b"RG", b"g", b"G", b"k", b"K", b"sc", b"SC", b"scn", b"SCN") and nums():
            colours.add(_colour(op, nums()))
        elif op == b"re" and len(nums()) == 4:
            counts["rects"] += 1
            if shown < MAX_ITEMS:
                v = nums()
                x, y = _apply(ctm, v[0], v[1])
                items.append(f"rect {_mm(x)},{_mm(y)} {_mm(v[2] * ctm[0])}x{_mm(v[3] * ctm[3])}")
            shown += 1
        elif op == b"BT":
            tm = tlm = (1, 0, 0, 1, 0, 0)
        elif op == b"Tf" and args:
            font = f"{args[0].decode('latin-1')} {_num(nums()[-1]) if nums() else ''}"
        elif op in (b"Td", b"TD") and len(nums()) == 2:
            tm = tlm = _mul((1, 0, 0, 1, *nums()), tlm)
        elif op == b"Tm" and len(nums()) == 6:
            tm = tlm = tuple(nums())
        elif op in (b"Tj", b"TJ", b"'", b'"'):
            counts["texts"] += 1
            if shown < MAX_ITEMS:
                x, y = _apply(_mul(tm, ctm), 0, 0)
                items.append(f"text {_mm(x)},{_mm(y)} {font}")
            shown += 1
        elif op == b"Do" and args:
            counts["places"] += 1
            if shown < MAX_ITEMS:
                name = args[-1].decode("latin-1")[1:]
                a, b, c, d = (_num(v) for v in ctm[:4])
                turn = "" if (a, b, c, d) == ("1", "0", "0", "1") else f" [{a} {b} {c} {d}]"
                items.append(f"do {alias.get(name, name)} at {_mm(ctm[4])},{_mm(ctm[5])}{turn}")
            shown += 1
        args = []
    # the hash: the stream itself, form names replaced by their aliases, white space collapsed
    named = re.sub(rb"/([^\s/\[\]()<>{}%]+)(?=\s+Do\b)",
                   lambda m: b"/" + alias.get(m.group(1).decode("latin-1"), m.group(1).decode("latin-1")).encode("latin-1"),
                   data)
    digest = hashlib.sha256(b" ".join(named.split())).hexdigest()[:16]
    head = f"sha {digest} " + " ".join(f"{k} {v}" for k, v in counts.items())
    lines = []
    if widths:
        lines.append("line widths " + " ".join(sorted(widths, key=float)))
    if colours:
        lines.append("colours " + ", ".join(sorted(colours)))
    lines += items
    if shown > MAX_ITEMS:
        lines.append(f"… {shown - MAX_ITEMS} more items (in the hash)")
    return head, lines


def _box(page, name: str) -> str:
    box = page.get(name)
    if box is None:
        return "-"
    return " ".join(_mm(float(v)) for v in box)


def resources(reader):
    """Every /Resources dictionary of the PDF, once: each page's and, depth first, each form's it uses."""
    seen: set[int] = set()
    for page in reader.pages:
        stack = [page.get("/Resources")]
        while stack:
            res = stack.pop()
            if res is None:
                continue
            res = res.get_object()
            if id(res) in seen:
                continue
            seen.add(id(res))
            yield res
            for xobj in (res.get("/XObject") or {}).values():
                stack.append(xobj.get_object().get("/Resources"))


def pdf_fonts(reader) -> dict:
    """The fonts a PDF draws with, by base name (pages and the forms they place)."""
    return {str(font.get_object().get("/BaseFont")): font.get_object()
            for res in resources(reader) for font in (res.get("/Font") or {}).values()}


def _fonts(reader) -> list[str]:
    found = pdf_fonts(reader)
    lines = []
    for name, font in sorted(found.items()):
        desc = font
        if font.get("/Subtype") == "/Type0":
            desc = font["/DescendantFonts"][0].get_object()
        desc = desc.get("/FontDescriptor")
        embedded = desc is not None and any(k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        subset = bool(re.match(r"/?[A-Z]{6}\+", name))
        lines.append(f"font {name} {font.get('/Subtype')} {'embedded' if embedded else 'NOT embedded'}"
                     f" {'subset' if subset else 'full'}")
    return lines


def summarise_pdf(path: Path) -> str:
    """The readable, deterministic summary of one PDF (see the module docstring)."""
    from pypdf import PdfReader
    reader = PdfReader(path)
    out = [f"# {path.name}: page geometry in mm (rounded to 0.01); sha = hash of the content stream",
           f"pages {len(reader.pages)}"]
    out += _fonts(reader)
    forms: dict[str, object] = {}
    for res in resources(reader):
        for name, xobj in (res.get("/XObject") or {}).items():
            xobj = xobj.get_object()
            if name not in forms and xobj.get("/Subtype") == "/Form":
                forms[name] = xobj
    used: list[str] = []   # forms in order of first use (pages in order, a form's own forms after it)

    def use(data: bytes) -> None:
        for found in re.findall(rb"/([^\s/\[\]()<>{}%]+)\s+Do\b", data):
            name = "/" + found.decode("latin-1")
            if name in forms and name not in used:
                used.append(name)
                use(forms[name].get_data())

    for page in reader.pages:
        contents = page.get_contents()
        use(contents.get_data() if contents is not None else b"")
    forms = {name: forms[name] for name in used + sorted(set(forms) - set(used))}
    alias: dict[str, str] = {}
    seen: dict[str, int] = {}
    for name in forms:   # in order of first use: face-<hash> becomes face#1, face#2 …
        stem = re.sub(r"-[0-9a-f]{12}$", "", name[1:])
        seen[stem] = seen.get(stem, 0) + 1
        alias[name[1:]] = f"{stem}#{seen[stem]}"
    for name, xobj in forms.items():
        head, lines = summarise_stream(xobj.get_data(), alias)
        bbox = " ".join(_mm(float(v)) for v in xobj.get("/BBox", []))
        out.append(f"form {alias[name[1:]]} bbox {bbox} {head}")
        out += ["  " + line for line in lines]
    pages = []
    for number, page in enumerate(reader.pages, 1):
        contents = page.get_contents()
        head, lines = summarise_stream(contents.get_data() if contents is not None else b"", alias)
        pages.append([f"page {number} media {_box(page, '/MediaBox')} trim {_box(page, '/TrimBox')}"
                      f" bleed {_box(page, '/BleedBox')} {head}"] + ["  " + line for line in lines])
    for block in pages:
        out += block
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------- write, compare

def expected_files(out: Path) -> dict[str, Path]:
    """Golden name → built file, for one built game folder."""
    files = {f"pdf/{p.name}.txt": p for p in sorted(out.glob("*.pdf"))}
    files.update({name: out / name for name in golden_svgs(out)})
    return files


_FONT_DATA = re.compile(rb"data:(font/[a-z0-9]+);base64,([A-Za-z0-9+/=]+)")


def _font_digest(m: re.Match) -> bytes:
    data = base64.b64decode(m.group(2))
    return b"data:%s;%d-bytes;sha256=%s" % (m.group(1), len(data), hashlib.sha256(data).hexdigest()[:16].encode())


def render(name: str, source: Path) -> bytes:
    """What golden ``name`` holds for the built ``source`` file (an SVG's embedded fonts as size and hash)."""
    if name.startswith("pdf/"):
        return summarise_pdf(source).encode("utf-8")
    return _FONT_DATA.sub(_font_digest, source.read_bytes())


def _blocks(text: str) -> dict[str, list[str]]:
    """A PDF summary cut into its header, forms and pages, each keyed by its first words."""
    blocks: dict[str, list[str]] = {}
    key = "header"
    for line in text.splitlines():
        if line.startswith(("page ", "form ")):
            key = " ".join(line.split()[:2])
        blocks.setdefault(key, []).append(line)
    return blocks


def _svg_lines(text: str) -> list[str]:
    return text.replace("><", ">\n<").splitlines()


def describe(name: str, old: bytes | None, new: bytes | None, limit: int = 12) -> list[str]:
    """Readable lines saying how golden ``name`` changed (empty when it did not)."""
    if old == new:
        return []
    if old is None:
        return [f"{name}: new file (no golden yet)"]
    if new is None:
        return [f"{name}: no longer built (the golden is left over)"]
    old_t, new_t = old.decode("utf-8", "replace"), new.decode("utf-8", "replace")
    lines = []
    if name.startswith("pdf/"):
        a, b = _blocks(old_t), _blocks(new_t)
        changed = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
        lines.append(f"{name}: {len(changed)} part(s) differ: " + ", ".join(changed[:20])
                     + (" …" if len(changed) > 20 else ""))
        for key in changed[:3]:
            diff = [d for d in difflib.unified_diff(a.get(key, []), b.get(key, []), lineterm="", n=0)
                    if d[:1] in "+-" and d[:3] not in ("+++", "---")]
            for d in diff[:limit]:
                lines.append(f"    {key}: {d}")
    else:
        diff = [d for d in difflib.unified_diff(_svg_lines(old_t), _svg_lines(new_t), lineterm="", n=0)
                if d[:1] in "+-" and d[:3] not in ("+++", "---")]
        lines.append(f"{name}: SVG differs ({len(diff)} changed elements)")
        lines += [f"    {d[:200]}" for d in diff[:limit]]
    return lines


def compare(game: str, out: Path, detailed: int = 8) -> list[str]:
    """Every difference between the goldens of ``game`` and its build in ``out``, as readable lines: a
    line per changed file, with what moved for the first ``detailed`` of them (the rest: git diff)."""
    root = GOLDEN / game
    have = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()} if root.is_dir() else set()
    want = expected_files(out)
    problems = []
    changed = 0
    for name in sorted(set(want) | have):
        old = (root / name).read_bytes() if name in have else None
        new = render(name, want[name]) if name in want else None
        lines = describe(name, old, new)
        if lines:
            changed += 1
            problems += lines if changed <= detailed else lines[:1]
    if changed > detailed:
        problems.append(f"(details for the first {detailed} files only; `git diff tests/golden/{game}` after "
                        f"rewriting shows every line)")
    return problems


def write(game: str, out: Path) -> list[str]:
    """Rewrite the goldens of ``game`` from its build in ``out``; the readable changes."""
    changes = compare(game, out)
    root = GOLDEN / game
    if root.exists():
        shutil.rmtree(root)
    for name, source in expected_files(out).items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(render(name, source))
    return changes


def build(game: str, out_root: Path) -> tuple[Path, str]:
    """Build one bundled game with every output (in-process, like ``pnpgen build content/<game> --all --out out_root``):
    its output folder and what the build printed."""
    from click.testing import CliRunner

    from generator.cli import main
    root = Path(__file__).resolve().parents[1]
    # the goldens hold the stamp without a date: a SOURCE_DATE_EPOCH of the shell would add one
    result = CliRunner().invoke(main, ["build", str(root / "content" / game), "--all", "--out", str(out_root)],
                                env={"SOURCE_DATE_EPOCH": None}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out_root / game, result.output
