"""A guest's phone waiting for the evening's next version: ``/g/<key>/wait/?v=<version>``, the
push behind the bell reaching every phone within a second (issue 26 item 2).

``static/live.js`` asks with the version its page shows (from the page's ETag); the answer is
JSON, ``{"state": "changed", "version": 8}`` as soon as the evening's version is newer (then
the phone refetches its page) or ``{"state": "unchanged", "version": 7}`` after
``version_waits.WAIT_SECONDS`` (then it asks again). A ``v`` that is not a whole number (a
damaged or very old tab) is answered "changed" at once, so the phone refetches the page it
should have. An unknown, revoked or reissued key gets the one 404 every guest URL gives.

**The page in the answer.** A wait that asks for it (``&page=1``, as ``static/live.js`` does) and
is answered "changed" gets the guest's page itself instead, the very response the phone's htmx
refetch of ``/g/<key>/`` would get (status 200, its ETag, every header of the middleware), built
by ``page_answer`` through Django's middleware and the page's view: the phone swaps it in
without asking again, which saves a request per phone per bell (500 after each bell at 500
guests). The page's cookies come with it (a page with a form sets or renews the CSRF cookie;
the phone's ``fetch`` takes them, as its refetch would). When that page is not a 200, the answer
is the JSON "changed" as before and the phone refetches.

When Redis cannot be reached the answer is ``{"state": "unavailable", ...}`` at once (never a
500): the phone falls back on its 3 s poll and asks again later.

Under ASGI (uvicorn, ``make party``) the wait is answered on the event loop, before the
middleware, by ``tournament.version_waits.WaitFirstASGIHandler`` and holds no thread; under WSGI (runserver, the tests' live server)
``guest_wait`` holds its thread for the wait. Both answer with ``wait_answer``.
"""

from __future__ import annotations

import asyncio
import io
import json
from concurrent.futures import Executor, ThreadPoolExecutor

from asgiref.sync import async_to_sync
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from redis.exceptions import RedisError

from tournament.private_doors import not_found, private
from tournament.selectors.version_waits import WAIT_SECONDS, version_wait
from tournament.services.links import link_lookup

MOST_VERSION_DIGITS = 18  # a version is a bigint; longer "v" values are not versions


def seen_version(request: HttpRequest) -> int | None:
    """The version the phone shows, from ``?v=`` (ASCII digits, at most 18), else None."""
    text = request.GET.get("v", "")
    if not (text.isascii() and text.isdigit() and len(text) <= MOST_VERSION_DIGITS):
        return None
    return int(text)


async def wait_answer(
    request: HttpRequest,
    found: tuple[int, int, str],
    *,
    thread_sensitive: bool,
    limit: float | None = None,
    one_listener: bool = False,
    pages: Executor | None = None,
) -> HttpResponse:
    """The answer to a phone's wait, for its link's entry ``found`` (``(guest id, evening id,
    evening token)``, ``links.link_lookup``): waits with ``version_waits.version_wait`` (at most
    ``limit`` seconds, default ``WAIT_SECONDS``) and returns the JSON answer with the private
    headers. A ``v`` that is not a version is answered "changed" at once with the version now;
    a Redis error (``redis.RedisError``) is answered "unavailable" at once. ``one_listener``:
    wait on the process's one subscription (``version_waits.ProcessListener``: an ASGI server's
    long-lived loop), not on one of the wait's own. A "changed" answer to a wait that asks for
    the page (``page_wanted``) is the page (``page_answer``), built in a thread of ``pages``
    (the ASGI server's request threads); with None the caller builds it (``guest_wait``)."""
    seen = seen_version(request)
    limit = WAIT_SECONDS if limit is None else limit
    try:
        changed, version = await version_wait(
            found[1],
            found[2],
            -1 if seen is None else seen,
            limit=0 if seen is None else limit,
            thread_sensitive=thread_sensitive,
            one_listener=one_listener,
        )
    except RedisError:
        return private(JsonResponse({"state": "unavailable", "version": seen or 0}))
    if version is None:  # the evening is gone: the page's next poll shows what the phone must see
        changed, version = True, seen or 0
    response = JsonResponse({"state": "changed" if changed else "unchanged", "version": version})
    if changed and pages is not None and page_wanted(request):
        page = await asyncio.get_running_loop().run_in_executor(pages, _page_closed, request, found, version)
        if page is not None:
            return page
    return private(response)


