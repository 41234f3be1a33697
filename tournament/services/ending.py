"""The end of the evening: *End the evening*, the final count table by table, and the prize
ceremony (issue 11 deliver 4).

The steps, in order:

1. **End the evening** (``evening_end``). With a round in play, that round becomes the last
   (``Evening.rounds_planned`` is set to its number): the board says "Round 6 of 6 — the last
   round", and its bell takes the yellow counters but moves nobody (``tables.formats.poker.bell``, last round).
   Between rounds (the last bell rang, no round started), play ends at once. Either way the last
   bell sets ``Evening.stage`` to "ended" and ``Evening.ended_at``.
2. **The final count** (``final_count_record``), one table at a time: every guest's counters,
   pre-filled from the last count (the state after the last bell), so the host changes only
   what changed. As on the result form, the counts must add up to what the table held at the
   last count; a difference is saved only when the host says the table agrees the count is off
   by exactly that many counters. A new count for a table replaces the old one (kept, marked
   superseded).
3. **The prize ceremony** (``ceremony_next``): each tap reveals the next prize on the room
   display, then the final standings. The first tap closes the final count; under the house
   rule ``last_round_counts="require"`` (the default) it waits until every table is counted.

House rules (the seeds say only that prizes are given at the end): the order of the reveal
(``reveal_order``) is the booby prize first, then the best of each pack, then the most yellow
counters, as prizes are usually given, the biggest last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models.functions import Now

from tables.errors import RuleError
from tables.words import joined
from tournament.models import COUNTERS_MAX, Bell, Evening, FinalCount, Round
from tournament.plugin import HasTables
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.locks import lock_evening
from tournament.services.state import OPEN_STATES, evening_state
from tournament.services.versions import evening_touch


class CountOff(RuleError):
    """A table's final count does not add up to its last count, and the host has not recorded
    that the table agrees it is off by exactly that much. ``before`` and ``after`` are counter
    totals; ``difference`` is ``after - before``."""

    def __init__(self, *, table: int, before: int, after: int):
        self.table, self.before, self.after, self.difference = table, before, after, after - before
        more_less = "over" if after > before else "short of"
        super().__init__(
            "The counters at table {table} add up to {after}, {off} {more_less} the {before} "
            "the table held at the last count. Count again, or tick “the table agrees the count is off by "
            "{off}” to record it as it is. Nothing was saved.",
            tables=(table,),
            after=after,
            before=before,
            off=abs(after - before),
            more_less=more_less,
        )


def evening_end(*, evening: Evening, seen_round: int, user=None, device: str = "") -> str:
    """The host's *End the evening*. ``seen_round`` is the number of the last round on the page
    the host confirmed from (0 before round 1), so a stale tab changes nothing.

    With a round in play it becomes the last round (returns "last round"); between rounds play
    ends now (returns "ended"). Raises ``RuleError`` when the evening has ended already, no
    round has been played, the round in play is the last already, or the page was out of date;
    nothing is changed then. House rule (issue 11 deliver 4)."""
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        if evening.stage == Evening.Stage.ENDED:
            raise RuleError("The evening has ended already: take the final count and give the prizes.")
        last = evening.rounds.order_by("-number").first()
        number = last.number if last is not None else 0
        if number != seen_round:
            raise RuleError(
                "That page was out of date: round {round} is the last round played or in play now. "
                "Nothing was changed; look again and confirm.",
                rounds=(number,),
            )
        if last is None:
            raise RuleError("No round has been played yet, so there is nothing to end. Start round 1 first.")
        if last.state in OPEN_STATES:
            if Round.is_last_number(last.number, evening=evening):
                raise RuleError(
                    "Round {round} is the last round already: the evening ends at its bell.", rounds=(last.number,)
                )
            evening.rounds_planned = last.number
            evening.save(update_fields=["rounds_planned"])
            audit_log(evening=evening, action="evening.last_round", user=user, device=device, round=last.number)
            evening_touch(evening=evening)
            return "last round"
        if not Bell.objects.filter(round=last, kind=Bell.Kind.BELL, undone_at__isnull=True).exists():
            raise RuleError(
                "Round {round} has no bell on record: ring it before ending the evening.", rounds=(last.number,)
            )
        Evening.objects.filter(pk=evening.pk).update(stage=Evening.Stage.ENDED, ended_at=Now())
        evening.refresh_from_db(fields=["stage", "ended_at"])
        audit_log(evening=evening, action="evening.end", user=user, device=device, round=last.number)
        evening_touch(evening=evening)
    return "ended"


@dataclass(frozen=True)
class TableCount:
    """One table at the final count: its number, the guests there (ids, in seat order), the
    counters each held at the last count, and the live ``FinalCount`` (None until counted)."""

    number: int
    guests: tuple[int, ...]
    last: Mapping[int, int]
    count: FinalCount | None

    @property
    def prefill(self) -> dict[int, int]:
        """The counters the form starts from: the final count if taken, else the last count."""
        if self.count is not None:
            return {int(g): int(c) for g, c in self.count.counters.items()}
        return dict(self.last)


def final_count_tables(evening: Evening) -> list[TableCount]:
    """The tables to count after the last bell, in order (two queries). Raises ``RuleError``
    before the draw. None at tables of four (house rule: no counters change hands there, the
    tallies are complete at the last bell, so there is nothing to count)."""
    if not format_for(evening).final_count:
        return []
    last = evening_state(evening, final=False)
    counts = {c.table: c for c in FinalCount.objects.filter(evening=evening, superseded_at__isnull=True)}
    return [
        TableCount(number=n, guests=tuple(ids), last={g: last.counters.get(g, 0) for g in ids}, count=counts.get(n))
        for n, ids in enumerate(last.tables, 1)
    ]


def final_count_record(
    *,
    evening: Evening,
    table: int,
    counters: Mapping[int, int],
    agreed_off: int | None = None,
    user=None,
    device: str = "",
) -> FinalCount:
    """Record ``table``'s final count: ``counters`` maps guest id -> counters held at the end,
    for exactly the guests at that table. They must add up to what those guests held at the
    last count (after the last bell), unless ``agreed_off`` equals the difference (final total
    minus last total; the host's "the table agrees the count is off by N"). Returns the live
    ``FinalCount`` (an earlier one for the table is kept, superseded).

    Raises ``RuleError`` before the evening has ended, once the prize ceremony has begun, for a
    table that does not exist, a guest not at the table or a missing one, a count below 0 or
    over ``COUNTERS_MAX``, and ``CountOff`` (with the difference) for counts that do not add
    up; nothing is saved then. House rule (issue 11 deliver 4; the captains' rule that
    counters only change hands at the table)."""
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        if evening.stage != Evening.Stage.ENDED:
            raise RuleError("The evening has not ended yet: the final count comes after the last bell.")
        if evening.ceremony_step is not None:
            raise RuleError("The prize ceremony has begun, so the final count is closed: nothing was changed.")
        state = evening_state(evening, final=False)
        seated = _final_count_check(evening, state, table, counters)
        off = format_for(evening).count_off(state, table, counters) or 0  # complete: missing counts were refused above
        after = sum(counters.values())
        before = after - off
        if off and agreed_off != off:
            raise CountOff(table=table, before=before, after=after)
        FinalCount.objects.filter(evening=evening, table=table, superseded_at__isnull=True).update(superseded_at=Now())
        count = FinalCount.objects.create(
            evening=evening,
            table=table,
            counters={str(g): counters[g] for g in seated},
            off_by=off,
            entered_by=user if user is not None and user.is_authenticated else None,
        )
        audit_log(
            evening=evening,
            action="final.count",
            user=user,
            device=device,
            table=table,
            counters=count.counters,
            off_by=off,
        )
        evening_touch(evening=evening)
    return count


def _final_count_check(evening: Evening, state: HasTables, table: int, counters: Mapping[int, int]) -> tuple[int, ...]:
    """The guests seated at ``table`` after the last bell (``state``), once ``counters`` gives a
    whole number from 0 to ``COUNTERS_MAX`` for each of them and for nobody else. Raises
    ``RuleError`` (guests named) for a table that does not exist, a guest not at the table, a
    missing one or a bad count. One query (the guests' names)."""
    if not 1 <= table <= len(state.tables):
        raise RuleError(
            "There is no table {table}: the tables are 1 to {count}.", tables=(table,), count=len(state.tables)
        )
    seated = tuple(state.tables[table - 1])
    names = dict(evening.guests.values_list("pk", "name"))
    strangers = [g for g in counters if g not in seated]
    if strangers:
        who = joined(names.get(g, "someone not at this evening") for g in strangers)
        raise RuleError(
            "{who} {are} not at table {table}: count only the guests there. Nothing was saved.",
            who=who,
            guests=strangers,
            tables=(table,),
            are="is" if len(strangers) == 1 else "are",
        )
    missing = [g for g in seated if g not in counters]
    if missing:
        raise RuleError(
            "Give the counters of everyone at table {table}: {who} {are} missing. Nothing was saved.",
            who=joined(names.get(g, "?") for g in missing),
            guests=missing,
            tables=(table,),
            are="is" if len(missing) == 1 else "are",
        )
    for guest, value in counters.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= COUNTERS_MAX:
            raise RuleError(
                "{who}'s counters must be a whole number from 0 to {most:,}. Nothing was saved.",
                who=names.get(guest, "?"),
                guests=(guest,),
                most=COUNTERS_MAX,
            )
    return seated


def reveal_order(prizes: tuple) -> tuple:
    """The prizes (the format's prize lines: Progressive Poker's
    ``formats.poker.standings.PrizeLine``) in the order the ceremony reveals them: the booby
    prize first, then the packs' prizes, the most yellow counters last (house rule: the biggest
    prize last)."""
    rank = {"booby": 0, "red_pack": 1, "blue_pack": 2, "head_table": 3}
    return tuple(sorted(prizes, key=lambda line: rank.get(line.prize.key, 1)))


@dataclass(frozen=True)
class Ceremony:
    """Where the prize ceremony stands: ``step`` (None before it; then how many steps are
    shown), the prizes in reveal order, those revealed, whether the final standings are shown,
    the tables not yet counted, and the prizes not awarded (``not_awarded``: no reveal of their
    own, house rule: the ceremony shows a prize nobody won only once, on the host's page, as one
    line)."""

    step: int | None
    prizes: tuple
    revealed: tuple
    standings_shown: bool
    uncounted: tuple[int, ...]
    not_awarded: tuple = ()
    names: tuple[str, ...] = ()
    """Every guest's name, once the evening has ended, for the pages to isolate each where a
    prize's reason names them (a tie: "Ann, Bob and Cy tied; Bob won the cut")."""
    did_not_play: tuple[str, ...] = ()
    """The names of the guests who played no rung round, listed apart from the final standings
    with no place (``FormatPlugin.played_guests``), by name."""

    @property
    def steps(self) -> int:
        """Every step of the ceremony: one per prize, then the final standings."""
        return len(self.prizes) + 1

    @property
    def next_prize(self):
        """The prize the next tap reveals, or None (next: the standings, or nothing)."""
        step = self.step or 0
        return self.prizes[step] if step < len(self.prizes) else None

    @property
    def finished(self) -> bool:
        """True once the final standings are shown: nothing more to reveal."""
        return self.standings_shown


def ceremony(evening: Evening, *, tables: Sequence[TableCount] | None = None) -> Ceremony:
    """The ceremony of an evening (a few queries: the standings and the final counts). The
    prizes are the format's (``FormatPlugin.standings``), those with a winner each a step of
    their own, those nobody won (``Ceremony.not_awarded``) none (house rule: no full-screen
    reveal of an empty prize); a format without a final count (house rule: its tallies are
    complete at the last bell) has no table left to count. ``tables``: the evening's
    ``final_count_tables`` when the caller has them (the end page: the last state read once)."""
    fmt = format_for(evening)
    prizes: tuple = ()
    not_awarded: tuple = ()
    did_not_play: tuple[str, ...] = ()
    if evening.stage == Evening.Stage.ENDED:
        standings = fmt.standings(evening)
        every = reveal_order(tuple(standings.prizes))
        did_not_play = tuple(g.name for g in getattr(standings, "did_not_play", ()))
        prizes = tuple(line for line in every if line.winners)
        not_awarded = tuple(line for line in every if not line.winners)
    step = evening.ceremony_step
    shown = step or 0
    uncounted: tuple[int, ...] = ()
    if evening.stage == Evening.Stage.ENDED and step is None and fmt.final_count:
        counted = final_count_tables(evening) if tables is None else tables
        uncounted = tuple(t.number for t in counted if t.count is None)
    return Ceremony(
        step=step,
        prizes=prizes,
        revealed=prizes[:shown],
        standings_shown=shown > len(prizes),
        uncounted=uncounted,
        not_awarded=not_awarded,
        names=tuple(evening.guests.values_list("name", flat=True)) if prizes or not_awarded else (),
        did_not_play=did_not_play,
    )


def ceremony_next(*, evening: Evening, seen_step: int, user=None, device: str = "") -> Ceremony:
    """Reveal the next step of the prize ceremony on the room display and the guests' phones:
    the next prize, or after the last prize the final standings. ``seen_step`` is the step the
    host's page showed (0 before the first prize), so a stale tab or a double tap changes
    nothing. Returns the ceremony after the step.

    Raises ``RuleError`` before the evening has ended, when the page was out of date, past the
    final standings, and (house rule ``last_round_counts="require"``) while a table has no
    final count; nothing is changed then."""
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        if evening.stage != Evening.Stage.ENDED:
            raise RuleError("The evening has not ended yet: the prizes come after the last bell and the final count.")
        now = ceremony(evening)
        step = evening.ceremony_step or 0
        if step >= now.steps:
            raise RuleError(
                "Every prize and the final standings are on the room display already: there is nothing more to reveal."
            )
        if seen_step != step:
            raise RuleError(
                f"That page was out of date: {step} of {now.steps} steps of the ceremony are shown "
                "already. Nothing was changed; look again before the next tap."
            )
        if (
            evening.ceremony_step is None
            and now.uncounted
            and format_for(evening).house_rule(evening, "last_round_counts") == "require"
        ):
            tables = ", ".join(str(t) for t in now.uncounted)
            raise RuleError(
                f"The final count is not finished: table{'s' if len(now.uncounted) > 1 else ''} {tables} "
                "still to count (save each table's form, even with nothing changed)."
            )
        evening.ceremony_step = step + 1
        evening.save(update_fields=["ceremony_step"])
        shown = now.prizes[step].title if step < len(now.prizes) else "the final standings"
        audit_log(evening=evening, action="ceremony.reveal", user=user, device=device, step=step + 1, shown=shown)
        evening_touch(evening=evening)
    return ceremony(evening)


def bell_undo_allowed(evening: Evening) -> None:
    """Raise ``RuleError`` when the last bell can no longer be undone because the prize
    ceremony has begun (its prizes were announced from the final count). Used by
    ``tournament.services.bell.bell_undo``."""
    if evening.ceremony_step is not None:
        raise RuleError("The prize ceremony has begun: the last bell can no longer be undone.")


def final_counts_drop(*, evening: Evening) -> int:
    """Mark every live final count superseded (when the last bell is undone, they counted a
    state that no longer stands) and clear the end time. Returns how many counts were dropped.
    Call inside the caller's transaction, with the evening locked."""
    dropped = FinalCount.objects.filter(evening=evening, superseded_at__isnull=True).update(superseded_at=Now())
    Evening.objects.filter(pk=evening.pk).update(ended_at=None)
    return dropped
