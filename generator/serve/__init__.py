"""``pnpgen serve``: the game in the browser, rebuilt on every save (Starlette, uvicorn, watchfiles).

The page shows every deck as a grid of its distinct faces and its back, the tokens, tiles and
boards, the rule sheet's pages and the check findings, each with its file:line. A change in the
game folder rebuilds the preview in-process (``generator.serve.preview``) and the open page is told
by server-sent events; it fetches the page again and swaps in only the sections whose content
changed, so the scroll position stays. Content that cannot be read shows its error in the page;
the server keeps running.

Safe by default: bound to 127.0.0.1; only requests that name this machine are answered (a web page
elsewhere cannot reach it through DNS rebinding); nothing is served from disk but this package's
own script and style — faces are kept in memory, their pictures embedded — and every string the
game gives is escaped (Jinja2 autoescape).
"""
from __future__ import annotations

import asyncio
import contextlib
import socket
from pathlib import Path

import uvicorn
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from watchfiles import awatch

from generator import fonts, limits
from generator.errors import OutputError
from generator.serve.preview import Preview, State, faces_of, inline_svg
from generator.serve.protocol import HeadTimedProtocol

HERE = Path(__file__).resolve().parent
#: the page's own files, served from this package (nothing else is read from disk for a request)
ASSETS = {"preview.js": "text/javascript", "preview.css": "text/css"}
#: pnpgen's own font files, so the faces' default face shows on a machine without it (by its CSS family name)
FONT_ASSETS = {"default.ttf": fonts.FONT_FILE, "default-bold.ttf": fonts.BOLD_FILE}
#: the pictures a face may draw, by suffix → media type
PICTURE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml"}
#: what the page may load: its own script and style; pictures only as data: URLs inside the SVGs
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'")
#: seconds between keep-alive comments on the event stream (and checks that the page is still there)
KEEPALIVE = 10.0
#: seconds an event stream waits at most before it looks whether the server is stopping
TICK = 0.25

_pages = Environment(loader=FileSystemLoader(HERE), autoescape=select_autoescape(["html", "j2"]),
                     trim_blocks=True, lstrip_blocks=True)


