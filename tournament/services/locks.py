"""Row locks, taken in one order by every service: evening → round → result.

Two transactions that lock the same rows in different orders can each wait for the other; on
PostgreSQL one of them then fails with "deadlock detected" (a guest would see a server error).
So every service that changes an evening takes its locks in this order, and only through these
functions:

1. the **evening** row (``lock_evening``) — always first, also when the service then changes
   only a guest, a draw or a round: every service ends by bumping the evening's version
   (``tournament.services.versions.evening_touch``, an UPDATE that locks the evening row), so a
   service that locked something else first would hold it while waiting for the evening;
2. then a **round** of that evening (``lock_round``, ``lock_round_number``);
3. then a **result** of that round (``lock_result``); votes, bells, seats and guests are
   written after these.

Each lock takes exactly one row of one table: ``SELECT … FOR NO KEY UPDATE OF`` that table
(``select_for_update(of=("self",), no_key=True)``), with no default ordering and no joins
(a ``select_related`` or a model's default ordering through a foreign key would lock the joined
rows too, out of order). NO KEY UPDATE, the lock an UPDATE takes, does not block the inserts
that merely refer to the row (an audit entry, a result, a vote). On SQLite (one writer at a
time, ``transaction_mode = IMMEDIATE``) these are plain reads. Each function must run inside
``transaction.atomic()``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tournament.models import Evening, Result, Round


def _one_row(queryset: QuerySet) -> QuerySet:
    """``queryset`` locking only its own table's rows, without the model's default ordering."""
    return queryset.order_by().select_for_update(of=("self",), no_key=True)


def lock_evening(evening_id: int, **annotations: Any) -> Evening:
    """Lock an evening's row (the first lock of every service); returns the evening as stored.
    ``annotations`` (name -> expression, e.g. an ``Exists`` of its rounds) are read with the
    row in the same statement and set on the evening under those names. Raises
    ``Evening.DoesNotExist`` when there is none."""
    return _one_row(Evening.objects.filter(pk=evening_id).annotate(**annotations)).get()


def lock_round(round_id: int, *, evening: Evening | None = None) -> Round | None:
    """Lock a round's row after its evening's (locked here unless ``evening``, already locked,
    is given and is the round's); returns the round with ``round.evening`` set to the locked
    evening, or None when there is no such round. Three queries (one when ``evening`` is given)."""
    if evening is not None:
        rnd = _one_row(Round.objects.filter(pk=round_id, evening_id=evening.pk)).first()
        if rnd is not None:
            rnd.evening = evening
            return rnd
    evening_id = Round.objects.filter(pk=round_id).order_by().values_list("evening_id", flat=True).first()
    if evening_id is None:
        return None
    evening = lock_evening(evening_id)
    rnd = _one_row(Round.objects.filter(pk=round_id)).first()
    if rnd is not None:
        rnd.evening = evening
    return rnd


def lock_round_number(evening: Evening, number: int) -> Round | None:
    """Lock the round of a locked ``evening`` with this number; returns it (``round.evening``
    is ``evening``) or None when the evening has no such round."""
    rnd = _one_row(Round.objects.filter(evening_id=evening.pk, number=number)).first()
    if rnd is not None:
        rnd.evening = evening
    return rnd


def lock_result(result_id: int, *, evening_id: int) -> Result | None:
    """Lock a result of one of ``evening_id``'s rounds: the evening, then the result's round,
    then the result. Returns the result (``result.round`` is the locked round, whose
    ``evening`` is the locked evening), or None when there is no such result in that evening."""
    round_id = (
        Result.objects.filter(pk=result_id, round__evening_id=evening_id)
        .order_by()
        .values_list("round_id", flat=True)
        .first()
    )
    if round_id is None:
        return None
    evening = lock_evening(evening_id)
    rnd = lock_round(round_id, evening=evening)
    result = _one_row(Result.objects.filter(pk=result_id)).first()
    if result is not None:
        result.round = rnd
    return result
