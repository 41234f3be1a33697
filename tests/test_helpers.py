"""Helpers' links (issue 11 deliver 7): a door link checks guests in and registers them, a
scorer link enters table results, nothing else; revoked or wrong keys answer the guest pages'
one 404; every helper action is in the audit log under "the door helper (link N)"."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.test_round_services import play_round
from tournament.models import AuditEntry, Bell, Guest, HelperLink, Result
from tournament.private_logs import redact
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.helpers import helper_link_create, helper_link_revoke
from tournament.services.state import evening_state

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
KEPT = {"HTTP_X_HEADTABLE_KEEP": "1"}


@pytest.fixture
def evening(make_evening):
    """8 + 8 guests here, and Anne and Bob registered, not here yet."""
    evening = make_evening(8, 8)
    Guest.objects.create(evening=evening, name="Anne Arrival", pack="red", status="registered")
    Guest.objects.create(evening=evening, name="Bob Arrival", pack="blue", status="registered")
    return evening


@pytest.fixture
def door_link(evening):
    return helper_link_create(evening=evening, role="door", label="Britt")


def helper_url(link, name="helper-page", *args):
    return reverse(name, args=[link.key, *args])


def test_the_host_creates_shows_and_revokes_links_on_the_door_page(client, host, evening):
    client.force_login(host)
    response = client.post(
        reverse("host-helpers", args=[evening.pk]), {"action": "create", "role": "door", "label": "Britt"}, follow=True
    )
    link = HelperLink.objects.get(evening=evening)
    assert (link.number, link.role, link.label, len(link.key)) == (1, "door", "Britt", 32)
    page = response.content.decode()
    assert "Link 1 is ready" in page and helper_url(link) in page and 'aria-label="QR code of the door helper' in page
    client.post(reverse("host-helpers", args=[evening.pk]), {"action": "create", "role": "scorer"})
    assert list(evening.helper_links.values_list("number", "role")) == [(1, "door"), (2, "scorer")]
    page = client.post(
        reverse("host-helpers", args=[evening.pk]), {"action": "revoke", "link": "1"}, follow=True
    ).content.decode()
    assert "Link 1 is revoked" in page and "answers “Not found”" in page
    link.refresh_from_db()
    assert link.revoked_at is not None
    assert [e.action for e in AuditEntry.objects.order_by("id")] == ["helper.create", "helper.create", "helper.revoke"]


def test_bad_input_on_the_host_helpers_form_changes_nothing(client, host, evening, door_link):
    client.force_login(host)
    for data in (
        {"action": "create", "role": "cook"},
        {"action": "create"},
        {"action": "revoke", "link": "²"},
        {"action": "revoke", "link": "9"},
        {"action": "revoke"},
        {"action": "burn"},
        {"action": "create", "role": "door", "label": "x" * 61},
        {"action": "create", "role": "door", "label": "a\x00"},
    ):
        response = client.post(reverse("host-helpers", args=[evening.pk]), data, follow=True)
        assert response.status_code == 200 and 'class="error"' in response.content.decode(), data
    assert HelperLink.objects.count() == 1 and HelperLink.objects.get().revoked_at is None
    other = Client()
    other.force_login(type(host).objects.create_user("other-host", password="pass-word-123"))
    assert other.post(reverse("host-helpers", args=[evening.pk]), {"action": "revoke", "link": "1"}).status_code == 404


def test_the_door_helper_sees_the_list_and_no_host_actions(client, evening, door_link):
    response = client.get(helper_url(door_link))
    page = response.content.decode()
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "no-referrer" and "noindex" in response["X-Robots-Tag"]
    assert "You are the door helper (link 1, Britt)" in page and "Anne Arrival" in page
    assert (
        "Remove…" not in page
        and 'name="action" value="left"' not in page
        and "/g/" not in page
        and "/host/" not in page
    )
    rows = client.get(helper_url(door_link), {"q": "arriv"}, HTTP_HX_TARGET="guest-rows", **HTMX).content.decode()
    assert rows.lstrip().startswith('<tbody id="guest-rows">') and rows.count('<tr id="guest-') == 2


def test_the_door_helper_checks_in_and_the_audit_names_them(client, host, evening, door_link):
    anne = evening.guests.get(name="Anne Arrival")
    row = client.post(helper_url(door_link, "helper-guest", anne.pk), {"action": "here"}, **HTMX).content.decode()
    assert row.startswith(f'<tr id="guest-{anne.pk}" class="here">') and "Anne Arrival is checked in." in row
    assert Guest.objects.get(pk=anne.pk).status == "here"
    response = client.post(helper_url(door_link, "helper-check-in"), {"everyone": "listed", "q": "bob"})
    assert response.status_code == 302 and response["Location"] == helper_url(door_link) + "?q=bob"
    assert Guest.objects.get(name="Bob Arrival").status == "here"
    entries = AuditEntry.objects.filter(helper=door_link).order_by("id")
    assert [(e.action, e.user_id) for e in entries] == [("guest.status", None), ("guests.check_in", None)]
    client.force_login(host)
    audit = client.get(reverse("host-audit", args=[evening.pk])).content.decode()
    assert "The door helper (link 1, Britt) checked <bdi>Anne Arrival</bdi> in." in audit
    assert "The door helper (link 1, Britt) checked in <bdi>Bob Arrival</bdi>." in audit


def test_the_door_helper_adds_a_guest(client, evening, door_link):
    response = client.post(helper_url(door_link), {"one-name": "Cecilia Late", "one-pack": "red", "one-check_in": "on"})
    assert response.status_code == 302
    cecilia = Guest.objects.get(name="Cecilia Late")
    assert (
        cecilia.status == "here"
        and response["Location"] == helper_url(door_link) + f"#guest-{cecilia.pk}"  # the whole list, at her row
    )
    assert AuditEntry.objects.get(action="guests.register").helper == door_link
    again = client.post(helper_url(door_link), {"one-name": "cecilia  late", "one-pack": "red"})
    assert again.status_code == 200 and "already registered" in again.content.decode()
    assert client.post(helper_url(door_link), {"many-text": "Dan, red"}).status_code != 500
    assert not Guest.objects.filter(name="Dan").exists()


def test_a_revoked_or_wrong_key_answers_the_one_404(client, evening, door_link):
    guest_404 = client.get("/g/this-is-not-a-key-at-all-xxxxxxx/")
    anne = evening.guests.get(name="Anne Arrival")
    helper_link_revoke(evening=evening, number=door_link.number)
    for response in (
        client.get(helper_url(door_link)),
        client.get("/h/wrong-key-wrong-key-wrong-key-xx/"),
        client.post(helper_url(door_link, "helper-guest", anne.pk), {"action": "here"}),
        client.post(helper_url(door_link, "helper-check-in"), {"everyone": "listed"}),
        client.get("/h/%4B" + door_link.key[1:] + "/"),
    ):
        assert response.status_code == 404
        assert response.content == guest_404.content
        assert response["Referrer-Policy"] == "no-referrer" and response["X-Robots-Tag"] == guest_404["X-Robots-Tag"]
    assert Guest.objects.get(pk=anne.pk).status == "registered"


def test_a_helper_link_used_for_a_host_action_is_refused(client, evening, door_link):
    scorer = helper_link_create(evening=evening, role="scorer")
    guest = evening.guests.get(name="Red 1")
    for action in ("left", "reissue"):
        for extra in ({}, HTMX):
            response = client.post(helper_url(door_link, "helper-guest", guest.pk), {"action": action}, **extra)
            assert response.status_code == 403 and "Only the host can do that" in response.content.decode()
            assert "Nothing was changed." in response.content.decode()
    refused = client.post(helper_url(scorer, "helper-check-in"), {"everyone": "listed"})
    assert (
        refused.status_code == 403 and "This link enters table results; it cannot do that" in refused.content.decode()
    )
    refused = client.get(helper_url(door_link, "helper-result", 1))
    assert refused.status_code == 403 and "This link checks guests in at the door" in refused.content.decode()
    assert client.post(helper_url(scorer), {"one-name": "Sneaky", "one-pack": "red"}).status_code == 403
    # the host's own pages want the host's login, whatever link the helper holds
    response = client.post(reverse("host-guest-status", args=[evening.pk, guest.pk]), {"action": "left"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Guest.objects.filter(name="Sneaky").exists()
    assert Guest.objects.get(pk=guest.pk).status == "here"
    assert not AuditEntry.objects.filter(helper__isnull=False).exists()


def test_a_door_helper_cannot_remove_or_seat(client, evening, door_link):
    draw_digital(evening=evening)
    bell_ring(round_id=play_round(evening).pk, cause=Bell.Cause.HOST)
    anne = evening.guests.get(name="Anne Arrival")
    row = client.post(helper_url(door_link, "helper-guest", anne.pk), {"action": "here"}, **HTMX).content.decode()
    assert "Anne Arrival is checked in." in row
    assert anne.pk not in evening_state(evening).seated()  # seating her is the host's call (Seat now)
    seated = Guest.objects.get(pk=evening_state(evening).tables[0][0])
    row = client.post(helper_url(door_link, "helper-guest", seated.pk), {"action": "registered"}, **HTMX)
    assert row.status_code == 403 and "Only the host can do that" in row.content.decode()
    page = client.get(helper_url(door_link), {"q": seated.name}).content.decode()
    assert 'name="action" value="registered"' not in page  # no Check out for a seated guest on the door's list
    assert Guest.objects.get(pk=seated.pk).status == "here"


def test_the_scorer_enters_a_result_and_bad_counts_are_refused(client, evening):
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven")
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    state = evening_state(evening)
    page = client.get(helper_url(scorer)).content.decode()
    assert "Round 1" in page and "0 of 4 tables in" in page
    head = state.tables[0]
    data = {"round": "1", "pool_winner": str(head[0])}
    short = {**data, **{f"counters_{g}": "50" for g in head}, f"counters_{head[0]}": "60"}
    response = client.post(helper_url(scorer, "helper-result", 1), short)
    assert (
        response.status_code == 200
        and "The counters add up to 210, 10 more than the 200 the players at table 1 held" in response.content.decode()
    )
    assert "only the host can record counts that do not add up" in response.content.decode()
    assert not Result.objects.exists()
    right = {**short, f"counters_{head[1]}": "40"}
    response = client.post(helper_url(scorer, "helper-result", 1), right)
    assert response.status_code == 302 and response["Location"] == helper_url(scorer)
    result = Result.objects.get(round=rnd, table=1)
    assert result.pool_winner_id == head[0] and result.counters[str(head[1])] == 40
    entry = AuditEntry.objects.get(action="result.record")
    assert entry.helper == scorer and entry.user is None
    stale = client.post(helper_url(scorer, "helper-result", 2), {"round": "7", "pool_winner": str(state.tables[1][0])})
    assert "That round does not exist" in stale.content.decode()
    for number in range(2, 5):
        client.post(
            helper_url(scorer, "helper-result", number), {"round": "1", "pool_winner": str(state.tables[number - 1][0])}
        )
    assert "4 of 4 tables in" in client.get(helper_url(scorer)).content.decode()
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert "No round is in play now" in client.get(helper_url(scorer)).content.decode()
    late = client.post(
        helper_url(scorer, "helper-result", 2), {"round": "1", "pool_winner": str(state.tables[1][0])}, follow=True
    )
    assert "No round is in play" in late.content.decode()
    round_start(evening=evening)
    now_at_2 = evening_state(evening).tables[1][0]
    stale = client.post(helper_url(scorer, "helper-result", 2), {"round": "1", "pool_winner": str(now_at_2)})
    assert "Round 1 is closed: its bell has rung" in stale.content.decode()
    assert Result.objects.count() == 4 and Result.objects.filter(round__number=2).count() == 0
    for bad in ({"round": "²", "pool_winner": str(now_at_2)}, {"round": "1"}, {"pool_winner": "x"}, {}):
        response = client.post(helper_url(scorer, "helper-result", 2), bad)
        assert response.status_code == 200, bad
    assert client.get(helper_url(scorer, "helper-result", 99)).status_code == 302
    assert Result.objects.count() == 4


def test_helper_keys_are_redacted_from_logs(door_link):
    assert redact(f"GET /h/{door_link.key}/guests/3/ 200") == "GET /h/<key>/guests/3/ 200"


def test_csrf_is_checked_on_helper_posts(evening, door_link):
    strict = Client(enforce_csrf_checks=True)
    anne = evening.guests.get(name="Anne Arrival")
    response = strict.post(helper_url(door_link, "helper-guest", anne.pk), {"action": "here"})
    assert response.status_code == 403
    assert Guest.objects.get(pk=anne.pk).status == "registered"


def test_a_scorer_who_ticks_the_winner_in_the_call_is_told(client, evening):
    scorer = helper_link_create(evening=evening, role="scorer", label="Sven")
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    winner_id, caller_id = evening_state(evening).tables[1][:2]
    ticked = {"round": "1", "pool_winner": str(winner_id), "in_call": [str(winner_id), str(caller_id)]}
    response = client.post(helper_url(scorer, "helper-result", 2), ticked)
    assert response.status_code == 302
    winner = Guest.objects.get(pk=winner_id)
    said = f"{winner.name} won the pool, so is in the call anyway: only the others ticked are listed in the call."
    assert said in client.get(helper_url(scorer)).content.decode()
    assert Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).in_call == [caller_id]


def _seen(page: str) -> str:
    """The ``seen`` mark a scorer's form carries (when its page was drawn)."""
    import re

    match = re.search(r'name="seen" value="([0-9.]+)"', page)
    assert match, "the scorer's form carries no seen mark"
    return match.group(1)


