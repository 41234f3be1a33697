"""The formats at tables of four in the database: the draw, reports, the bell, undo, guests who
leave and arrive, standings and prizes (``tournament.formats.partnership``).

The evening's reports are checked against values worked by hand from ``docs/rules/``.
"""

from __future__ import annotations

import pytest

from tables.errors import RuleError
from tables.formats.records import state_from_json
from tests.factories import EveningFactory, GuestFactory
from tournament.formats.partnership.bell import foursome_guest_arrives, foursome_guest_leaves
from tournament.formats.partnership.reports import foursome_captain_report, foursome_report
from tournament.formats.partnership.standings import foursome_standings
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest, Result, Seat
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db


def _evening(fmt: str, guests: int, **kw) -> Evening:
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK, **kw)
    for n in range(guests):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    return evening


def test_the_draw_seats_everyone_at_tables_of_four_with_a_seat_each():
    evening = _evening("bunco", 12)
    draw = foursome_draw(evening=evening)
    assert draw.sizes == [4, 4, 4]
    seats = list(Seat.objects.filter(evening=evening).values_list("guest_id", "table", "position"))
    assert len(seats) == 12
    assert {(t, p) for _, t, p in seats} == {(t, p) for t in (1, 2, 3) for p in range(4)}
    red = set(evening.guests.filter(pack="red").values_list("id", flat=True))
    for guest, _, position in seats:  # red draws North and East, blue South and West
        assert (position in (0, 1)) == (guest in red)
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.SEATED


def test_ten_guests_get_two_ghosts_one_a_table_from_the_foot_up_and_the_draw_is_refused_below_four():
    evening = _evening("euchre", 10)
    foursome_draw(evening=evening)
    state = foursome_state(evening)
    assert [sum(1 for p in t if p < 0) for t in state.tables] == [0, 1, 1]
    with pytest.raises(RuleError, match="four guests or more"):
        foursome_draw(evening=_evening("euchre", 3))


def _play(evening: Evening, reports: dict[int, dict]) -> Bell:
    rnd = round_start(evening=evening)
    for table, report in reports.items():
        foursome_report(round=rnd, table=table, report=report)
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert bell is not None
    return bell


def test_a_bunco_bell_moves_the_winners_up_and_the_head_losers_to_the_foot():
    evening = _evening("bunco", 12)
    foursome_draw(evening=evening)
    (n1, e1, s1, w1), (n2, e2, s2, w2), (n3, e3, s3, w3) = foursome_state(evening).tables
    bell = _play(
        evening,
        {
            1: {"points": {"NS": 21, "EW": 8}, "buncos": {str(n1): 1}},
            2: {"points": {"NS": 4, "EW": 12}, "minis": {str(e2): 1}},
            3: {"points": {"NS": 9, "EW": 9}, "rolloff": "NS"},
        },
    )
    after = foursome_state(evening)
    # head: N-S won and stay at North and East; table 2's winners (E-W) arrive at South and West
    assert after.tables[0] == (n1, s1, e2, w2)
    # table 2: the losers (N-S) stay; table 3's winners (N-S, by the roll-off) arrive
    assert after.tables[1] == (n2, s2, n3, s3)
    # foot: its losers (E-W) stay; the head table's losers arrive
    assert after.tables[2] == (e3, w3, e1, w1)
    assert after.tally(n1, "buncos") == 1 and after.tally(n1, "wins") == 1 and after.tally(n1, "points") == 21
    assert after.tally(e2, "minis") == 1 and after.tally(e1, "losses") == 1
    assert after.tally(n3, "points") == 9 and after.tally(n3, "wins") == 1  # the roll-off's points are not added
    moved = dict(bell.entries.values_list("guest_id", "to_table"))
    assert moved == {e2: 1, w2: 1, n3: 2, s3: 2, e1: 3, w1: 3}
    assert Seat.objects.get(guest_id=e2).table == 1 and Seat.objects.get(guest_id=e2).position == 2


def test_undo_puts_the_seats_and_tallies_back_and_re_ringing_gives_the_same_evening():
    evening = _evening("euchre", 8)
    foursome_draw(evening=evening)
    before = foursome_state(evening)
    bell = _play(evening, {1: {"points": {"NS": 5, "EW": 7}}, 2: {"hands": [["NS", 2], ["NS", 4], ["EW", 1]]}})
    after = foursome_state(evening)
    bell_undo(evening=evening, bell_id=bell.pk)
    assert foursome_state(evening) == before
    assert {s.guest_id: s.table for s in Seat.objects.filter(evening=evening)} == {
        p: n for n, t in enumerate(before.tables, 1) for p in t
    }
    again = bell_ring(round_id=bell.round_id, cause=Bell.Cause.HOST)
    assert again is not None and state_from_json(again.state_after) == after


