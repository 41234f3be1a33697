"""A season's version, and what each process keeps per version: the season's standings and
ledger, and each evening's season tallies (issue 26: "every page near its floor").

A season's standings read its club (order, subs shown, currency, roster, guests' member links,
kitties: every change the clubs app makes bumps ``Club.version``, ``models.club_touch``), the
season's dates, and its evenings (each evening's ``version`` grows with every bell, result,
correction, undo or guest change: ``tournament.services.versions.evening_touch``). So a
season's version is the club's version, the season's dates and each of its evenings' token and
version, read fresh in two queries (``season_version``); whatever is kept under an older
version is never answered again. As the evening's board (``tournament.selectors.guest_boards``),
what is kept is a memo of values the database defines, not state: every process computes the
same standings for the same version. The key is read before the values are computed, so a value
kept under a version is never older than it. Nothing reads them inside a transaction that has
written what they read (a version number of a transaction rolled back would come again for
other rows): the services write, the pages read after them.
"""

from __future__ import annotations

import datetime
import hashlib
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from clubs.models import Season
from tournament.models import Evening
from tournament.services.versions import evening_token

T = TypeVar("T")
_EVERY: list[Kept] = []  # every ``Kept`` of the process (``kept_forget``)


@dataclass(frozen=True)
class SeasonEvening:
    """One evening of a season as its version names it: id, cache token, version, date."""

    pk: int
    token: str
    version: int
    date: datetime.date


@dataclass(frozen=True)
class SeasonVersion:
    """A season read fresh (with its club) and its version: ``token`` names the season in what a
    process keeps (its id and a hash of its room key, so a reused id never meets an old entry),
    ``evenings`` its evenings by date, ``key`` what changes whenever anything its standings or
    ledger read changes (module docstring)."""

    season: Season
    token: str
    evenings: tuple[SeasonEvening, ...]
    key: Hashable


def season_version(season: Season, *, fresh: bool = False) -> SeasonVersion:
    """The season's version, read from the database: ``season`` may be an old copy (only its id
    is used: two queries whatever its evenings), or, with ``fresh``, the season and its club as
    the caller has just read them in this request (one query). Raises ``Season.DoesNotExist``
    for a season deleted meanwhile."""
    if not fresh:
        season = Season.objects.select_related("club").get(pk=season.pk)
    rows = Evening.objects.filter(club_evening__club_id=season.club_id, date__gte=season.starts_on)
    if season.ends_on is not None:
        rows = rows.filter(date__lte=season.ends_on)
    evenings = tuple(
        SeasonEvening(pk, evening_token(pk, public_key), version, date)
        for pk, public_key, version, date in rows.order_by("date", "id").values_list(
            "pk", "public_key", "version", "date"
        )
    )
    token = f"{season.pk}-{hashlib.sha256(season.room_key.encode()).hexdigest()[:16]}"
    key = (season.club.version, season.starts_on, season.ends_on, tuple((e.token, e.version, e.date) for e in evenings))
    return SeasonVersion(season, token, evenings, key)


class Kept(Generic[T]):
    """Values kept by this process, one per name (a season's or an evening's token) at one key
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

    def put(self, name: str, key: Hashable, value: T) -> None:
        """Keep ``value`` for ``name`` at ``key`` (dropping the oldest names beyond ``size``)."""
        with self._lock:
            self._values.pop(name, None)
            self._values[name] = (key, value)
            while len(self._values) > self.size:
                dropped = next(iter(self._values))
                self._values.pop(dropped)
                self._locks.pop(dropped, None)

    def get(self, name: str, key: Hashable, compute: Callable[[], T]) -> T:
        """The value for ``name`` at ``key``: the kept one, or ``compute()`` kept from now on.
        Raises what ``compute`` raises (nothing is kept then)."""
        hit = self._values.get(name)
        if hit is not None and hit[0] == key:
            return hit[1]
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
    """Forget everything this process keeps per version (every season's standings, ledger and
    calendar, every evening's tallies): the next reads compute them again, as in a process
    that has just started."""
    for kept in _EVERY:
        kept.clear()
