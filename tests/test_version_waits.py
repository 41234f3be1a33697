"""A phone's wait for the evening's next version (issue 26 item 2: "phones see the bell within
1 s"): ``/g/<key>/wait/?v=N`` answers at once when the evening is newer than N, waits and
answers when another thread changes it, answers "unchanged" after its limit, gives the guest
URLs' one 404 for a wrong key, and asks the database nothing while it waits: on Redis pub/sub
(the ``shared_cache`` tests; CI runs them) and on the short in-process check without Redis.
Under ASGI the same wait is answered before the middleware, on the event loop (the last test).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.cache import cache
from django.db import connection, connections, transaction
from django.test import Client, override_settings
from django.urls import reverse

from tests import fixtures_phones, test_unchanged_polls
from tests.fixtures_phones import at_table
from tournament.models import Evening
from tournament.selectors import version_waits
from tournament.services import versions
from tournament.services.links import guest_revoke_key, link_lookup
from tournament.services.versions import evening_touch
from tournament.version_waits import SiteApplication, WaitFirstASGIHandler
from tournament.views.waits import wait_answer

clean_cache = fixtures_phones.clean_cache  # a pytest fixture
shared_cache = test_unchanged_polls.shared_cache  # a pytest fixture: Django's cache on Redis
playing = fixtures_phones.playing  # a pytest fixture
pytestmark = pytest.mark.django_db(transaction=True)  # another thread changes the evening


def wait_url(guest, version) -> str:
    return reverse("guest-wait", args=[guest.key]) + f"?v={version}"


def answer(response) -> dict:
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Referrer-Policy"] == "no-referrer" and response["Cache-Control"] == "private, no-cache"
    return json.loads(response.content)


def touch_later(evening_id: int, after: float) -> threading.Thread:
    """A thread that bumps the evening's version after ``after`` seconds, as a bell does."""

    def run() -> None:
        time.sleep(after)
        try:
            with transaction.atomic():
                evening_touch(evening=Evening.objects.get(pk=evening_id))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def in_a_thread(work):
    """``work()`` run in a thread of its own, its database connection closed after: an event
    loop may be left running in this thread by the browser tests' driver (Playwright's sync
    API), where ``async_to_sync`` refuses to run."""

    def run():
        try:
            return work()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(run).result()


