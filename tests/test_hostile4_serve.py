"""Round four, ``pnpgen serve``: uvicorn times only the pause between requests, and the next request's first byte
stops that timer, so a client that sent part of a request line and waited kept its connection forever. A
request head not complete within ``limits.SERVE_REQUEST_HEAD_SECONDS`` now closes the connection; a request
sent whole is answered as before, on the same kept-alive connection too."""
from __future__ import annotations

import socket

import pytest

from generator import limits
from tests.hostile_lib import served_mini


@pytest.fixture
def server(tmp_path, monkeypatch):
    """The preview served on a free port of 127.0.0.1 in a thread, with a head bound of 0.5 s."""
    monkeypatch.setattr(limits, "SERVE_REQUEST_HEAD_SECONDS", 0.5)
    with served_mini(tmp_path) as port:
        yield port


def _answer(conn: socket.socket) -> bytes:
    """One whole response (its head, and its body by Content-Length): nothing of it is left to read."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        assert chunk, data
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += conn.recv(65536)
    return head


REQUEST = b"GET /events-missing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def test_a_request_head_sent_slowly_is_cut_off(server):
    with socket.create_connection(("127.0.0.1", server), timeout=20) as slow:
        slow.sendall(b"GET / HT")
        assert slow.recv(100) == b""   # closed by the server (the 20 s socket timeout would raise instead)
    with socket.create_connection(("127.0.0.1", server), timeout=20) as other:
        other.sendall(REQUEST)
        assert _answer(other).startswith(b"HTTP/1.1 404")


def test_the_next_request_on_a_kept_connection_is_timed_too(server):
    with socket.create_connection(("127.0.0.1", server), timeout=20) as conn:
        conn.sendall(REQUEST)
        assert _answer(conn).startswith(b"HTTP/1.1 404")
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0")   # uvicorn's keep-alive timer stops at this first byte
        assert conn.recv(100) == b""
