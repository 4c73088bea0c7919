"""uvicorn's HTTP/1.1 protocol (h11) with a bound on the time a request's head may take to arrive.

uvicorn times only the pause between requests on a kept-alive connection (``timeout_keep_alive``), and the next
request's first byte stops that timer; nothing times the head itself. A client that sent ``GET / HT`` and then
a byte a minute, or nothing, held its connection (a socket, a file descriptor) for as long as it liked: enough
of them and the server runs out. Here a connection whose request head (request line and headers) is not
complete ``limits.SERVE_REQUEST_HEAD_SECONDS`` after the connection opened, or after the previous response, is
closed. A request whose head has arrived is not timed (an event stream stays open for as long as the page).
"""
from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from generator import limits


class HeadTimedProtocol(H11Protocol):
    """``H11Protocol`` that closes a connection whose request head is not complete in time."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:   # the head arrived (the request is being answered) or it failed
            self._disarm()

    def on_response_complete(self) -> None:
        self._arm()   # before uvicorn starts the next cycle: a request already waiting disarms it there
        super().on_response_complete()
        if self.transport.is_closing():
            self._disarm()

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(limits.SERVE_REQUEST_HEAD_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self.transport.close()