class _Hub:
    """Tells every open page that a new state is out."""

    def __init__(self) -> None:
        self.changed = asyncio.Event()

    def notify(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()


def page_html(state: State) -> str:
    findings = None if state.findings is None else [f for f in state.findings if not f.waived]
    waived = 0 if state.findings is None else len(state.findings) - len(findings or [])
    # a finding at a card's line points at that card's face (and the face is marked)
    concerns = [(f, state.places.get(str(f.source))) for f in findings or []]
    flagged = {face: f for f, face in reversed(concerns) if face is not None}
    sets = []
    for one in state.sets:
        faces = [(key, face, Markup(inline_svg(state.svgs[(one.id, key)], f"{one.id}-{key}-", "face")),
                  flagged.get((one.id, key))) for key, face in faces_of(one)]
        sets.append((one, faces))
    rules = [Markup(inline_svg(text, f"rules-{n}-", "page")) for n, text in enumerate(state.rules, start=1)]
    return _pages.get_template("page.html.j2").render(state=state, sets=sets, rules=rules, findings=concerns,
                                                     checked=findings is not None, waived=waived)


def create_app(folder: Path, addons: tuple = (), host: str = "127.0.0.1", watch: bool = True) -> Starlette:
    """The preview of the game in ``folder``; ``watch``: rebuild on every change in the folder."""
    preview = Preview(folder, addons)
    hub: _Hub | None = None
    shown: dict = {}   # "page": (version, HTML) of the latest state, made once per state

    def page() -> str:
        """The page of the latest state (the rebuild threads make it before the open pages are told;
        a request made between the two makes it itself: each swap of the entry is one assignment)."""
        state = preview.state
        made = shown.get("page")
        if made is None or made[0] != state.version:
            made = shown["page"] = (state.version, page_html(state))
        return made[1]

    def step_and_page(step) -> None:
        step()
        page()

    async def run(step) -> None:
        await asyncio.to_thread(step_and_page, step)
        if hub is not None:
            hub.notify()

    async def watching(stop: asyncio.Event) -> None:
        """Faces first (a one-card edit shows in a fraction of a second); the checks after, beside the next
        edit's faces (the slow part: the checker lays the whole build out)."""
        wanted = asyncio.Event()

        async def checking() -> None:
            while True:
                await wanted.wait()
                wanted.clear()
                await run(preview.checks)

        checker = asyncio.create_task(checking())
        try:
            folders = [preview.folder, *(Path(addon) for addon in preview.addons)]
            async for _changes in awatch(*folders, stop_event=stop, debounce=400, step=30):
                await run(preview.faces)
                wanted.set()
        finally:
            checker.cancel()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        nonlocal hub
        hub = _Hub()
        await run(preview.faces)
        await run(preview.checks)
        stop = asyncio.Event()
        task = asyncio.create_task(watching(stop)) if watch else None
        try:
            yield
        finally:
            stop.set()
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def index(request: Request) -> Response:
        return HTMLResponse(page())

    async def face_svg(request: Request) -> Response:
        text = preview.state.svgs.get((request.path_params["set"], request.path_params["key"]))
        if text is None:
            return PlainTextResponse("no such face", status_code=404)
        return Response(text, media_type="image/svg+xml")

    async def face_page(request: Request) -> Response:
        state, wanted = preview.state, (request.path_params["set"], request.path_params["key"])
        if wanted not in state.svgs:
            return PlainTextResponse("no such face", status_code=404)
        html = _pages.get_template("face.html.j2").render(state=state, set=wanted[0], key=wanted[1],
                                                          svg=Markup(inline_svg(state.svgs[wanted], "", "large")))
        return HTMLResponse(html)

    async def picture(request: Request) -> Response:
        path = preview.pictures.get(request.path_params["name"])   # only the pictures the faces draw
        if path is None or path.suffix.lower() not in PICTURE_TYPES:
            return PlainTextResponse("no such picture", status_code=404)
        data = await asyncio.to_thread(preview.served, path, limits.MAX_IMAGE_BYTES)
        if data is None:
            return PlainTextResponse("no such picture", status_code=404)
        return Response(data, media_type=PICTURE_TYPES[path.suffix.lower()])

    async def game_font(request: Request) -> Response:
        path = preview.font_files.get(request.path_params["name"])   # only the files the game declares
        data = None if path is None else await asyncio.to_thread(preview.served, path, limits.MAX_FONT_BYTES)
        return _missing() if data is None else Response(data, media_type="font/ttf")

    async def game_fonts_css(request: Request) -> Response:
        return Response(fonts_css(preview.state.fonts), media_type="text/css")

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name in FONT_ASSETS:
            return Response(FONT_ASSETS[name].read_bytes(), media_type="font/ttf")
        if name not in ASSETS:   # fixed lists: no path from a request ever reaches the file system
            return PlainTextResponse("not found", status_code=404)
        text = (HERE / name).read_text(encoding="utf-8")
        return Response(_font_faces() + text if name == "preview.css" else text, media_type=ASSETS[name])

    async def events(request: Request) -> Response:
        async def stream():
            seen, quiet = None, 0.0
            while not app.state.stopping:   # the server is stopping: end the stream, do not hold the exit up
                if preview.state.version != seen:
                    seen = preview.state.version
                    yield f"data: {seen}\n\n"
                waiting = hub.changed if hub is not None else asyncio.Event()
                try:
                    await asyncio.wait_for(waiting.wait(), TICK)
                    quiet = 0.0
                except TimeoutError:
                    quiet += TICK
                    if quiet >= KEEPALIVE:
                        quiet = 0.0
                        if await request.is_disconnected():
                            return
                        yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", index),
        Route("/events", events),
        Route("/face/{set}/{key}.svg", face_svg),
        Route("/face/{set}/{key}", face_page),
        Route("/assets/{name}", asset),
        Route("/picture/{name}", picture),
        Route("/font/{name}", game_font),
        Route("/fonts.css", game_fonts_css),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[
        Middleware(TrustedHostMiddleware, allowed_hosts=_allowed_hosts(host)), Middleware(_Headers)])
    app.state.preview = preview
    app.state.stopping = False
    return app


