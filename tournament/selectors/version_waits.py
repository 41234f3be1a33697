"""Waiting for an evening's next version: the long-poll behind a phone's push (issue 26 item 2:
"phones see the bell within 1 s").

A phone that shows version ``seen`` of its page asks to be told when the evening's version is
newer (``views.waits``). ``version_wait`` answers at once when it already is, else waits, at
most ``limit`` seconds, without a database query while it waits:

* with Redis as the cache (``versions.redis_url``): it subscribes to the evening's channel
  (``versions.version_channel``, redis.asyncio pub/sub), then reads the version from the cache
  (``versions.evening_version_fresh``: never this process's held copy, so a change published
  between the page and the wait is not missed), and then only listens; ``evening_touch``
  publishes every committed version there (``versions.version_publish``);
* without it (SQLite and the filesystem broker, ``make run``'s zero set-up): every
  ``CHECK_SECONDS`` it reads the version in this process's cache, which the bell rung in this
  process has set at once; when that entry has expired (``versions.LOCAL_TTL``: a bell rung by
  another process shows then) one waiter reads it from the database for all the others in this
  process, at most once every ``REFILL_SECONDS`` for an evening, however many phones wait.

House rule: issue 26 item 2; the 3 s poll (``static/live.js``) stays the fallback.
"""

from __future__ import annotations

import asyncio
import time

import redis.asyncio
from asgiref.sync import sync_to_async
from django.core.cache import cache

from tournament.services.versions import evening_version, evening_version_fresh, redis_url, version_channel, version_key

WAIT_SECONDS = 25.0  # the longest wait (below gunicorn's 30 s timeout and common proxies' 30-60 s)
CHECK_SECONDS = 0.2  # without Redis: how often a waiter reads this process's cache
REFILL_SECONDS = 0.5  # without Redis: an evening's version read from the database at most this often

MOST_KEPT = 10_000  # evenings whose next read time is kept (then all are forgotten)
_refill_after: dict[str, float] = {}  # evening token -> when the next database read may be made


async def version_wait(
    evening_id: int, token: str, seen: int, *, limit: float = WAIT_SECONDS, thread_sensitive: bool = True
) -> tuple[bool, int | None]:
    """Wait until the evening's version is newer than ``seen``, at most ``limit`` seconds.

    Takes the evening's id and cache token (``versions.evening_token``), the version the phone
    has and the limit in seconds; ``thread_sensitive`` says where a database read runs (True in
    a WSGI request, whose thread holds the connection; False under ASGI, a pooled thread for
    the moment of the read). Returns ``(True, version)`` as soon as the version is newer,
    ``(False, version)`` when the limit passed unchanged (``version`` None for an evening that
    no longer exists). Raises nothing of its own; a Redis error is ``redis.RedisError``.
    """
    url = redis_url()
    if url is not None:
        return await _wait_published(url, evening_id, token, seen, limit, thread_sensitive)
    return await _wait_checked(evening_id, token, seen, limit, thread_sensitive)


async def _wait_published(
    url: str, evening_id: int, token: str, seen: int, limit: float, thread_sensitive: bool
) -> tuple[bool, int | None]:
    """``version_wait`` on the evening's Redis channel: subscribe, read, then listen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    client = redis.asyncio.Redis.from_url(url)
    try:
        async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
            await pubsub.subscribe(version_channel(token))
            now = await sync_to_async(evening_version_fresh, thread_sensitive=thread_sensitive)(evening_id, token)
            while now is not None and now <= seen:
                left = deadline - loop.time()
                if left <= 0:
                    return False, now
                message = await pubsub.get_message(timeout=left)
                while message is not None:  # a bell's several versions, published together: the newest
                    if message.get("type") == "message":
                        now = max(now, int(message["data"]))
                    message = await pubsub.get_message(timeout=0)
            return now is not None, now
    finally:
        await client.aclose()


async def _wait_checked(
    evening_id: int, token: str, seen: int, limit: float, thread_sensitive: bool
) -> tuple[bool, int | None]:
    """``version_wait`` by a short check of this process's cache (no Redis)."""
    deadline = time.monotonic() + limit
    now: int | None = None
    while True:
        cached = cache.get(version_key(token))
        if cached is None and time.monotonic() >= _refill_after.get(token, 0.0):
            if len(_refill_after) >= MOST_KEPT:
                _refill_after.clear()
            _refill_after[token] = time.monotonic() + REFILL_SECONDS
            cached = await sync_to_async(evening_version, thread_sensitive=thread_sensitive)(evening_id, token)
            if cached is None:
                return False, None
        now = cached if cached is not None else now
        if now is not None and now > seen:
            return True, now
        left = deadline - time.monotonic()
        if left <= 0:
            return False, now
        await asyncio.sleep(min(CHECK_SECONDS, left))
