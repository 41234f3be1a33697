"""The evening on the database: draw, rounds, results, the bell, undo, export.

The rules themselves are tested over ``tables/``; here we check that the services load, call
them and save the outcome whole, refuse bad input without saving, and keep queries constant.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.errors import RuleError
from tournament.exchange.export import evening_export
from tournament.models import Bell, BellEntry, Guest, Result, Round, Seat
from tournament.selectors.board import evening_board
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.clock import round_extend, round_pause, round_resume, round_start
from tournament.services.draws import draw_digital
from tournament.services.naming import error_message
from tournament.services.results import result_record
from tournament.services.state import evening_state


def seated(evening):
    """Table number -> sorted guest ids, from the Seat rows."""
    tables = {}
    for guest, table in Seat.objects.filter(evening=evening).values_list("guest_id", "table"):
        tables.setdefault(table, []).append(guest)
    return {t: sorted(g) for t, g in sorted(tables.items())}


def play_round(evening, *, winners=None, all_counters=False):
    """Start a round and report a result at every table: the first guest at each table wins;
    at the head table the winner takes 10 counters from the last player listed. With
    ``all_counters`` every table reports its counts (the last round needs them)."""
    rnd = round_start(evening=evening)
    state = evening_state(evening)
    for number, ids in enumerate(state.tables, 1):
        winner = (winners or {}).get(number, ids[0])
        counters = {g: state.counters[g] for g in ids} if all_counters else None
        if number == 1:
            counters = {g: state.counters[g] for g in ids}
            loser = next(g for g in reversed(ids) if g != winner)
            counters[winner] += 10
            counters[loser] -= 10
        result_record(round=rnd, table=number, pool_winner=winner, counters=counters)
    return rnd


def test_fewer_than_eight_guests_cannot_be_drawn(make_evening):
    evening = make_evening(4, 3)
    with pytest.raises(RuleError):
        draw_digital(evening=evening)
    assert not Seat.objects.exists() and not evening.draws.exists()


def test_the_draw_seats_every_guest_here_once_with_a_card_of_their_pack(make_evening):
    evening = make_evening(8, 8)
    Guest.objects.filter(evening=evening, name="Red 8").update(status=Guest.Status.REGISTERED)
    draw = draw_digital(evening=evening)
    assert sorted(len(v) for v in seated(evening).values()) == sorted(draw.sizes)
    assert draw.sizes[0] == 4 and draw.sizes[-1] == 4 and sum(draw.sizes) == 15
    assert Seat.objects.filter(evening=evening).count() == 15
    assert not Seat.objects.filter(guest__name="Red 8").exists()
    cards = list(draw.cards.select_related("guest"))
    assert {c.guest_id for c in cards} == set(Seat.objects.values_list("guest_id", flat=True))
    for c in cards:
        assert Seat.objects.get(guest=c.guest).table == c.rank


def test_a_redraw_before_round_one_replaces_the_draw_and_keeps_the_old(make_evening):
    evening = make_evening(6, 6)
    first = draw_digital(evening=evening)
    second = draw_digital(evening=evening)
    first.refresh_from_db()
    assert first.superseded_at is not None and second.superseded_at is None
    round_start(evening=evening)
    with pytest.raises(RuleError, match="Round 1 has started"):
        draw_digital(evening=evening)


def test_the_bell_moves_winners_up_and_the_head_tables_weakest_down(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    before = evening_state(evening)
    rnd = play_round(evening)
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert bell is not None
    after = evening_state(evening)
    assert [len(t) for t in after.tables] == [len(t) for t in before.tables]
    head, *_, booby = before.tables
    # The head table's winner (its first guest) gets a yellow counter and stays.
    assert after.yellow[head[0]] == 1 and after.table_of(head[0]) == 1
    # The head table's loser (10 counters down, not in the call) goes to the booby table.
    assert after.table_of(head[-1]) == len(before.tables)
    # Every other table's winner moves up one table.
    for number, ids in enumerate(before.tables[1:], 2):
        assert after.table_of(ids[0]) == number - 1
    # Seats stored agree with the state; every guest exactly once.
    assert seated(evening) == {n: sorted(ids) for n, ids in enumerate(after.tables, 1)}
    rnd.refresh_from_db()
    assert rnd.state == Round.State.CLOSED
    assert BellEntry.objects.filter(bell=bell, kind="yellow").count() == 1


def test_ringing_twice_applies_once(make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    rnd = play_round(evening)
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK) is None
    assert Bell.objects.filter(round=rnd).count() == 1


def test_a_stale_clock_version_or_an_early_timer_rings_nothing(make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK, only_if_due=True) is None  # ten minutes early
    round_extend(round=rnd, minutes=-10)
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK, expected_clock_version=rnd.clock_version) is None
    rnd.refresh_from_db()
    assert rnd.state == "running"
    # Due now, but the head table has not reported: the bell rings and waits for its result.
    assert (
        bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK, expected_clock_version=rnd.clock_version, only_if_due=True)
        is None
    )
    rnd.refresh_from_db()
    assert rnd.state == "rung" and "head table" in rnd.waiting_for and not Bell.objects.exists()
    head = evening_state(evening).tables[0]
    result_record(round=rnd, table=1, pool_winner=head[0], counters={g: 50 for g in head})
    rnd.refresh_from_db()
    assert rnd.state == "closed" and Bell.objects.filter(round=rnd).count() == 1


def test_pause_and_resume_keep_the_time_left(make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    paused = round_pause(round=rnd)
    assert paused.state == "paused" and paused.deadline is None and 590 < paused.paused_seconds_left <= 600
    with pytest.raises(RuleError):
        round_pause(round=paused)
    resumed = round_resume(round=paused)
    assert resumed.state == "running" and resumed.clock_version == rnd.clock_version + 2
    with pytest.raises(RuleError):
        round_extend(round=resumed, minutes=500)


def test_a_second_round_cannot_start_while_one_is_in_play(make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    round_start(evening=evening)
    with pytest.raises(RuleError, match="already in play"):
        round_start(evening=evening)


def test_a_result_naming_someone_not_at_that_table_is_refused_and_nothing_saved(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    state = evening_state(evening)
    stranger = state.tables[1][0]
    with pytest.raises(RuleError):
        result_record(round=rnd, table=3, pool_winner=stranger)
    with pytest.raises(RuleError):
        result_record(round=rnd, table=1, pool_winner=state.tables[0][0], counters={g: -5 for g in state.tables[0]})
    assert not Result.objects.exists()


def test_a_corrected_result_supersedes_the_first_and_keeps_it(make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    ids = evening_state(evening).tables[1]
    result_record(round=rnd, table=2, pool_winner=ids[0])
    result_record(round=rnd, table=2, pool_winner=ids[1])
    assert Result.objects.filter(round=rnd, table=2).count() == 2
    assert Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).pool_winner_id == ids[1]


def test_head_pool_evenings_ring_when_the_head_table_reports(make_evening):
    evening = make_evening(6, 6, round_end="head_pool")
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    state = evening_state(evening)
    head = state.tables[0]
    result_record(round=rnd, table=2, pool_winner=state.tables[1][0])
    result_record(round=rnd, table=1, pool_winner=head[0], counters={g: 50 for g in head})
    rnd.refresh_from_db()
    assert rnd.state == Round.State.CLOSED and Bell.objects.filter(round=rnd).count() == 1


def test_undo_puts_everyone_back_and_the_round_can_ring_again(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    before = seated(evening)
    rnd = play_round(evening)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert seated(evening) != before
    undone = bell_undo(evening=evening)
    assert undone.undone_at is not None
    assert seated(evening) == before
    again = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert again is not None and Bell.objects.filter(round=rnd).count() == 2


def test_the_last_planned_round_ends_the_evening(make_evening):
    evening = make_evening(6, 6, rounds_planned=1)
    draw_digital(evening=evening)
    rnd = play_round(evening, all_counters=True)
    before = seated(evening)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    evening.refresh_from_db()
    assert evening.stage == "ended" and seated(evening) == before  # the last round: no moves
    with pytest.raises(RuleError):
        round_start(evening=evening)


def test_queries_per_bell_and_per_board_do_not_grow_with_the_evening(make_evening):
    counts = {}
    for red in (6, 40):
        evening = make_evening(red, red, name=f"E{red}")
        draw_digital(evening=evening)
        rnd = play_round(evening)
        with CaptureQueriesContext(connection) as bell_queries:
            bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
        with CaptureQueriesContext(connection) as board_queries:
            evening_board(evening)
        counts[red] = (len(bell_queries), len(board_queries))
    # A bell updates one query per destination table that gained someone; allow for that.
    small, large = counts[6], counts[40]
    assert large[1] == small[1], counts
    tables_large = 80 // 6 + 1
    assert large[0] <= small[0] + tables_large, counts


def test_the_export_tells_the_same_story_as_the_tables(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    for _ in range(2):
        rnd = play_round(evening)
        bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    data = evening_export(evening)
    assert data["schema"] == "head-table/evening/1"
    assert {t["number"]: sorted(t["guests"]) for t in data["tables"]} == seated(evening)
    assert len(data["rounds"]) == 2 and all(len(r["bells"]) == 1 for r in data["rounds"])
    moved = {(m["round"], m["guest"]) for m in data["moves"]}
    assert moved == {
        (b.round.number, e.guest_id)
        for b in Bell.objects.filter(round__evening=evening)
        for e in b.entries.all()
        if e.from_table and e.to_table and e.from_table != e.to_table
    }
    assert sum(s["yellow"] for s in data["standings"]) == 2
    assert "key" not in str(data["guests"])


def test_a_pool_tie_is_stored_and_settled_by_a_recorded_cut(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    rnd = play_round(evening)
    state = evening_state(evening)
    a, b, *_ = state.tables[1]
    result_record(round=rnd, table=2, pool_winner=a, tied=[b])
    assert Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).tied == [b]
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    after = evening_state(evening)
    cut = {e.guest_id: e.amount for e in bell.entries.filter(kind="cut")}
    assert set(cut) >= {a, b}
    up = a if after.table_of(a) == 1 else b
    assert after.table_of(up) == 1 and {after.table_of(a), after.table_of(b)} == {1, 2}


def test_result_errors_name_the_guest_not_an_id(make_evening):
    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    stranger = Guest.objects.get(pk=evening_state(evening).tables[1][0])
    with pytest.raises(RuleError) as caught:
        result_record(round=rnd, table=3, pool_winner=stranger.pk)
    assert caught.value.subjects.guests[0] == stranger.pk
    message = error_message(caught.value, evening)  # as a page or a command says it
    assert stranger.name in message and f"guest {stranger.pk}" not in message.lower()
