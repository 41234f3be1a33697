"""Guests who leave after round 1 has started, and guests who arrive late.

Rules: ``tables.formats.poker.bell.guests`` (house rules, ``BellOptions.leave_fill`` and ``arrive_at``): a
departing guest's table plays one short; a table that would drop below 3 players is filled from
the largest table that can spare one (chosen by cut), or closes when none can; a late guest
sits at the booby table unless it is full, with a fresh stake. Each change is stored as a
``Bell`` of kind "leave" or "arrive" attached to the last round played, so that undo and
corrections replay it like a bell. House rule: only between rounds (while no round is in play):
a guest leaving mid-deal finishes the deal or forfeits it to the table, and the host marks them
as left after the bell.

Before round 1 (after the draw) the seating is changed by ``tournament.services.draw_changes``.
"""

from __future__ import annotations

from django.db import transaction

from tables.errors import RuleError
from tables.formats.poker.bell import BellRecord, guest_arrives, guest_leaves
from tournament.formats.poker.bell import bell_store, seats_follow
from tournament.formats.poker.state import bell_options, poker_state
from tournament.models import Bell, Evening, Guest
from tournament.services.audit import audit_log
from tournament.services.naming import guest_names, name_guests
from tournament.services.state import lock_between_rounds
from tournament.services.versions import evening_touch


def _store(*, evening: Evening, last, record: BellRecord, action: str, guest: Guest, user, device: str) -> Bell:
    names = guest_names(evening)
    bell = bell_store(rnd=last, cause=Bell.Cause.HOST, record=record, names=names)
    seats_follow(evening=evening, before=record.before, after=record.after)
    audit_log(
        evening=evening,
        action=action,
        user=user,
        device=device,
        guest_id=guest.pk,
        name=guest.name,
        entries=[name_guests(e.about, names) for e in record.entries],
    )
    evening_touch(evening=evening)
    return bell


def guest_depart(*, evening: Evening, guest: Guest, user=None, device: str = "") -> Bell:
    """A seated guest leaves between rounds: their seat is given up (tables kept playable, see
    the module docstring) and they are marked as left; their counters stay in the standings.
    Returns the stored "leave" bell. Raises ``RuleError`` before round 1, during a round, for a
    guest not seated, or when the evening would be left with fewer than two tables."""
    with transaction.atomic():
        evening, last = lock_between_rounds(evening, guest, "left")
        state = poker_state(evening)
        if guest.pk not in state.seated():
            raise RuleError(f"{guest.name} has no seat, so there is nothing to give up.")
        record = guest_leaves(state, guest.pk, options=bell_options(evening))
        Guest.objects.filter(pk=guest.pk).update(status=Guest.Status.LEFT)
        return _store(
            evening=evening, last=last, record=record, action="guest.leave", guest=guest, user=user, device=device
        )


def guest_arrive(*, evening: Evening, guest: Guest, table: int | None = None, user=None, device: str = "") -> Bell:
    """A late guest (or one coming back) takes a seat between rounds, at ``table`` if the host
    names one, else where ``BellOptions.arrive_at`` says; a new guest takes a stake, one coming
    back keeps their counters. Marks them checked in. Returns the stored "arrive" bell. Raises
    ``RuleError`` before round 1, during a round, for a guest already seated, or a full table."""
    with transaction.atomic():
        evening, last = lock_between_rounds(evening, guest, "arrived")
        state = poker_state(evening)
        if guest.pk in state.seated():
            raise RuleError(f"{guest.name} already sits at table {state.table_of(guest.pk)}.")
        record = guest_arrives(
            state, guest.pk, stake=evening.counters_per_stake, table=table, options=bell_options(evening)
        )
        Guest.objects.filter(pk=guest.pk).update(status=Guest.Status.HERE)
        return _store(
            evening=evening, last=last, record=record, action="guest.arrive", guest=guest, user=user, device=device
        )
