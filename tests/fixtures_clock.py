"""Fixtures for the clock's tests: a real Celery worker (and beat) in a subprocess on the test
database, and an evening drawn and ready to play.

The worker inherits this process's environment (``HEADTABLE_VAR_DIR`` and so the same
filesystem-broker folder, or ``CELERY_BROKER_URL``) with ``DATABASE_URL`` pointing at the TEST
database. Tests that use it need ``transactional_db``, so their data is committed (visible to
the worker) and ``transaction.on_commit`` fires. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
CELERY = str(Path(sys.executable).with_name("celery"))


def worker_database_url() -> str:
    """A DATABASE_URL for the test database this process uses (SQLite file or PostgreSQL)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    if connection.vendor == "postgresql":
        auth = quote(db.get("USER") or "", safe="")
        if db.get("PASSWORD"):
            auth += ":" + quote(db["PASSWORD"], safe="")
        host = db.get("HOST") or "127.0.0.1"
        port = f":{db['PORT']}" if db.get("PORT") else ""
        return f"postgres://{auth}@{host}{port}/{db['NAME']}"
    pytest.skip(f"No worker test on {connection.vendor}.")


def uses_redis() -> bool:
    """True when the broker is Redis (CI), False for the filesystem broker (a laptop)."""
    return settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://"))


class Worker:
    """A Celery worker subprocess (``--pool=solo``), with an embedded beat when asked; ``wrap``
    is a command to run it under (e.g. ``faketime -f +30s``)."""

    def __init__(self, *, beat: bool, env: dict[str, str], name: str, wrap: tuple[str, ...] = ()):
        self.beat, self.env, self.name, self.wrap = beat, env, name, wrap
        self.log = Path(settings.VAR_DIR) / f"worker-{name}.log"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0, purge: bool = False) -> Worker:
        """Start and wait (bounded) until the worker says it is ready. ``purge`` first drops
        the tasks waiting in the queue (left by earlier tests' rounds)."""
        args = [
            CELERY,
            "-A",
            "tournament",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-Q",
            "celery",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=INFO",
            "-n",
            f"{self.name}@%h",
        ]
        if purge:
            args.append("--purge")
        if self.beat:
            args += ["--beat", f"--schedule={Path(settings.VAR_DIR) / f'beat-{self.name}'}"]
        self.log.write_text("")
        self.proc = subprocess.Popen(
            [*self.wrap, *args],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"The worker exited early:\n{self.log.read_text()[-3000:]}")
            if " ready." in self.log.read_text():
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"The worker did not get ready in {timeout} s:\n{self.log.read_text()[-3000:]}")

    def count(self, text: str) -> int:
        """How many times ``text`` appears in the worker's log so far."""
        return self.log.read_text().count(text)

    def sweeps(self) -> int:
        """How many runs of the sweeper (``ring_overdue_bells``) this worker has finished."""
        return len(
            re.findall(r"Task tournament\.tasks\.ring_overdue_bells\[[-0-9a-f]+\] succeeded", self.log.read_text())
        )

    def wait_for_log(self, text: str, *, times: int = 1, timeout: float = 20.0) -> None:
        """Wait (bounded) until ``text`` appears ``times`` times in the log; fails the test
        with the log's tail if it does not."""
        if not wait_for(lambda: self.count(text) >= times, timeout=timeout):
            pytest.fail(
                f"The worker never logged {text!r} {times} times in {timeout} s:\n{self.log.read_text()[-3000:]}"
            )

    def wait_for_next_sweep(self, *, timeout: float = 20.0) -> None:
        """Wait (bounded) until the sweeper has run once more from now (it runs every 5 s), so
        whatever a sweep could wrongly do has been done."""
        seen = self.sweeps()
        if not wait_for(lambda: self.sweeps() > seen, timeout=timeout):
            pytest.fail(f"No sweep ran in {timeout} s:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """Kill it at once (SIGKILL): what a crash or a pulled plug does."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """Stop it: SIGTERM (a warm shutdown), then SIGKILL after 10 s."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def start_worker(transactional_db):
    """start_worker(beat=False, wrap=(), **env) -> a started ``Worker``; every one is stopped at
    the end."""
    started: list[Worker] = []

    def start(*, beat: bool = False, wrap: tuple[str, ...] = (), **extra_env: str) -> Worker:
        env = dict(os.environ, DATABASE_URL=worker_database_url(), LOG_LEVEL="INFO", **extra_env)
        env.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings_test")
        worker = Worker(beat=beat, env=env, name=f"w{os.getpid()}-{len(started)}", wrap=wrap)
        started.append(worker)
        return worker.start(purge=len(started) == 1)

    yield start
    for worker in started:
        worker.stop()


def wait_for(predicate, *, timeout: float, step: float = 0.1):
    """Poll ``predicate`` until it returns something true or ``timeout`` seconds pass; returns its
    last value."""
    end = time.monotonic() + timeout
    value = predicate()
    while not value and time.monotonic() < end:
        time.sleep(step)
        value = predicate()
    return value


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """A private ``redis-server`` on a free port, for tests that restart Redis (never the shared
    one). It saves to its own folder only when told (``restart(flush=False)``)."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        """Start it and wait (bounded, 10 s) until it answers PING."""
        import redis

        self.proc = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--logfile",
                str(self.folder / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        client = redis.Redis.from_url(self.url, socket_timeout=1)
        if not wait_for(lambda: self._answers(client), timeout=10):
            raise RuntimeError(f"redis-server did not start on port {self.port}")
        return self

    @staticmethod
    def _answers(client) -> bool:
        import redis

        try:
            return bool(client.ping())
        except redis.RedisError:
            return False

    def restart(self, *, flush: bool) -> None:
        """Stop and start it again on the same port. ``flush``: FLUSHALL first and stop without
        saving (everything it held is gone, as after a restart without persistence); otherwise
        SHUTDOWN SAVE, so it comes back with what it held (a restart with persistence)."""
        import redis

        client = redis.Redis.from_url(self.url, socket_timeout=5)
        if flush:
            client.flushall()
        with contextlib.suppress(redis.ConnectionError):  # the server closes the connection as it stops
            client.shutdown(save=not flush, nosave=flush)
        self.proc.wait(timeout=10)
        self.start()

    def stop(self) -> None:
        """Kill it (SIGKILL) if it still runs."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


@pytest.fixture
def own_redis(tmp_path):
    """A private Redis (``RedisServer``) that this test may restart and flush, with this test
    process's Celery app publishing to it; skipped, with the reason, where there is no
    redis-server (``.ci/run`` installs it)."""
    if not os.path.exists(REDIS_SERVER):
        pytest.skip("No redis-server on this machine: install Debian's redis-server (.ci/run does).")
    from tournament.celery import app

    server = RedisServer(tmp_path).start()
    names = ("broker_url", "broker_read_url", "broker_write_url", "broker_transport_options")
    saved = {name: app.conf[name] for name in names}
    app.conf.update(
        broker_url=server.url,
        broker_read_url=server.url,
        broker_write_url=server.url,
        broker_transport_options={"visibility_timeout": 3600},
    )
    app._pool = app.amqp._producer_pool = None  # publish through new connections to it
    yield server
    app.conf.update(saved)
    app._pool = app.amqp._producer_pool = None
    server.stop()
