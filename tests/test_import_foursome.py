"""The JSON export and import of evenings at tables of four (``tournament.exchange``): the
format, its options, the draw's seats, every table's report and every bell's record travel; an
imported evening replays to the same standings and prizes; a file whose format is unknown,
whose report the format makes impossible, or whose format contradicts its draw is refused with
its place in the file, and nothing is saved.
"""

from __future__ import annotations

import copy
import json

import pytest

from tests.factories import EveningFactory, GuestFactory
from tournament.exchange.export import evening_export
from tournament.exchange.importer import EveningImportError, evening_import
from tournament.formats.partnership.bell import foursome_guest_leaves
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.standings import foursome_standings
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest, Seat
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db


def _evening(fmt: str, guests: int, **kw) -> Evening:
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK, rounds_planned=4, **kw)
    for n in range(guests):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    return evening


def _ring(evening: Evening, reports) -> None:
    rnd = round_start(evening=evening)
    tables = foursome_state(evening).tables
    for table, report in reports(tables).items():
        foursome_report(round=rnd, table=table, report=report)
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None


def _bunco_night() -> Evening:
    evening = _evening("bunco", 10, options={"format": {"ties": "cut", "prize_ties": "shared"}})  # two ghosts
    _ring(
        evening,
        lambda t: {
            1: {"points": {"NS": 26, "EW": 9}, "buncos": {str(t[0][0]): 1}},
            2: {"points": {"NS": 7, "EW": 7}},  # a tie, cut (the host's option)
            3: {"points": {"NS": 4, "EW": 21}, "minis": {str(t[2][1]): 1}},
        },
    )
    _ring(
        evening,
        lambda t: {1: {"points": {"NS": 3, "EW": 22}, "buncos": {str(t[0][1]): 1}}, 2: {"points": {"NS": 12, "EW": 9}}},
    )  # table 3 reports nothing: cut
    return evening


def _euchre_night() -> Evening:
    evening = _evening("euchre", 12, options={"format": {"movement": "ladder_down", "prize_ties": "shared"}})
    _ring(
        evening,
        lambda t: {
            1: {"hands": [["NS", 1], ["EW", 2], ["NS", 4]]},
            2: {"points": {"NS": 3, "EW": 8}},
            3: {"points": {"NS": 6, "EW": 6}, "playoff": "EW"},
        },
    )
    foursome_guest_leaves(evening=evening, guest=Guest.objects.get(evening=evening, name="Player 05"))
    _ring(
        evening,
        lambda t: {
            1: {"points": {"NS": 5, "EW": 8}},
            2: {"points": {"NS": 8, "EW": 2}},
            3: {"points": {"NS": 7, "EW": 1}},
        },
    )
    return evening


def _by_name(evening: Evening):
    """The standings and prizes with names for ids: comparable across evenings."""
    table = foursome_standings(evening)
    lines = [(line.place, line.name, dict(line.tallies), line.table) for line in table.lines]
    prizes = [(p.title, [g.name for g in p.winners], p.reason) for p in table.prizes]
    return lines, prizes


@pytest.mark.parametrize("night", [_bunco_night, _euchre_night])
def test_an_exported_evening_imports_back_to_the_same_standings_seats_and_reports(night):
    evening = night()
    data = json.loads(json.dumps(evening_export(evening)))
    assert data["evening"]["format"] == evening.format and data["evening"]["options"] == evening.options
    assert data["draws"][0]["layout"] and all(c["seat"] is not None for c in data["draws"][0]["cards"])
    assert data["rounds"][0]["results"][0]["report"] and data["rounds"][0]["bells"][0]["record"]["format"] == "foursome"
    assert len(data["tables"][0]["seats"]) == 4 and data["standings"][0]["tallies"]
    copy_ = evening_import(data=data, host=evening.host)
    assert copy_.format == evening.format and copy_.options == evening.options
    assert _by_name(copy_) == _by_name(evening)
    seats = {(s.guest.name, s.table, s.position) for s in Seat.objects.filter(evening=copy_).select_related("guest")}
    assert seats == {
        (s.guest.name, s.table, s.position) for s in Seat.objects.filter(evening=evening).select_related("guest")
    }
    again = json.loads(json.dumps(evening_export(copy_)))
    assert again["standings"] and [r["tallies"] for r in again["standings"]] == [
        r["tallies"] for r in data["standings"]
    ]


def _refused(data, host, message: str) -> None:
    evenings = Evening.objects.count()
    with pytest.raises(EveningImportError) as refused:
        evening_import(data=data, host=host)
    assert message in str(refused.value), str(refused.value)
    assert Evening.objects.count() == evenings  # nothing saved


def test_an_unknown_format_is_refused_with_its_place():
    evening = _bunco_night()
    data = evening_export(evening)
    data["evening"]["format"] = "cribbage"
    _refused(
        data,
        evening.host,
        "The evening's format: “cribbage” is not “Progressive Poker”, “Progressive Euchre”, “Drive Whist”, “Bunco”",
    )