class Queries:
    """Counts every SQL statement on this thread's connection (no cap), while in the block."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def __enter__(self):
        self._wrapper = connection.execute_wrapper(self)
        self._wrapper.__enter__()
        return self

    def __exit__(self, *exc):
        self._wrapper.__exit__(*exc)


LOCAL = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.fixture
def local_cache():
    """Django's default cache in this process's memory (``make run``'s), whatever the run's
    settings say (CI's is Redis)."""
    with override_settings(CACHES=LOCAL):
        cache.clear()
        yield
        cache.clear()


@pytest.fixture(params=["in-process check", "redis pub/sub"])
def cache_kind(request):
    """Each test twice: without Redis (``local_cache``, ``make run``'s) and on Redis
    (``shared_cache``); the site loaded by a first request, so that the timed ones time the wait."""
    request.getfixturevalue("shared_cache" if request.param == "redis pub/sub" else "local_cache")
    request.getfixturevalue("client").get(reverse("guest-wait", args=["x" * 43]))
    return request.param


def test_an_older_version_is_answered_changed_at_once(client, playing, cache_kind):
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()
    started = time.monotonic()
    got = answer(client.get(wait_url(guest, playing.version - 1)))
    assert got == {"state": "changed", "version": playing.version}
    assert time.monotonic() - started < 0.5


def test_the_wait_answers_when_another_thread_changes_the_evening(client, playing, cache_kind):
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()
    bell = touch_later(playing.pk, 0.6)
    started = time.monotonic()
    got = answer(client.get(wait_url(guest, playing.version)))
    took = time.monotonic() - started
    bell.join()
    assert got == {"state": "changed", "version": playing.version + 1}
    assert 0.5 < took < 0.6 + (0.35 if cache_kind == "redis pub/sub" else version_waits.CHECK_SECONDS + 0.35)


def test_an_unchanged_evening_is_answered_unchanged_after_the_limit(client, playing, cache_kind, monkeypatch):
    monkeypatch.setattr("tournament.views.waits.WAIT_SECONDS", 1.0)
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()
    started = time.monotonic()
    got = answer(client.get(wait_url(guest, playing.version)))
    assert got == {"state": "unchanged", "version": playing.version}
    assert 0.95 < time.monotonic() - started < 1.5


def test_a_wrong_key_gets_the_guest_urls_one_404(client, playing):
    guest = at_table(playing, 1)[0]
    wrong = client.get(reverse("guest-wait", args=["x" * 43]) + "?v=1")
    other = client.get(reverse("guest-report", args=["x" * 43]))
    assert wrong.status_code == other.status_code == 404
    assert wrong.content == other.content and dict(wrong.items()) == dict(other.items())
    guest_revoke_key(guest=guest)
    revoked = client.get(wait_url(guest, 1))
    assert revoked.status_code == 404 and revoked.content == other.content


@pytest.mark.parametrize("sent", ["", "seven", "①", "-1", "9" * 19])
def test_a_version_that_is_not_one_is_answered_changed_at_once(client, playing, sent):
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()
    response = client.get(reverse("guest-wait", args=[guest.key]), {"v": sent} if sent else {})
    assert answer(response) == {"state": "changed", "version": playing.version}
    assert client.post(wait_url(guest, 1)).status_code == 405


def test_with_redis_unreachable_the_wait_says_so_at_once(client, playing, monkeypatch):
    """No 500 when Redis cannot be reached: "unavailable" at once (the phone falls back on its poll)."""
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()
    unreachable = {"default": {**test_unchanged_polls.SHARED["default"], "LOCATION": "redis://127.0.0.1:1/0"}}
    with override_settings(CACHES=unreachable):
        monkeypatch.setattr("tournament.views.waits.link_lookup", lambda key: (guest.pk, playing.pk, "t"))  # no cache
        started = time.monotonic()
        got = answer(client.get(wait_url(guest, playing.version)))
    assert got == {"state": "unavailable", "version": playing.version} and time.monotonic() - started < 2


def test_a_wait_asks_the_database_nothing_while_it_waits_on_redis(client, playing, shared_cache):
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()
    assert answer(client.get(wait_url(guest, playing.version - 1)))["state"] == "changed"  # link and version cached
    bell = touch_later(playing.pk, 1.5)
    with Queries() as queries:
        got = answer(client.get(wait_url(guest, playing.version)))
    bell.join()
    assert got["state"] == "changed" and queries.count == 0


def test_without_redis_waiting_phones_share_one_database_read_per_refill(playing, local_cache):
    """Without Redis the waiters read this process's cache; when its entry expires one of them
    reads the database for all: 20 phones waiting 2.2 s cost at most one read per
    ``REFILL_SECONDS`` (and the version's entry lives ``LOCAL_TTL`` = 1 s), never one per phone."""
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()

    class Request:
        GET = {"v": str(playing.version)}

    found = link_lookup(guest.key)

    async def phones():
        return await asyncio.gather(
            *(wait_answer(Request(), found, thread_sensitive=True, limit=2.2) for _ in range(20))  # type: ignore[arg-type]
        )

    def waited():
        with Queries() as queries:
            return async_to_sync(phones)(), queries

    answers, queries = in_a_thread(waited)
    assert all(json.loads(a.content)["state"] == "unchanged" for a in answers)
    assert 1 <= queries.count <= 2.2 / version_waits.REFILL_SECONDS + 1


async def asgi_get(app, path: str, query: str = "") -> tuple[int, dict[str, str], bytes]:
    """GET ``path?query`` from the ASGI application ``app`` as uvicorn calls it; returns
    (status, headers by lower-case name, body)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    messages: asyncio.Queue = asyncio.Queue()
    messages.put_nowait({"type": "http.request", "body": b"", "more_body": False})
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    await app(scope, messages.get, send)
    headers = {k.decode().lower(): v.decode() for k, v in sent[0]["headers"]}
    return sent[0]["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])


def test_under_asgi_the_wait_is_answered_before_the_middleware(playing, cache_kind):
    """The ASGI path (``tournament.version_waits``): the same answers, the stack's headers,
    and none of the middleware or the view run for a known key's wait."""
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()
    app = WaitFirstASGIHandler()
    django_app = WaitFirstASGIHandler()

    async def no_stack(request):
        raise AssertionError("the wait went down the middleware")

    app._middleware_chain = no_stack  # type: ignore[assignment]
    path = reverse("guest-wait", args=[guest.key])

    async def phone():
        waiting = asyncio.ensure_future(asgi_get(app, path, f"v={playing.version}"))
        await asyncio.sleep(0.4)
        assert not waiting.done()
        bell = await asyncio.to_thread(touch_later, playing.pk, 0.0)
        started = time.monotonic()
        changed = await waiting
        took = time.monotonic() - started
        await asyncio.to_thread(bell.join)
        at_once = await asgi_get(app, path, f"v={playing.version - 1}")
        wrong = await asgi_get(django_app, reverse("guest-wait", args=["x" * 43]), "v=1")
        other = await asgi_get(django_app, reverse("guest-report", args=["x" * 43]))
        return changed, took, at_once, wrong, other

    (status, headers, body), took, at_once, wrong, other = in_a_thread(async_to_sync(phone))
    assert status == 200 and json.loads(body) == {"state": "changed", "version": playing.version + 1}
    assert took < 0.6 and json.loads(at_once[2])["state"] == "changed"
    assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "no-referrer"
    assert headers["content-security-policy"] and headers["cache-control"] == "private, no-cache"
    assert wrong[0] == other[0] == 404 and wrong[2] == other[2]


def test_under_asgi_the_phones_of_a_process_share_one_subscription(playing, shared_cache):
    """Every phone of an evening (16) waiting in one ASGI process holds one pattern subscription
    between them (``version_waits.ProcessListener``), not a channel each; one bell answers them all, and
    the phones' next waits (with the new version) use the same subscription."""
    guests = list(playing.guests.all())
    assert len(guests) == 16
    playing.refresh_from_db()
    app = WaitFirstASGIHandler()
    channel = versions.version_channel(versions.evening_token(playing.pk, playing.public_key))

    async def phones():
        before = shared_cache.pubsub_numpat()  # the server's count: another process's listener counts too
        waits = [
            asyncio.ensure_future(asgi_get(app, reverse("guest-wait", args=[g.key]), f"v={playing.version}"))
            for g in guests
        ]
        await asyncio.sleep(0.5)
        held = (shared_cache.pubsub_numpat() - before, shared_cache.pubsub_numsub(channel)[0][1])
        assert not any(w.done() for w in waits)
        bell = await asyncio.to_thread(touch_later, playing.pk, 0.0)
        answers = await asyncio.gather(*waits)
        await asyncio.to_thread(bell.join)
        again = [
            asyncio.ensure_future(asgi_get(app, reverse("guest-wait", args=[g.key]), f"v={playing.version + 1}"))
            for g in guests[:5]
        ]
        await asyncio.sleep(0.3)
        held_again = shared_cache.pubsub_numpat() - before
        bell = await asyncio.to_thread(touch_later, playing.pk, 0.0)
        later = await asyncio.gather(*again)
        await asyncio.to_thread(bell.join)
        return held, answers, held_again, later

    held, answers, held_again, later = in_a_thread(async_to_sync(phones))
    assert held == (1, 0) and held_again == 1
    assert [json.loads(body) for _, _, body in answers] == [{"state": "changed", "version": playing.version + 1}] * 16
    assert [json.loads(body)["version"] for _, _, body in later] == [playing.version + 2] * 5


def test_under_asgi_a_lost_subscription_says_unavailable_and_the_next_wait_subscribes_again(playing, shared_cache):
    """Redis drops the process's subscription while phones wait: each is answered
    "unavailable" at once (its phone polls), and the next wait subscribes again and hears the bell."""
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()
    app = WaitFirstASGIHandler()
    path = reverse("guest-wait", args=[guest.key])

    async def phone():
        waiting = asyncio.ensure_future(asgi_get(app, path, f"v={playing.version}"))
        await asyncio.sleep(0.4)
        shared_cache.client_kill_filter(_type="pubsub")
        dropped = await asyncio.wait_for(waiting, 5)
        waiting = asyncio.ensure_future(asgi_get(app, path, f"v={playing.version}"))
        await asyncio.sleep(0.4)
        bell = await asyncio.to_thread(touch_later, playing.pk, 0.0)
        heard = await asyncio.wait_for(waiting, 5)
        await asyncio.to_thread(bell.join)
        return dropped, heard

    dropped, heard = in_a_thread(async_to_sync(phone))
    assert json.loads(dropped[2])["state"] == "unavailable"
    assert json.loads(heard[2]) == {"state": "changed", "version": playing.version + 1}


# ---------------------------------------------------------------- the page in the answer


def without_tokens(html: bytes) -> bytes:
    """``html`` with every CSRF token's value and the server's clock blanked (Django masks the
    token anew on each render, and the page says the moment it was drawn: two renders of the
    same page differ there only)."""
    html = re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b'name="csrfmiddlewaretoken" value=""', html)
    html = re.sub(rb'data-now="[^"]*"', b'data-now=""', html)
    return re.sub(rb'aria-label="\d+ seconds left">\d+:\d+<', b'aria-label="">', html)


def test_a_wait_asking_for_the_page_is_answered_with_the_page_the_refetch_would_get(client, playing, cache_kind):
    """``&page=1`` (live.js's): a "changed" wait is answered with the guest's page itself, the
    same status, ETag, headers and HTML as the htmx refetch of ``/g/<key>/`` that follows a
    "changed" (its CSRF tokens masked anew), with the stack's headers; without ``page=1`` the
    answer is the JSON as before."""
    guest = at_table(playing, 1)[0]
    client.get(reverse("guest-page", args=[guest.key]))  # the phone's first load: its CSRF cookie
    playing.refresh_from_db()
    bell = touch_later(playing.pk, 0.3)
    started = time.monotonic()
    got = client.get(wait_url(guest, playing.version) + "&page=1")
    took = time.monotonic() - started
    bell.join()
    refetch = client.get(reverse("guest-page", args=[guest.key]), HTTP_HX_REQUEST="true")
    assert 0.2 < took < 1.2
    assert got.status_code == 200 and got["Content-Type"].startswith("text/html")
    assert got["ETag"] == refetch["ETag"] == f'"{link_lookup(guest.key)[2]}.{playing.version + 1}.1"'
    assert without_tokens(got.content) == without_tokens(refetch.content) and b'id="guest-live"' in got.content
    for name in ("Content-Security-Policy", "Referrer-Policy", "X-Frame-Options", "Cache-Control", "X-Robots-Tag"):
        assert got[name] == refetch[name], name
    assert not got.cookies
    assert answer(client.get(wait_url(guest, playing.version))) == {"state": "changed", "version": playing.version + 1}


def test_a_page_that_sets_a_cookie_comes_with_it_and_its_form_can_be_sent(client, playing, cache_kind):
    """A phone without the CSRF cookie whose page holds a form (the check-in, for a guest not
    checked in) gets the page in the wait's answer with the new cookie beside it, as its refetch
    would: the form's token in that page then passes the CSRF check (the check-in is taken)."""
    guest = at_table(playing, 1)[0]
    guest.status = guest.Status.REGISTERED
    guest.save(update_fields=["status"])
    evening_touch(evening=playing)
    playing.refresh_from_db()
    client.cookies.clear()
    csrf_client = Client(enforce_csrf_checks=True)
    got = csrf_client.get(wait_url(guest, playing.version - 1) + "&page=1")
    assert got.status_code == 200 and got["Content-Type"].startswith("text/html")
    assert settings.CSRF_COOKIE_NAME in got.cookies and b"csrfmiddlewaretoken" in got.content
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', got.content)[1].decode()
    sent = csrf_client.post(reverse("guest-check-in", args=[guest.key]), {"csrfmiddlewaretoken": token})
    assert sent.status_code in (200, 302)
    guest.refresh_from_db()
    assert guest.status == guest.Status.HERE


def test_under_asgi_the_page_comes_in_the_answer_with_the_stacks_headers(playing, cache_kind):
    """The ASGI path (``SiteApplication``): a changed wait with ``page=1`` is answered with the
    page built through the middleware in one of the application's request threads; an
    unchanged wait is still answered on the loop with no middleware."""
    guest = at_table(playing, 1)[0]
    playing.refresh_from_db()
    app = SiteApplication(threads=2)
    path = reverse("guest-wait", args=[guest.key])

    async def phone():
        page = await asgi_get(app, path, f"v={playing.version - 1}&page=1")
        plain = await asgi_get(app, reverse("guest-page", args=[guest.key]))
        return page, plain

    (status, headers, body), plain = in_a_thread(async_to_sync(phone))
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert headers["etag"] == f'"{link_lookup(guest.key)[2]}.{playing.version}.1"'
    assert headers["content-security-policy"] and headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer" and b'id="guest-live"' in body
    assert plain[0] == 200 and b"<html" in plain[2] and b'id="guest-live"' in plain[2]  # every other request: Django's


# ---------------------------------------------------------------- one publish per transaction


def published_during(server, channel: str, work) -> list[int]:
    """The versions published on ``channel`` while ``work()`` runs (a subscriber of our own)."""
    listener = server.pubsub(ignore_subscribe_messages=True)
    listener.subscribe(channel)
    while listener.get_message(timeout=0.2) is not None:  # the subscription's own message
        pass
    work()
    heard, message = [], listener.get_message(timeout=0.5)
    while message is not None:
        heard.append(int(message["data"]))
        message = listener.get_message(timeout=0.2)
    listener.close()
    return heard


def test_a_transaction_that_touches_the_version_many_times_publishes_it_once(playing, shared_cache):
    """A bell that reports every table and starts the next round in one transaction touches the
    evening's version once per change; the phones are told once, the committed version (each
    publish woke every waiting phone with a version already out of date)."""
    playing.refresh_from_db()
    channel = versions.version_channel(versions.evening_token(playing.pk, playing.public_key))

    def five_touches():
        with transaction.atomic():
            for _ in range(5):
                evening_touch(evening=playing)

    assert published_during(shared_cache, channel, five_touches) == [playing.version]
    assert cache.get(versions.version_key(versions.evening_token(playing.pk, playing.public_key))) == playing.version


def test_a_touch_in_a_savepoint_rolled_back_is_not_published(playing, shared_cache):
    """A savepoint that touched the version and rolled back leaves the version committed before
    it: that is the one published, never the rolled-back number."""
    playing.refresh_from_db()
    start = playing.version
    channel = versions.version_channel(versions.evening_token(playing.pk, playing.public_key))

    def touched_then_undone():
        with transaction.atomic():
            evening_touch(evening=playing)
            try:
                with transaction.atomic():
                    evening_touch(evening=Evening.objects.get(pk=playing.pk))
                    raise RuntimeError("the savepoint's work fails")
            except RuntimeError:
                pass

    assert published_during(shared_cache, channel, touched_then_undone) == [start + 1]
    assert Evening.objects.get(pk=playing.pk).version == start + 1
