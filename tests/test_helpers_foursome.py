"""A scorer's link at tables of four (issue 23: every capability in every format): the scorer's
page lists the round's tables with their four players and reports, and a table's report is
entered with the format's own form, with the poker scorer's protections: the round checked, seats
changed since the form was shown, the rules' refusal in their words, "Nothing was saved", the
kept form's answer, the private links' headers, and the audit naming the helper."""

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tournament.formats.partnership.reports import foursome_scorer_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import AuditEntry, Bell, Evening, Guest, Result
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.helpers import HelperRefused, helper_link_create

pytestmark = pytest.mark.django_db
KEPT = {"HTTP_X_HEADTABLE_KEEP": "1"}


def _drawn(make_evening, fmt: str) -> Evening:
    evening = make_evening(4, 4, format=fmt, round_end=Evening.RoundEnd.CLOCK)
    foursome_draw(evening=evening)
    return evening


def _url(link, table: int) -> str:
    return reverse("helper-result", args=[link.key, table])


def _seated(evening: Evening, table: int) -> str:
    return " ".join(str(p) for p in foursome_state(evening).tables[table - 1])


def test_a_report_the_rules_refuse_saves_nothing_and_says_why(client, make_evening):
    evening = _drawn(make_evening, "whist")
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven")
    round_start(evening=evening)
    data = {"round": "1", "seated": _seated(evening, 1), "tricks_NS": "7", "tricks_EW": "5"}
    response = client.post(_url(scorer, 1), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "A hand of whist has 13 tricks; these add up to 12. Nothing was saved." in page
    assert response["Referrer-Policy"] == "no-referrer"
    assert not Result.objects.exists() and not AuditEntry.objects.filter(action="result.record").exists()
    kept = client.post(_url(scorer, 1), {**data, "request_id": "k-1"}, **KEPT)
    assert kept["X-Headtable-Kept"] == "refused" and "Nothing%20was%20saved." in kept["X-Headtable-Words"]
    saved = client.post(_url(scorer, 1), {**data, "tricks_NS": "8", "request_id": "k-1"}, **KEPT)
    assert saved["X-Headtable-Kept"] == "recorded"  # a refused send is not remembered: corrected, it records
    assert saved["X-Headtable-Location"] == reverse("helper-page", args=[scorer.key])
    assert Result.objects.get(table=1).report == {"tricks": {"NS": 8, "EW": 5}}
    again = client.post(_url(scorer, 1), {**data, "tricks_NS": "8", "request_id": "k-1"}, **KEPT)
    assert again["X-Headtable-Kept"] == "already" and Result.objects.count() == 1


def test_a_form_for_another_round_or_other_seats_saves_nothing_and_says_so(client, make_evening):
    evening = _drawn(make_evening, "euchre")
    scorer = helper_link_create(evening=evening, role="scorer")
    rnd = round_start(evening=evening)
    shown = {"round": "1", "seated": _seated(evening, 2), "points_NS": "7", "points_EW": "5"}
    for table in (1, 2):
        client.post(_url(scorer, table), {**shown, "seated": _seated(evening, table)})
    assert Result.objects.filter(round=rnd).count() == 2
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    round_start(evening=evening)
    evening.refresh_from_db()
    late = client.post(_url(scorer, 2), {**shown, "seated": _seated(evening, 2)}).content.decode()
    assert "That form was for round 1, but round 2 is in play now: nothing was saved." in late
    moved = client.post(_url(scorer, 2), {**shown, "round": "2"}).content.decode()
    assert shown["seated"] != _seated(evening, 2)  # the bell moved table 2's winners up
    assert "no longer sits here. Nothing was saved; enter the report again." in moved
    assert Result.objects.filter(round__number=2).count() == 0
    page = client.get(reverse("helper-page", args=[scorer.key])).content.decode()
    assert "Round 2" in page and "0 of 2 tables in" in page


def test_the_scorers_page_names_each_table_its_players_and_its_report(client, make_evening):
    evening = _drawn(make_evening, "bunco")
    scorer = helper_link_create(evening=evening, role="scorer")
    assert "No round is in play now" in client.get(reverse("helper-page", args=[scorer.key])).content.decode()
    round_start(evening=evening)
    north = Guest.objects.get(pk=foursome_state(evening).tables[0][0])
    data = {"round": "1", "seated": _seated(evening, 1), "points_NS": "30", "points_EW": "8"}
    data |= {f"{kind}_{seat}": "0" for kind in ("buncos", "minis") for seat in range(4)} | {"buncos_0": "1"}
    assert client.post(_url(scorer, 1), data).status_code == 302
    page = client.get(reverse("helper-page", args=[scorer.key])).content.decode()
    assert f"buncos: <bdi>{north.name}</bdi> 1" in page and "1 of 2 tables in" in page and "Missing" in page
    entry = AuditEntry.objects.get(action="result.record")
    assert entry.helper == scorer and entry.user is None and entry.detail["table"] == 1


def test_a_door_link_gets_no_scorers_form_and_the_service_refuses_a_closed_round(client, make_evening):
    evening = _drawn(make_evening, "euchre")
    door = helper_link_create(evening=evening, role="door")
    scorer = helper_link_create(evening=evening, role="scorer")
    rnd = round_start(evening=evening)
    assert client.get(_url(door, 1)).status_code == 403
    report = {"points": {"NS": 7, "EW": 5}}
    with pytest.raises(HelperRefused):
        foursome_scorer_report(link=door, round_number=1, table=1, report=report)
    with pytest.raises(RuleError, match="That round does not exist"):
        foursome_scorer_report(link=scorer, round_number=3, table=1, report=report)
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    with pytest.raises(RuleError, match="Round 1 is closed"):  # the form's round rang meanwhile
        foursome_scorer_report(link=scorer, round_number=1, table=1, report=report)
    assert not Result.objects.exists()
    assert client.get(_url(scorer, 9), follow=True).redirect_chain[-1][0] == reverse("helper-page", args=[scorer.key])


def _seen(page: str) -> str:
    """The ``seen`` mark a scorer's form carries (when its page was drawn)."""
    import re

    match = re.search(r'name="seen" value="([0-9.]+)"', page)
    assert match, "the scorer's form carries no seen mark"
    return match.group(1)


@pytest.mark.parametrize("fmt", ["bunco", "euchre"])
def test_a_scorers_stale_form_never_replaces_a_guests_report(client, make_evening, fmt):
    from tournament.formats.partnership.reports import foursome_captain_report

    evening = _drawn(make_evening, fmt)
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven")
    rnd = round_start(evening=evening)
    seen = _seen(client.get(_url(scorer, 2)).content.decode())
    guest = Guest.objects.get(pk=foursome_state(evening).tables[1][0])
    points = {"NS": 5, "EW": 21} if fmt == "bunco" else {"NS": 3, "EW": 10}
    report = {"points": points}
    if fmt == "bunco":
        report |= {"buncos": {}, "minis": {}}
    foursome_captain_report(guest=guest, round_number=1, table=2, report=report)  # the guest's phone
    theirs = Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).report
    data = {"round": "1", "seated": _seated(evening, 2), "points_NS": "21", "points_EW": "3", "seen": seen}
    if fmt == "bunco":
        data |= {f"{kind}_{seat}": "0" for kind in ("buncos", "minis") for seat in range(4)}
    response = client.post(_url(scorer, 2), data)
    page = response.content.decode()
    said = (
        "Nothing was saved: table 2&#x27;s report came in since you opened this page: "
        "look at it, then send yours if it is still needed."
    )
    assert response.status_code == 200 and said in page and "Nothing was saved. Nothing was saved" not in page
    assert Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).report == theirs
    kept = client.post(_url(scorer, 2), {**data, "request_id": "s-1"}, **KEPT)
    assert kept["X-Headtable-Kept"] == "refused"
    again = _seen(client.get(_url(scorer, 2)).content.decode())
    assert client.post(_url(scorer, 2), {**data, "seen": again}).status_code == 302  # looked at, then sent
    assert Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).report["points"] == {"NS": 21, "EW": 3}


def test_a_player_who_reports_after_the_scorer_is_told_the_scorer_sent_it(make_evening):
    """Issue 23: the first report stands, and a player's phone is told who sent it: the scorer
    by the link's label, never "the host"."""
    from tournament.formats.partnership.reports import foursome_captain_report

    evening = _drawn(make_evening, "euchre")
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven")
    rnd = round_start(evening=evening)
    report = {"points": {"NS": 10, "EW": 3}}
    foursome_scorer_report(link=scorer, round_number=1, table=2, report=report)
    assert Result.objects.get(round=rnd, table=2).reported_by_helper == scorer
    guest = Guest.objects.get(pk=foursome_state(evening).tables[1][0])
    with pytest.raises(RuleError, match="already in, sent by the scorer Sven. The first report stands"):
        foursome_captain_report(guest=guest, round_number=1, table=2, report=report)
