"""``manage.py serve`` supervises its Celery worker: a worker that dies is started again (with
a log line), and Ctrl-C still stops everything. Real processes: the command, runserver and a
Celery worker on the filesystem broker, in a folder of the test's own."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.fixtures_clock import ROOT, free_port, wait_for

pytestmark = pytest.mark.worker


def alive(pid: int) -> bool:
    """True while a process with this id exists (and is not a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def fetch(url: str) -> tuple[int, str] | None:
    """(status, body) of a GET, or None while nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError:
        return None


def test_serve_starts_a_dead_worker_again_and_ctrl_c_stops_all(tmp_path):
    env = dict(
        os.environ,
        HEADTABLE_VAR_DIR=str(tmp_path),
        DATABASE_URL=f"sqlite:///{tmp_path / 'serve.sqlite3'}",
        CELERY_BROKER_URL="",
        REDIS_URL="",
        CACHE_URL="",
        DJANGO_SETTINGS_MODULE="tournament.settings",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True, timeout=120
    )
    log = tmp_path / "serve.log"
    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        first = wait_for(lambda: re.search(r"Started the Celery worker \(process (\d+)\)", log.read_text()), timeout=30)
        assert first, log.read_text()
        worker = int(first.group(1))
        # make run is for hosts: the site's own pages, never Django's debug pages; static files served.
        missing = wait_for(lambda: fetch(f"http://127.0.0.1:{port}/no-such-page/"), timeout=30)
        assert missing and missing[0] == 404 and "Page not found" in missing[1] and "URLconf" not in missing[1]
        assert fetch(f"http://127.0.0.1:{port}/static/headtable.css")[0] == 200
        os.killpg(worker, signal.SIGKILL)  # what a crash does
        again = wait_for(
            lambda: re.search(r"Started the Celery worker again \(process (\d+)\)", log.read_text()), timeout=30
        )
        assert again, log.read_text()
        assert "The Celery worker exited (status -9)" in log.read_text()
        second = int(again.group(1))
        assert second != worker and alive(second) and serve.poll() is None
        serve.send_signal(signal.SIGINT)  # Ctrl-C
        serve.wait(timeout=30)
        assert "Stopped." in log.read_text()
        assert wait_for(lambda: not alive(second), timeout=15), "the restarted worker outlived Ctrl-C"
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
