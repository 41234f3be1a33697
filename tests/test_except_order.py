"""No exception is caught by its parent before its own handler (issue 12 item 7).

``RuleError`` is a ``ValueError``: a view that caught ``ValueError`` first told every refused
vote "The form was damaged" instead of the rule's message. ``tests/except_scan.py`` reads every
``try`` in ``tournament/`` and ``tables/`` (in a process of its own) and these tests check, with
the real classes, that no handler is shadowed by an earlier one; that the views and services have no bare or ``Exception``-wide handler; and that
a handler of a parent of ``RuleError`` in a view or a service guards nothing but a number's
conversion. And the vote after the bell, end to end, shows the rule's message.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from tests import fixtures_phones
from tests.fixtures_phones import at_table
from tournament.models import AuditEntry, Result, ResultVote
from tournament.services.bell import bell_ring
from tournament.services.captains import captain_report
from tournament.services.results import result_record
from tournament.services.state import current_round, evening_state

ROOT = Path(__file__).resolve().parent.parent
clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture


@pytest.fixture(scope="module")
def scan() -> dict:
    """The findings of ``tests/except_scan.py``, run in a process of its own (see its docstring)."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "except_scan.py")], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_the_scan_reads_the_handlers_it_must(scan):
    places = {tuple(place) for place in scan["places"]}
    assert ("tournament/views/guest.py", "RuleError") in places  # the vote's handlers
    assert len(places) > 30


def test_no_handler_is_shadowed_by_an_earlier_parent(scan):
    assert scan["shadowed"] == []


def test_views_and_services_catch_no_parent_of_a_rule_error_around_a_rule(scan):
    """A handler of ``ValueError`` (or wider) in a view or a service, with no ``RuleError``
    handler before it, may guard only a number's conversion: anything else can raise a
    ``RuleError`` whose message would be lost. A handler that logs the whole traceback
    (``log.exception``: queueing a timed task on a broker that is down) loses nothing."""
    assert scan["wide"] == []


def test_a_vote_after_the_bell_shows_the_rules_message(playing, client):
    one, two = at_table(playing, 2)[:2]
    result = captain_report(guest=one, round_number=1, table=2, pool_winner=two.pk)
    head, state = at_table(playing, 1), evening_state(playing)
    result_record(
        round=current_round(playing),
        table=1,
        pool_winner=head[0].pk,
        counters={g.pk: state.counters[g.pk] for g in head},
    )
    assert bell_ring(round_id=current_round(playing).pk, cause="host") is not None
    audit = AuditEntry.objects.count()
    response = client.post(reverse("guest-vote", args=[two.key]), {"result": result.pk, "verdict": "dispute"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Round 1 is closed: its bell has rung" in page
    assert "The form was damaged" not in page
    assert not ResultVote.objects.exists() and AuditEntry.objects.count() == audit
    result.refresh_from_db()
    assert result.status == Result.Status.REPORTED


@pytest.mark.parametrize("data", [{"result": "²", "verdict": "confirm"}, {"verdict": "confirm"}])
def test_a_damaged_vote_still_says_the_form_was_damaged(playing, client, data):
    one, two = at_table(playing, 2)[:2]
    captain_report(guest=one, round_number=1, table=2, pool_winner=two.pk)
    response = client.post(reverse("guest-vote", args=[two.key]), data)
    assert response.status_code == 302
    assert "The form was damaged" in client.get(response["Location"]).content.decode()
    assert not ResultVote.objects.exists()
