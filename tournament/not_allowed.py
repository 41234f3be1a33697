"""A visit to an address that only takes a form answers with words, not a blank page.

Buttons post to addresses such as ``/host/e/<id>/round/``; opened in the address bar (a
bookmark, a copied link, the back button) Django answers 405 with an empty body. House rule:
the host sees a short page saying what happened and the way back; the status (405) and the
``Allow`` header stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render


class NotAllowedPageMiddleware:
    """Django middleware: an empty 405 answer to a GET becomes the "not a page" page.

    Takes the next handler (``get_response``); called with a request, returns its response.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if response.status_code != 405 or request.method != "GET":
            return response
        if not isinstance(response, HttpResponse) or response.content:
            return response  # a 405 that already says something, or a streamed one
        page = render(request, "405.html", status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
