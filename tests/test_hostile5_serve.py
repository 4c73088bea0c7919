"""Round five, ``pnpgen serve`` under many connections: every preview tab holds an event stream open, and clients
that opened streams and never read them were all kept (a file descriptor and a task each, without end). Past
``limits.SERVE_MAX_CONNECTIONS`` a request is now answered 503 at once; the streams already open go on. Paths in
URLs reach no file: each route looks its name up in a fixed table (``..``, encoded slashes and backslashes,
absolute paths are 404)."""
from __future__ import annotations

import socket

import pytest

from generator import limits
from tests.hostile_lib import served_mini


@pytest.fixture
def server(tmp_path, monkeypatch):
    """The preview of the mini game on a free port of 127.0.0.1, at most 3 connections."""
    monkeypatch.setattr(limits, "SERVE_MAX_CONNECTIONS", 3)
    with served_mini(tmp_path, watch=False) as port:
        yield port


def _status(conn: socket.socket, path: str) -> bytes:
    conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = b""
    while b"\r\n" not in data:
        chunk = conn.recv(4096)
        assert chunk, data
        data += chunk
    return data.split(b"\r\n", 1)[0]


def test_past_the_bound_a_request_is_answered_503(server):
    """Streams opened and never read: the connection that makes the count 3 is answered 503 (uvicorn counts the
    connections, its own included), the first two stream on."""
    streams, answers = [], []
    try:
        for _ in range(3):
            streams.append(socket.create_connection(("127.0.0.1", server), timeout=20))
            answers.append(_status(streams[-1], "/events"))
        assert answers == [b"HTTP/1.1 200 OK"] * 2 + [b"HTTP/1.1 503 Service Unavailable"]
    finally:
        for s in streams:
            s.close()


PATHS = ["/assets/..%2f..%2fgame.yaml", "/assets/%2e%2e/game.yaml", "/picture/..%5cgame.yaml", "/font//etc/passwd",
         "/picture/%2Fetc%2Fpasswd", "/assets/../../etc/passwd", "/face/..%2f..%2f/game.yaml", "/assets/preview.css/.."]


def test_a_path_in_a_url_reaches_no_file(server):
    for path in PATHS:
        with socket.create_connection(("127.0.0.1", server), timeout=20) as conn:
            assert _status(conn, path) == b"HTTP/1.1 404 Not Found", path
