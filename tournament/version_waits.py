"""The site under an ASGI server (``tournament.asgi``, uvicorn's workers under gunicorn in
``make party``): a phone's wait for the evening's next version answered on the event loop without
holding a thread, every other request by Django's WSGI handler in a fixed pool of threads
(issue 26 item 2: "500 waiting phones do not hold 500 threads"; "phones see the bell within 1 s").

``SiteApplication`` is the ASGI application. A GET or HEAD of ``/g/<key>/wait/`` goes to
``WaitFirstASGIHandler``; every other request (and the server's lifespan messages) goes to
a2wsgi's ``WSGIMiddleware`` around Django's ``WSGIHandler``, which runs the request in one of
``settings.WEB_THREADS`` threads kept for the process's life, as gthread's workers do. Django's own
``ASGIHandler`` runs every request's synchronous middleware and view in a thread made for that
request, crossing between the loop and threads several times: measured on this project's 2-core
machine (one worker, 16 connections, PostgreSQL, Redis), a bare view cost 1.9 ms of the server's
CPU a request that way and 0.7 ms through the pool; a guest's changed page 3.9 ms and 2.2 ms
(docs/benchmarks.md, "The push"). With threads kept, a request's database connection is kept
with its thread (``CONN_MAX_AGE``) or lent by the pool (``DB_POOL``), as under gthread.

A wait's key look-up and the page in its answer run in a pool of their own of
``settings.WAIT_THREADS`` threads (2): that work is all Python and cache reads, so more threads
only fight over the interpreter's lock. Measured the same way (a worker answering waits with
their pages): with 8 threads 2.8 ms of CPU a wait and 358 a second, with 2 threads 2.0 ms and 514.

``WaitFirstASGIHandler`` is Django's ``ASGIHandler`` with one difference: a GET or HEAD of
``/g/<key>/wait/`` whose key opens a guest's page is answered by ``views.waits.wait_answer`` on
the event loop, before the middleware, all synchronous, which would run the view in a thread
held for the whole wait. Django's own handling stays around it (the body read, the request's
signals, a phone that disconnects cancels its wait), but such a request runs outside a
per-request ``ThreadSensitiveContext``: Django's thread-sensitive work for it (the request
signals) runs on the one shared thread instead of a thread kept for each request. The answer
gets the headers the stack would give it (``unchanged_polls.early_headers``). The phones of one
process wait on its one Redis subscription (``selectors.version_waits.ProcessListener``). A key
that opens nothing is Django's as before, so a wrong key gets the guest URLs' one 404. Under
WSGI (runserver, the tests' live server) ``views.waits.guest_wait`` waits in its thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from concurrent.futures import Executor, ThreadPoolExecutor

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.wsgi import WSGIHandler
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware
from django.urls import set_script_prefix

from tournament.services.links import link_lookup
from tournament.unchanged_polls import early_headers
from tournament.views.waits import wait_answer

GUEST_WAIT = re.compile(r"/g/([^/\x00]+)/wait/")  # tournament/urls.py: "g/<str:key>/wait/", guest-wait


_pages: list[Executor] = []


def _default_pages() -> Executor:
    """The threads a wait's key look-up and page run in, one pool per process of
    ``settings.WAIT_THREADS`` threads (``WaitFirstASGIHandler``'s, unless it is given its own)."""
    if not _pages:
        _pages.append(ThreadPoolExecutor(max_workers=settings.WAIT_THREADS, thread_name_prefix="waits"))
    return _pages[0]


def _never_called(request: HttpRequest) -> HttpResponseBase:
    raise AssertionError("the headers' middleware only adds headers")


class WaitFirstASGIHandler(ASGIHandler):
    """Django's ASGI application, a phone's wait answered on the event loop. Called with an
    ASGI HTTP scope, ``receive`` and ``send``; returns when the response is sent."""

    def __init__(self, pages: Executor | None = None) -> None:
        super().__init__()
        self.security = SecurityMiddleware(_never_called)
        self.frames = XFrameOptionsMiddleware(_never_called)
        self.pages = pages  # the threads a wait's key is looked up and its page built in (``views.waits.page_answer``)

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") == "http" and scope.get("method") in ("GET", "HEAD") and self._wait_path(scope):
            await self.handle_wait(scope, receive, send)  # no ThreadSensitiveContext: see the module's docstring
            return
        await super().__call__(scope, receive, send)

    async def handle_wait(self, scope, receive, send) -> None:
        """Django's ``ASGIHandler.handle`` for a wait, on the loop alone: the body read, the
        request made, the answer sent, a disconnect cancelling the wait, without the request
        signals' two trips to Django's shared thread (their receivers only reset and close this
        thread's database connections, and a wait uses none here: the key's look-up and a
        page run in threads of their own, and the page's thread closes its own when the page is
        done). A page in the answer was closed in the thread it was built in."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        request, error_response = self.create_request(scope, body_file)
        if request is None or error_response is not None:  # Django's 400 (a header it refuses)
            body_file.close()
            if error_response is not None:
                await self.send_response(error_response, send)
                error_response.close()
            return

        async def answer() -> HttpResponseBase:
            response = await self.run_get_response(request)
            with contextlib.suppress(asyncio.CancelledError):  # the phone went while the answer was sent
                await self.send_response(response, send)
            return response

        disconnect = asyncio.create_task(self.listen_for_disconnect(receive))
        answering = asyncio.create_task(answer())
        await asyncio.wait([disconnect, answering], return_when=asyncio.FIRST_COMPLETED)
        for task in (disconnect, answering):
            if not task.done():
                task.cancel()
            with contextlib.suppress(RequestAborted, asyncio.CancelledError):
                await task
        body_file.close()
        if answering.cancelled():
            return
        response = answering.result()
        if isinstance(response, JsonResponse):
            response.close()  # nothing of a thread's to close (the request_finished receivers find none here)
        # a page in the answer was closed in the thread that built it (``views.waits._page_closed``)

    @staticmethod
    def _wait_path(scope) -> bool:
        path = scope.get("path", "")
        root = scope.get("root_path", "")
        return GUEST_WAIT.fullmatch(path[len(root) :] if root and path.startswith(root) else path) is not None

    async def run_get_response(self, request: HttpRequest) -> HttpResponseBase:
        """The wait's answer for a known key's wait (``views.waits.wait_answer``), else Django's."""
        wait = GUEST_WAIT.fullmatch(request.path_info) if request.method in ("GET", "HEAD") else None
        if wait is not None and self.security.process_request(request) is None:
            found = await asyncio.get_running_loop().run_in_executor(
                self.pages or _default_pages(), link_lookup, wait[1]
            )
            if found is not None:
                response = await wait_answer(
                    request, found, thread_sensitive=False, one_listener=True, pages=self.pages or _default_pages()
                )
                if isinstance(response, JsonResponse):  # the page in the answer has the stack's headers already
                    response = early_headers(request, response, self.security, self.frames)
                return response
        return await super().run_get_response(request)


class SiteApplication:
    """The site's ASGI application (module docstring): called by the ASGI server with a scope,
    ``receive`` and ``send``; returns when the response (or the lifespan) is done. A phone's
    wait (a GET or HEAD of ``/g/<key>/wait/``) is ``WaitFirstASGIHandler``'s, on the event loop;
    every other request is Django's WSGI handler in one of ``threads`` threads (default
    ``settings.WEB_THREADS``), kept for the process's life; a WebSocket is closed (the site has
    none)."""

    def __init__(self, threads: int | None = None) -> None:
        self.pages = WSGIMiddleware(WSGIHandler(), workers=threads or settings.WEB_THREADS)  # type: ignore[arg-type] # a WSGI app
        self.waits = WaitFirstASGIHandler()  # its key look-ups and pages in WAIT_THREADS threads of their own

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") == "http" and scope.get("method") in ("GET", "HEAD") and self.waits._wait_path(scope):
            await self.waits(scope, receive, send)
            return
        await self.pages(scope, receive, send)
