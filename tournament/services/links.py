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

from django.core.cache import cache
from django.db import transaction

from tournament.models import Guest
from tournament.services.audit import audit_log
from tournament.services.held import drop_link, held_link, held_version, hold_link, hold_version
from tournament.services.locks import lock_evening
from tournament.services.versions import (
    cache_is_shared,
    cache_ttl,
    evening_token,
    evening_touch,
    evening_version,
    version_key,
)


def _link_key(key: str) -> str:
    return "ht:link:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def link_lookup(key: str) -> tuple[int, int, str] | None:
    """``(guest id, evening id, evening token)`` of a live private link, or None for an unknown
    or revoked key.

    A cache hit costs no database query; a miss costs one and fills the cache.
    """
    if not key or len(key) > 64:
        return None
    entry = cache.get(_link_key(key))
    if entry is not None:
        return tuple(entry)
    row = (
        Guest.objects.filter(key=key, key_revoked=False).values_list("pk", "evening_id", "evening__public_key").first()
    )
    if row is None:
        return None
    entry = (row[0], row[1], evening_token(row[1], row[2]))
    cache.add(_link_key(key), entry, cache_ttl(link=True))
    return entry


def poll_lookup(key: str, token: str) -> tuple[tuple[int, int, str] | None, int | None]:
    """For a poll that names its evening's token (from its ETag): the link entry and the
    evening's version in one cache round trip (``get_many``); misses are filled as in
    ``link_lookup`` / ``evening_version``. Returns (entry or None, version or None).

    With a shared cache, the pair is held in this process (``tournament.services.held``): a
    poll within ``held.HELD_SECONDS`` of the version's reading, whose link entry was read with
    that same version, asks no server at all."""
    if not key or len(key) > 64:
        return None, None
    names = [_link_key(key), version_key(token)]
    shared = cache_is_shared()
    if shared:
        held = held_version(token)
        entry = held_link(names[0], held) if held is not None else None
        if held is not None and entry is not None and entry[2] == token:
            return entry, held
    found = cache.get_many(names)
    entry = found.get(names[0])
    if shared and entry is not None and found.get(names[1]) is not None:
        hold_version(token, found[names[1]])
        hold_link(names[0], tuple(entry), found[names[1]])
    entry = tuple(entry) if entry is not None else link_lookup(key)
    if entry is None:
        return None, None
    version = found.get(names[1]) if entry[2] == token else None
    if version is None:
        version = evening_version(entry[1], entry[2])
    return entry, version


def link_forget(*, key: str) -> None:
    """Drop a key from the cache now and again after its transaction commits (a reissue or a
    revoke): a reader in between may have cached it again from the not yet committed row. This
    process's copy goes too; other processes' copies stop counting when the evening's version
    changes (``tournament.services.held``), which a reissue and a revoke both do."""
    name = _link_key(key)

    def forget() -> None:
        drop_link(name)
        cache.delete(name)

    forget()
    transaction.on_commit(forget)


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
