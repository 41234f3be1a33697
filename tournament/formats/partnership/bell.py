"""The bell at tables of four: every table's report in, tallies added, winners moved; undo; guests
who leave or arrive between rounds.

Rules: ``docs/rules/tables-of-four.md`` through ``tables.formats.bell.ring_foursome_bell`` (stars, wins,
losses, points, tricks, buncos; the ladder to the foot table, the ladder one table down, or
Drive Whist's circle; partners changed or kept). House rules there: a table with no report at
the bell cuts for the win and scores nothing; a tie left to a cut is cut at the bell. As for
Progressive Poker (``services.bell``): one conditional update of the round claims the bell, so
a second ring or a late task does nothing; re-ringing a round whose bell was undone reuses the
cuts made then (a card once cut stays cut); a guest leaving or arriving is a ``Bell`` of kind
"leave" or "arrive" on the last round played, so undo replays it like a bell. A bell costs the
same queries for 8 guests or 500 (the seats are rewritten in two).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Now

from tables.formats.bell import FoursomeBell, FoursomeState, guest_arrives
from tables.formats.foursome import Movement, Side, is_ghost
from tables.formats.records import bell_to_json, report_score, state_to_json, stored_cuts
from tournament.formats.partnership.state import (
    foursome_rules,
    foursome_seats_follow,
    foursome_seats_replace,
    foursome_state,
    player_name,
)
from tournament.models import Bell, BellEntry, Evening, Guest, Round
from tournament.plain_inserts import insert_plain
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.naming import guest_names
from tournament.services.state import OPEN_STATES, lock_between_rounds
from tournament.services.versions import evening_touch


def foursome_movement(evening: Evening) -> tuple[Movement, bool]:
    """The evening's movement and whether partners change (the host's options, else the
    format's: ladder and partners changing for Euchre and Bunco, the circle with partners kept
    for Drive Whist)."""
    _, options = foursome_rules(evening)
    return format_for(evening).rules_of(evening).movement(options)  # type: ignore[attr-defined]


def foursome_ring(
    evening: Evening,
    rnd: Round,
    *,
    cuts: Mapping[int, Side] | None = None,
    rng: random.Random | None = None,
    state: FoursomeState | None = None,
) -> tuple[FoursomeBell, FoursomeState]:
    """What the bell of ``rnd`` does with its live reports (nothing saved): the record and the
    state after. ``cuts``: table -> the side that won the cut (default: the cuts of this round's
    undone bell, if any; others cut with ``rng``); ``state``: the evening's state now, when the
    caller has built it already (else it is built here). Raises ``RuleError`` for a stored
    report the seating no longer allows."""
    fmt, options = foursome_rules(evening)
    state = state or foursome_state(evening)
    scores = {}
    for table, report in rnd.results.filter(superseded_at__isnull=True).values_list("table", "report"):
        if 1 <= table <= len(state.tables):
            scores[table] = report_score(fmt, state.tables[table - 1], report, ties=options.ties)
    if cuts is None:
        undone = (  # only the record's cuts are read: the rest of it is not decoded
            rnd.bells.filter(undone_at__isnull=False, kind=Bell.Kind.BELL)
            .order_by("-undone_at", "-id")
            .values_list("pk", "record__cuts")
            .first()
        )
        cuts = stored_cuts(undone[1]) if undone is not None else None
    rung = format_for(evening).rules_of(evening).ring(state, scores, options=options, cuts=cuts, rng=rng)
    return rung.record, rung.after


def foursome_bell_apply(
    *,
    rnd: Round,
    evening: Evening,
    cause: str,
    user=None,
    device: str = "",
    cuts: Mapping[int, Side] | None = None,
    state: FoursomeState | None = None,
) -> Bell | None:
    """Ring the bell of ``rnd`` inside the caller's transaction (the round row is locked):
    score every report, move the players, store the bell and its moves. Returns the ``Bell``,
    or None when it waits (below) or another process rang it first. The last round's bell
    ends the evening. Raises ``RuleError`` for a stored report the seating no longer allows.

    ``docs/rules/tables-of-four.md``: "The bell: the head table rings it, and every table stops. A table whose
    game is unfinished is decided by the score so far." So a bell rung by the head table's
    report or by the clock stops play and waits for every table's score so far (the round is
    marked rung, ``Round.waiting_for`` says which tables); each report then tries again, and
    the last one moves everyone. Only the host's bell (``cause`` "host", from the confirmation
    page that names the missing tables) moves the players with tables unreported: those
    tables cut for the win and score nothing (house rule, ``tables.formats.bell``). ``state``: the
    evening's state now, when the caller has built it (one state per request)."""
    state = state or foursome_state(evening)
    if cause != Bell.Cause.HOST and _bell_waits(
        rnd=rnd, evening=evening, cause=cause, user=user, device=device, tables=len(state.tables)
    ):
        return None
    record, after = foursome_ring(evening, rnd, cuts=cuts, state=state)
    claimed = Round.objects.filter(pk=rnd.pk, state__in=OPEN_STATES).update(
        state=Round.State.CLOSED, waiting_for="", reopened=Round.Reopened.NO
    )
    if not claimed:
        return None
    try:
        with transaction.atomic():
            bell = Bell.objects.create(
                round=rnd,
                kind=Bell.Kind.BELL,
                cause=cause,
                record=bell_to_json(record),
                state_after=state_to_json(after),
            )
    except IntegrityError:
        return None  # another process rang this round's bell first
    _bell_rung(bell, record, after, evening=evening, user=user, device=device)
    return bell


