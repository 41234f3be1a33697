"""A phone's wait for the evening's next version answered under ASGI without holding a thread
(issue 26 item 2: "500 waiting phones do not hold 500 threads").

``WaitFirstASGIHandler`` is Django's ``ASGIHandler`` (``tournament.asgi``, served by uvicorn's
workers under gunicorn in ``make party``) with one difference: a GET or HEAD of
``/g/<key>/wait/`` whose key opens a guest's page is answered by ``views.waits.wait_answer`` on
the event loop, before the middleware, all synchronous, which would run the view in a thread
held for the whole wait. Django's own handling stays around it (the body read, the request's
signals, a phone that disconnects cancels its wait), but such a request runs outside a
per-request ``ThreadSensitiveContext``: Django's thread-sensitive work for it (the request
signals) runs on the one shared thread instead of a thread kept for each request. The answer
gets the headers the stack would give it (``unchanged_polls.early_headers``). The phones of one
process wait on its one Redis subscription (``selectors.version_waits.ProcessListener``). A key that opens
nothing and every other request are Django's as before, so a wrong key gets the guest URLs' one
404. Under WSGI (runserver, the tests' live server) ``views.waits.guest_wait`` waits in its thread.
"""

from __future__ import annotations

import re

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware

from tournament.services.links import link_lookup
from tournament.unchanged_polls import early_headers
from tournament.views.waits import wait_answer

GUEST_WAIT = re.compile(r"/g/([^/\x00]+)/wait/")  # tournament/urls.py: "g/<str:key>/wait/", guest-wait


def _never_called(request: HttpRequest) -> HttpResponseBase:
    raise AssertionError("the headers' middleware only adds headers")


class WaitFirstASGIHandler(ASGIHandler):
    """Django's ASGI application, a phone's wait answered on the event loop. Called with an
    ASGI HTTP scope, ``receive`` and ``send``; returns when the response is sent."""

    def __init__(self) -> None:
        super().__init__()
        self.security = SecurityMiddleware(_never_called)
        self.frames = XFrameOptionsMiddleware(_never_called)

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") == "http" and scope.get("method") in ("GET", "HEAD") and self._wait_path(scope):
            await self.handle(scope, receive, send)  # no ThreadSensitiveContext: see the module's docstring
            return
        await super().__call__(scope, receive, send)

    @staticmethod
    def _wait_path(scope) -> bool:
        path = scope.get("path", "")
        root = scope.get("root_path", "")
        return GUEST_WAIT.fullmatch(path[len(root) :] if root and path.startswith(root) else path) is not None

    async def run_get_response(self, request: HttpRequest) -> HttpResponseBase:
        """The wait's answer for a known key's wait (``views.waits.wait_answer``), else Django's."""
        wait = GUEST_WAIT.fullmatch(request.path_info) if request.method in ("GET", "HEAD") else None
        if wait is not None and self.security.process_request(request) is None:
            found = await sync_to_async(link_lookup, thread_sensitive=False)(wait[1])
            if found is not None:
                response = await wait_answer(request, found, thread_sensitive=False, one_listener=True)
                return early_headers(request, response, self.security, self.frames)
        return await super().run_get_response(request)
