"""Two captains at one table tap “Send” at the same moment (issue 6: "two captains reporting at
once"): one report is saved, the other is told the first stands. Real threads, real commits."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tables.errors import RuleError
from tests import fixtures_phones
from tests.fixtures_phones import at_table
from tournament.models import Result
from tournament.services.captains import captain_report

pytestmark = pytest.mark.django_db(transaction=True)

clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture


def test_two_captains_at_once_save_one_report(playing):
    one, two = at_table(playing, 2)[:2]
    start = threading.Barrier(2)
    outcome: dict[str, str] = {}

    def send(captain, winner, request_id):
        start.wait(timeout=10)
        try:
            captain_report(guest=captain, round_number=1, table=2, pool_winner=winner.pk, request_id=request_id)
            outcome[request_id] = "saved"
        except RuleError as error:
            outcome[request_id] = str(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(one, one, "a")), threading.Thread(target=send, args=(two, two, "b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(v == "saved" for v in outcome.values()) == [False, True], outcome
    refused = next(v for v in outcome.values() if v != "saved")
    assert "The first report stands" in refused
    live = Result.objects.filter(table=2, superseded_at__isnull=True)
    assert live.count() == 1 and Result.objects.filter(table=2).count() == 1
