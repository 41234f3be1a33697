"""Guests' private links: finding a guest by key cheaply, revoking a link, and the cache that
lets an unchanged phone poll be answered without a database query.

Two small cache entries do the work (Django's cache, whatever its backend):

* ``ht:link:<sha256(key)>`` -> ``(guest id, evening id)`` for a live key (the key itself is
  never stored in the cache; unknown keys are not cached, so guessing fills nothing);
* ``ht:ver:<evening token>`` -> the evening's ``version`` (the guest page's ETag); the token is
  the evening's id and a hash of its public key, so a reused id (SQLite test databases roll
  back their sequences) never meets an old entry.

Writers update them only after their transaction commits (``evening_touch`` sets the new
version; a reissue or revoke forgets the old key), and readers fill a missing entry with
``cache.add`` so a reader never overwrites a newer value with an older one.

A process-local cache (Django's default ``LocMemCache``) cannot see another process's writes,
so there the entries live ``LOCAL_TTL`` seconds: a change made by another web worker or by the
Celery worker shows within that time, and a revoked key dies everywhere within it. With a
shared cache (Redis) a version lives ``SHARED_TTL`` seconds and a key ``SHARED_LINK_TTL``, and
changes show at once; an unchanged poll then costs one query per evening per ``SHARED_TTL``
seconds in all, whatever the number of phones (and one per phone per hour for its key).
House rule: issue 6 item 3 ("unchanged pages answer 304 with no database query").
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from tournament.models import Evening, Guest
from tournament.services.audit import audit_log, evening_touch
from tournament.services.locks import lock_evening

LOCAL_TTL = 1  # seconds, for a cache each process keeps for itself
SHARED_TTL = 30  # seconds, a version in a cache all processes share (bounds any rare stale entry)
SHARED_LINK_TTL = 3600  # seconds, a key in a shared cache (reissue and revoke delete it at once)
_LOCAL_BACKENDS = ("django.core.cache.backends.locmem.LocMemCache", "django.core.cache.backends.dummy.DummyCache")


def cache_is_shared() -> bool:
    """True when the default cache is shared by every process (e.g. Redis, Memcached)."""
    return settings.CACHES.get("default", {}).get("BACKEND", "") not in _LOCAL_BACKENDS


def _ttl(*, link: bool = False) -> int:
    if not cache_is_shared():
        return LOCAL_TTL
    return SHARED_LINK_TTL if link else SHARED_TTL


def _link_key(key: str) -> str:
    return "ht:link:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def evening_token(evening_id: int, public_key: str) -> str:
    """The evening's name in the cache: its id and a short hash of its public key."""
    return f"{evening_id}-{hashlib.sha256(public_key.encode()).hexdigest()[:16]}"


def _version_key(token: str) -> str:
    return f"ht:ver:{token}"


def link_lookup(key: str) -> tuple[int, int, str] | None:
    """``(guest id, evening id, evening token)`` of a live private link, or None for an unknown
    or revoked key.

    A cache hit costs no database query; a miss costs one and fills the cache.
    """
    if not key or len(key) > 64:
        return None
    entry = cache.get(_link_key(key))
    if entry is not None:
        return tuple(entry)  # type: ignore[return-value]
    row = Guest.objects.filter(key=key, key_revoked=False).values_list("pk", "evening_id", "evening__public_key").first()
    if row is None:
        return None
    entry = (row[0], row[1], evening_token(row[1], row[2]))
    cache.add(_link_key(key), entry, _ttl(link=True))
    return entry


def evening_version(evening_id: int, token: str) -> int | None:
    """The evening's ``version`` (None when it does not exist); from the cache when it can."""
    version = cache.get(_version_key(token))
    if version is not None:
        return version
    version = Evening.objects.filter(pk=evening_id).values_list("version", flat=True).first()
    if version is not None:
        cache.add(_version_key(token), version, _ttl())
    return version


def poll_lookup(key: str, token: str) -> tuple[tuple[int, int, str] | None, int | None]:
    """For a poll that names its evening's token (from its ETag): the link entry and the
    evening's version in one cache round trip (``get_many``); misses are filled as in
    ``link_lookup`` / ``evening_version``. Returns (entry or None, version or None)."""
    if not key or len(key) > 64:
        return None, None
    names = [_link_key(key), _version_key(token)]
    found = cache.get_many(names)
    entry = found.get(names[0])
    entry = tuple(entry) if entry is not None else link_lookup(key)
    if entry is None:
        return None, None
    version = found.get(names[1]) if entry[2] == token else None
    if version is None:
        version = evening_version(entry[1], entry[2])
    return entry, version  # type: ignore[return-value]


def version_publish(*, token: str, version: int) -> None:
    """Put a committed version in the cache (called by ``evening_touch`` after commit).

    Never lowers the cached version: two transactions may run their after-commit hooks in
    either order. (A get-then-set; the tiny window where two publishers interleave is bounded
    by the entry's time to live.)
    """
    current = cache.get(_version_key(token))
    if current is None or version > current:
        cache.set(_version_key(token), version, _ttl())


def version_forget(*, token: str) -> None:
    """Drop an evening's cached version (the next reader refills it from the database)."""
    cache.delete(_version_key(token))


def link_forget(*, key: str) -> None:
    """Drop a key from the cache now and again after its transaction commits (a reissue or a
    revoke): a reader in between may have cached it again from the not yet committed row."""
    cache.delete(_link_key(key))
    transaction.on_commit(lambda: cache.delete(_link_key(key)))


def guest_revoke_key(*, guest: Guest, user=None, device: str = "") -> Guest:
    """Revoke a guest's private link: it answers 404 from now on (within ``LOCAL_TTL`` seconds
    in other processes when the cache is process-local). The host can reissue a new link later
    (``guest_reissue_key``). Returns the guest."""
    with transaction.atomic():
        lock_evening(guest.evening_id)  # the lock order: tournament.services.locks
        Guest.objects.filter(pk=guest.pk).update(key_revoked=True)
        guest.key_revoked = True
        link_forget(key=guest.key)
        audit_log(evening=guest.evening, action="guest.revoke_key", user=user, device=device, guest_id=guest.pk)
        evening_touch(evening=guest.evening)
    return guest
