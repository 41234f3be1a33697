"""A phone's unchanged poll answered 304 before any other middleware (issue 26 item 1: "the
poll at the bare view's cost").

Every phone polls its page every few seconds (``views.guest``: htmx, ``If-None-Match``) and
almost every poll is answered 304 from the cache. Through the whole middleware stack that 304
cost more than twice a bare view (sessions, CSRF, messages, the CSP header, URL resolving, ...)
although none of them has anything to do for it. ``UnchangedPollMiddleware``, first in
``MIDDLEWARE``, answers a GET or HEAD of a guest's page (``/g/<key>/``) that sends
``If-None-Match`` with ``views.guest.unchanged_poll`` and gives the 304 the headers the rest
of the stack gives it (``poll_headers``: the private headers, the CSP, ``X-Frame-Options``,
``Content-Length``, and ``SecurityMiddleware``'s), so the answer is the same, byte for byte; any
other request, or a poll whose page changed, goes down the stack as before (the cache lookup
it made is reused by the page). A request ``SecurityMiddleware`` would redirect (HTTP under
``SECURE_SSL_REDIRECT``) also goes down the stack.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware

from tournament.csp_once import apply_policy
from tournament.views.guest import unchanged_poll

GUEST_PAGE = re.compile(r"/g/([^/\x00]+)/")  # tournament/urls.py: "g/<str:key>/", guest-page


class UnchangedPollMiddleware:
    """Django middleware, first in the list: an unchanged poll of a guest's page is answered
    304 here. Takes the next handler (``get_response``); called with a request, returns its
    response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.security = SecurityMiddleware(get_response)
        self.frames = XFrameOptionsMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method in ("GET", "HEAD") and "HTTP_IF_NONE_MATCH" in request.META:
            page = GUEST_PAGE.fullmatch(request.path_info)
            if page is not None and self.security.process_request(request) is None:
                response = unchanged_poll(request, page[1])
                if response is not None:
                    return self.poll_headers(request, response)
        return self.get_response(request)

    def poll_headers(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """The headers the stack below would add to the 304 (``early_headers``)."""
        return early_headers(request, response, self.security, self.frames)


def early_headers(
    request: HttpRequest, response: HttpResponse, security: SecurityMiddleware, frames: XFrameOptionsMiddleware
) -> HttpResponse:
    """The headers the stack below the first middleware would add to an answer given before it
    (a 304 here, a phone's wait in ``tournament.version_waits``), in its order (innermost
    first): the private ones are already on it (``private_doors.private``); the CSP
    (``csp_once``), ``X-Frame-Options``, ``Content-Length`` (``CommonMiddleware``), then
    ``SecurityMiddleware``'s (nosniff, the referrer policy where none is set, COOP, HSTS under
    HTTPS), from the given ``security`` and ``frames`` middleware. Returns ``response``."""
    apply_policy(request, response)
    frames.process_response(request, response)
    if not response.streaming and not response.has_header("Content-Length"):
        response.headers["Content-Length"] = str(len(response.content))
    return security.process_response(request, response)
