"""A season's version, under which each process keeps (``tournament.kept.Kept``) the season's
standings and ledger, and each evening's season tallies (issue 26: "every page near its floor").

A season's standings read its club (order, subs shown, currency, roster, guests' member links,
kitties: every change the clubs app makes bumps ``Club.version``, ``models.club_touch``), the
season's dates, and its evenings (each evening's ``version`` grows with every bell, result,
correction, undo or guest change: ``tournament.services.versions.evening_touch``). So a
season's version is the club's version, the season's dates and each of its evenings' token and
version, read fresh in two queries (``season_version``); whatever is kept under an older
version is never answered again. As the evening's board (``tournament.selectors.guest_boards``),
what is kept is a memo of values the database defines, not state: every process computes the
same standings for the same version. A value missing is computed in one snapshot of the database
with the version read again in it (``season_part``, ``tournament.snapshots``), so what is kept
under a version is exactly what the database held at it. Nothing reads them inside a transaction that has
written what they read (a version number of a transaction rolled back would come again for
other rows): the services write, the pages read after them.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from clubs.models import Season
from tournament.kept import Kept
from tournament.models import Evening
from tournament.services.versions import evening_token
from tournament.snapshots import one_snapshot, snapshot_serial

T = TypeVar("T")


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
    snapshot: int | None = None  # the snapshot it was read in (``tournament.snapshots.snapshot_serial``)


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
    return SeasonVersion(season, token, evenings, key, snapshot_serial())


def season_part(kept: Kept[T], version: SeasonVersion, compute: Callable[[SeasonVersion], T]) -> T:
    """The value ``kept`` holds for the season at ``version``, or else ``compute(now)``'s, kept
    from now on under ``now``: ``version`` itself when it was read in the snapshot this thread
    reads in now (``tournament.snapshots``), else the season's version read again inside one
    snapshot of the database in which the value is computed (two more queries), so that a change
    committed meanwhile is in all of it or in none. Raises ``Season.DoesNotExist`` for a season
    deleted meanwhile, and what ``compute`` raises (nothing is kept then)."""
    hit = kept.peek(version.token, version.key)
    if hit is not None:
        return hit
    with one_snapshot():
        now = version if version.snapshot == snapshot_serial() else season_version(version.season)
        return kept.get(now.token, now.key, lambda: compute(now))
