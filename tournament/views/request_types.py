"""The types of the requests our views receive, for annotations only (Django builds them).

- ``HtmxHttpRequest``: every request has passed django-htmx's middleware (``settings.MIDDLEWARE``),
  which sets ``request.htmx``; views that read it (is this an htmx request, which element asked)
  take an ``HtmxHttpRequest``, as django-htmx's documentation recommends.
- ``HostHttpRequest``: a request to a ``login_required`` view, whose ``user`` is the logged-in
  host (a ``User``, never ``AnonymousUser``), as django-stubs' documentation recommends.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A Django request with ``htmx``: django-htmx's ``HtmxDetails`` (truthy when htmx sent it)."""

    htmx: HtmxDetails


class HostHttpRequest(HttpRequest):
    """A request to a host's page behind ``login_required``: ``user`` is the logged-in host."""

    user: User
