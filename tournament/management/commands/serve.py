"""``manage.py serve [ADDRPORT]``: the web server and a Celery worker (with its beat) together.

What ``make run`` runs. Ctrl-C (SIGINT) or SIGTERM stops both: each child runs in its own
process group; when either child exits or a signal arrives, the worker gets a warm shutdown and
the web server's group is terminated (each group is killed if still there after 10 seconds).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve the site (runserver) with a Celery worker and beat beside it; Ctrl-C stops both."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")

    def handle(self, *args, **opts):
        python = sys.executable
        celery = [python, "-m", "celery", "-A", "tournament", "worker", "--beat", "--loglevel=warning",
                  "--concurrency=1", f"--schedule={settings.VAR_DIR / 'celerybeat-schedule'}"]
        web = [python, "manage.py", "runserver", opts["addrport"]]
        children = [subprocess.Popen(cmd, start_new_session=True) for cmd in (celery, web)]
        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        while not stopping and all(child.poll() is None for child in children):
            time.sleep(0.3)
        self.stderr.write("Stopping the web server and the Celery worker…")
        worker, server = children
        if worker.poll() is None:
            worker.terminate()  # the worker's main process: a warm shutdown of its pool
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)  # runserver and its autoreloader child
        deadline = time.monotonic() + 10
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
        self.stderr.write("Stopped.")
