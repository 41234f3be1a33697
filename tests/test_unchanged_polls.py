"""A phone's unchanged poll answered before any other middleware (issue 26 item 1): the same 304
as the whole stack gave, header for header; with a shared cache (Redis) the evening's version
and the link held in the process, so a poll asks no server, while a change made elsewhere
shows within ``held.HELD_SECONDS`` and a reissued or revoked key stops at once; the CSP header
built once."""

from __future__ import annotations

import os
import time

import pytest
import redis
from csp.utils import build_policy
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import fixtures_phones
from tests.fixtures_phones import at_table
from tournament.csp_once import policy_headers
from tournament.services import held
from tournament.services.guests import guest_reissue_key
from tournament.services.links import _link_key, guest_revoke_key
from tournament.services.versions import evening_token, version_key

clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture

HTMX = {"HTTP_HX_REQUEST": "true"}
EARLY = "tournament.unchanged_polls.UnchangedPollMiddleware"
REDIS_URL = os.environ.get("TEST_CACHE_REDIS", "redis://127.0.0.1:6379/11")
SHARED = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"test-polls-{os.getpid()}",
        "OPTIONS": settings.REDIS_CACHE_OPTIONS,  # production's pool (tests/test_redis_pool.py)
    }
}


def url(guest) -> str:
    return reverse("guest-page", args=[guest.key])


def answered_early(response) -> bool:
    """True when no middleware below ``UnchangedPollMiddleware`` saw the request (the session
    middleware gives every request it sees a ``session``)."""
    return not hasattr(response.wsgi_request, "session")


@pytest.mark.parametrize("headers", [HTMX, {}], ids=["htmx poll", "full page"])
@pytest.mark.parametrize("method", ["get", "head"])
def test_the_early_304_is_the_stacks_304_header_for_header(client, playing, headers, method):
    guest = at_table(playing, 2)[0]
    etag = client.get(url(guest), **headers)["ETag"]
    early = getattr(client, method)(url(guest), HTTP_IF_NONE_MATCH=etag, **headers)
    with override_settings(MIDDLEWARE=[m for m in settings.MIDDLEWARE if m != EARLY]):
        stack = getattr(Client(), method)(url(guest), HTTP_IF_NONE_MATCH=etag, **headers)  # a new stack
    assert answered_early(early) and not answered_early(stack)
    assert (early.status_code, early.content) == (stack.status_code, stack.content) == (304, b"")
    assert dict(early.items()) == dict(stack.items())
    assert early["ETag"] == etag and early["Referrer-Policy"] == "no-referrer"
    assert early["Content-Security-Policy"] == build_policy() and early["X-Frame-Options"] == "DENY"


