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
* under an ASGI server (``tournament.version_waits``, ``one_listener=True``) the phones of one
  process share one subscription instead of one each: ``ProcessListener``, one Redis connection
  per event loop subscribed to every evening's channel (a pattern), wakes every phone waiting on
  an evening when its version is published, and a wait reads the version with the same loop's
  Redis client (no thread) before it listens. 500 phones re-waiting after a bell then cost no
  new Redis connection, no SUBSCRIBE and no thread each (issue 26 item 2);
* without it (SQLite and the filesystem broker, ``make run``'s zero set-up): every
  ``CHECK_SECONDS`` it reads the version in this process's cache, which the bell rung in this
  process has set at once; when that entry has expired (``versions.LOCAL_TTL``: a bell rung by
  another process shows then) one waiter reads it from the database for all the others in this
  process, at most once every ``REFILL_SECONDS`` for an evening, however many phones wait.

House rule: issue 26 item 2; the 3 s poll (``static/live.js``) stays the fallback.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from tournament.services.versions import (
    evening_version,
    evening_version_fresh,
    redis_url,
    version_channel,
    version_key,
)

WAIT_SECONDS = 25.0  # the longest wait (below gunicorn's 30 s timeout and common proxies' 30-60 s)
CHECK_SECONDS = 0.2  # without Redis: how often a waiter reads this process's cache
REFILL_SECONDS = 0.5  # without Redis: an evening's version read from the database at most this often

MOST_KEPT = 10_000  # evenings whose next read time is kept (then all are forgotten)
_refill_after: dict[str, float] = {}  # evening token -> when the next database read may be made


async def version_wait(
    evening_id: int,
    token: str,
    seen: int,
    *,
    limit: float = WAIT_SECONDS,
    thread_sensitive: bool = True,
    one_listener: bool = False,
) -> tuple[bool, int | None]:
    """Wait until the evening's version is newer than ``seen``, at most ``limit`` seconds.

    Takes the evening's id and cache token (``versions.evening_token``), the version the phone
    has and the limit in seconds; ``thread_sensitive`` says where a database read runs (True in
    a WSGI request, whose thread holds the connection; False under ASGI, a pooled thread for
    the moment of the read). Returns ``(True, version)`` as soon as the version is newer,
    ``(False, version)`` when the limit passed unchanged (``version`` None for an evening that
    no longer exists). ``one_listener``: wait on this event loop's ``ProcessListener`` (a
    long-lived loop: an ASGI server's) instead of a subscription of the wait's own. Raises
    nothing of its own; a Redis error is ``redis.RedisError``.
    """
    url = redis_url()
    if url is not None and one_listener:
        return await _wait_listened(url, evening_id, token, seen, limit, thread_sensitive)
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


CONNECT_SECONDS = 5.0  # a process's listener not subscribed within this: the wait says "unavailable"
MOST_HEARD = 10_000  # evenings whose newest version a listener remembers (then all are forgotten)


class ProcessListener:
    """The one Redis pub/sub subscription of an event loop (an ASGI worker process's), to every
    evening's channel (``versions.version_channel`` names them all under one prefix, hence one
    pattern), and the phones of this process waiting on each evening.

    ``waiting``: evening token -> the futures of the phones waiting on it; each published version
    resolves them all with it (the waiter decides whether it is newer than its page). ``client``
    is the same loop's Redis client for a wait's one read of the version. A lost connection fails
    every waiter with ``redis.RedisError`` (their phones fall back on the 3 s poll) and the next
    wait subscribes again. Made by ``listener_for``; all of it runs on its own loop."""

    def __init__(self, url: str, pattern: str) -> None:
        self.url = url
        self.pattern = pattern
        # a blocking pool, as the cache's (settings.REDIS_CACHE_OPTIONS): 250 phones re-waiting
        # at once after a bell wait for a connection instead of meeting redis-py's 100-limit
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url, max_connections=settings.REDIS_POOL_SIZE, timeout=settings.REDIS_POOL_WAIT
        )
        self.client = redis.asyncio.Redis(connection_pool=pool)
        self.waiting: dict[str, set[asyncio.Future[int]]] = {}
        self.heard: dict[str, int] = {}  # token -> the newest version heard on this subscription
        self._ready: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None

    async def subscribed(self) -> None:
        """Return once the subscription is live (starting it if none runs); raises
        ``redis.RedisError`` when it cannot be made within ``CONNECT_SECONDS``."""
        if self._task is None or self._task.done():
            loop = asyncio.get_running_loop()
            self._ready = loop.create_future()
            self._task = loop.create_task(self._listen(self._ready))
        assert self._ready is not None
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), CONNECT_SECONDS)
        except TimeoutError as error:
            raise redis.RedisError("the version channel could not be subscribed in time") from error

    def wait_for(self, token: str) -> asyncio.Future[int]:
        """A future resolved with the evening's next published version (registered now, so a
        version published after this call is never missed)."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(token, set()).add(future)
        return future

    def forget(self, token: str, future: asyncio.Future[int]) -> None:
        """Stop waking ``future`` (its wait is over)."""
        waiters = self.waiting.get(token)
        if waiters is not None:
            waiters.discard(future)
            if not waiters:
                del self.waiting[token]

    async def _listen(self, ready: asyncio.Future[None]) -> None:
        """Subscribe, say so, then resolve the waiters of each evening whose version is published."""
        prefix = self.pattern[:-1]  # the channel's name up to the evening's token
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.psubscribe(self.pattern)
            self.heard.clear()  # what was heard before this subscription may have missed versions
            ready.set_result(None)
            while True:
                message = await pubsub.get_message(timeout=WAIT_SECONDS)
                if message is None or message.get("type") != "pmessage":
                    continue
                channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
                token, version = channel[len(prefix) :], int(message["data"])
                if len(self.heard) >= MOST_HEARD:
                    self.heard.clear()
                self.heard[token] = max(version, self.heard.get(token, version))
                for future in self.waiting.pop(token, None) or ():
                    if not future.done():
                        future.set_result(version)
        except (redis.RedisError, OSError, ValueError) as error:
            failure = error if isinstance(error, redis.RedisError) else redis.RedisError(str(error))
            if not ready.done():
                ready.set_exception(failure)
            for waiters in self.waiting.values():
                for future in waiters:
                    if not future.done():
                        future.set_exception(failure)
            self.waiting.clear()
            self.heard.clear()
        finally:
            with contextlib.suppress(redis.RedisError, OSError):
                await pubsub.aclose()

    async def version_now(self, token: str) -> int | None:
        """The evening's version in the shared cache, read on this loop's client (no thread),
        or None when the cache has none. Raises ``redis.RedisError``."""
        raw = await self.client.get(cache.client.make_key(version_key(token)))  # type: ignore[attr-defined]
        return None if raw is None else int(cache.client.decode(raw))  # type: ignore[attr-defined]


_listeners: dict[asyncio.AbstractEventLoop, ProcessListener] = {}


def listener_for(url: str) -> ProcessListener:
    """This event loop's ``ProcessListener`` for the Redis at ``url`` (made on first use; a
    closed loop's is dropped)."""
    loop = asyncio.get_running_loop()
    for old in [old for old in _listeners if old.is_closed()]:
        del _listeners[old]
    listener = _listeners.get(loop)
    if listener is None or listener.url != url:
        listener = _listeners[loop] = ProcessListener(url, version_channel("*"))
    return listener


async def _wait_listened(
    url: str, evening_id: int, token: str, seen: int, limit: float, thread_sensitive: bool
) -> tuple[bool, int | None]:
    """``version_wait`` on this loop's ``ProcessListener``: be registered, read the version
    (the cache on the loop's client; the database, in a thread, only when the cache has none),
    then wait for the next published one."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    listener = listener_for(url)
    await listener.subscribed()
    future = listener.wait_for(token)
    try:
        now = await listener.version_now(token)
        if now is None:
            now = await sync_to_async(evening_version_fresh, thread_sensitive=thread_sensitive)(evening_id, token)
        while now is not None and now <= seen:
            left = deadline - loop.time()
            if left <= 0:
                return False, now
            try:
                published = await asyncio.wait_for(asyncio.shield(future), left)
            except TimeoutError:
                return False, now
            now = max(now, published)
            if now <= seen:  # an older version's message: wait again, minding one heard meanwhile
                future = listener.wait_for(token)
                now = max(now, listener.heard.get(token, now))
        return now is not None, now
    finally:
        listener.forget(token, future)
