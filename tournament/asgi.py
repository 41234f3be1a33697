"""ASGI entry point: ``gunicorn tournament.asgi -k uvicorn_worker.UvicornWorker`` (``make party``):
Django's ASGI application, with the phones' waits for the next version answered on the event
loop without a thread (``tournament.version_waits``)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup(set_prefix=False)

from tournament.version_waits import WaitFirstASGIHandler  # noqa: E402 - after django.setup()

application = WaitFirstASGIHandler()
