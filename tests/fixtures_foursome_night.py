"""An evening at tables of four (Progressive Euchre, Drive Whist or Bunco) at the stages the page
tests look at: guests with names as long as real ones (``fixtures_room.guest_names``), eleven of
them so that a ghost sits at the foot table, rounds ending when the head table's game is over,
three rounds planned.

``waiting_night``: round 1 reported at every table and rung; in round 2, table 2's report sent
from its captain's phone, confirmed by one guest and disputed by another with a reason, then the
head table's report (by the host), so the bell has rung and waits for table 3's score so far.
``ended_night``: table 3's report lets the bell move everyone, round 3 (the last) is reported
everywhere and its bell ends the evening, with its prizes. Reports are worked from
``docs/rules/`` (``tables.formats.records`` for their shape)."""

from __future__ import annotations

from collections.abc import Sequence

from tests.fixtures_room import guest_names
from tournament.formats.partnership.reports import foursome_captain_report, foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Evening, Guest
from tournament.services.captains import captain_vote
from tournament.services.clock import round_start
from tournament.services.state import current_round

FORMATS = ("euchre", "whist", "bunco")


def report_for(fmt: str, seats: Sequence[int], *, ns_wins: bool) -> dict:
    """A report of ``fmt`` for a table seated ``seats`` (North, East, South, West; a ghost's id
    below 0) won by North–South or East–West: euchre by its hands, whist by its tricks, bunco by
    its points with a bunco for the winners' first real player and a mini bunco for the losers'."""
    win, lose = ("NS", "EW") if ns_wins else ("EW", "NS")
    if fmt == "euchre":
        return {"hands": [[win, 1], [lose, 2], [win, 4], [win, 2], [lose, 1]]}
    if fmt == "whist":
        return {"tricks": {win: 8, lose: 5}}
    winners = [p for p in (seats[0::2] if ns_wins else seats[1::2]) if p > 0]
    losers = [p for p in (seats[1::2] if ns_wins else seats[0::2]) if p > 0]
    report: dict = {"points": {win: 21 + 9, lose: 5 + 3}, "buncos": {}, "minis": {}}
    if winners:
        report["buncos"] = {str(winners[0]): 1}
    if losers:
        report["minis"] = {str(losers[0]): 1}
    return report


def _guests(evening: Evening, seats: Sequence[int]) -> list[Guest]:
    found = Guest.objects.in_bulk([p for p in seats if p > 0])
    return [found[p] for p in seats if p > 0]


def waiting_night(host, fmt: str, size: int = 11) -> Evening:
    """The evening of the module docstring, its bell waiting for table 3 in round 2."""
    evening = Evening.objects.create(
        host=host,
        name=f"The {size}-guest {fmt} party",
        date="2026-11-30",
        format=fmt,
        minutes_per_round=20,
        rounds_planned=3,
        round_end=Evening.RoundEnd.HEAD_POOL,
    )
    Guest.objects.bulk_create(
        [
            Guest(evening=evening, name=name, name_key=Guest.fold_name(name), pack="red" if i % 2 else "blue")
            for i, name in enumerate(guest_names(size))
        ]
    )
    Guest.objects.filter(evening=evening).update(status=Guest.Status.HERE)
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    tables = foursome_state(evening).tables
    for number in range(len(tables), 0, -1):  # the head table last: its report rings the bell
        captain = _guests(evening, tables[number - 1])[0]
        report = report_for(fmt, tables[number - 1], ns_wins=number % 2 == 1)
        foursome_captain_report(guest=captain, round_number=rnd.number, table=number, report=report)
    rnd = round_start(evening=evening)
    tables = foursome_state(evening).tables
    reporter, confirmer, _, disputer = _guests(evening, tables[1])
    result = foursome_captain_report(
        guest=reporter, round_number=rnd.number, table=2, report=report_for(fmt, tables[1], ns_wins=False)
    )
    captain_vote(guest=confirmer, result_id=result.pk, verdict="confirm")
    captain_vote(guest=disputer, result_id=result.pk, verdict="dispute", note="We made it the other way round")
    foursome_report(round=rnd, table=1, report=report_for(fmt, tables[0], ns_wins=True), user=host)
    evening.refresh_from_db()
    return evening


def ended_night(evening: Evening) -> Evening:
    """``waiting_night``'s evening played to its end: table 3 reports (the bell moves everyone),
    round 3 is reported at every table, the head table last, and its bell ends the evening."""
    rnd = current_round(evening)
    tables = foursome_state(evening).tables
    foursome_report(round=rnd, table=3, report=report_for(evening.format, tables[2], ns_wins=True))
    rnd = round_start(evening=evening)
    tables = foursome_state(evening).tables
    for number in range(len(tables), 0, -1):
        foursome_report(
            round=rnd, table=number, report=report_for(evening.format, tables[number - 1], ns_wins=number != 2)
        )
    evening = Evening.objects.get(pk=evening.pk)
    assert evening.stage == Evening.Stage.ENDED, evening.stage
    return evening