def test_a_scorers_stale_form_never_replaces_a_guests_report(client, evening):
    from tournament.services.captains import captain_report

    scorer = helper_link_create(evening=evening, role="scorer", label="Sven")
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    tables = evening_state(evening).tables
    opened = client.get(helper_url(scorer, "helper-result", 2)).content.decode()
    seen = _seen(opened)
    other = client.get(helper_url(scorer, "helper-result", 3)).content.decode()
    guest = Guest.objects.get(pk=tables[1][1])
    captain_report(guest=guest, round_number=1, table=2, pool_winner=tables[1][1])  # the guest's phone
    scorer_says = {"round": "1", "pool_winner": str(tables[1][0]), "seen": seen}
    response = client.post(helper_url(scorer, "helper-result", 2), scorer_says)
    said = (
        "Nothing was saved: table 2&#x27;s report came in since you opened this page: "
        "look at it, then send yours if it is still needed."
    )
    assert response.status_code == 200 and said in response.content.decode()
    assert "Nothing was saved. Nothing was saved" not in response.content.decode()
    assert (
        Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).pool_winner_id == tables[1][1]
    )  # the guest's report stands
    kept = client.post(helper_url(scorer, "helper-result", 2), {**scorer_says, "request_id": "s-1"}, **KEPT)
    assert kept["X-Headtable-Kept"] == "refused"
    # Another table's report came in too: table 3's form, drawn before it, is not refused by table 2's.
    table_3 = {"round": "1", "pool_winner": str(tables[2][0]), "seen": _seen(other)}
    assert client.post(helper_url(scorer, "helper-result", 3), table_3).status_code == 302
    # Looked at again, the scorer's form saves (the guest's report is then replaced knowingly).
    again = _seen(client.get(helper_url(scorer, "helper-result", 2)).content.decode())
    sent = client.post(helper_url(scorer, "helper-result", 2), {**scorer_says, "seen": again, "request_id": "s-2"})
    assert sent.status_code == 302
    assert Result.objects.get(round=rnd, table=2, superseded_at__isnull=True).pool_winner_id == tables[1][0]
    resent = client.post(helper_url(scorer, "helper-result", 2), {**scorer_says, "seen": again, "request_id": "s-2"})
    assert resent.status_code == 302  # a resend of a saved form is "recorded already", not refused as stale
    assert Result.objects.filter(round=rnd, table=2, superseded_at__isnull=True).count() == 1


