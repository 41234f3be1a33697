"""One state per request (issue 23): a report at tables of four builds the evening's state once
and passes it down to the check, the reporter's seat and the bell it rings; the bell's queries
stay the same as the evening grows.

Measured: the head table's report that rings a Bunco bell
took 33 queries before the state was passed down, 29 after, for 16 and for 64 guests alike.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import EveningFactory, GuestFactory
from tournament.formats.partnership import state as family_state
from tournament.formats.partnership.reports import foursome_captain_report, foursome_report
from tournament.models import Bell, Guest, Result
from tournament.registry import format_for
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital


def _night(host, guests: int):
    evening = EveningFactory(host=host, format="bunco", rounds_planned=3, round_end="head_pool")
    for i in range(guests):
        GuestFactory(evening=evening, name=f"Guest {i}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    rnd = round_start(evening=evening, user=host)
    fmt = format_for(evening)
    for table in range(2, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
    return evening, rnd, fmt


@pytest.mark.django_db
def test_the_head_tables_report_that_rings_the_bell_builds_the_state_once(host):
    evening, rnd, fmt = _night(host, 16)
    report = fmt.example_report(tuple(fmt.state(evening).tables[0]))
    from tournament.formats.partnership import bell, reports

    spy = mock.Mock(wraps=family_state.foursome_state)
    with (
        mock.patch.object(reports, "foursome_state", spy),
        mock.patch.object(bell, "foursome_state", spy),
    ):
        foursome_report(round=rnd, table=1, report=report, user=host)
    assert Bell.objects.filter(round=rnd, undone_at__isnull=True).exists()
    assert spy.call_count == 1


@pytest.mark.django_db
def test_a_phones_report_builds_the_state_once(host):
    evening, rnd, fmt = _night(host, 16)
    table = fmt.state(evening).tables[1]
    reporter = Guest.objects.get(pk=next(p for p in table if p > 0))
    from tournament.formats.partnership import reports

    rnd.results.filter(table=2).delete()
    spy = mock.Mock(wraps=family_state.foursome_state)
    with mock.patch.object(reports, "foursome_state", spy):
        foursome_captain_report(
            guest=reporter, round_number=rnd.number, table=2, report=fmt.example_report(tuple(table))
        )
    assert spy.call_count == 1


@pytest.mark.django_db
def test_the_bells_queries_do_not_grow_with_the_guests(host):
    counts = []
    for guests in (16, 64):
        evening, rnd, fmt = _night(host, guests)
        report = fmt.example_report(tuple(fmt.state(evening).tables[0]))
        with CaptureQueriesContext(connection) as queries:
            foursome_report(round=rnd, table=1, report=report, user=host)
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_a_phones_poker_report_is_checked_before_any_board_is_built(client, make_evening):
    """A captain's report (Progressive Poker) is checked and saved from the evening's state: no
    board is built for the POST, whether it is saved, refused as stale (its round rang
    meanwhile) or damaged; only a form shown again with its errors builds one."""
    from tests.fixtures_phones import at_table
    from tournament.selectors import guest_boards
    from tournament.services.versions import evening_token

    evening = make_evening(8, 8)
    draw_digital(evening=evening)
    round_start(evening=evening)
    captain, winner = at_table(evening, 2)[:2]
    post = {"round": "1", "table": "2", "request_id": "r1", "pool_winner": str(winner.pk)}
    token = evening_token(evening.pk, evening.public_key)

    def boards_built() -> int:
        return int(guest_boards._BOARDS.key_of(token) is not None)

    guest_boards._BOARDS.clear()
    assert client.post(f"/g/{captain.key}/report/", post).status_code == 302
    assert Result.objects.filter(round__evening=evening, table=2, pool_winner=winner).exists()
    assert boards_built() == 0
    stale = {**post, "round": "7", "request_id": "r2"}
    assert client.post(f"/g/{captain.key}/report/", stale).status_code == 302
    assert boards_built() == 0
    other = at_table(evening, 3)[0]
    bad = {"round": "1", "table": "3", "request_id": "r3", "pool_winner": str(winner.pk)}  # sat at table 2
    page = client.post(f"/g/{other.key}/report/", bad)
    assert page.status_code == 200 and boards_built() == 1  # the form again, with the board's page around it


@pytest.mark.django_db
def test_a_phones_report_at_tables_of_four_is_checked_before_any_board_is_built(client, host):
    """The same at tables of four (Bunco): a report saved, and one for a round that is not in
    play, build no board."""
    from tournament.selectors import guest_boards
    from tournament.services.versions import evening_token

    evening, rnd, fmt = _night(host, 16)
    rnd.results.filter(table=2).delete()
    table = fmt.state(evening).tables[1]
    reporter = Guest.objects.get(pk=next(p for p in table if p > 0))
    token = evening_token(evening.pk, evening.public_key)
    guest_boards._BOARDS.clear()
    url = f"/g/{reporter.key}/report/"
    stale = {"round": "5", "table": "2", "request_id": "r0"}
    assert client.post(url, stale).status_code == 302 and guest_boards._BOARDS.key_of(token) is None
    n, e, s, w = table
    rolls = {f"points_{n}": "21", f"buncos_{n}": "1", f"points_{e}": "3", f"points_{s}": "0", f"points_{w}": "0"}
    assert client.post(url, {"round": "1", "table": "2", "request_id": "r1", **rolls}).status_code == 302
    assert Result.objects.filter(round=rnd, table=2).exists() and guest_boards._BOARDS.key_of(token) is None


@pytest.mark.django_db
def test_a_poker_captains_head_table_report_that_rings_the_bell_builds_the_state_once(make_evening):
    """Progressive Poker: the head table's captain reports and the pool rings the bell; the
    report's check, its save and the bell read one state (issue 23 item 3)."""
    from tests.fixtures_phones import at_table
    from tournament.formats.poker import bell
    from tournament.formats.poker.state import poker_state
    from tournament.services import captains, results
    from tournament.services.captains import captain_report
    from tournament.services.results import result_record
    from tournament.services.state import evening_state

    evening = make_evening(8, 8, round_end="head_pool")
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    for table in range(2, 5):
        result_record(round=rnd, table=table, pool_winner=at_table(evening, table)[0].pk)
    head = at_table(evening, 1)
    counters = {g.pk: evening.counters_per_stake for g in head}
    counters[head[0].pk] += 10 * (len(head) - 1)
    counters.update({g.pk: evening.counters_per_stake - 10 for g in head[1:]})
    spy, bell_spy = mock.Mock(wraps=evening_state), mock.Mock(wraps=poker_state)
    with (
        mock.patch.object(captains, "evening_state", spy),
        mock.patch.object(results, "evening_state", spy),
        mock.patch.object(bell, "poker_state", bell_spy),
    ):
        captain_report(guest=head[0], round_number=1, table=1, pool_winner=head[0].pk, counters=counters)
    assert Bell.objects.filter(round=rnd, undone_at__isnull=True).exists()
    assert spy.call_count + bell_spy.call_count == 1
