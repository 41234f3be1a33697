"""``manage.py serve [ADDRPORT]``: the web server and a Celery worker (with its beat) together,
the worker supervised.

What ``make run`` runs. Each child runs in its own process group. When the worker exits by
itself (a crash, a lost broker it could not survive) it is started again, with a log line on
stderr, after a pause that grows from 1 to 30 seconds while it keeps exiting within a minute of
its start (so a worker that cannot start at all does not spin). When the web server exits, or
on Ctrl-C (SIGINT) or SIGTERM, everything stops: the worker gets a warm shutdown, the web
server's group is terminated, and each group is killed if still there after 10 seconds.
``manage.py party`` is this command with gunicorn as the web server and the party's
environment (``web_command`` and ``environment`` are the two things it changes); it shares the
supervision.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.management.commands.runserver import naiveip_re

from tournament.management.commands._common import HeadTableCommand
from tournament.party import party_secret_key

#: Seconds to wait before starting an exited worker again: the first, and the longest.
RESTART_PAUSE, RESTART_PAUSE_MAX = 1.0, 30.0
#: A worker that ran this many seconds before exiting is started again after the first pause.
STEADY_SECONDS = 60.0


def addrport_check(text: str) -> None:
    """Refuse (``CommandError``) what runserver could not listen on: not ``PORT`` or
    ``ADDRESS:PORT``, or a port outside 1 to 65535 (ASCII digits only)."""
    match = naiveip_re.fullmatch(text)
    port = match["port"] if match else ""
    if not (port.isascii() and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65535):
        raise CommandError(f"“{text[:60]}” is not a port (1 to 65535) or ADDRESS:PORT, e.g. 0.0.0.0:8000.")


class Command(HeadTableCommand):
    help = (
        "Serve the site (runserver) with a Celery worker and beat beside it; the worker is started again "
        "if it exits; Ctrl-C stops both."
    )

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")

    def web_command(self, opts) -> list[str]:
        """The web server's command line: Django's runserver on ``opts["addrport"]``;
        ``CommandError`` for an address it could not listen on (checked before anything starts)."""
        addrport_check(opts["addrport"])
        return [sys.executable, "manage.py", "runserver", opts["addrport"]]

    def environment(self, opts) -> dict[str, str] | None:
        """The environment of both children, the worker started again included: this process's
        own with ``DEBUG=0`` and the secret key kept in ``var/secret_key``, so a host trying the
        demo sees the site's own "not found" pages, never Django's debug pages (static files are
        collected for WhiteNoise first). ``DEBUG=1 make run`` keeps the debug pages for developers.
        House rule: ``make run`` is for hosts trying the site, as the host's guide says."""
        if os.environ.get("DEBUG"):
            return None
        call_command("collectstatic", interactive=False, verbosity=0)
        return {**os.environ, "DEBUG": "0", "SECRET_KEY_FILE": str(party_secret_key(settings.VAR_DIR))}

    def handle(self, *args, **opts):
        python = sys.executable
        celery = [
            python,
            "-m",
            "celery",
            "-A",
            "tournament",
            "worker",
            "--beat",
            "--loglevel=warning",
            "--concurrency=1",
            f"--schedule={settings.VAR_DIR / 'celerybeat-schedule'}",
        ]
        web = self.web_command(opts)
        self.env = self.environment(opts)
        worker = subprocess.Popen(celery, start_new_session=True, env=self.env)
        server = subprocess.Popen(web, start_new_session=True, env=self.env)
        self.stderr.write(f"Started the Celery worker (process {worker.pid}) and the web server.")
        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        worker = self.supervise(worker, server, celery, lambda: stopping)
        self.stderr.write("Stopping the web server and the Celery worker…")
        if worker.poll() is None:
            worker.terminate()  # the worker's main process: a warm shutdown of its pool
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)  # runserver and its autoreloader child
        deadline = time.monotonic() + 10
        for child in (worker, server):
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
        self.stderr.write("Stopped.")

    def supervise(
        self, worker: subprocess.Popen, server: subprocess.Popen, command: list[str], stopping
    ) -> subprocess.Popen:
        """Wait until ``stopping()`` is true or the web server exits, starting the worker again
        (``command``) each time it exits meanwhile. Returns the worker process then running
        (or last exited)."""
        started, pause = time.monotonic(), RESTART_PAUSE
        while not stopping() and server.poll() is None:
            if worker.poll() is not None:
                ran = time.monotonic() - started
                if ran >= STEADY_SECONDS:
                    pause = RESTART_PAUSE
                self.stderr.write(
                    f"The Celery worker exited (status {worker.returncode}) after {ran:.0f} s; "
                    f"starting it again in {pause:.0f} s."
                )
                resume = time.monotonic() + pause
                while not stopping() and server.poll() is None and time.monotonic() < resume:
                    time.sleep(0.2)
                if stopping() or server.poll() is not None:
                    break
                worker, started = subprocess.Popen(command, start_new_session=True, env=self.env), time.monotonic()
                pause = min(pause * 2, RESTART_PAUSE_MAX)
                self.stderr.write(f"Started the Celery worker again (process {worker.pid}).")
            time.sleep(0.3)
        return worker
