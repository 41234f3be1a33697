"""The tables of four's part of a correction (Progressive Euchre, Drive Whist, Bunco, the Euchre
tournament): the format's report form for an earlier round's table, pre-filled with what was
reported, and the evening's steps played again (``tournament.plugin.StepReplay``) through the
format's engine (``FormatPlugin.rules_of(evening).ring``).

Rules: ``docs/rules/tables-of-four.md`` ("Correcting an earlier round", house rule): the
corrected report is checked against the four who sat at that table in that round
(``tables.formats.records.report_score``); every later bell is rung again with its round's live
reports and the cuts made at its round's bells, live or undone (a card once cut stays cut); a departure gives the seat to a
ghost again and an arrival takes a ghost's seat again, as they did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db.models import Q

from tables.errors import RuleError
from tables.formats.bell import FoursomeBell, FoursomeState, guest_arrives, seats_as_played
from tables.formats.foursome import Side
from tables.formats.records import bell_from_json, bell_to_json, report_score, state_from_json, state_to_json
from tables.seats import change_again, change_seats, seat_moves
from tournament.formats.partnership.bell import _store_moves, store_seat_entries
from tournament.formats.partnership.report_forms import FoursomeResultForm
from tournament.formats.partnership.reports import canonical_report
from tournament.formats.partnership.state import family_format, foursome_rules, foursome_seats_follow, player_name
from tournament.models import Bell, Evening, Guest, Result, Round
from tournament.registry import format_for
from tournament.services.draws import live_draw

SIDES = {"NS": "EW", "EW": "NS"}


def foursome_correction_form(
    evening: Evening, *, table: int, players: Sequence[Guest | int], result: Result | None, data
) -> FoursomeResultForm:
    """The format's host report form (``PartnershipFormat.result_form``) for the four ``players``
    who sat at ``table`` then (North first; ghosts as negative ids), pre-filled with ``result``'s
    report. Its ``correction()`` is the report as stored (``canonical_report``)."""
    from tournament.formats.partnership.host_pages import report_initial

    ids = [p.pk if isinstance(p, Guest) else p for p in players]
    names = [p.name if isinstance(p, Guest) else player_name(p, {}) for p in players]
    form = family_format(evening).host_report_form(data, players=ids, names=names, initial=report_initial(result, ids))
    form.table = table  # type: ignore[attr-defined]
    return form


class FoursomeReplay:
    """The tables of four's ``StepReplay`` for ``evening``: states are ``FoursomeState``, records
    ``FoursomeBell`` (a bell) or the stored dict of a departure or an arrival, results reports."""

    def __init__(self, evening: Evening) -> None:
        self.evening = evening
        self.fmt, self.options = foursome_rules(evening)
        self.plugin = format_for(evening)

    def before(self, first: Bell) -> FoursomeState:
        """The state after the live step before ``first`` (in order), else the draw's."""
        earlier = (
            Bell.objects.live()
            .of_evening(self.evening.pk)
            .filter(Q(round__number__lt=first.round.number) | Q(round__number=first.round.number, id__lt=first.pk))
            .newest_first()
            .only("state_after")
            .first()
        )
        if earlier is not None:
            return state_from_json(earlier.state_after)
        draw = live_draw(self.evening)
        if draw is None:
            raise RuleError("There is no draw on record: nothing can be corrected.")
        return self.plugin.state_at_draw(draw)  # type: ignore[attr-defined]

    def after(self, step: Bell) -> FoursomeState:
        """The state stored after ``step``."""
        return state_from_json(step.state_after)

    def check(self, state: FoursomeState, table: int, result: object) -> None:
        """``report_score`` of the report for the four seated at ``table`` in ``state``."""
        report_score(self.fmt, state.tables[table - 1], _report(result), ties=self.options.ties)

    def same(self, row: Result, result: object) -> bool:
        """Whether ``row``'s report says what ``result`` says (empty parts, as no buncos, left out)."""
        return _normal(row.report) == _normal(_report(result))

    def store_result(self, *, rnd: Round, table: int, result: object, user) -> Result:
        """The confirmed ``Result`` with the report, from the host ``user``."""
        return Result.objects.create(
            round=rnd,
            table=table,
            report=canonical_report(_report(result)),
            reported_by_user=user if user is not None and user.is_authenticated else None,
            status=Result.Status.CONFIRMED,
        )

    def bell(self, state: FoursomeState, step: Bell, results: Sequence[Result]) -> tuple[FoursomeBell, FoursomeState]:
        """The format's ring on ``state`` with ``results`` scored for the seats of ``state``, the
        cuts made at its round's bells kept (``_cuts``) (a new tie is cut at random and recorded)."""
        scores = {
            row.table: report_score(self.fmt, state.tables[row.table - 1], row.report, ties=self.options.ties)
            for row in results
            if 1 <= row.table <= len(state.tables)
        }
        rung = self.plugin.rules_of(self.evening).ring(state, scores, options=self.options, cuts=self._cuts(step))
        return rung.record, rung.after

    def as_played(self, record: object, state: FoursomeState, step: Bell) -> tuple[FoursomeBell, FoursomeState]:
        """``tables.formats.bell.seats_as_played``: the seats stored after ``step``, the guests'
        real seats since (``docs/rules/tables-of-four.md``, "Corrections")."""
        assert isinstance(record, FoursomeBell)
        return seats_as_played(record, state, self.after(step).tables)

    def _cuts(self, step: Bell) -> dict[int, Side]:
        """Every cut made at the bells of ``step``'s round, live or undone, the first cut of a
        table kept (house rule: a card once cut stays cut, so a correction corrected back gives
        back the evening it changed). One query."""
        cuts: dict[int, Side] = {}
        for record in (
            Bell.objects.filter(round_id=step.round_id).bells().order_by("id").values_list("record", flat=True)
        ):
            for table, side in bell_from_json(record).cuts.items():
                cuts.setdefault(table, side)
        return cuts

    def _guest_step(self, step: Bell, before: FoursomeState, after: FoursomeState) -> tuple[dict, FoursomeState]:
        record = {
            "format": "foursome",
            "kind": step.kind,
            "guest": step.record.get("guest"),
            "before": [list(t) for t in before.tables],
            "after": [list(t) for t in after.tables],
        }
        return record, after

    def leave(self, state: FoursomeState, step: Bell) -> tuple[dict, FoursomeState]:
        """The format's ``leave_state``: a ghost takes the seat again."""
        after = self.plugin.leave_state(state, int(step.record["guest"]))  # type: ignore[attr-defined]
        return self._guest_step(step, state, after)

    def arrive(self, state: FoursomeState, step: Bell) -> tuple[dict, FoursomeState]:
        """``tables.formats.bell.guest_arrives``: the ghost seat nearest the foot table again."""
        return self._guest_step(step, state, guest_arrives(state, int(step.record["guest"])))

    def seat(self, state: FoursomeState, step: Bell) -> tuple[dict, FoursomeState]:
        """The host's seat change made again (``tables.seats.change_again``): the same two swap,
        or the same guest moves to the same seat (a ghost taking theirs)."""
        change = change_again(step.record["before"], step.record["after"], fixed_seats=True)
        tables = change_seats(state.tables, change, limits=self.plugin.table_limits()) if change else state.tables
        after = replace(state, tables=tuple((t[0], t[1], t[2], t[3]) for t in tables))
        record = {
            "format": "foursome",
            "kind": Bell.Kind.SEAT,
            "guest": step.record.get("guest"),
            "before": [list(t) for t in state.tables],
            "after": [list(t) for t in after.tables],
            "moves": [list(m) for m in seat_moves(state.tables, after.tables, fixed_seats=True)],
        }
        return record, after

    def store(self, step: Bell, record: object, after: object, names: Mapping[int, str]) -> Bell:
        """The new step, with its moves when it is a bell, and its "seat" entries when it is the
        host's seat change made again (issue 22 (f): a corrected evening's seat change kept no
        entries, so the phones lost it and its export did not import back the same)."""
        assert isinstance(after, FoursomeState)
        stored = record if isinstance(record, dict) else bell_to_json(record)  # type: ignore[arg-type]
        bell = Bell.objects.create(
            round=step.round, kind=step.kind, cause=step.cause, record=stored, state_after=state_to_json(after)
        )
        if isinstance(record, FoursomeBell):
            _store_moves(bell, record, names)
        elif step.kind == Bell.Kind.SEAT:
            store_seat_entries(bell, stored.get("moves", ()), stored["after"], names)
        return bell

    def seats(self, before: object, after: object) -> int:
        """``foursome_seats_follow``: seat by seat."""
        assert isinstance(before, FoursomeState) and isinstance(after, FoursomeState)
        return foursome_seats_follow(evening=self.evening, before=before.tables, after=after.tables)

    def fits(self, state: object, row: Result) -> bool:
        """Whether the round in play's report still scores for the table's four in ``state``."""
        assert isinstance(state, FoursomeState)
        if not 1 <= row.table <= len(state.tables):
            return False
        try:
            report_score(self.fmt, state.tables[row.table - 1], row.report, ties=self.options.ties)
        except RuleError:
            return False
        return True

    def warnings(self, record: object) -> tuple[str, ...]:
        """None: a bell of tables of four has no counts to add up."""
        return ()


