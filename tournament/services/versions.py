"""The evening's version: one counter every change bumps, and the cache entry that lets an
unchanged live page (a guest's phone, the room display, the host's board) be answered 304
without a database query.

``ht:ver:<evening token>`` -> the evening's ``version`` (the live pages' ETag); the token is the
evening's id and a hash of its public key, so a reused id (SQLite test databases roll back their
sequences) never meets an old entry. ``evening_touch`` bumps the version inside the writer's
transaction, drops the cached one at once and publishes the new one after commit; readers fill a
missing entry with ``cache.add`` so a reader never overwrites a newer value with an older one.

With Redis as the cache, the published version is also sent on the evening's pub/sub channel
(``version_channel``), where the phones' long-polls wait for it (``selectors.version_waits``,
issue 26 item 2: "phones see the bell within 1 s").

A process-local cache (Django's default ``LocMemCache``) cannot see another process's writes,
so there entries live ``LOCAL_TTL`` seconds; with a shared cache (Redis) a version lives
``SHARED_TTL`` seconds and a private link's entry (``tournament.services.links``)
``SHARED_LINK_TTL``. House rule: issue 6 item 3 ("unchanged pages answer 304 with no database
query").
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Sequence

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django_redis import get_redis_connection
from redis.exceptions import RedisError

from tournament.models import Evening
from tournament.services.held import drop_version, held_version, hold_version

logger = logging.getLogger(__name__)
LOCAL_TTL = 1  # seconds, for a cache each process keeps for itself
SHARED_TTL = 30  # seconds, a version in a cache all processes share (bounds any rare stale entry)
SHARED_LINK_TTL = 3600  # seconds, a key in a shared cache (reissue and revoke delete it at once)
_REDIS_BACKEND = "django_redis.cache.RedisCache"
_LOCAL_BACKENDS = ("django.core.cache.backends.locmem.LocMemCache", "django.core.cache.backends.dummy.DummyCache")


def cache_is_shared() -> bool:
    """True when the default cache is shared by every process (e.g. Redis, Memcached)."""
    return settings.CACHES.get("default", {}).get("BACKEND", "") not in _LOCAL_BACKENDS


def redis_url() -> str | None:
    """The URL of the Redis server behind the default cache when it is django-redis's (the
    one whose pub/sub carries the evenings' versions), else None (a process-local cache)."""
    default = settings.CACHES.get("default", {})
    if default.get("BACKEND") != _REDIS_BACKEND:
        return None
    location = default.get("LOCATION")
    if isinstance(location, list | tuple):
        location = location[0]
    return str(location) if location else None


def version_channel(token: str) -> str:
    """The Redis pub/sub channel an evening's new versions are sent on (each message: the
    version as decimal digits), named with the cache's key prefix so that two sites (or two
    test runs) sharing a Redis server never hear each other."""
    prefix = settings.CACHES.get("default", {}).get("KEY_PREFIX", "")
    return f"{prefix}:ht:ver:{token}"


def cache_ttl(*, link: bool = False) -> int:
    """Seconds a cache entry lives: ``LOCAL_TTL`` in a process-local cache; in a shared one
    ``SHARED_LINK_TTL`` for a private link's entry (``link=True``), else ``SHARED_TTL``."""
    if not cache_is_shared():
        return LOCAL_TTL
    return SHARED_LINK_TTL if link else SHARED_TTL


def evening_token(evening_id: int, public_key: str) -> str:
    """The evening's name in the cache: its id and a short hash of its public key."""
    return f"{evening_id}-{hashlib.sha256(public_key.encode()).hexdigest()[:16]}"


def version_key(token: str) -> str:
    """The cache key of an evening's version, from its token (``evening_token``)."""
    return f"ht:ver:{token}"


def evening_version(evening_id: int, token: str) -> int | None:
    """The evening's ``version`` (None when it does not exist); from the cache when it can,
    and with a shared cache from this process's memory for ``held.HELD_SECONDS`` after that."""
    shared = cache_is_shared()
    if shared:
        held = held_version(token)
        if held is not None:
            return held
    version = cache.get(version_key(token))
    if version is None:
        version = Evening.objects.filter(pk=evening_id).values_list("version", flat=True).first()
        if version is None:
            return None
        cache.add(version_key(token), version, cache_ttl())
    if shared:
        hold_version(token, version)
    return version