class _Headers:
    """Every response: the page's content policy, no type sniffing, nothing cached (it changes on every save)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = CSP
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, sending)


def _missing() -> Response:
    return PlainTextResponse("not found", status_code=404)


def fonts_css(faces) -> str:
    """@font-face rules for the game's own faces (``State.fonts``), under the family names its SVGs use.
    A family name comes from the font file: it is written as a CSS string, its quotes and line breaks escaped."""
    rules = []
    for family, bold, italic, name in faces:
        quoted = '"' + "".join(f"\\{ord(c):x} " if c in '"\\<>\n\r\f' else c for c in family) + '"'
        rules.append(f"@font-face {{ font-family: {quoted}; src: url(/font/{name}); "
                     f"font-weight: {'bold' if bold else 'normal'}; font-style: {'italic' if italic else 'normal'}; }}")
    return "\n".join(rules) + "\n"


def _font_faces() -> str:
    """@font-face rules for pnpgen's own faces, under the family names its SVGs use."""
    bold_family, _bold, _italic = fonts.css(fonts.BOLD_NAME)
    return (f'@font-face {{ font-family: "{fonts.FONT_NAME}"; src: url(/assets/default.ttf); }}\n'
            f'@font-face {{ font-family: "{fonts.FONT_NAME}"; src: url(/assets/default-bold.ttf); font-weight: bold; }}\n'
            f'@font-face {{ font-family: "{bold_family}"; src: url(/assets/default-bold.ttf); font-weight: bold; }}\n')


def _allowed_hosts(host: str) -> list[str]:
    """The Host headers answered: this machine's names (and the address bound, when it is another)."""
    if host in ("0.0.0.0", "::", ""):
        return ["*"]
    return sorted({"127.0.0.1", "localhost", "[::1]", host})


def serve(folder: Path, addons: tuple = (), host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the preview until Ctrl-C."""
    listening = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host.strip("[]"), port))
    except OSError as error:
        listening.close()
        raise OutputError(None, f"cannot listen on {host}:{port}: {error.strerror or error}",
                          "another program (or another pnpgen serve) may have the port: choose another with --port, "
                          "or check --host") from None
    app = create_app(folder, addons, host)
    config = server_config(app)
    # uvicorn raises the Ctrl-C again once it has stopped: the way to stop, not an error
    with contextlib.suppress(KeyboardInterrupt):
        _Server(config, app).run(sockets=[listening])


def server_config(app: Starlette) -> uvicorn.Config:
    """uvicorn's settings: its h11 protocol with the request head timed (``HeadTimedProtocol``), quiet, and past
    ``limits.SERVE_MAX_CONNECTIONS`` open connections a request is answered 503 (each event stream a page holds
    open is one: without a bound, clients that opened streams and never read them held them without end)."""
    return uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2, http=HeadTimedProtocol,
                          limit_concurrency=limits.SERVE_MAX_CONNECTIONS)


class _Server(uvicorn.Server):
    """uvicorn's server, which tells the open event streams to end when Ctrl-C stops it (else it would
    wait for them, then cancel them with a traceback)."""

    def __init__(self, config: uvicorn.Config, app: Starlette):
        super().__init__(config)
        self.app = app

    def handle_exit(self, sig, frame) -> None:
        self.app.state.stopping = True
        super().handle_exit(sig, frame)
