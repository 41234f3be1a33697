"""Every door a private key opens answers alike (issue 12 item 8).

A key-bearing URL is a guest's ``/g/<key>/…``, the evening's public ``/e/<key>/…`` (door, seating,
rules, room display), a helper's ``/h/<key>/…``, a club member's ``/m/<key>/…`` (their page and calendar feed) and the rules page asked for an evening
(``/rules/…?evening=<key>``). Whatever a view answers there, ``PrivateDoorMiddleware`` makes sure:

- every response carries ``Referrer-Policy: no-referrer`` and ``X-Robots-Tag: noindex, nofollow``
  (and ``Cache-Control: private, no-cache`` unless the view chose its own);
- a key-bearing path holding a NUL character gets that 404 before any view looks it up (no key
  holds one; PostgreSQL would refuse the query with an error);
- every 404 (a wrong, revoked or reissued key, a guessed table number, Django's own 404 for a path
  that matches no page, with or without ``DEBUG``) is one and the same body with the same headers,
  so a guesser learns nothing from which door refused them;
- an htmx request from a page already open (a door helper's *Check in* after the host revoked
  the link, a phone's live refresh after its key was reissued) gets, instead of that 404, which
  htmx does not show, the same words as the page: one answer for every wrong key, with
  ``HX-Retarget: body`` and ``HX-Reswap: innerHTML`` (django-htmx's ``HttpResponseClientRefresh``
  would reload into the 404 page too, but loses the words when the phone is offline a moment
  later), so the page becomes the message and nothing on it taps or refreshes any more
  (issue 24 deliver 2).

Keys are kept out of the logs by ``tournament.private_logs``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

NOT_FOUND_WORDS = (
    "This link does not work: it may be mistyped, or the host may have replaced it. Ask the host for a new one."
)
NOT_FOUND_BODY = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
    'content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">'
    f"<title>Not found</title></head><body><h1>Not found</h1><p>{NOT_FOUND_WORDS}</p></body></html>"
).encode()
NOT_FOUND_FRAGMENT = (
    '<main id="main" tabindex="-1"><div class="error" role="alert" id="link-dead"><h1>Not found</h1>'
    f"<p>{NOT_FOUND_WORDS}</p></div></main>"
).encode()
KEY_BEARING_PATH = re.compile(r"^/[gehm]/")


R = TypeVar("R", bound=HttpResponseBase)  # any response: private() gives back the same one


def private(response: R) -> R:
    """``response`` with the headers every guest answer carries: no referrer, no indexing, no
    shared cache."""
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Cache-Control"] = "private, no-cache"
    return response


def not_found() -> HttpResponse:
    """The one 404 every wrong, revoked or reissued key gets: same body, same headers."""
    response = HttpResponse(NOT_FOUND_BODY, status=404, content_type="text/html; charset=utf-8")
    private(response)
    return response


def not_found_for(request: HttpRequest) -> HttpResponse:
    """``not_found()`` for a full page; for an htmx request (header ``HX-Request: true``) the
    same words as a fragment that replaces the page's body (status 200, which htmx swaps, and
    ``HX-Retarget``/``HX-Reswap``), the same for every wrong key. Both vary on ``HX-Request``."""
    if request.headers.get("HX-Request") != "true":
        response = not_found()
    else:
        response = HttpResponse(NOT_FOUND_FRAGMENT, content_type="text/html; charset=utf-8")
        response["HX-Retarget"] = "body"
        response["HX-Reswap"] = "innerHTML"
        private(response)
    response["Vary"] = "HX-Request"
    return response


def key_bearing(request: HttpRequest) -> bool:
    """Whether ``request`` carries a private or public key in its path or its ``evening`` parameter."""
    return bool(KEY_BEARING_PATH.match(request.path_info)) or (
        request.path_info.startswith("/rules/") and "evening" in request.GET
    )


class PrivateDoorMiddleware:
    """Django middleware: the private headers on every key-bearing response, and one 404 for them
    all (for htmx requests, its words as a fragment the page shows: ``not_found_for``).

    Takes the next handler (``get_response``); called with a request, returns its response.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if KEY_BEARING_PATH.match(request.path_info) and "\x00" in request.path_info:
            return not_found_for(request)  # a key never holds NUL, and PostgreSQL refuses to look one up
        response = self.get_response(request)
        if not key_bearing(request):
            return response
        if response.status_code == 404:
            return not_found_for(request)
        response["Referrer-Policy"] = "no-referrer"
        response["X-Robots-Tag"] = "noindex, nofollow"
        if "Cache-Control" not in response:
            response["Cache-Control"] = "private, no-cache"
        return response