def test_a_report_the_format_makes_impossible_is_refused():
    evening = _euchre_night()
    data = copy.deepcopy(evening_export(evening))
    data["rounds"][0]["results"][0]["report"] = {"hands": [["NS", 3]]}
    _refused(
        data,
        evening.host,
        "Result 1 of round 1 in the file, its report: table 1's report: Hand 1 is worth 3: a hand of euchre scores 1, 2 or 4",
    )
    data = copy.deepcopy(evening_export(evening))
    data["rounds"][0]["results"][1]["report"] = {"points": {"NS": 1, "EW": 2}, "stars": 1}
    _refused(
        data,
        evening.host,
        "Result 2 of round 1 in the file, its report: “stars” is not a field a Head Table export has here.",
    )


def test_a_format_change_that_contradicts_the_draw_is_refused():
    evening = _bunco_night()
    data = evening_export(evening)
    data["evening"]["format"] = "poker"
    _refused(data, evening.host, "Progressive Poker does not match draw 1 in the file")
    data["evening"]["format"] = "euchre"  # seats fit, but the bunco reports are not euchre's
    _refused(data, evening.host, "Result 1 of round 1 in the file, its report: table 1's report")
    data = evening_export(evening)
    data["draws"][0]["layout"] = []
    _refused(data, evening.host, "Bunco is played at tables of four with seats, but draw 1 in the file has none")


def test_an_edited_record_or_a_bad_option_is_refused():
    evening = _bunco_night()
    data = evening_export(evening)
    record = data["rounds"][0]["bells"][0]["record"]
    first = next(iter(record["added"]))
    record["added"][first]["buncos"] = 5
    _refused(data, evening.host, "Bell 1 of round 1 in the file: round 1's bell does not replay to the exported record")
    data = evening_export(evening)
    data["evening"]["options"]["format"] = {"movement": "sideways"}
    _refused(data, evening.host, "The evening's house rules, format: “sideways” is not a movement")


def test_the_guests_votes_on_a_report_travel_and_a_vote_from_another_table_is_refused():
    from tournament.models import ResultVote
    from tournament.services.captains import captain_vote

    evening = _evening("euchre", 8)
    rnd = round_start(evening=evening)
    (n1, e1, s1, w1), _ = foursome_state(evening).tables
    result = foursome_report(round=rnd, table=1, report={"points": {"NS": 7, "EW": 5}})
    guests = Guest.objects.in_bulk([e1, s1])
    captain_vote(guest=guests[s1], result_id=result.pk, verdict="confirm")
    captain_vote(guest=guests[e1], result_id=result.pk, verdict="dispute", note="We took the last hand")
    data = json.loads(json.dumps(evening_export(evening)))
    copy_ = evening_import(data=data, host=evening.host)
    votes = {(v.guest.name, v.verdict, v.note) for v in ResultVote.objects.filter(result__round__evening=copy_)}
    assert votes == {
        (guests[s1].name, "confirm", ""),
        (guests[e1].name, "dispute", "We took the last hand"),
    }
    _, (n2, *_) = foursome_state(evening).tables
    data["rounds"][0]["results"][0]["votes"][0]["guest"] = n2
    name = Guest.objects.get(pk=n2).name
    _refused(
        data,
        evening.host,
        f"Vote 1 of result 1 of round 1 in the file, its guest: {name} is not at table 1 in round 1, so cannot have confirmed",
    )


def test_a_prize_tie_cut_at_the_original_goes_to_the_same_guest_in_the_copy():
    """The stranger's Bunco night: "Most wins, Ladies" was a three-way tie, cut, won by Ann; its
    imported copy gave it to Gina. The cuts for tied prizes now come from the evening's prize
    seed, which the file carries, so every cut prize goes to the same guest."""
    evening = _euchre_night()
    Evening.objects.filter(pk=evening.pk).update(options={"format": {"movement": "ladder_down", "prize_ties": "cut"}})
    evening.refresh_from_db()
    lines, prizes = _by_name(evening)
    cut = [p for p in foursome_standings(evening).prizes if "cut" in p.reason]
    assert cut, prizes  # the test needs a tie that was cut
    data = json.loads(json.dumps(evening_export(evening)))
    assert data["evening"]["prize_seed"] == f"prizes-{evening.public_key}"
    copy_ = evening_import(data=data, host=evening.host)
    assert copy_.public_key != evening.public_key
    assert _by_name(copy_) == (lines, prizes)
    again = json.loads(json.dumps(evening_export(copy_)))
    assert again["evening"]["prize_seed"] == data["evening"]["prize_seed"]  # a copy of a copy too


def test_an_import_at_tables_of_four_costs_the_same_statements_for_12_guests_as_for_40(host):
    from tests.test_import_scale import statements

    exports = []
    for guests in (12, 40):
        evening = _evening("euchre", guests)
        for _ in range(2):
            _ring(evening, lambda t: {n: {"points": {"NS": 5, "EW": 8}} for n in range(1, len(t) + 1)})
        exports.append(evening_export(evening))
    # raw statements: a row saved alone would be folded with the rows of its kind before it
    small, large = (statements(lambda data=data: evening_import(data=data, host=host))[1] for data in exports)
    assert sum(len(r["results"]) for r in exports[1]["rounds"]) == 2 * 10
    assert small == large