def _page_closed(request: HttpRequest, found: tuple[int, int, str], version: int) -> HttpResponse | None:
    """``page_answer``, the page closed in the thread that built it (its ``request_finished``
    gives this thread's database connection back here); its content stays to be sent."""
    page = page_answer(request, found, version)
    if page is not None:
        page.close()
    return page


def page_wanted(request: HttpRequest) -> bool:
    """True when the wait asks for the page in a "changed" answer (``page=1``: module docstring)."""
    return request.GET.get("page") == "1"


class _Stack(BaseHandler):
    """Django's middleware chain around the URL's view, loaded once per process (as
    ``WSGIHandler`` loads it), to answer a request made inside another one (``page_answer``)."""

    def __init__(self) -> None:
        super().__init__()
        self.load_middleware()


_stack: list[_Stack] = []  # the one chain, made on first use (the settings are read by then)

# The wait's headers a page request has no use for, or that would make it answer 304.
_NOT_FOR_THE_PAGE = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_CONTENT_LENGTH", "HTTP_CONTENT_TYPE")


def page_answer(request: HttpRequest, found: tuple[int, int, str], version: int) -> HttpResponse | None:
    """The guest's page as the phone's htmx refetch would get it, for the wait ``request`` (a
    GET of ``/g/<key>/wait/``, either server's): a GET of ``/g/<key>/`` with the wait's headers
    (its cookies, user agent, language), ``HX-Request: true`` and no ``If-None-Match``, through
    every middleware and the page's view (``views.guest.guest_page``), which is given the wait's
    link entry ``found`` and the evening's ``version`` it answered with, as its own look-up would
    have read them (``views.guest._lookup``: no cache round trip again). Returns that response
    (its content read, ``close()`` left to the server that sends it), its cookies included (the
    CSRF cookie a page with a form sets or renews: the phone's ``fetch`` takes them as its htmx
    refetch would), or None when it is not a 200.
    Raises nothing the page's own request would not. House rule: issue 26 item 2 (a request
    saved per phone per bell)."""
    if not _stack:
        _stack.append(_Stack())
    environ = {k: v for k, v in request.META.items() if k.startswith("HTTP_") and k not in _NOT_FOR_THE_PAGE}
    for name in ("SERVER_NAME", "SERVER_PORT", "SERVER_PROTOCOL", "REMOTE_ADDR", "SCRIPT_NAME"):
        if name in request.META:
            environ[name] = str(request.META[name])
    environ.update(
        {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": request.path_info.removesuffix("wait/"),
            "QUERY_STRING": "",
            "HTTP_HX_REQUEST": "true",
            "wsgi.input": io.BytesIO(b""),
            "wsgi.url_scheme": request.scheme,
        }
    )
    page = WSGIRequest(environ)
    page._headtable_link = (found, version)  # type: ignore[attr-defined] # views.guest._lookup's
    response = _stack[0].get_response(page)
    if not isinstance(response, HttpResponse) or response.status_code != 200:
        response.close()  # a streamed answer too: the page never is one
        return None
    return response  # with its cookies (a CSRF cookie): the phone's fetch takes them as a refetch would


def guest_wait(request: HttpRequest, key: str) -> HttpResponse:
    """The wait under WSGI (a GET or HEAD of ``/g/<key>/wait/?v=N``): the JSON answer of
    ``wait_answer``, after at most ``version_waits.WAIT_SECONDS``; 405 for another method; the
    guest URLs' one 404 for a key that opens nothing."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    found = link_lookup(key)
    if found is None:
        return not_found()
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # a WSGI worker's thread: no event loop here
        return _waited(request, found)
    # An event loop runs in this thread already (a sync view called under a loop, as a test's
    # browser driver leaves one), where ``async_to_sync`` refuses: wait in a thread of its own.
    with ThreadPoolExecutor(max_workers=1) as waiter:
        return waiter.submit(_in_own_thread, request, found).result()


def _waited(request: HttpRequest, found: tuple[int, int, str]) -> HttpResponse:
    """The wait's answer in this thread (no event loop running in it): ``wait_answer``, and
    the page instead of a "changed" when the wait asks for it (``page_answer``)."""
    response = async_to_sync(wait_answer)(request, found, thread_sensitive=True)
    said = json.loads(response.content)
    if page_wanted(request) and said["state"] == "changed":
        page = page_answer(request, found, said["version"])
        if page is not None:
            return page
    return response


def _in_own_thread(request: HttpRequest, found: tuple[int, int, str]) -> HttpResponse:
    """``_waited`` in a thread of its own, whose database connection is closed when it is done
    (no connection is left open by a finished thread)."""
    try:
        return _waited(request, found)
    finally:
        connections.close_all()
