"""Progressive Poker's bell: ``tables.formats.poker.bell.ring_bell`` applied to the round in play
and what it did stored (its record, entries and the seats), undone, or tried as a dry run.

``services.bell`` holds what every format's bell shares (the lock, the undo, the steps in
words) and asks the evening's plug-in for the rest (``FormatPlugin.bell_apply``,
``bell_undone``, ``bell_preview``); this is Progressive Poker's part. The bell goes through one
conditional update of its round (running/paused/waiting -> closed) and the database allows one
live bell per round, so a second ring, a late timer or a duplicate task does nothing. A bell
costs the same dozen queries for 8 guests or 500 (the seats move in one UPDATE). Rules:
``docs/rules/progressive-poker.md`` via ``tables.formats.poker.bell``; messages and entries
name guests (``tournament.services.naming``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Now

from tables.cuts import CardsCut, TieCards, TieKey, ties_cut
from tables.errors import RuleError
from tables.formats.poker.bell import BellEntry as TableEntry
from tables.formats.poker.bell import BellRecord, EveningState, ResultError
from tournament.formats.poker.state import live_results, poker_state, ring_options
from tournament.models import Bell, BellEntry, Evening, Guest, Round, Seat
from tournament.plain_inserts import Plain, insert_plain, update_plain
from tournament.plugin import BellPreview
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.bell import Cuts
from tournament.services.draws import seats_replace
from tournament.services.naming import error_message, guest_names, name_guests
from tournament.services.state import OPEN_STATES
from tournament.services.versions import evening_touch


def poker_bell_apply(
    *,
    rnd: Round,
    evening: Evening,
    cause: str,
    user,
    device: str,
    cuts: Cuts | None = None,
    state: EveningState | None = None,
) -> Bell | None:
    """Progressive Poker's bell inside ``bell_apply``'s transaction: ``tables.formats.poker.bell.ring_bell``
    on the evening's state (``state`` when the caller built it, else read now) and the round's
    results (``docs/rules/progressive-poker.md``, "The bell"); the bell waits (None) when the
    rules cannot apply it yet. Raises ``RuleError`` for a bad cut. ``FormatPlugin.bell_apply``."""
    state = state if state is not None else poker_state(evening)
    results = live_results(rnd)
    last = Round.is_last_number(rnd.number, evening=evening)
    names = guest_names(evening)
    try:
        record = (
            format_for(evening)
            .rules_of(evening)
            .ring(
                state,
                results,
                stake=evening.counters_per_stake,
                options=ring_options(evening),
                last_round=last,
                cuts=cards_for_bell(rnd, cuts),
            )
            .record
        )
    except ResultError as error:
        _bell_waits(
            rnd=rnd, evening=evening, reason=error_message(error, names=names), cause=cause, user=user, device=device
        )
        return None
    claimed = Round.objects.filter(pk=rnd.pk, state__in=OPEN_STATES).update(
        state=Round.State.CLOSED, waiting_for="", reopened=Round.Reopened.NO
    )
    if not claimed:
        return None
    try:
        with transaction.atomic():
            bell = bell_store(rnd=rnd, cause=cause, record=record, names=names)
    except IntegrityError:
        return None  # another process rang this round's bell first
    _bell_rung(rnd=rnd, evening=evening, record=record, last=last, names=names, cause=cause, user=user, device=device)
    return bell


def _bell_waits(*, rnd: Round, evening: Evening, reason: str, cause: str, user, device: str) -> None:
    """The bell cannot apply yet: mark the round rung and waiting for ``reason`` (guests named),
    its clock stopped and no longer reopened; logged and touched unless another process moved
    the round first. Inside ``bell_apply``'s transaction."""
    waiting = Round.objects.filter(pk=rnd.pk, state__in=OPEN_STATES).update(
        state=Round.State.RUNG,
        waiting_for=reason[:300],
        deadline=None,
        clock_version=F("clock_version") + 1,
        reopened=Round.Reopened.NO,
    )
    if waiting:
        audit_log(
            evening=evening, action="bell.wait", user=user, device=device, round=rnd.number, cause=cause, reason=reason
        )
        evening_touch(evening=evening)
    rnd.state, rnd.waiting_for, rnd.reopened = Round.State.RUNG, reason[:300], Round.Reopened.NO


