"""``manage.py party [--port 8000] [--address IP]``: the evening on the venue's Wi-Fi.

What ``make party`` runs: ``manage.py serve`` (the same process handling: a Celery worker with
its beat beside the web server, Ctrl-C stops both) with gunicorn, a production server, running
uvicorn's ASGI workers (the phones' long-polls hold no thread), on every address of this computer, ``DEBUG=0``, and the environment from ``tournament.party``: the secret
key kept in ``var/secret_key``, ``ALLOWED_HOSTS``/``CSRF_TRUSTED_ORIGINS``/``SITE_URL`` from this
computer's address on the local network, and ``headtable.local`` announced by multicast DNS
where the network allows. Before serving it migrates the database, collects the static files
(served by WhiteNoise) and makes sure the host account is not the demo's (anyone on the Wi-Fi
could guess "head-table"): on a terminal it asks for a password, else it stops and says how.
"""

from __future__ import annotations

import os
import socket
import sys

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from tournament.management.commands import serve
from tournament.management.commands._common import whole_number
from tournament.party import LocalName, is_loopback_host, lan_address, party_secret_key, party_settings

DEMO_PASSWORD = "head-table"
"""The demo host's password (``manage.py load_demo``), never to be served on a network."""


class Command(serve.Command):
    help = (
        "Serve the evening on the venue's Wi-Fi: gunicorn (uvicorn's workers) on this computer's network address with DEBUG=0, "
        "the Celery worker and beat beside it; Ctrl-C stops both."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000", help="the port to serve on, 1 to 65535 (default 8000)")
        parser.add_argument("--address", default="", help="this computer's network address, when the guess is wrong")
        parser.add_argument("--no-local-name", action="store_true", help="do not announce headtable.local")

    def handle(self, *args, **opts):
        port = opts["port"] = whole_number(opts["port"], "--port", low=1, high=65535)
        address = opts["address"].strip() or lan_address()
        if address and is_loopback_host(address):
            address = None
        try:
            party_settings(address, port)
        except ValueError as error:
            raise CommandError(f"{error} Give --address as four numbers, e.g. 192.168.1.23.") from None
        self.check_port(port)
        self.check_host_account()
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        local = None if (address is None or opts["no_local_name"]) else LocalName.announce(address, port)
        values = party_settings(address, port, local.name if local else None)
        opts["party_env"] = {
            **os.environ,
            **values,
            "DEBUG": "0",
            "SECRET_KEY_FILE": str(party_secret_key(settings.VAR_DIR)),
            # Under ASGI each request's synchronous part runs in a thread of its own: a connection
            # kept open by one would never be used again (Django's advice: no persistent connections).
            "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "0"),
            "DB_POOL": os.environ.get("DB_POOL", "1"),  # a pool of connections instead, on PostgreSQL
        }
        opts["party_env"].pop("SECRET_KEY", None)
        self.announce(values, port, reachable=address is not None)
        try:
            super().handle(*args, **opts)
        finally:
            if local is not None:
                local.close()

    def web_command(self, opts) -> list[str]:
        """gunicorn on every address of this computer with 2 of uvicorn's ASGI workers
        (``tournament.asgi``: a phone waiting for the bell holds no thread, issue 26 item 2;
        docs/deployment.md says why), no access log: guests' private links must not reach a
        log (docs/design-notes.md, "Private links")."""
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "tournament.asgi:application",
            "--bind",
            f"0.0.0.0:{opts['port']}",
            "--workers",
            "2",
            "--worker-class",
            "uvicorn_worker.UvicornWorker",
            "--keep-alive",
            "10",
            "--timeout",
            "30",
        ]

    def environment(self, opts) -> dict[str, str]:
        """The party's environment (built in ``handle``) for the web server and the worker."""
        return opts["party_env"]

    def check_port(self, port: int) -> None:
        """Raise ``CommandError`` when ``port`` is taken on this computer (``make run`` still
        running, say), before anything else starts."""
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("0.0.0.0", port))
            except OSError:
                raise CommandError(
                    f"Port {port} is already in use on this computer: is Head Table (make run) still running? "
                    f"Stop it with Ctrl-C, or choose another port: make party PORT={port + 1}."
                ) from None

    def check_host_account(self) -> None:
        """Make sure a host account exists and none has the demo password; on a terminal ask
        for one with Django's own commands, else raise ``CommandError`` saying what to run."""
        users = list(get_user_model().objects.filter(is_active=True))
        interactive = sys.stdin.isatty()
        if not users:
            if not interactive:
                raise CommandError(
                    "No host account yet: create one with "
                    "`.venv/bin/python manage.py createsuperuser`, then start the party again."
                )
            self.stdout.write("Create the host's account (the login for the host's pages):")
            call_command("createsuperuser")
        for user in users:
            if user.check_password(DEMO_PASSWORD):
                if not interactive:
                    raise CommandError(
                        f"The host account “{user.username}” still has the demo password, which anyone on the "
                        f"Wi-Fi could guess: choose your own with `.venv/bin/python manage.py changepassword "
                        f"{user.username}`, then start the party again."
                    )
                self.stdout.write(f"“{user.username}” has the demo password: choose your own.")
                call_command("changepassword", user.username)

    def announce(self, values: dict[str, str], port: int, *, reachable: bool) -> None:
        """Tell the host where the party is, or that phones cannot reach it."""
        out = self.stdout.write
        out("")
        if reachable:
            also = f"   (or {values['SITE_LOCAL_URL']}/)" if values["SITE_LOCAL_URL"] else ""
            out(f"  Phones on this Wi-Fi:  {values['SITE_URL']}/{also}")
        else:
            out(
                self.style.WARNING(
                    "  No network found: only this computer can open the site. Join the venue's "
                    "Wi-Fi and start the party again."
                )
            )
        out(f"  On this computer:      http://127.0.0.1:{port}/   (log in with your host account)")
        out("  The host's page “Connect phones” shows the address as a QR code.")
        out("  Ctrl-C stops the web server and the worker.")
        out("")
