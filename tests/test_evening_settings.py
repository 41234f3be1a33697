"""The evening's settings page, saved by ``services.evening_settings``: only the settings the
page holds are written, against the evening as it is now, so a bell, a draw or the house rules
saved while the page was open are never undone; what the clock's page refuses (fewer planned
rounds than were played) the settings page refuses too; every save is in the audit log."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tests.db_snapshot import db_snapshot as snapshot
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw
from tournament.models import AuditEntry, Bell, Evening
from tournament.selectors.audit_sentences import audit_sentence
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.evening_settings import evening_settings_save

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def _played_euchre(make_evening, rounds: int = 1) -> Evening:
    evening = make_evening(4, 4, format="euchre", round_end=Evening.RoundEnd.CLOCK, options={"bell": {"hold": True}})
    foursome_draw(evening=evening)
    for _ in range(rounds):
        rnd = round_start(evening=evening)
        for table in (1, 2):
            foursome_report(round=rnd, table=table, report={"points": {"NS": 7, "EW": 5}})
        bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    return evening


def _form(evening: Evening, **changes) -> dict:
    data = {
        "name": evening.name,
        "date": evening.date.isoformat(),
        "format": evening.format,
        "minutes_per_round": evening.minutes_per_round,
        "rounds_planned": evening.rounds_planned or "",
        "round_end": evening.round_end,
        "red_label": evening.red_label,
        "blue_label": evening.blue_label,
        "prize_ties": "cut",
        "ties": "playoff",
    }
    return {**data, **changes}


def test_a_page_opened_before_the_evening_ended_saves_its_settings_and_leaves_the_end_and_house_rules_alone(
    make_evening,
):
    evening = _played_euchre(make_evening)
    stale = Evening.objects.get(pk=evening.pk)  # the page's copy, read before the last bell
    Evening.objects.filter(pk=evening.pk).update(stage=Evening.Stage.ENDED, options={"bell": {"hold": False}})
    evening_settings_save(evening=stale, settings={"name": "Renamed", "minutes_per_round": 25})
    saved = Evening.objects.get(pk=evening.pk)
    assert (saved.name, saved.minutes_per_round) == ("Renamed", 25)
    assert saved.stage == Evening.Stage.ENDED and saved.options == {"bell": {"hold": False}}
    assert saved.version > stale.version  # live pages refetch


def test_the_settings_page_refuses_fewer_planned_rounds_than_were_played_and_saves_nothing(logged_in, make_evening):
    evening = _played_euchre(make_evening, rounds=2)
    before = snapshot()
    response = logged_in.post(reverse("host-evening-edit", args=[evening.pk]), _form(evening, rounds_planned=1))
    assert response.status_code == 200
    assert "2 rounds have been played already: plan at least that many." in response.content.decode()
    assert snapshot() == before
    with pytest.raises(RuleError, match="2 rounds have been played already"):
        evening_settings_save(evening=evening, settings={"rounds_planned": 1})
    assert snapshot() == before


def test_a_settings_save_is_in_the_audit_log_in_words(logged_in, make_evening):
    evening = _played_euchre(make_evening)
    response = logged_in.post(
        reverse("host-evening-edit", args=[evening.pk]), _form(evening, name="Euchre at the hall", rounds_planned=4)
    )
    assert response.status_code == 302
    entry = AuditEntry.objects.filter(evening=evening, action="evening.settings").get()
    assert audit_sentence(entry, {}).endswith("changed the evening's settings: the name and the number of rounds.")
    assert Evening.objects.get(pk=evening.pk).rounds_planned == 4


def test_a_setting_that_is_not_one_is_refused(make_evening):
    evening = make_evening(4, 4)
    with pytest.raises(RuleError, match="Not a setting of the evening: stage"):
        evening_settings_save(evening=evening, settings={"stage": "ended"})