def _bell_rung(
    *,
    rnd: Round,
    evening: Evening,
    record: BellRecord,
    last: bool,
    names: Mapping[int, str],
    cause: str,
    user,
    device: str,
) -> None:
    """After a stored bell: the seats follow ``record``, the last round's bell ends play
    (``last``), the audit log notes the moves, cuts and warnings, and the evening is touched.
    Inside ``bell_apply``'s transaction."""
    seats_follow(evening=evening, before=record.before, after=record.after)
    if last:  # the end of play: the final count and the prize ceremony follow (services.ending)
        Evening.objects.filter(pk=evening.pk).update(stage=Evening.Stage.ENDED, ended_at=Now())
        evening.refresh_from_db(fields=["stage", "ended_at"])
    audit_log(
        evening=evening,
        action="bell.ring",
        user=user,
        device=device,
        round=rnd.number,
        cause=cause,
        moves=sum(1 for e in record.entries if e.from_table != e.to_table and e.to_table),
        cuts={str(g): list(r) for g, r in record.cuts().items()},
        warnings=[name_guests(w, names) for w in record.warnings],
    )
    evening_touch(evening=evening)
    rnd.state, rnd.reopened = Round.State.CLOSED, Round.Reopened.NO


def ties_settled(round_ids: Iterable[int]) -> dict[tuple[int, str, int | None], dict[TieKey, TieCards]]:
    """(round id, kind, guest) -> the ties settled by cutting at that step's bells in those
    rounds, live or undone, oldest first (``tables.formats.poker.bell.ties_cut``): the round's bell is
    (round id, "bell", None), a guest's leaving (round id, "leave", guest id). One query.
    House rule (``tables.cuts``): a tie once cut stays cut, so a tie that a correction or
    an undo removes and a later ring brings back is settled by the same cards as the first
    time, and a correction that is corrected back gives back exactly the evening it changed."""
    bells: dict[tuple[int, str, int | None], list[list[TableEntry]]] = {}
    rows = (  # only the records' guest and entries are read: their states are not decoded
        Bell.objects.filter(round_id__in=round_ids)
        .order_by("id")
        .values_list("round_id", "kind", "record__guest", "record__entries")
    )
    for round_id, kind, guest, stored in rows:
        step = (round_id, kind, None if guest is None else int(guest))
        entries = [TableEntry.from_json(e) for e in stored or () if e.get("kind") == "cut"]
        bells.setdefault(step, []).append(entries)
    return {step: ties_cut(entries) for step, entries in bells.items()}


def cards_for_bell(rnd: Round, given: Cuts | None) -> CardsCut:
    """The cards for ringing ``rnd``'s bell: the host's ``given`` cards first, then the ties
    settled at the round's undone bells (``ties_settled``, one query), the rest at random."""
    return CardsCut(given=given or {}, ties=ties_settled([rnd.pk]).get((rnd.pk, Bell.Kind.BELL, None), {}))


def bell_store(*, rnd: Round, cause: str, record: BellRecord, names: Mapping[int, str]) -> Bell:
    """Save one bell's record and its entries (texts with guests' names). Two queries.
    The record's kind ("bell", "leave", "arrive") becomes the ``Bell.kind``. The state after
    is stored once, in ``Bell.state_after``, not again in ``Bell.record`` (since 8 December
    2026; read a record back with ``stored_record``, which reads both forms the same).

    Raises ``IntegrityError`` when the round already has a live bell (of kind "bell")."""
    bell = Bell.objects.create(
        round=rnd, kind=record.kind, cause=cause, record=record.to_json(after=False), state_after=record.after.to_json()
    )
    insert_plain(BellEntry, [{**values, "bell_id": bell.pk} for values in entry_values(record, names)])  # one INSERT
    return bell


def stored_record(bell: Bell) -> BellRecord:
    """The ``BellRecord`` of a stored Progressive Poker step (a bell, a departure, an arrival or
    a seat change; ``record`` and ``state_after`` loaded): a record stored with its state after
    (every step before 8 December 2026) and one stored without (its state after then kept only
    in ``Bell.state_after``, ``bell_store``) read to the same record. No query. Raises
    ``KeyError`` or ``StateError`` for a record that keeps no states (an undone bell imported
    from its entries, ``exchange.undone``: never read back)."""
    return BellRecord.from_json(bell.record, after=bell.state_after)


