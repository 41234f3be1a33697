"""What each web process holds in its own memory so that an unchanged phone poll asks no server:
the evenings' versions, each for ``HELD_SECONDS``, and the private links' entries, each while its
evening's version is the one it was read with.

Used only with a shared cache (Redis: ``versions.cache_is_shared``); a process-local cache is
already in memory. A version is held for ``HELD_SECONDS`` after it was read from the cache (or
published by this process), so a change made in another process shows here within that time;
a change made here shows at once (``evening_touch`` drops and republishes it). A link entry
``(guest id, evening id, evening token)`` is held together with the version read in the same
cache round trip (``links.poll_lookup``: one ``MGET``, so the pair is one moment's), and counts
only while the evening's version is still that one: revoking or reissuing a key bumps the
evening's version, so a held entry of an old key stops counting within ``HELD_SECONDS``. At
most ``LINK_SECONDS`` in any case, and at most ``MOST_HELD`` entries of each kind (then all are
dropped and read again).

House rule: issue 26 item 1 ("the evening's version held in process and refreshed by a short
TTL"); the entries are copies of the shared cache's, never written anywhere else.
"""

from __future__ import annotations

import time

HELD_SECONDS = 0.5  # a version read from the shared cache counts this long in this process
LINK_SECONDS = 300  # a link entry counts at most this long, whatever the version
MOST_HELD = 20_000  # entries of each kind before all are dropped

_versions: dict[str, tuple[int, float]] = {}  # evening token -> (version, until)
_links: dict[str, tuple[tuple[int, int, str], int, float]] = {}  # link cache key -> (entry, version, until)


def held_version(token: str) -> int | None:
    """The evening's version this process holds (None when none, or held too long)."""
    held = _versions.get(token)
    if held is None or held[1] < time.monotonic():
        return None
    return held[0]


def hold_version(token: str, version: int) -> None:
    """Hold ``version`` as the evening's for ``HELD_SECONDS`` from now."""
    if len(_versions) >= MOST_HELD:
        _versions.clear()
    _versions[token] = (version, time.monotonic() + HELD_SECONDS)


def drop_version(token: str) -> None:
    """Stop holding the evening's version (the next reader asks the cache)."""
    _versions.pop(token, None)


def held_link(name: str, version: int) -> tuple[int, int, str] | None:
    """The link entry held under the cache key ``name`` if it was read with the evening's
    ``version`` (its version now) less than ``LINK_SECONDS`` ago, else None."""
    held = _links.get(name)
    if held is None or held[1] != version or held[2] < time.monotonic():
        return None
    return held[0]


def hold_link(name: str, entry: tuple[int, int, str], version: int) -> None:
    """Hold ``entry`` (read from the cache in the same round trip as the evening's ``version``)."""
    if len(_links) >= MOST_HELD:
        _links.clear()
    _links[name] = (entry, version, time.monotonic() + LINK_SECONDS)


def drop_link(name: str) -> None:
    """Stop holding a link entry (a reissued or revoked key, in this process at once)."""
    _links.pop(name, None)


def drop_all() -> None:
    """Forget everything held (with ``cache.clear()``, e.g. between tests)."""
    _versions.clear()
    _links.clear()