def evening_version_fresh(evening_id: int, token: str) -> int | None:
    """The evening's ``version`` (None when it does not exist) from the shared cache or the
    database, never from this process's held copy (``held``), which may be up to
    ``held.HELD_SECONDS`` old: a long-poll compares it with the version a phone has, after
    subscribing to the channel, so no change can fall between the two."""
    drop_version(token)
    return evening_version(evening_id, token)


def version_publish(*, token: str, version: int) -> None:
    """Put a committed version in the cache (called by ``evening_touch`` after commit).

    Never lowers the cached version: two transactions may run their after-commit hooks in
    either order. (A get-then-set; the tiny window where two publishers interleave is bounded
    by the entry's time to live.) With Redis, the version is then sent on the evening's
    channel (``version_channel``), after the cache holds it, so a waiter that subscribed
    before reading the cache misses nothing.
    """
    current = cache.get(version_key(token))
    if current is None or version > current:
        cache.set(version_key(token), version, cache_ttl())
    if cache_is_shared():
        held = held_version(token)
        if held is None or version > held:
            hold_version(token, version)
    if redis_url() is not None:
        try:
            get_redis_connection("default").publish(version_channel(token), str(version))
        except RedisError as error:  # the phones' 3 s poll still brings the change
            logger.warning("The evening's new version was not pushed to the phones: %s", type(error).__name__)


def version_forget(*, token: str) -> None:
    """Drop an evening's cached version, and this process's copy (the next reader refills it
    from the database)."""
    drop_version(token)
    cache.delete(version_key(token))


def version_bump(evening: Evening, fields: Sequence[str] = ()) -> int:
    """Add one to ``evening``'s ``version`` in the database and return the new value, in one
    statement (``UPDATE ... RETURNING``, which PostgreSQL and SQLite 3.35+ both take) instead
    of an update and a read back; ``fields`` (attribute names of the evening's own columns) are
    written from the instance in the same statement. Raises ``Evening.DoesNotExist`` when
    there is no such evening."""
    quote = connection.ops.quote_name
    by_name = {f.attname: f for f in Evening._meta.concrete_fields}
    columns = [by_name[name] for name in fields]
    sets = "".join(f", {quote(str(f.column))} = %s" for f in columns)
    values = [f.get_db_prep_save(getattr(evening, f.attname), connection) for f in columns]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(Evening._meta.db_table)} SET version = version + 1{sets} WHERE id = %s RETURNING version",
            [*values, evening.pk],
        )
        row = cursor.fetchone()
    if row is None:
        raise Evening.DoesNotExist(f"No evening {evening.pk}.")
    return int(row[0])


def evening_touch(*, evening: Evening, fields: Sequence[str] = ()) -> None:
    """Bump ``evening.version`` by one (in the database and on the instance), so every live
    page showing this evening refetches; ``fields``: the evening's own fields the service
    changed on the instance, written in the same UPDATE (``version_bump``). Call inside the
    service's transaction: the cached version is dropped now and the new one published after
    commit (until then, readers refill the cache from the database with the version they can
    see)."""
    evening.version = version_bump(evening, fields)
    token, version = evening_token(evening.pk, evening.public_key), evening.version
    version_forget(token=token)
    _touched.__dict__.setdefault("versions", {}).setdefault(token, []).append(version)
    evening_id = evening.pk
    transaction.on_commit(lambda: _publish_touched(evening_id, token))


# This thread's versions touched and not yet published, per evening token (``evening_touch``).
_touched = threading.local()


def _publish_touched(evening_id: int, token: str) -> None:
    """After a commit: publish the evening's new version once for all the touches of the
    transaction (house rule, issue 26 item 2: a bell that reports 84 tables and starts the next
    round in one transaction touched the version 86 times, and each publish woke every waiting
    phone with a version already out of date). The first of the transaction's callbacks to run
    publishes; the others find nothing left. A single touch publishes its own version; several
    (where a savepoint rolled back, or an earlier transaction rolled back with its touches, the
    last number touched may not be the one committed) publish the version read from the
    database, one query."""
    versions = getattr(_touched, "versions", {}).pop(token, None)
    if not versions:
        return
    version = versions[0]
    if len(versions) > 1:
        version = Evening.objects.filter(pk=evening_id).values_list("version", flat=True).first()
        if version is None:  # the evening is gone
            return
    version_publish(token=token, version=version)