def test_a_scorers_result_is_credited_to_the_scorer_never_to_the_host(client, host, evening):
    """Issue 23: a result sent from a scorer's link is the scorer's (``Result.reported_by_helper``);
    a captain who then reports is told the scorer sent it, the host's form for the disputed
    table says so, and a link without a label is named by its number ("the scorer (link 2)")."""
    from tables.errors import RuleError
    from tournament.services.captains import captain_report, captain_vote
    from tournament.services.helpers import scorer_report

    sven = helper_link_create(evening=evening, role="scorer", label="Sven")
    unnamed = helper_link_create(evening=evening, role="scorer")
    draw_digital(evening=evening)
    round_start(evening=evening)
    tables = evening_state(evening).tables
    at_2 = scorer_report(link=sven, round_number=1, table=2, pool_winner=tables[1][0])
    scorer_report(link=unnamed, round_number=1, table=3, pool_winner=tables[2][0])
    captain = Guest.objects.get(pk=tables[1][1])
    with pytest.raises(RuleError, match="already in, sent by the scorer Sven. The first report stands"):
        captain_report(guest=captain, round_number=1, table=2, pool_winner=captain.pk)
    captain_vote(guest=captain, result_id=at_2.pk, verdict="dispute")
    client.force_login(host)
    form = client.get(reverse("host-result", args=[evening.pk, 2])).content.decode()
    assert "<strong>Disputed:</strong> sent by the scorer <bdi>Sven</bdi>;" in form
    phone = client.get(reverse("guest-page", args=[Guest.objects.get(pk=tables[2][0]).key])).content.decode()
    assert "Sent by the scorer (link 2)" in phone and "the host" not in phone.split("Sent by", 1)[1][:40]
