"""ASGI entry point: ``gunicorn tournament.asgi -k uvicorn_worker.UvicornWorker`` (``make party``):
the phones' waits for the next version answered on the event loop without a thread, every other
request by Django's WSGI handler in a pool of threads (``tournament.version_waits.SiteApplication``)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup(set_prefix=False)

from tournament.version_waits import SiteApplication  # noqa: E402 - after django.setup()

application = SiteApplication()