def entry_rows(bell: Bell, record: BellRecord, names: Mapping[int, str]) -> list[BellEntry]:
    """The rows of ``record``'s entries for ``bell`` (not yet saved; ``entry_values``)."""
    return [BellEntry(bell=bell, **values) for values in entry_values(record, names)]


def entry_values(record: BellRecord, names: Mapping[int, str]) -> list[dict[str, Plain]]:
    """Each of ``record``'s entries as its row's values (kind, guest_id, tables, amount, rule,
    words), the words naming the guests (``names``: guest id -> name), each cut to its
    column's length."""
    return [
        {
            "kind": e.kind,
            "guest_id": e.guest,
            "from_table": e.from_table,
            "to_table": e.to_table,
            "amount": e.amount,
            "rule": e.rule[:200],
            "text": name_guests(e.text, names)[:300],
            "about": name_guests(e.about, names)[:300],
        }
        for e in record.entries
    ]


def seats_follow(*, evening: Evening, before: EveningState, after: EveningState) -> int:
    """Update the ``Seat`` rows of guests whose table changed from ``before`` to ``after``, in
    one UPDATE whatever the number of tables (``plain_inserts.update_plain``). When the set
    of seated guests changed (someone left or arrived) all seats are rewritten (two queries).
    Returns how many guests moved."""
    old = {g: n for n, ids in enumerate(before.tables, 1) for g in ids}
    new = {g: n for n, ids in enumerate(after.tables, 1) for g in ids}
    if set(old) != set(new):
        seats_replace(evening=evening, tables=after.tables)
        return len(new)
    moved: dict[int, list[int]] = {}
    for guest, table in new.items():
        if old.get(guest) != table:
            moved.setdefault(table, []).append(guest)
    pairs = [(guest, table) for table, ids in moved.items() for guest in ids]
    # One UPDATE ... FROM (VALUES (guest, table), ...): a join the database runs once, where a
    # CASE on the guest would be read through once per seat.
    update_plain(Seat, pairs, key="guest_id", columns=("table",), where={"evening_id": evening.pk})
    return len(pairs)


def poker_bell_preview(rnd: Round) -> BellPreview:
    """Dry-run the bell of a round in play with its live results and random cuts, so the host
    can see who may have to cut and enter the cards actually cut. Saves nothing; a few
    queries. Which ties arise can depend on earlier cuts, so the list is a guide."""
    evening = rnd.evening
    names = guest_names(evening)
    try:
        record = (
            format_for(evening)
            .rules_of(evening)
            .ring(
                poker_state(evening),
                live_results(rnd),
                stake=evening.counters_per_stake,
                options=ring_options(evening),
                last_round=Round.is_last_number(rnd.number, evening=evening),
                cuts=cards_for_bell(rnd, None),
                rng=random.Random(rnd.pk),
            )
            .record
        )
    except RuleError as error:
        return BellPreview(None, error_message(error, names=names), ())
    contests: dict[str, list[int]] = {}
    for entry in record.entries:
        if entry.kind == "cut":
            why = name_guests(entry.cut_for, names)
            if entry.guest not in contests.setdefault(why, []):
                contests[why].append(entry.guest)
    return BellPreview(record, "", tuple((why, tuple(ids)) for why, ids in contests.items()))


def poker_seats_back(evening: Evening, bell: Bell) -> None:
    """Progressive Poker's seats after ``bell`` was marked undone: back to before it. An undone
    departure gives the guest back their seat and status "here"; an undone arrival keeps the
    door's check-in (status stays "here": they are here, just not seated; house rule, issue 22:
    the board's *Needs you* then lists them to seat again)."""
    record = stored_record(bell)
    if bell.kind == Bell.Kind.LEAVE:
        Guest.objects.filter(pk=record.mover()).update(status=Guest.Status.HERE)
    seats_follow(evening=evening, before=record.after, after=record.before)