def _bell_rung(bell: Bell, record: FoursomeBell, after: FoursomeState, *, evening: Evening, user, device: str) -> None:
    """After the bell is stored: its moves, the seats, the end after the last round, the audit
    entry and a new version."""
    rnd = bell.round
    _store_moves(bell, record, guest_names(evening))
    foursome_seats_follow(evening=evening, before=record.before, after=after.tables)
    if rnd.is_last:
        Evening.objects.filter(pk=evening.pk).update(stage=Evening.Stage.ENDED, ended_at=Now())
        evening.refresh_from_db(fields=["stage", "ended_at"])
    audit_log(
        evening=evening,
        action="bell.ring",
        user=user,
        device=device,
        round=rnd.number,
        cause=bell.cause,
        moves=sum(1 for player, _, _ in record.moves if not is_ghost(player)),
        table_cuts={str(t): s.value for t, s in record.cuts.items()},
    )
    evening_touch(evening=evening)
    rnd.state, rnd.reopened = Round.State.CLOSED, Round.Reopened.NO


def _bell_waits(*, rnd: Round, evening: Evening, cause: str, user, device: str, tables: int) -> bool:
    """Mark ``rnd`` rung and waiting when one of its ``tables`` has not reported its score yet;
    True if so (an audit entry and a new version the first time). Play stops: the clock is cleared."""
    reported = set(rnd.results.filter(superseded_at__isnull=True).values_list("table", flat=True))
    missing = [n for n in range(1, tables + 1) if n not in reported]
    if not missing:
        return False
    listed = f"table {missing[0]}" if len(missing) == 1 else "tables " + ", ".join(map(str, missing[:-1]))
    listed += f" and {missing[-1]}" if len(missing) > 1 else ""
    reason = f"every table's score so far: {listed} {'has' if len(missing) == 1 else 'have'} not reported yet"
    changed = (
        Round.objects.filter(pk=rnd.pk, state__in=OPEN_STATES)
        .exclude(state=Round.State.RUNG, waiting_for=reason[:300])
        .update(state=Round.State.RUNG, waiting_for=reason[:300], deadline=None, clock_version=F("clock_version") + 1)
    )
    if changed:
        audit_log(
            evening=evening, action="bell.wait", user=user, device=device, round=rnd.number, cause=cause, reason=reason
        )
        evening_touch(evening=evening)
    rnd.state, rnd.waiting_for = Round.State.RUNG, reason[:300]
    return True


def _store_moves(bell: Bell, record: FoursomeBell, names: Mapping[int, str]) -> None:
    """One ``BellEntry`` of kind "move" per guest who changes table (ghosts have none), in one
    INSERT (``plain_inserts.insert_plain``)."""
    insert_plain(
        BellEntry,
        [
            {
                "bell_id": bell.pk,
                "kind": "move",
                "guest_id": player,
                "from_table": a,
                "to_table": b,
                "text": f"{player_name(player, names)} moves from table {a} to table {b}."[:300],
            }
            for player, a, b in record.moves
            if not is_ghost(player)
        ],
    )


def foursome_bell_undone(*, evening: Evening, bell: Bell) -> None:
    """After ``bell`` (of this format) was marked undone: the seats go back to the state before
    it. An undone departure gives the guest back their seat and status "here"; an undone
    arrival keeps the door's check-in (status stays "here": they are here, just not seated;
    house rule, issue 22). Inside the caller's transaction; two or three queries."""
    if bell.kind == Bell.Kind.LEAVE:
        Guest.objects.filter(pk=bell.record.get("guest")).update(status=Guest.Status.HERE)
    foursome_seats_replace(evening=evening, tables=foursome_state(evening).tables)


