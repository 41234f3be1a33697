"""The pages a format draws itself: the one way a product's page hands an evening to its format.

A format names its own views for some of the product's pages (``FormatPlugin.pages``: the
partnership family's board, table report, draw, standings, ...); every other page serves every
format as it is. ``format_page(name)`` wraps a host's page taking ``evening_id``;
``own_page(name, ...)`` is the same question asked inside a view that has found its evening or
guest already. No page asks which format an evening plays.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournament.models import Evening, Guest, HelperLink
from tournament.registry import format_for


def own_page(
    name: str, request: HttpRequest, subject: Evening | Guest | HelperLink, *args: Any, **kwargs: Any
) -> HttpResponse | None:
    """The response of the format's own view for page ``name`` (called with ``request``,
    ``subject`` and the rest), or None when the product's page serves the format. ``subject``
    is the evening, the guest for a guest's page, or the helper's link (its evening loaded)
    for a helper's page. No query."""
    evening = subject if isinstance(subject, Evening) else subject.evening
    view = format_for(evening).page(name)
    return None if view is None else view(request, subject, *args, **kwargs)


def format_page(name: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A host's page (``view(request, evening_id, *args)``) that the evening's format may draw
    itself (``own_page``); the host's own evening only (another's is a 404). One query more."""

    def wrap(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def page(request: HttpRequest, evening_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
            evening = get_object_or_404(Evening, pk=evening_id, host=request.user)
            own = own_page(name, request, evening, *args, **kwargs)
            return own if own is not None else view(request, evening_id, *args, **kwargs)

        return page

    return wrap
