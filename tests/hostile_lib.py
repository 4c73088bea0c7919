"""What the safety tests share: a guard that fails a test instead of letting a read of a named pipe hang the suite,
and the mini game's preview served on a free port in a thread."""
from __future__ import annotations

import shutil
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn

from generator.serve import create_app, server_config

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


@contextmanager
def alarm_guard(message: str, seconds: int = 60) -> Iterator[None]:
    """Raise AssertionError(``message``) if the block takes ``seconds``: a named pipe opened for reading waits
    for a writer forever."""
    def stuck(signum, frame):
        raise AssertionError(message)
    old = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@contextmanager
def served_mini(tmp_path: Path, **app_options) -> Iterator[int]:
    """A copy of the mini game previewed on a free port of 127.0.0.1 (``create_app``'s options as given); the port."""
    shutil.copytree(MINI, tmp_path / "mini")
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    running = uvicorn.Server(server_config(create_app(tmp_path / "mini", (), "127.0.0.1", **app_options)))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    while not running.started:
        time.sleep(0.02)
    try:
        yield listening.getsockname()[1]
    finally:
        running.should_exit = True
        thread.join(10)