def _store_step(
    *,
    evening: Evening,
    last: Round,
    kind: str,
    guest: Guest,
    before: FoursomeState,
    after: FoursomeState,
    user,
    device: str,
) -> Bell:
    record = {
        "format": "foursome",
        "kind": kind,
        "guest": guest.pk,
        "before": [list(t) for t in before.tables],
        "after": [list(t) for t in after.tables],
    }
    bell = Bell.objects.create(
        round=last, kind=kind, cause=Bell.Cause.HOST, record=record, state_after=state_to_json(after)
    )
    foursome_seats_replace(evening=evening, tables=after.tables)
    audit_log(evening=evening, action=f"guest.{kind}", user=user, device=device, guest_id=guest.pk, name=guest.name)
    evening_touch(evening=evening)
    return bell


def foursome_guest_leaves(*, evening: Evening, guest: Guest, user=None, device: str = "") -> Bell:
    """A seated guest leaves between rounds: a ghost takes their seat (``docs/rules/tables-of-four.md``: the
    leaver keeps their tallies and their place in the standings). Returns the "leave" bell.
    Raises ``RuleError`` before round 1, during a round, or for a guest not seated."""
    with transaction.atomic():
        evening, last = lock_between_rounds(evening, guest, "left")
        before = foursome_state(evening)
        after = format_for(evening).leave_state(before, guest.pk)  # type: ignore[attr-defined]
        Guest.objects.filter(pk=guest.pk).update(status=Guest.Status.LEFT)
        return _store_step(
            evening=evening,
            last=last,
            kind=Bell.Kind.LEAVE,
            guest=guest,
            before=before,
            after=after,
            user=user,
            device=device,
        )


def foursome_guest_arrives(*, evening: Evening, guest: Guest, user=None, device: str = "") -> Bell:
    """A late guest takes a ghost's seat between rounds (the ghost nearest the foot table), or
    opens a new foot table with three ghosts (house rule, ``tables.formats.bell``). Returns the
    "arrive" bell. Raises ``RuleError`` before round 1, during a round, or for a guest seated
    already."""
    with transaction.atomic():
        evening, last = lock_between_rounds(evening, guest, "arrived")
        before = foursome_state(evening)
        after = guest_arrives(before, guest.pk)
        Guest.objects.filter(pk=guest.pk).update(status=Guest.Status.HERE)
        return _store_step(
            evening=evening,
            last=last,
            kind=Bell.Kind.ARRIVE,
            guest=guest,
            before=before,
            after=after,
            user=user,
            device=device,
        )


def foursome_seats_step(
    *,
    evening: Evening,
    last: Round,
    guest: int,
    before: Sequence[Sequence[int]],
    after: Sequence[Sequence[int]],
    words: str,
    names: Mapping[int, str],
) -> Bell:
    """The family's "seat" step on ``last`` (``FormatPlugin.seats_changed``): the state with the
    tables ``after`` and the same tallies, its record the guest the host named (``guest``), the
    tables before and after and who moved
    (``moves``: player, table before, table after; ghosts too), an entry "seat" for each guest
    who sits elsewhere (their table and seat in words), the seats rewritten. Inside the caller's
    transaction. Undo: ``foursome_bell_undone`` (the seats of the state before it)."""
    from dataclasses import replace

    from tables.seats import seat_moves

    state = foursome_state(evening)
    new = replace(state, tables=tuple(tuple(t) for t in after))  # type: ignore[misc]
    moves = seat_moves(before, after, fixed_seats=True)
    record = {
        "format": "foursome",
        "kind": Bell.Kind.SEAT,
        "guest": guest,
        "before": [list(t) for t in before],
        "after": [list(t) for t in after],
        "moves": [list(m) for m in moves],
    }
    bell = Bell.objects.create(
        round=last, kind=Bell.Kind.SEAT, cause=Bell.Cause.HOST, record=record, state_after=state_to_json(new)
    )
    store_seat_entries(bell, moves, after, names)
    foursome_seats_replace(evening=evening, tables=new.tables)
    return bell


def store_seat_entries(
    bell: Bell, moves: Sequence[Sequence[int]], after: Sequence[Sequence[int]], names: Mapping[int, str]
) -> None:
    """Store a "seat" step's entries: one "seat" for each guest ``moves`` sends elsewhere (player,
    table before, table after; ghosts left out), their table and seat in ``after`` in words, as
    the phones and the audit read them. Used when the host changes seats and when a correction
    plays the change again. House rule: the host changes seats (docs/rules/tables-of-four.md)."""
    from tables.formats.foursome import Seat as SeatName

    entries = []
    for player, a, b in moves:
        if is_ghost(player):
            continue
        place = f"table {b}, {SeatName(list(after[b - 1]).index(player)).word}"
        entries.append(
            BellEntry(
                bell=bell,
                kind="seat",
                guest_id=player,
                from_table=a,
                to_table=b,
                rule="house rule: the host changes seats (docs/rules/tables-of-four.md)",
                text=f"The host changed your seat: go to {place}."[:300],
                about=f"{player_name(player, names)} changes seats: now at {place}."[:300],
            )
        )
    BellEntry.objects.bulk_create(entries)