def test_a_table_with_no_report_cuts_for_the_win_and_scores_nothing():
    evening = _evening("whist", 8)
    foursome_draw(evening=evening)
    bell = _play(evening, {1: {"tricks": {"NS": 8, "EW": 5}}})
    record = bell.record
    assert list(record["cuts"]) == ["2"] and record["words"][1].startswith("no result:")
    table2 = record["before"][1]
    assert all(str(p) not in record["added"] for p in table2)


@pytest.mark.parametrize(
    "fmt, report, message",
    [
        ("euchre", {"hands": [["NS", 3]]}, "scores 1, 2 or 4"),
        ("whist", {"tricks": {"NS": 9, "EW": 5}}, "13 tricks"),
        ("bunco", {"points": {"NS": 22, "EW": 0}, "buncos": {"1": 0}}, None),
        ("bunco", {"points": {"NS": 5, "EW": 5}}, "name the side that won the roll-off"),
        ("euchre", {"points": {"NS": 5}}, "both sides"),
        ("whist", {"tricks": {"NS": 13, "EW": 0}, "stars": 1}, "not stars"),
        ("bunco", {"points": {"NS": 22, "EW": 0}, "rolls": {"SEATED": [22]}}, "not 22"),
        ("euchre", {"points": {"NS": 500, "EW": 2}}, "North–South's points: at most 32 in a round"),
        ("bunco", {"points": {"NS": 1000, "EW": 2}}, "North–South's points: at most 999 in a round"),
        (
            "bunco",
            {"points": {"NS": 5, "EW": 0}, "rolls": {"SEATED": [2, 2, 2, 2]}},
            "fewer than the 8 their rolls make",
        ),
    ],
)
def test_impossible_reports_are_refused_and_nothing_is_saved(fmt, report, message):
    evening = _evening(fmt, 8)
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    if message is None:  # 22 points with no bunco is a possible total over several rolls: it is saved
        foursome_report(round=rnd, table=1, report={"points": {"NS": 22, "EW": 0}})
        assert Result.objects.filter(round=rnd).count() == 1
        return
    if "rolls" in report:  # the roll is put on the head table's North player
        report = {**report, "rolls": {str(foursome_state(evening).tables[0][0]): report["rolls"]["SEATED"]}}
    with pytest.raises(RuleError, match=message):
        foursome_report(round=rnd, table=1, report=report)
    assert not Result.objects.filter(round=rnd).exists()


def test_a_bunco_for_someone_not_at_the_table_is_refused_by_name():
    from tournament.services.naming import error_message

    evening = _evening("bunco", 8)
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    stranger = foursome_state(evening).tables[1][0]
    with pytest.raises(RuleError) as caught:
        foursome_report(round=rnd, table=1, report={"points": {"NS": 21, "EW": 0}, "buncos": {str(stranger): 1}})
    name = Guest.objects.get(pk=stranger).name
    assert error_message(caught.value, evening) == f"Buncos are given for {name}, who is not at this table."


def test_a_captain_reports_only_their_own_table_and_the_first_report_stands():
    evening = _evening("bunco", 8)
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    head, second = foursome_state(evening).tables
    me = Guest.objects.get(pk=head[0])
    with pytest.raises(RuleError, match="only your own table"):
        foursome_captain_report(guest=me, round_number=1, table=2, report={"points": {"NS": 1, "EW": 0}})
    row = foursome_captain_report(
        guest=me, round_number=1, table=1, report={"points": {"NS": 21, "EW": 3}}, request_id="abc"
    )
    assert foursome_captain_report(guest=me, round_number=1, table=1, report={}, request_id="abc") == row
    other = Guest.objects.get(pk=head[1])
    with pytest.raises(RuleError, match="The first report stands"):
        foursome_captain_report(guest=other, round_number=1, table=1, report={"points": {"NS": 0, "EW": 21}})
    assert rnd.results.count() == 1


