"""Correcting an earlier result, without losing anything, in every format.

Issue 4 ("corrections without loss") and issue 22 (item 3, every format): the host corrects any
table's result of any round whose bell has rung. The new ``Result`` row supersedes the old one
(kept, ``superseded_at`` set); then every later step of the evening's history is played again
in order, from that round's bell on: bells, departures, arrivals (``replay_step``, the one
dispatch point per kind of step), each through the format's own rules (``FormatPlugin.
step_replay``: Progressive Poker's ``tables.formats.poker.bell``, the tables of four's engine), with its round's
live results, the options it was taken with, and the ties settled by the cards cut then (house
rule, a tie once cut stays cut: a correction corrected back gives back exactly the evening it
changed; a tie that is new after the correction is cut at random and recorded). The old steps
are kept, marked undone; the new steps, their entries and the seats are saved in the same
transaction. A correction that does not fit (a later round's result no longer matches who sits
where, or someone would be seated twice) is refused whole with the reason, naming guests and
rounds, and nothing is saved.

Once the prize ceremony has begun (``services.ending.ceremony``), a correction that changes a
prize or a place is saved only on the host's confirmation: without it, ``ConfirmCorrection``
is raised (nothing saved) with what would change; with it, the ceremony is opened again at the
first prize that changed, so the finish page, certificates, results, room display and phones
follow (house rule). Rules: ``docs/rules/progressive-poker.md`` and ``docs/rules/tables-of-four.md``,
"Correcting an earlier round".
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models.functions import Now

from tables.errors import RuleError
from tables.words import counted, joined, numbered, once, plural
from tournament.models import Bell, Evening, Guest, Result, Round
from tournament.plugin import HasTables, StepReplay
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.locks import lock_evening
from tournament.services.naming import error_message, guest_names, name_guests
from tournament.services.state import OPEN_STATES, current_round, poker_only
from tournament.services.versions import evening_touch


class ConfirmCorrection(RuleError):
    """A correction after the ceremony began would change prizes or places: nothing was saved.
    ``changes``: what would change, in words ("Most yellow counters: Mia King -> Zack Young");
    ``token``: what the confirmation must send back (``correction_save(confirm=...)``), so a
    confirmation of other changes (the evening moved on since) is asked again (``stale``)."""

    def __init__(self, changes: Sequence[str], token: str, *, stale: bool = False):
        self.changes, self.token, self.stale = tuple(changes), token, stale
        again = "What this correction changes is not what that page showed. " if stale else ""
        super().__init__(
            again
            + "This correction changes prizes or places already announced: "
            + "; ".join(changes)
            + ". Nothing was saved: confirm to save it and re-open the ceremony for those prizes."
        )


@dataclass(frozen=True)
class Correction:
    """What a correction did: the new ``Result``, the rounds whose bells were played again
    (numbers), how many guests sit elsewhere now than before it and, in ``moves``, who and
    where ((guest id, table now), by table then guest), the tables of the round in play whose
    results no longer fit and must be reported again, the bells' warnings, (after the
    ceremony began) the prizes and places that changed, in words, and ``seats_kept``: the
    corrected bell kept the seats played since instead of those its winners would have had."""

    result: Result
    rounds: tuple[int, ...]
    moved: int
    report_again: tuple[int, ...] = ()
    warnings: tuple[str, ...] = field(default_factory=tuple)
    moves: tuple[tuple[int, int], ...] = ()
    reopened: tuple[str, ...] = ()
    seats_kept: bool = False

    @property
    def seats_words(self) -> str:
        """When the corrected bell kept the seats the guests took (``seats_kept``), why, for
        the host: "Round 2 was played in the seats the guests took after round 1's bell, so
        nobody moves: round 1's scores are corrected and its seats stay as they were played.";
        "" otherwise (``docs/rules/tables-of-four.md``, "Corrections")."""
        if not self.seats_kept or len(self.rounds) < 2:
            return ""
        first, later = self.rounds[0], self.rounds[1]
        return (
            f"Round {later} was played in the seats the guests took after round {first}'s bell, so nobody "
            f"moves: round {first}'s scores are corrected and its seats stay as they were played."
        )


def _steps_from(evening: Evening, round_number: int) -> tuple[Round, list[Bell]]:
    """Round ``round_number`` and every live step of the evening from its bell on, in order
    (its bell first: later departures, arrivals and bells after it). Raises ``RuleError`` for an
    unknown round, a round whose bell has not rung (still in play: corrected on the board), or
    a round with no bell on record. House rule: only a rung round is corrected (issue 11)."""
    rnd = evening.rounds.filter(number=round_number).first()
    if rnd is None:
        raise RuleError("There is no round {round} this evening.", rounds=(round_number,))
    if rnd.state in OPEN_STATES:
        raise RuleError(
            "Round {round} is still in play: its bell has not rung. Enter or change its result on the evening page.",
            rounds=(round_number,),
        )
    steps = list(
        Bell.objects.live()
        .of_evening(evening.pk)
        .filter(round__number__gte=round_number)
        .select_related("round")
        .in_order()
    )
    first = next((i for i, step in enumerate(steps) if step.round_id == rnd.pk and step.kind == Bell.Kind.BELL), None)
    if first is None:
        raise RuleError("Round {round} has no bell on record to correct.", rounds=(round_number,))
    return rnd, steps[first:]


def replay_step(
    replay: StepReplay, state: HasTables, step: Bell, results: Sequence[Result]
) -> tuple[object, HasTables]:
    """Play ``step`` again on ``state`` through the format's ``replay``: (its new record, the
    state after). The one dispatch point per kind of step: a round's bell is rung again with its
    live ``results``; a departure and an arrival are taken again; the host's seat change is made
    again. A new kind of step is added here, with its ``StepReplay`` method. Raises ``RuleError`` when the
    step no longer fits ``state``, or for a kind of step that cannot be played again."""
    if step.kind == Bell.Kind.BELL:
        return replay.bell(state, step, results)
    if step.kind == Bell.Kind.LEAVE:
        return replay.leave(state, step)
    if step.kind == Bell.Kind.ARRIVE:
        return replay.arrive(state, step)
    if step.kind == Bell.Kind.SEAT:
        return replay.seat(state, step)
    raise RuleError(f"A step of round {step.round.number} ({step.get_kind_display()}) cannot be played again yet.")


def result_correct(
    *,
    evening: Evening,
    round_number: int,
    table: int,
    pool_winner: int | None,
    in_call: Iterable[int] = (),
    counters: Mapping[int, int] | None = None,
    tied: Iterable[int] = (),
    user=None,
    device: str = "",
    confirm: str | None = None,
) -> Correction:
    """Correct a Progressive Poker table's result: ``correction_save`` with the pool result
    (``FormatPlugin.pool_result``) of ``pool_winner``, ``in_call`` and ``tied`` (guest ids: the callers, who split the pool)
    and ``counters`` (guest id -> counters after the
    deal), as for ``result_record``. Returns a ``Correction``; raises as ``correction_save``, and
    ``RuleError`` for an evening at tables of four (its tables report points, tricks or buncos:
    corrected on the corrections page, through the format's report form)."""
    poker_only(
        evening,
        "where a correction is the table's report (each side's points or tricks; at Bunco each team's points "
        "and each player's buncos), not a pool winner: correct it on the evening's corrections page.",
    )
    result = format_for(evening).pool_result(
        table=table, pool_winner=pool_winner, in_call=in_call, tied=tied, counters=counters
    )
    return correction_save(
        evening=evening,
        round_number=round_number,
        table=table,
        result=result,
        user=user,
        device=device,
        confirm=confirm,
    )


def correction_save(
    *,
    evening: Evening,
    round_number: int,
    table: int,
    result: object,
    user=None,
    device: str = "",
    confirm: str | None = None,
) -> Correction:
    """Correct table ``table``'s result in round ``round_number`` (a round whose bell has rung)
    and play every later step again, in one transaction. ``result``: the format's corrected
    report (``FormatPlugin.correction_form(...).correction()``). Returns a ``Correction``.

    Results of the round in play that no longer fit the new seats are marked superseded (kept)
    and listed in ``Correction.report_again``. Raises ``RuleError`` (guests and rounds named,
    nothing saved) for an unknown round or table, a round still in play, a result the format's
    rules refuse at that table (a guest who sat elsewhere that round), the result already on
    record, a later step that no longer fits, or a correction that would seat someone twice;
    ``ConfirmCorrection`` once the ceremony began when prizes or places change and ``confirm``
    is not the token it gave (``ConfirmCorrection.token``).
    """
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        fmt = format_for(evening)
        replay = fmt.step_replay(evening)
        names = guest_names(evening)
        rnd, steps = _steps_from(evening, round_number)
        before = replay.before(steps[0])
        old = _result_to_correct(replay, rnd, before, table, result)
        announced = _announced(evening)
        now = Now()  # the database's clock, at each UPDATE
        if old is not None:
            Result.objects.filter(pk=old.pk).update(superseded_at=now)
        row = replay.store_result(rnd=rnd, table=table, result=result, user=user)
        records, afters, kept = _replay(evening, replay, steps, before, names)
        old_after, new_after = replay.after(steps[-1]), afters[-1]
        seating_check(before=old_after, after=new_after, names=names)
        _store_again(replay, steps, records, afters, names, now)
        moved = replay.seats(old_after, new_after)
        moves = seats_changed(old_after, new_after)
        report_again = _supersede_unfit(evening, replay, old_after, new_after, now)
        warnings = played_again_warnings(replay, steps, records, names)
        reopened = _ceremony_follows(evening, announced, confirm)
        words = (fmt.result_words(row, names), fmt.result_words(old, names) if old is not None else "")
        _correction_log(
            evening, row, old, steps, moved, report_again, moves, reopened, words, user=user, device=device, kept=kept
        )
        evening_touch(evening=evening)
    return Correction(
        result=row,
        rounds=tuple(step.round.number for step in steps if step.kind == Bell.Kind.BELL),
        moved=moved,
        report_again=report_again,
        warnings=warnings,
        moves=moves,
        reopened=reopened,
        seats_kept=kept,
    )


def played_again_warnings(
    replay: StepReplay, steps: list[Bell], records: list, names: Mapping[int, str]
) -> tuple[str, ...]:
    """The warnings of the steps played again (``records``, one per step of ``steps``), each
    naming its round ("Round 3: Counters at table 2 add up to 190, 10 short of 200."), guests by
    name, a line repeated word for word said once (``tables.words.once``)."""
    return once(
        f"Round {step.round.number}: {name_guests(warning, names)}"
        for step, record in zip(steps, records, strict=True)
        for warning in replay.warnings(record)
    )


def _store_again(replay, steps: list[Bell], records: list, afters: list, names: Mapping[int, str], now) -> None:
    """Mark ``steps`` undone at ``now`` and store each again from its replayed record and
    seats; a step played again is the same step, so each keeps the time it was taken
    (``rung_at``). Two statements and one per step."""
    Bell.objects.filter(pk__in=[step.pk for step in steps]).update(undone_at=now)
    stored = [
        replay.store(step, record, after, names) for step, record, after in zip(steps, records, afters, strict=True)
    ]
    for new, step in zip(stored, steps, strict=True):
        new.rung_at = step.rung_at
    Bell.objects.bulk_update(stored, ["rung_at"])


@dataclass(frozen=True)
class Announced:
    """What the ceremony announces as the evening stands: each prize in reveal order, (title,
    the winners' names), and every guest's place (guest id -> place, as the standings give it)."""

    prizes: tuple[tuple[str, str], ...]
    places: Mapping[int, str]


def _result_to_correct(replay: StepReplay, rnd: Round, before: HasTables, table: int, result: object) -> Result | None:
    """The table's live result that ``result`` corrects (None when there was none), once
    ``result`` is checked against ``before`` (the seats round ``rnd`` was played at). Raises
    ``RuleError`` (guests, tables and rounds named) for a table the round did not have, a result
    the format's rules refuse there, or one already on record."""
    if not 1 <= table <= len(before.tables):
        raise RuleError(
            "Round {round} had no table {table}: its tables were 1 to {count}.",
            rounds=(rnd.number,),
            tables=(table,),
            count=len(before.tables),
        )
    replay.check(before, table, result)
    old = Result.objects.filter(round=rnd, table=table, superseded_at__isnull=True).first()
    if old is not None and replay.same(old, result):
        raise RuleError(
            "That is table {table}'s result in round {round} already: nothing to correct.",
            tables=(table,),
            rounds=(rnd.number,),
        )
    return old


def _announced(evening: Evening) -> Announced | None:
    """Once the ceremony has begun, the prizes and places as they stand (``Announced``); None
    before the ceremony. A few queries (the format's standings)."""
    if evening.ceremony_step is None:
        return None
    from tournament.services.ending import reveal_order

    fmt = format_for(evening)
    names = guest_names(evening)
    prizes = tuple(
        (line.title, joined(names.get(g, "a guest") for g in line.prize.winners) or "nobody")
        for line in reveal_order(tuple(fmt.standings(evening).prizes))
    )
    _, standings, _ = fmt.export_standings(evening, list(Guest.objects.filter(evening=evening).order_by("id")))
    places = {int(line["guest"]): str(line.get("place", "")) for line in standings if line.get("guest")}
    return Announced(prizes, places)


def _ceremony_follows(evening: Evening, announced: Announced | None, confirm: str | None) -> tuple[str, ...]:
    """After the correction is played (inside its transaction): when the ceremony had begun and
    ``announced`` prizes or places change, raise ``ConfirmCorrection`` (the transaction rolls
    back) unless ``confirm`` is its token; else open the ceremony again at the first prize that
    changed (house rule: the room reveals it again, and every later step). Returns the changes
    in words ("Most yellow counters: Mia -> Zack", "Zack: place 2 -> 1"; empty: none)."""
    if announced is None:
        return ()
    now = _announced(evening)
    assert now is not None
    names = guest_names(evening)
    changed = [i for i, (a, b) in enumerate(zip(announced.prizes, now.prizes, strict=False)) if a != b]
    changes = [f"{now.prizes[i][0]}: {announced.prizes[i][1]} → {now.prizes[i][1]}" for i in changed]
    changes += [
        f"{names.get(guest, 'A guest')}: place {announced.places.get(guest, '–')} → {place}"
        for guest, place in now.places.items()
        if announced.places.get(guest) != place
    ]
    if not changes:
        return ()
    token = hashlib.sha256("\n".join(changes).encode()).hexdigest()[:16]
    if confirm != token:
        raise ConfirmCorrection(changes, token, stale=bool(confirm))
    first = changed[0] if changed else len(now.prizes)
    if (evening.ceremony_step or 0) > first:
        Evening.objects.filter(pk=evening.pk).update(ceremony_step=first)
        evening.ceremony_step = first
    return tuple(changes)


def _correction_log(
    evening: Evening,
    row: Result,
    old: Result | None,
    steps: list[Bell],
    moved: int,
    report_again: tuple[int, ...],
    moves: tuple[tuple[int, int], ...],
    reopened: tuple[str, ...],
    words: tuple[str, str],
    *,
    user,
    device: str,
    kept: bool = False,
) -> None:
    """Write the "result.correct" audit entry: the corrected result ``row`` (and the ``old``
    winner, counters or report), the rounds whose ``steps`` were played again, how many guests
    ``moved``, the tables to report again, the ``moves`` (guest id, table now), the prizes
    re-opened, the corrected and the old result in ``words`` (the format's, guests named; "" for
    no old result) and whether the corrected bell ``kept`` the seats played since
    (``seats_kept``). House rule: the log says what a correction changed, so the old result
    is read there, not only kept in the database."""
    audit_log(
        evening=evening,
        action="result.correct",
        user=user,
        device=device,
        round=row.round.number,
        table=row.table,
        old_winner=old.pool_winner_id if old else None,
        pool_winner=row.pool_winner_id,
        in_call=row.in_call,
        counters=row.counters,
        report=row.report,
        old_report=old.report if old else None,
        old_counters=old.counters if old else None,
        old_words=words[1],
        replayed=sorted({step.round.number for step in steps}),
        moved=moved,
        report_again=list(report_again),
        moves=[list(m) for m in moves],
        reopened=list(reopened),
        words=words[0],
        seats_kept=kept,
    )


def seats_changed(before: HasTables, after: HasTables) -> tuple[tuple[int, int], ...]:
    """Who sits at another table in ``after`` than in ``before``: (guest id, table now),
    ordered by table now, then by seat there (ghosts, negative ids, left out)."""
    old = {g: n for n, ids in enumerate(before.tables, 1) for g in ids}
    return tuple((g, n) for n, ids in enumerate(after.tables, 1) for g in ids if g > 0 and old.get(g) != n)


def _replay(
    evening: Evening, replay: StepReplay, steps: list[Bell], before: HasTables, names
) -> tuple[list[object], list[HasTables], bool]:
    """Play every step again from ``before`` (``replay_step``), each bell with its round's live
    results (one query). When a later round's bell has rung, the corrected round's bell keeps
    the seats the guests took after it, where the format keeps them (``StepReplay.as_played``:
    the later rounds were played in those seats). Returns the new records, the states after
    them, and whether the corrected bell kept seats it would have changed. Raises ``RuleError`` naming the round (and the way out) at the first step that no
    longer fits."""
    live: dict[int, list[Result]] = {}
    for row in Result.objects.filter(round_id__in={step.round_id for step in steps}, superseded_at__isnull=True):
        live.setdefault(row.round_id, []).append(row)
    state = before
    records: list[object] = []
    afters: list[HasTables] = []
    kept = False
    played_since = any(step.kind == Bell.Kind.BELL and step.round_id != steps[0].round_id for step in steps)
    for step in steps:
        try:
            record, state = replay_step(replay, state, step, live.get(step.round_id, []))
            if step is steps[0] and played_since:  # a later round was played in the seats taken then
                moved_to = state.tables
                record, state = replay.as_played(record, state, step)
                kept = state.tables != moved_to
            seating_check(before=before, after=state, names=names, changing=True)
        except RuleError as error:
            moved = _moved_words(replay, steps[0], afters[0] if afters else None, names)
            why = error_message(error, names=names)
            later = step.round.number
            raise RuleError(
                f"Nothing was changed: this result changes who moved at round {steps[0].round.number}'s bell"
                f" ({moved}), but round {later} was played in the seats the guests really took. In the seats"
                f" this result gives, round {later}'s results do not fit: {why} {_way_out(evening, steps, step)}"
                if moved
                else f"Nothing was changed: after this correction, round {later} no longer fits: {why}"
                f" {_way_out(evening, steps, step)}"
            ) from error
        records.append(record)
        afters.append(state)
    return records, afters, kept


def _moved_words(replay: StepReplay, first: Bell, replayed: HasTables | None, names: Mapping[int, str]) -> str:
    """Who the corrected bell ``first`` would have seated at another table than the guests
    really took after it, for the refusal: "it would have seated H1 at table 3, not table 1,
    and H4 at table 1, not table 3" ("" when nobody would have moved otherwise, or the bell
    itself no longer fits). Three guests at most are named."""
    if replayed is None:
        return ""
    real = {g: n for n, ids in enumerate(replay.after(first).tables, 1) for g in ids}
    moved = [(g, n) for g, n in seats_changed(replay.after(first), replayed) if g in real]
    if not moved:
        return ""
    said = [f"{names.get(g, 'a guest')} at table {n}, not table {real[g]}" for g, n in moved[:3]]
    more = f", and {len(moved) - 3} more" if len(moved) > 3 else ""
    return "it would have seated " + (", and ".join(said) if len(said) < 3 else ", ".join(said)) + more


def _way_out(evening: Evening, steps: list[Bell], unfit: Bell) -> str:
    """What the host can do when a correction of ``steps[0]``'s round no longer fits the later
    step ``unfit`` (its results were recorded in the seats the guests really took, which the
    correction changes). Only the last step can be undone, and only before the next round
    starts (``bell_undo``), so the advice names that way only when it is open; otherwise the
    counts alone can still be corrected, keeping who won and who moved, or the result stays."""
    first, later = steps[0].round.number, unfit.round.number
    started = evening.rounds.filter(number__gt=later).order_by("number").values_list("number", flat=True).first()
    if unfit is steps[-1] and started is None:
        return (
            f"To make it anyway: undo the bell of round {later} on the evening page (everyone goes back to "
            f"their seats before it), correct round {first} here, then enter round {later}'s results again "
            "for the new seats and ring its bell."
        )
    after = steps[steps.index(unfit) + 1 :]
    rung = [step.round.number for step in after if step.kind == Bell.Kind.BELL]
    if rung:  # round ``later``'s bell is no longer the last: the bells after it have rung
        since = (
            f"the {plural(len(rung), 'bell')} of {numbered('round', rung)} {plural(len(rung), 'has')} rung "
            f"since round {later}'s, and only the last bell can be undone"
        )
    elif after:  # a guest's departure, arrival or seat change recorded after it
        since = (
            f"{counted(len(after), 'change')} of seats {plural(len(after), 'was')} recorded after round "
            f"{later}'s bell, and only the last bell can be undone"
        )
    else:  # the last bell, but the next round has started
        since = f"round {started} has started, and a bell can be undone only before the next round starts"
    return (
        f"What you can do: correct round {first}'s counts while keeping who won and who moved at its bell, "
        f"which the later rounds fit. A different winner cannot be saved now: {since}, so round {first}'s "
        "winner stays as recorded."
    )


def seating_check(*, before: HasTables, after: HasTables, names: Mapping[int, str], changing: bool = False) -> None:
    """Refuse (``RuleError``, guests named) a new seating that seats someone twice and, unless
    ``changing`` (a guest's step: who has a seat changes), one that loses or adds a guest or
    changes the number of tables, compared with ``before``. Ghosts (negative ids) are seats."""
    seen: dict[int, int] = {}
    for number, ids in enumerate(after.tables, 1):
        for guest in ids:
            if guest in seen:
                raise RuleError(
                    f"This correction would seat {names.get(guest, guest)} twice (at tables {seen[guest]}"
                    f" and {number}): nothing was changed."
                )
            seen[guest] = number
    if changing:
        return
    had = {g for ids in before.tables for g in ids if g > 0}
    has = {g for g in seen if g > 0}
    lost, gained = had - has, has - had
    if lost or gained or len(after.tables) != len(before.tables):
        who = joined(str(names.get(g, g)) for g in sorted(lost | gained))
        raise RuleError(f"This correction would change who has a seat ({who or 'the tables'}): nothing was changed.")


def _supersede_unfit(evening: Evening, replay: StepReplay, before: HasTables, after: HasTables, now) -> tuple[int, ...]:
    """Mark superseded the round in play's live results played by other guests than the
    correction now seats there (a table whose players, in seat order, differ from ``before``
    to ``after``), or that the format's rules no longer take for the seats of ``after``
    (``StepReplay.fits``); returns their tables, in order. House rule (issue 22): a table's
    result stands only for the guests who played it, so a table whose players a correction
    changed reports again, even when its recorded winner still sits there."""
    rnd = current_round(evening)
    if rnd is None:
        return ()

    def players(state: HasTables, table: int) -> tuple[int, ...]:
        return tuple(state.tables[table - 1]) if 1 <= table <= len(state.tables) else ()

    unfit = [
        row
        for row in rnd.results.filter(superseded_at__isnull=True)
        if players(before, row.table) != players(after, row.table) or not replay.fits(after, row)
    ]
    Result.objects.filter(pk__in=[row.pk for row in unfit]).update(superseded_at=now)
    return tuple(sorted(row.table for row in unfit))


@dataclass
class RoundHistory:
    """One rung round as the corrections page shows it: the round, its live bell, and each
    table's live result (``None`` for a table that reported nothing) with the guests who sat
    there when it was played; ``seated``: each table's players as seated then (guests, ghosts
    as negative ids, in seat order), ``words``: each table's result in words ("" for none); and
    the bell's warnings (counts that do not add up), guests named."""

    round: Round
    bell: Bell
    tables: list[tuple[int, list[Guest], Result | None]]
    warnings: list[str] = field(default_factory=list)
    seated: list[list[Guest | int]] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    rung: str = ""  # how its bell came, in the format's words ("by the host")

    @property
    def names(self) -> list[str]:
        """The names of every guest seated in the round (ghosts too), for the page to isolate
        each where the result's words and the warnings name them (``names_isolated``)."""
        return [name for _, seated, _ in self.rows for name in seated]

    @property
    def rows(self) -> list[tuple[int, list[str], str]]:
        """Each table as the page lists it: (number, who sat there by name, ghosts too, the
        result in words)."""
        from tables.formats.foursome import ghost_name

        return [
            (number, [p.name if isinstance(p, Guest) else ghost_name(p) for p in seated], words)
            for (number, _, _), seated, words in zip(self.tables, self.seated, self.words, strict=True)
        ]


def correction_rounds(evening: Evening) -> list[RoundHistory]:
    """Every round with a live bell, newest first, each once (its bell, never a departure or an
    arrival after it), with its tables as the round was played (``FormatPlugin.played_seats``:
    the seats before its bell, not after later steps) and their live results. Three queries."""
    fmt = format_for(evening)
    guests = {g.pk: g for g in evening.guests.all()}
    names = {pk: g.name for pk, g in guests.items()}
    bells = list(Bell.objects.live().bells().of_evening(evening.pk).select_related("round").newest_first())
    results: dict[int, dict[int, Result]] = {}
    for row in Result.objects.filter(round__evening=evening, superseded_at__isnull=True):
        results.setdefault(row.round_id, {})[row.table] = row
    out = []
    for bell in bells:
        history = RoundHistory(round=bell.round, bell=bell, tables=[], rung=fmt.bell_cause_words(bell.cause))
        for number, ids in enumerate(fmt.played_seats(bell), 1):
            result = results.get(bell.round_id, {}).get(number)
            if result is not None and result.pool_winner_id is not None:
                result.pool_winner = guests.get(result.pool_winner_id)
            history.tables.append((number, [guests[g] for g in ids if g in guests], result))
            history.seated.append([guests.get(g, g) for g in ids])
            history.words.append(fmt.result_words(result, names) if result is not None else "")
        history.warnings = list(once(name_guests(w, names) for w in bell.record.get("warnings", ())))
        out.append(history)
    return out
