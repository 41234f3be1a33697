"""Private links, every door (issue 12 item 8): one and the same 404 for every key-bearing URL,
keys out of the logs even percent-encoded, brute-force protection on the host's login, a
Content-Security-Policy of "nothing from other sites", and ``HTTPS=1`` making ``check --deploy``
clean."""

from __future__ import annotations

import logging
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse

from tournament.private_doors import NOT_FOUND_BODY
from tournament.private_logs import redact
from tournament.services.helpers import helper_link_create

ROOT = Path(__file__).resolve().parent.parent
WRONG = "NOTaREALkeyNOTaREALkey12"
PRIVATE_HEADERS = ("Referrer-Policy", "X-Robots-Tag", "Cache-Control", "Content-Type")


def wrong_key_paths(evening, guest) -> list[str]:
    """Every key-bearing route with a key that opens nothing, and real keys with wrong rest."""
    return [
        f"/g/{WRONG}/",
        f"/g/{WRONG}/report/",
        f"/g/{WRONG}/vote/",
        f"/g/{WRONG}/here/",
        f"/g/{WRONG}/showdown/",
        f"/e/{WRONG}/",
        f"/e/{WRONG}/seating/",
        f"/e/{WRONG}/rules/",
        f"/e/{WRONG}/room/",
        f"/h/{WRONG}/",
        f"/h/{WRONG}/guests/{guest.pk}/",
        f"/h/{WRONG}/check-in/",
        f"/h/{WRONG}/result/1/",
        f"/rules/draw_poker/?evening={WRONG}",
        f"/g/{guest.key}/no-such-page/",
        f"/e/{evening.public_key}/no-such-page/",
        f"/g/{WRONG}/a/b/c/",
        f"/g/%4B{WRONG[1:]}/showdown/",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
def test_every_key_bearing_url_answers_the_same_404(client, make_evening, debug):
    evening = make_evening(4, 4)
    guest = evening.guests.first()
    with override_settings(DEBUG=debug):
        answers = [(path, client.get(path)) for path in wrong_key_paths(evening, guest)]
    for path, response in answers:
        assert response.status_code == 404, path
        assert response.content == NOT_FOUND_BODY, path
        assert {h: response.get(h) for h in PRIVATE_HEADERS} == {
            "Referrer-Policy": "no-referrer",
            "X-Robots-Tag": "noindex, nofollow",
            "Cache-Control": "private, no-cache",
            "Content-Type": "text/html; charset=utf-8",
        }, path


@pytest.mark.django_db
def test_an_htmx_request_with_a_dead_key_gets_words_the_page_shows(client, make_evening):
    """A page already open whose link died (a door helper's *Check in* after the host revoked
    the link): htmx does not swap a 404, so *Check in* did nothing. Every htmx request to a
    wrong key, GET or POST, gets the one message instead, replacing the page's body; the
    full-page answer stays the one 404."""
    evening = make_evening(4, 4)
    guest = evening.guests.first()
    door = helper_link_create(evening=evening, role="door")
    from tournament.services.helpers import helper_link_revoke

    helper_link_revoke(evening=evening, number=door.number)
    paths = [*wrong_key_paths(evening, guest), f"/h/{door.key}/check-in/", f"/h/{door.key}/guests/{guest.pk}/"]
    answers = []
    for path in paths:
        answers.append((path, client.get(path, HTTP_HX_REQUEST="true")))
        if path.startswith(("/g/", "/h/")):  # the doors a page posts to (the room display only reads)
            answers.append((path, client.post(path, HTTP_HX_REQUEST="true")))
    bodies = set()
    for path, response in answers:
        assert response.status_code == 200, path
        assert (response["HX-Retarget"], response["HX-Reswap"]) == ("body", "innerHTML"), path
        assert response["Referrer-Policy"] == "no-referrer" and "HX-Request" in response["Vary"], path
        bodies.add(response.content)
    assert len(bodies) == 1
    assert b'role="alert"' in bodies.pop() and b"This link does not work" in NOT_FOUND_BODY
    full = client.post(f"/h/{door.key}/check-in/", {"guest": guest.pk})
    assert full.status_code == 404 and full.content == NOT_FOUND_BODY


@pytest.mark.django_db
def test_pages_behind_a_key_carry_the_private_headers(client, make_evening):
    evening = make_evening(4, 4)
    door = helper_link_create(evening=evening, role="door")
    for path in (
        f"/e/{evening.public_key}/room/",
        f"/e/{evening.public_key}/rules/",
        f"/h/{door.key}/",
        f"/rules/draw_poker/?evening={evening.public_key}",
    ):
        response = client.get(path, follow=True)
        assert response.status_code == 200, path
        assert response["Referrer-Policy"] == "no-referrer", path
        assert response["X-Robots-Tag"] == "noindex, nofollow", path
    public = client.get(reverse("rules"))  # a page without a key keeps the site's policy
    assert public["Referrer-Policy"] == "same-origin" and "X-Robots-Tag" not in public


def test_keys_are_redacted_when_percent_encoded():
    assert redact('"GET /g/%4BN0Tabcdefghijklmnop/showdown/ HTTP/1.1" 404') == '"GET /g/<key>/showdown/ HTTP/1.1" 404'
    assert redact("/e/%41%42%43%44%45%46%47%48/room/") == "/e/<key>/room/"
    assert redact("/host/e/12/result/3/") == "/host/e/12/result/3/"  # the host's ids are not keys


@pytest.mark.django_db
def test_a_wrong_key_is_not_logged(client, make_evening, caplog):
    make_evening(2, 2)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get(f"/g/%4B{WRONG[1:]}/showdown/")
        client.get(f"/e/{WRONG}/room/")
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert WRONG[1:] not in text and WRONG not in text
    assert "/g/<key>/showdown/" in text and "/e/<key>/room/" in text


@pytest.mark.django_db
def test_five_wrong_passwords_pause_that_name_for_ten_minutes(client, host):
    login = reverse("login")
    for _ in range(4):
        response = client.post(login, {"username": host.username, "password": "guess"})
        assert response.status_code == 200 and b"Please enter a correct username and password" in response.content
    locked = client.post(login, {"username": host.username, "password": "guess"})
    assert locked.status_code == 429
    assert b"Too many wrong passwords" in locked.content and b"ten minutes" in locked.content
    right = client.post(login, {"username": host.username, "password": "pass-word-123"})
    assert right.status_code == 429  # the right password waits too: a guesser learns nothing
    assert "_auth_user_id" not in client.session
    other = client.post(login, {"username": "someone-else", "password": "guess"})
    assert other.status_code == 200  # another name from the same address is not paused


@pytest.mark.django_db
def test_a_right_password_clears_the_count(client, host):
    login = reverse("login")
    for _ in range(4):
        client.post(login, {"username": host.username, "password": "guess"})
    assert client.post(login, {"username": host.username, "password": "pass-word-123"}).status_code == 302
    client.logout()
    for _ in range(4):
        assert client.post(login, {"username": host.username, "password": "guess"}).status_code == 200


@pytest.mark.django_db
def test_every_page_says_nothing_from_other_sites(client, make_evening, host):
    evening = make_evening(2, 2)
    client.force_login(host)
    for path in (
        reverse("home"),
        reverse("host-evening", args=[evening.pk]),
        f"/e/{evening.public_key}/room/",
        f"/g/{evening.guests.first().key}/",
    ):
        policy = client.get(path)["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["default-src"] == "'self'", path
        assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def deploy_check(**env: str) -> subprocess.CompletedProcess:
    environment = {
        k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "HTTPS", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    environment.update(
        {
            "DJANGO_SETTINGS_MODULE": "tournament.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "party.example.org",
            "HEADTABLE_VAR_DIR": os.environ.get("HEADTABLE_VAR_DIR", str(ROOT / "var" / "test")),
            **env,
        }
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_https_turns_on_what_check_deploy_asks_for():
    behind_https = deploy_check(HTTPS="1")
    assert behind_https.returncode == 0, behind_https.stderr + behind_https.stdout
    assert "no issues" in behind_https.stdout
    plain = deploy_check()  # the party on the venue's Wi-Fi: plain HTTP, the four stay off
    warned = {code for code in ("W004", "W008", "W012", "W016") if f"security.{code}" in plain.stderr + plain.stdout}
    assert warned == {"W004", "W008", "W012", "W016"}, plain.stderr + plain.stdout


@pytest.mark.django_db
def test_a_check_in_for_a_guest_removed_meanwhile_says_so_and_not_that_the_link_died(client, make_evening, host):
    """The door helper's (and the host's) row button for a guest the host removed since the
    page was shown: the list as it is now, saying so; nothing changes, and the link still works."""
    from tournament.models import Guest

    evening = make_evening(4, 4)
    guest = Guest.objects.create(evening=evening, name="Gone Gert", pack="red", status="registered")
    door = helper_link_create(evening=evening, role="door")
    gone = guest.pk
    guest.delete()
    client.force_login(host)
    said = {
        f"/h/{door.key}/guests/{gone}/": "That guest is no longer on the list (the host removed them), so nothing was changed.",
        reverse(
            "host-guest-status", args=[evening.pk, gone]
        ): "That guest is no longer on the list (removed meanwhile): nothing was changed.",
    }
    for path, words in said.items():
        response = client.post(path, {"action": "here"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET=f"guest-{gone}")
        body = response.content.decode()
        assert response.status_code == 200 and response["HX-Retarget"] == "#guest-rows", path
        assert words in body, path
        assert "This link does not work" not in body
        plain = client.post(path, {"action": "here"}, follow=True).content.decode()
        assert "That guest is no longer on the list" in plain, path
    assert evening.guests.filter(status="here").count() == 8