def _report(result: object) -> Mapping[str, Any]:
    if not isinstance(result, Mapping):
        raise RuleError("That correction is not a report of tables of four: open the correction form again.")
    return result


def _normal(report: Mapping[str, Any]) -> dict[str, Any]:
    """``canonical_report`` without its empty parts (no buncos, no rolls)."""
    return {key: value for key, value in canonical_report(report).items() if value not in ({}, [], "")}


def flipped(report: Mapping[str, Any]) -> dict[str, Any]:
    """``report`` with North–South and East–West exchanged (points, tricks, hands, the tie's
    winner); buncos stay by player."""
    out: dict[str, Any] = {}
    for key, value in report.items():
        if key in ("points", "tricks"):
            out[key] = {SIDES[s]: n for s, n in value.items()}
        elif key == "hands":
            out[key] = [[SIDES[s], n] for s, n in value]
        elif key in ("playoff", "rolloff"):
            out[key] = SIDES[value]
        else:
            out[key] = value
    return out


def foursome_example_correction(evening: Evening, *, bell: Bell, table: int) -> dict[str, Any]:
    """East–West win ``table`` instead (the format's example report for the table seated from
    East, its sides exchanged): the correction the capability matrix makes."""
    plugin = format_for(evening)
    seats = tuple(plugin.played_seats(bell)[table - 1])
    report = plugin.example_report(seats[1:] + seats[:1])  # type: ignore[attr-defined]
    return canonical_report(flipped(report))