def test_a_changed_page_a_wrong_etag_and_an_unknown_key_go_down_the_stack(client, playing):
    guest = at_table(playing, 2)[0]
    etag = client.get(url(guest), **HTMX)["ETag"]
    other = client.get(url(guest), HTTP_IF_NONE_MATCH=etag.replace(".1", ".0"), **HTMX)  # the full page's
    assert other.status_code == 200 and not answered_early(other)
    unknown = client.get(reverse("guest-page", args=["x" * 43]), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert dead(unknown) and not answered_early(unknown)
    posted = client.post(url(guest), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert posted.status_code == 412 and not answered_early(posted)  # Django's condition, as before


@override_settings(SECURE_SSL_REDIRECT=True)
def test_a_poll_the_security_middleware_redirects_is_redirected(client, playing):
    guest = at_table(playing, 2)[0]
    etag = client.get(url(guest), secure=True, **HTMX)["ETag"]
    plain = client.get(url(guest), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    assert client.get(url(guest), HTTP_IF_NONE_MATCH=etag, secure=True, **HTMX).status_code == 304


def test_the_csp_header_is_built_once_for_the_settings_policy():
    first = policy_headers()
    assert first == (build_policy(), build_policy(report_only=True))
    assert policy_headers()[0] is first[0]  # the same string: not built again
    policy = {"DIRECTIVES": {"default-src": ["'self'"], "img-src": ["'self'", "data:"]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        assert policy_headers()[0] == build_policy() != first[0]
    assert policy_headers()[0] == first[0]


@pytest.fixture
def shared_cache():
    """Django's default cache on a Redis database (django-redis, the production backend), with
    this process's own key prefix; its keys are removed afterwards."""
    server = redis.Redis.from_url(REDIS_URL)
    try:
        server.ping()
    except redis.ConnectionError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    with override_settings(CACHES=SHARED):
        held.drop_all()
        yield server
        cache.clear()
        held.drop_all()


def dead(response) -> bool:
    """The answer a phone's poll gets for a key that does not work: the one dead-link fragment,
    which replaces the page (``private_doors.not_found_for``), never the page or a 304."""
    return response.status_code == 200 and b'id="link-dead"' in response.content and response["HX-Retarget"] == "body"


def poll(client, guest, etag):
    return client.get(url(guest), HTTP_IF_NONE_MATCH=etag, **HTMX)


def test_with_a_shared_cache_a_poll_asks_no_server_while_the_version_is_held(client, playing, shared_cache):
    guest = at_table(playing, 2)[0]
    etag = client.get(url(guest), **HTMX)["ETag"]
    assert poll(client, guest, etag).status_code == 304  # the link and the version now held
    token = evening_token(playing.pk, playing.public_key)
    cache.delete_many([_link_key(guest.key), version_key(token)])  # Redis forgets both
    with CaptureQueriesContext(connection) as queries:
        again = poll(client, guest, etag)
    assert again.status_code == 304 and len(queries) == 0
    time.sleep(held.HELD_SECONDS + 0.1)
    with CaptureQueriesContext(connection) as queries:
        late = poll(client, guest, etag)  # the version is read again: from the database this time
    assert late.status_code == 304 and len(queries) == 2  # the link and the version


def test_a_change_made_in_another_process_shows_within_the_held_time(client, playing, shared_cache):
    guest = at_table(playing, 2)[0]
    etag = client.get(url(guest), **HTMX)["ETag"]
    assert poll(client, guest, etag).status_code == 304
    token = evening_token(playing.pk, playing.public_key)
    version = cache.get(version_key(token))
    cache.set(version_key(token), version + 1, 30)  # as another process's evening_touch publishes it
    assert poll(client, guest, etag).status_code == 304  # still held here
    time.sleep(held.HELD_SECONDS + 0.1)
    assert poll(client, guest, etag).status_code == 200


def test_a_reissued_key_no_longer_counts_even_where_its_entry_is_still_held(client, playing, shared_cache):
    guest = at_table(playing, 3)[0]
    old_key = guest.key
    etag = client.get(url(guest), **HTMX)["ETag"]
    assert poll(client, guest, etag).status_code == 304
    entry = held.held_link(_link_key(old_key), int(etag.split(".")[1]))
    assert entry is not None
    guest_reissue_key(guest=guest)
    old = client.get(reverse("guest-page", args=[old_key]), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert dead(old)  # at once in this process
    # Another process still holds the old key's entry, read with the version before the
    # reissue, and reads the evening's version again for another guest's page: the reissue
    # changed the version, so the old entry no longer counts there either.
    held.hold_link(_link_key(old_key), entry, int(etag.split(".")[1]))
    time.sleep(held.HELD_SECONDS + 0.1)
    assert client.get(url(at_table(playing, 3)[2])).status_code == 200  # holds the version again
    old = client.get(reverse("guest-page", args=[old_key]), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert dead(old)
    assert client.get(url(guest), **HTMX).status_code == 200


def test_a_revoked_key_is_dead_at_once_with_a_shared_cache(client, playing, shared_cache):
    guest = at_table(playing, 3)[1]
    etag = client.get(url(guest), **HTMX)["ETag"]
    assert poll(client, guest, etag).status_code == 304
    guest_revoke_key(guest=guest)
    assert dead(poll(client, guest, etag))
