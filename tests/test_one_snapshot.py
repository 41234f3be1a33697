"""A page drawn while a bell is committed shows the evening before the bell or after it, never
half of each (``tournament.snapshots``), in every registered format.

Found by trying the product: a Bunco phone polled while the host rang the bell and showed "You
lost at the head table: move down to table 2" under "Go to Table 1" until its next poll, and
kept that board under the version it had read first. Here the bell is committed by another
connection between two of the board's queries: the board must be the one before the bell
(the version it was read at, the seats and no bell news) or the one after (every table as the
bell left it), each whole. PostgreSQL only: SQLite's transactions are serializable, and a
second connection writing while the board reads would wait for it.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from tests.test_capabilities import _evening, formats
from tournament.kept import kept_forget
from tournament.models import Bell, Evening
from tournament.registry import format_for
from tournament.selectors.guest_boards import shared_board
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite's transactions are serializable"),
]


def _ring_elsewhere(round_id: int) -> None:
    """Ring the host's bell for ``round_id`` on another thread's connection and wait for it."""
    failed: list[BaseException] = []

    def ring() -> None:
        try:
            bell_ring(round_id=round_id, cause=Bell.Cause.HOST)
        except BaseException as error:  # noqa: BLE001 - handed back to the test
            failed.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=ring)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive() and not failed, failed


def _tables_of(board) -> list[list[int]]:
    """Guest ids at each table as the board shows them, in the board's order."""
    family = board.family
    if family is not None:
        return [[seat.player for seat in table.seats if seat.player > 0] for table in family.tables]
    return [sorted(line.guest.pk for line in table.lines) for table in board.board.tables]


@pytest.mark.parametrize("key", formats("a page read while the bell is committed"))
def test_a_board_read_across_a_bell_is_whole(host, key):
    evening = _evening(host, key, guests=16)
    draw_digital(evening=evening, user=host)
    rnd = round_start(evening=evening, user=host)
    fmt = format_for(evening)
    for table in range(1, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
    evening = Evening.objects.get(pk=evening.pk)
    kept_forget()
    before = shared_board(evening)
    kept_forget()
    queries: list[str] = []

    def bell_between_queries(execute, sql, params, many, context):
        queries.append(sql)
        if len(queries) == 3:  # the board has begun reading: the bell commits now
            _ring_elsewhere(rnd.pk)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(bell_between_queries):
        read = shared_board(evening)
    assert len(queries) > 3 and Bell.objects.filter(round=rnd, undone_at__isnull=True).exists()
    kept_forget()
    after = shared_board(Evening.objects.get(pk=evening.pk))
    assert after.version > before.version
    whole = {before.version: before, after.version: after}
    assert read.version in whole, "the board names a version the evening never had"
    assert _tables_of(read) == _tables_of(whole[read.version])
    assert read.standing == whole[read.version].standing
    if read.family is not None:
        assert read.family.moves == whole[read.version].family.moves
        assert read.family.bell_round == whole[read.version].family.bell_round


def test_season_standings_read_across_a_bell_are_whole(host):
    """The same for a club's season: its standings summed while a bell of one of its evenings
    is committed are the standings before that bell or after it."""
    import datetime

    from clubs import services
    from clubs.selectors import season_standings
    from tests.fixtures_clubs import bunco_club, club_evening, play

    club = bunco_club(host)
    season = services.season_open(club=club, name="Year", starts_on=datetime.date(2026, 1, 1))
    play(club_evening(club, host, datetime.date(2026, 1, 8)), host)
    evening = play(club_evening(club, host, datetime.date(2026, 1, 15)), host)
    rnd = round_start(evening=evening, user=host)
    fmt = format_for(evening)
    for table in range(1, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
    kept_forget()
    before = season_standings(season)
    kept_forget()
    queries: list[str] = []

    def bell_between_queries(execute, sql, params, many, context):
        queries.append(sql)
        if len(queries) == 6:  # the version read twice, the standings begun: the bell commits now
            _ring_elsewhere(rnd.pk)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(bell_between_queries):
        read = season_standings(season)
    assert len(queries) > 6
    kept_forget()
    after = season_standings(season)
    assert after != before
    assert read in (before, after)
