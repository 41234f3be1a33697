"""Private links are safe (issue 6 items 1 and 7): guessed, revoked and reissued keys get one
identical 404; a reissued key is dead at once; keys stay out of Django's logs; the captain's
and the guest's forms need a CSRF token."""

from __future__ import annotations

import logging
import secrets

from django.test import Client
from django.urls import reverse

from tests import fixtures_phones
from tests.fixtures_phones import at_table, csrf_from
from tournament.models import Result
from tournament.services.guests import guest_reissue_key
from tournament.services.links import guest_revoke_key

PATHS = ("guest-page", "guest-report", "guest-vote", "guest-check-in")

clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture


def answer(client, name, key, method="get"):
    response = getattr(client, method)(reverse(name, args=[key]))
    return response.status_code, response.content, tuple(sorted(response.items()))


def test_guessed_revoked_and_reissued_keys_get_identical_404s(client, playing):
    guests = at_table(playing, 2)
    old = guests[0].key
    guest_reissue_key(guest=guests[0])
    guest_revoke_key(guest=guests[1])
    wrong = [
        secrets.token_urlsafe(24),
        secrets.token_urlsafe(24),
        "x",
        "A" * 64,
        "A" * 500,
        str(guests[2].pk),
        old,
        guests[1].key,
        guests[2].key[:-1] + ("A" if guests[2].key[-1] != "A" else "B"),
        playing.public_key,
    ]
    answers = {answer(client, name, key, method) for name in PATHS for key in wrong for method in ("get", "post")}
    assert len(answers) == 1, answers
    status, body, headers = answers.pop()
    assert status == 404 and b"does not work" in body
    assert dict(headers)["Referrer-Policy"] == "no-referrer"
    door = {answer(Client(), "door", key) for key in wrong[:6] + [guests[2].key]}
    assert door == {(status, body, headers)}


def test_a_reissued_key_is_dead_at_once_and_the_new_one_works(client, playing):
    guest = at_table(playing, 3)[0]
    old = guest.key
    assert client.get(reverse("guest-page", args=[old])).status_code == 200  # now in the link cache
    guest_reissue_key(guest=guest)
    assert client.get(reverse("guest-page", args=[old])).status_code == 404
    assert client.get(reverse("guest-page", args=[guest.key])).status_code == 200


def test_a_revoked_key_is_dead_at_once(client, playing):
    guest = at_table(playing, 3)[1]
    assert client.get(reverse("guest-page", args=[guest.key])).status_code == 200
    guest_revoke_key(guest=guest)
    assert client.get(reverse("guest-page", args=[guest.key])).status_code == 404


def test_keys_do_not_appear_in_djangos_logs(client, playing, caplog):
    guest = at_table(playing, 2)[0]
    strict = Client(enforce_csrf_checks=True)
    with caplog.at_level(logging.INFO):
        client.get(reverse("guest-page", args=["no-such-key-at-all-0123456789"]))
        strict.post(reverse("guest-report", args=[guest.key]), {"round": 1, "table": 2})
        client.get(reverse("door", args=["no-such-door-key-0123456789"]))
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "/g/<key>/" in text  # the 404 and the CSRF refusal were logged, without the key
    assert guest.key not in text and "no-such-key-at-all" not in text and "no-such-door-key" not in text


def test_the_captains_form_needs_a_csrf_token(playing):
    strict = Client(enforce_csrf_checks=True)
    captain, other = at_table(playing, 2)[:2]
    data = {"round": 1, "table": 2, "request_id": "r1", "pool_winner": str(other.pk)}
    refused = strict.post(reverse("guest-report", args=[captain.key]), data)
    assert refused.status_code == 403 and not Result.objects.exists()
    page = strict.get(reverse("guest-report", args=[captain.key]))
    data["csrfmiddlewaretoken"] = csrf_from(page)
    data["request_id"] = "r2"
    done = strict.post(reverse("guest-report", args=[captain.key]), data)
    assert done.status_code == 302 and Result.objects.get().reported_by_guest == captain


def test_vote_and_check_in_need_a_csrf_token(playing):
    strict = Client(enforce_csrf_checks=True)
    guest = at_table(playing, 2)[0]
    assert strict.post(reverse("guest-vote", args=[guest.key]), {"result": 1, "verdict": "dispute"}).status_code == 403
    assert strict.post(reverse("guest-check-in", args=[guest.key])).status_code == 403


def test_origin_null_from_a_no_referrer_page_is_read_as_ours_but_the_token_still_counts(playing):
    """Browsers send ``Origin: null`` from a page with Referrer-Policy: no-referrer."""
    strict = Client(enforce_csrf_checks=True)
    guest = at_table(playing, 2)[0]
    token = csrf_from(strict.get(reverse("guest-report", args=[guest.key])))
    url = reverse("guest-check-in", args=[guest.key])
    assert strict.post(url, {}, HTTP_ORIGIN="null").status_code == 403  # no token
    assert strict.post(url, {"csrfmiddlewaretoken": token}, HTTP_ORIGIN="https://evil.example").status_code == 403
    assert strict.post(url, {"csrfmiddlewaretoken": token}, HTTP_ORIGIN="null").status_code == 302


def test_a_form_that_fails_the_csrf_check_gets_our_plain_page_not_djangos(playing, client, host):
    strict = Client(enforce_csrf_checks=True)
    guest = at_table(playing, 2)[0]
    refused = strict.post(reverse("guest-vote", args=[guest.key]), {"result": 1, "verdict": "confirm"})
    page = refused.content.decode()
    assert refused.status_code == 403
    assert "The form was not sent" in page and "Reload the page and send it again." in page
    assert f'href="/g/{guest.key}/">Back to your page' in page
    assert "CSRF verification" not in page and "Forbidden" not in page and "Request aborted" not in page
    assert refused["Referrer-Policy"] == "no-referrer" and "noindex" in refused["X-Robots-Tag"]
    forged = strict.post(
        reverse("guest-check-in", args=[guest.key]), {"csrfmiddlewaretoken": "x" * 64}, HTTP_ORIGIN="null"
    )
    assert forged.status_code == 403 and "Reload the page and send it again." in forged.content.decode()
    strict.force_login(host)  # the host's forms too: the middleware's own check
    theirs = strict.post(reverse("host-round", args=[playing.pk]), {"action": "pause", "round": 1})
    assert theirs.status_code == 403 and "Reload the page and send it again." in theirs.content.decode()
    assert (
        "CSRF verification" not in theirs.content.decode()
        and 'href="/">Go to the front page' in theirs.content.decode()
    )
