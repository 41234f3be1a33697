"""A guest's phone waiting for the evening's next version: ``/g/<key>/wait/?v=<version>``, the
push behind the bell reaching every phone within a second (issue 26 item 2).

``static/live.js`` asks with the version its page shows (from the page's ETag); the answer is
JSON, ``{"state": "changed", "version": 8}`` as soon as the evening's version is newer (then
the phone refetches its page) or ``{"state": "unchanged", "version": 7}`` after
``version_waits.WAIT_SECONDS`` (then it asks again). A ``v`` that is not a whole number (a
damaged or very old tab) is answered "changed" at once, so the phone refetches the page it
should have. An unknown, revoked or reissued key gets the one 404 every guest URL gives.

When Redis cannot be reached the answer is ``{"state": "unavailable", ...}`` at once (never a
500): the phone falls back on its 3 s poll and asks again later.

Under ASGI (uvicorn, ``make party``) the wait is answered on the event loop, before the
middleware, by ``tournament.version_waits.WaitFirstASGIHandler`` and holds no thread; under WSGI (runserver, the tests' live server)
``guest_wait`` holds its thread for the wait. Both answer with ``wait_answer``.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync
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
) -> HttpResponse:
    """The answer to a phone's wait, for its link's entry ``found`` (``(guest id, evening id,
    evening token)``, ``links.link_lookup``): waits with ``version_waits.version_wait`` (at most
    ``limit`` seconds, default ``WAIT_SECONDS``) and returns the JSON answer with the private
    headers. A ``v`` that is not a version is answered "changed" at once with the version now;
    a Redis error (``redis.RedisError``) is answered "unavailable" at once. ``one_listener``:
    wait on the process's one subscription (``version_waits.ProcessListener``: an ASGI server's
    long-lived loop), not on one of the wait's own."""
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
    return private(response)


def guest_wait(request: HttpRequest, key: str) -> HttpResponse:
    """The wait under WSGI (a GET or HEAD of ``/g/<key>/wait/?v=N``): the JSON answer of
    ``wait_answer``, after at most ``version_waits.WAIT_SECONDS``; 405 for another method; the
    guest URLs' one 404 for a key that opens nothing."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    found = link_lookup(key)
    if found is None:
        return not_found()
    answer = async_to_sync(wait_answer)
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # a WSGI worker's thread: no event loop here
        return answer(request, found, thread_sensitive=True)
    # An event loop runs in this thread already (a sync view called under a loop, as a test's
    # browser driver leaves one), where ``async_to_sync`` refuses: wait in a thread of its own.
    with ThreadPoolExecutor(max_workers=1) as waiter:
        return waiter.submit(_in_own_thread, answer, request, found).result()


def _in_own_thread(answer, request: HttpRequest, found: tuple[int, int, str]) -> HttpResponse:
    """``answer`` (``wait_answer`` made sync) in a thread of its own, whose database connection
    is closed when it is done (no connection is left open by a finished thread)."""
    try:
        return answer(request, found, thread_sensitive=True)
    finally:
        connections.close_all()
