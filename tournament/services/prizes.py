"""Standings and prizes of an evening (reads), every format's: the seed tied prizes are cut
with, and the standings as the evening's format gives them (``FormatPlugin.standings``).
Progressive Poker's (places by yellow counters, its prizes and settlement sheet) are
``tournament.formats.poker.standings``; the tables of four's
``tournament.formats.partnership.standings``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, cast

from tournament.kept import Kept
from tournament.models import Bell, Evening, Guest
from tournament.name_keys import name_order
from tournament.registry import format_for
from tournament.services.versions import evening_token

if TYPE_CHECKING:  # Progressive Poker's standings, named for the type checker only
    from tournament.formats.poker.standings import EveningStandings


def prize_seed(evening: Evening) -> str:
    """What the cards cut for tied prizes are drawn from (``random.Random``'s seed): the
    evening's own (``Evening.prize_seed``, kept by an import from its original) or, when it has
    none, one made from its public key. So the same evening's tied prizes always go to the same
    guests, on every page, every print and every copy (house rule: a tie once cut stays cut)."""
    return evening.prize_seed or f"prizes-{evening.public_key}"


DID_NOT_PLAY = "Did not play"
"""The heading of the guests listed apart from the places (``FormatPlugin.played_guests``)."""


def played_guests(evening: Evening, state: object = None, bells: Sequence[Bell] | None = None) -> frozenset[int] | None:
    """The guests who took part in a round whose bell has rung (``FormatPlugin.played_guests``
    over the evening's live bells, with the evening's ``state`` now when the caller has it);
    None before the first bell. ``bells``: those live bells (each with its ``record``) when the
    caller has read them, else read here (``live_bells``: one query, each record read once per
    process and bell)."""
    if bells is None:
        bells = live_bells(evening)  # the seats played
    return format_for(evening).played_guests(evening, bells, state)


BellKey = tuple[int, datetime]  # a bell's id and the time it was rung
_BELLS: Kept[dict[BellKey, Bell]] = Kept(16)  # evening token -> its bells read, each with its record


def live_bells(evening: Evening) -> list[Bell]:
    """The evening's live bells of play (kind "bell"), round by round, each with its id and
    ``record`` only (read-only: shared by every read of this process), each record read once per
    process and bell: a bell's record is written once and never changed (a correction or an undo
    marks bells undone and writes new ones), so a first draw after a change that rang no bell
    reads no record (issue 26 item 3). Kept under the evening's token, the bell's id and the
    time it was rung (a test database that gives a rolled-back row's id again gives it another
    time). One query, one more for the bells this process has not read yet."""
    kept = _BELLS.get(evening_token(evening.pk, evening.public_key), "bells", dict)
    keys = list(Bell.objects.live().bells().of_evening(evening.pk).in_order().values_list("pk", "rung_at"))
    new = {pk: (pk, at) for pk, at in keys if (pk, at) not in kept}
    if new:
        for bell in Bell.objects.filter(pk__in=list(new)).only("id", "record"):
            kept[new[bell.pk]] = bell
    return [kept[key] for key in keys if key in kept]  # (a bell deleted meanwhile: its evening's)


def not_played(guests: Mapping[int, Guest], played: frozenset[int] | None) -> tuple[Guest, ...]:
    """The guests of ``guests`` (guest id -> guest, every guest of the evening) who took part in
    no round whose bell has rung (``played``: ``FormatPlugin.played_guests``; None before the
    first bell: nobody), by name (``name_keys.name_order``). House rule: they hold no place and
    win no prize; the standings, the ceremony and the documents list them apart."""
    if played is None:
        return ()
    return tuple(sorted((g for pk, g in guests.items() if pk not in played), key=lambda g: (name_order(g.name), g.pk)))


def evening_standings(evening: Evening, guests: Mapping[int, Guest] | None = None) -> EveningStandings:
    """The evening's standings, prizes and (where counters have a value) settlement sheet, as its
    format gives them (``FormatPlugin.standings``; Progressive Poker's
    ``formats.poker.standings.poker_standings``, which the standings page, the documents and the
    export read). ``guests``: guest id -> guest, every guest of the evening, when the caller has
    read them (one query fewer). Raises ``RuleError`` for bad prize options stored on the
    evening."""
    return cast("EveningStandings", format_for(evening).standings(evening, guests=guests))
