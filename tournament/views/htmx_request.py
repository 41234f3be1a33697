"""The type of a request that has passed django-htmx's middleware (``settings.MIDDLEWARE``).

``HtmxHttpRequest`` is for annotations only: Django builds the request and
``django_htmx.middleware.HtmxMiddleware`` sets ``request.htmx`` on every one; views that read
``request.htmx`` (is this an htmx request, which element asked) take an ``HtmxHttpRequest``
(as django-htmx's documentation recommends), so mypy knows the attribute is there.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A Django request with ``htmx``: django-htmx's ``HtmxDetails`` (truthy when htmx sent it)."""

    htmx: HtmxDetails
