"""Values a process keeps per version: one memo for every page that is drawn again unchanged.

An evening's board (``selectors.guest_boards``), a club's season standings, ledger and calendar
(``clubs.versions``) each cost milliseconds to compute and are asked for by many requests
between two changes, so each process keeps them under the version of what they read. What is
kept is a memo of values the database defines, not state: every process computes the same
value for the same version, and a value kept under an older version is never answered again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")
_EVERY: list[Kept] = []  # every ``Kept`` of the process (``kept_forget``)


class Kept(Generic[T]):
    """Values kept by this process, one per name (an evening's or a season's token) at one key
    (its version): ``get`` answers the kept value while the key is the same and computes a new
    one otherwise, one thread computing while the others wait. At most ``size`` names are kept
    (the oldest dropped first). Thread-safe."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: dict[str, tuple[Hashable, T]] = {}
        self._lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        _EVERY.append(self)

    def peek(self, name: str, key: Hashable) -> T | None:
        """The value kept for ``name`` at ``key``, or None."""
        hit = self._values.get(name)
        return hit[1] if hit is not None and hit[0] == key else None

    def key_of(self, name: str) -> Hashable | None:
        """The key of the value kept for ``name``, or None when none is kept."""
        hit = self._values.get(name)
        return None if hit is None else hit[0]

    def put(self, name: str, key: Hashable, value: T) -> None:
        """Keep ``value`` for ``name`` at ``key`` (dropping the oldest names beyond ``size``)."""
        with self._lock:
            self._values.pop(name, None)
            self._values[name] = (key, value)
            while len(self._values) > self.size:
                dropped = next(iter(self._values))
                self._values.pop(dropped)
                self._locks.pop(dropped, None)

    def get(self, name: str, key: Hashable, compute: Callable[[], T], *, keep: bool = True) -> T:
        """The value for ``name`` at ``key``: the kept one, or ``compute()``, kept from now on
        unless ``keep`` is false (a request that read its version before the last change: its
        value must not push out the newer one). Raises what ``compute`` raises (nothing is kept
        then)."""
        hit = self._values.get(name)
        if hit is not None and hit[0] == key:
            return hit[1]
        if not keep:
            return compute()
        with self._lock:
            lock = self._locks.setdefault(name, threading.Lock())
        with lock:
            hit = self._values.get(name)
            if hit is not None and hit[0] == key:
                return hit[1]
            value = compute()
            self.put(name, key, value)
        return value

    def clear(self) -> None:
        """Forget every kept value (the next reads compute them again)."""
        with self._lock:
            self._values.clear()
            self._locks.clear()


def kept_forget() -> None:
    """Forget everything this process keeps per version (every evening's board, every season's
    standings, ledger and calendar): the next reads compute them again, as in a process that
    has just started."""
    for kept in _EVERY:
        kept.clear()