def test_the_head_tables_report_rings_the_bell_when_rounds_end_there():
    evening = _evening("bunco", 8)
    Evening.objects.filter(pk=evening.pk).update(round_end=Evening.RoundEnd.HEAD_POOL)
    evening.refresh_from_db()
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    foursome_report(round=rnd, table=2, report={"points": {"NS": 3, "EW": 2}})
    assert not Bell.objects.filter(round=rnd).exists()
    foursome_report(round=rnd, table=1, report={"points": {"NS": 21, "EW": 2}})
    assert Bell.objects.filter(round=rnd, kind=Bell.Kind.BELL).count() == 1


def test_the_head_tables_report_stops_play_and_the_bell_waits_for_every_tables_score_so_far():
    # docs/rules/tables-of-four.md: "the head table rings it, and every table stops. A table whose game is
    # unfinished is decided by the score so far."
    evening = _evening("euchre", 12)
    Evening.objects.filter(pk=evening.pk).update(round_end=Evening.RoundEnd.HEAD_POOL)
    evening.refresh_from_db()
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    foursome_report(round=rnd, table=1, report={"points": {"NS": 7, "EW": 6}})
    rnd.refresh_from_db()
    assert not Bell.objects.filter(round=rnd).exists()
    assert rnd.state == rnd.State.RUNG and rnd.deadline is None
    assert rnd.waiting_for == "every table's score so far: tables 2 and 3 have not reported yet"
    foursome_report(round=rnd, table=3, report={"points": {"NS": 1, "EW": 3}})
    rnd.refresh_from_db()
    assert rnd.waiting_for == "every table's score so far: table 2 has not reported yet"
    foursome_report(round=rnd, table=2, report={"points": {"NS": 2, "EW": 0}})  # the last score moves everyone
    bell = Bell.objects.get(round=rnd, kind=Bell.Kind.BELL)
    assert bell.cause == Bell.Cause.HEAD_POOL and bell.record["cuts"] == {}


def test_the_hosts_bell_moves_everyone_with_a_table_unreported_which_cuts():
    evening = _evening("bunco", 8)
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    foursome_report(round=rnd, table=1, report={"points": {"NS": 21, "EW": 6}})
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK) is None  # the clock waits for table 2's score
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert bell is not None and list(bell.record["cuts"]) == ["2"]


def test_a_guest_who_leaves_is_replaced_by_a_ghost_and_keeps_their_tallies_and_undo_brings_them_back():
    evening = _evening("bunco", 8)
    foursome_draw(evening=evening)
    _play(evening, {1: {"points": {"NS": 21, "EW": 3}}, 2: {"points": {"NS": 2, "EW": 7}}})
    leaver = Guest.objects.get(pk=foursome_state(evening).tables[0][0])
    wins = foursome_state(evening).tally(leaver.pk, "wins")
    bell = foursome_guest_leaves(evening=evening, guest=leaver)
    state = foursome_state(evening)
    assert state.tables[0][0] == -1 and state.tally(leaver.pk, "wins") == wins == 1
    assert not Seat.objects.filter(guest=leaver).exists()
    leaver.refresh_from_db()
    assert leaver.status == Guest.Status.LEFT
    bell_undo(evening=evening, bell_id=bell.pk)
    leaver.refresh_from_db()
    assert leaver.status == Guest.Status.HERE and Seat.objects.get(guest=leaver).table == 1
    late = GuestFactory(evening=evening, status=Guest.Status.REGISTERED)
    foursome_guest_arrives(evening=evening, guest=late)
    assert foursome_state(evening).tables[2] == (late.pk, -1, -2, -3)


def test_standings_and_prizes_leave_ghosts_out():
    evening = _evening("euchre", 7)
    foursome_draw(evening=evening)
    tables = foursome_state(evening).tables
    foot_ghost_side = "EW" if tables[1][1] < 0 or tables[1][3] < 0 else "NS"
    _play(
        evening,
        {
            1: {"points": {"NS": 7, "EW": 5}},
            2: {"points": {foot_ghost_side: 9, "NS" if foot_ghost_side == "EW" else "EW": 2}},
        },
    )
    standings = foursome_standings(evening)
    assert [t for t, _ in standings.tallies][:2] == ["stars", "points"]
    assert len(standings.lines) == 7 and not any(line.is_ghost for line in standings.lines)  # ghosts hold no place
    top = standings.lines[0]
    assert top.place == 1 and top.tallies["stars"] == 1 and top.tallies["points"] == 9
    winners = {g.pk for p in standings.prizes for g in p.winners}
    assert all(w > 0 for w in winners) and winners
