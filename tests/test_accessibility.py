"""Every page passes an axe-core scan (issue 11, deliver 6), in Chromium, with no violations.

The pages are not listed by hand: the test walks the site's URLconf and opens every route with
the values of a demo evening (an evening id, its public key, a guest's private key, table 1,
round 1, a guest id, a game), logged in as its host, so a page added later is scanned too.
A route that answers something other than a page (a PDF, JSON, a POST-only action: 405) is
passed over; a route whose arguments this test cannot fill fails the test, naming it, so it is
added here rather than forgotten. The room display is scanned in both of its modes, the login
page logged out. axe-core comes from the ``axe-playwright-python`` package."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.fixtures_room import played_evening
from tournament.models import Guest
from tournament.services.helpers import helper_link_create

NOT_PAGES = {  # route names that are not pages a person opens, with why
    "logout": "a POST that logs out",
}
NOT_OURS = ("admin/", "accounts/password", "accounts/reset")  # Django's own pages the site never links


def routes(patterns=None, prefix: str = ""):
    """(name, route, argument names) of every named route, includes followed."""
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern) and entry.name:
            yield entry.name, prefix + str(entry.pattern), list(entry.pattern.converters)


def fill(route: str, names: list[str], values: dict) -> str | None:
    """The route with its arguments filled from the demo evening, or None if one is unknown."""
    path = route
    for name in names:
        key = f"{route[:2]}{name}" if name == "key" else name  # g/<key>: a guest's; e/<key>: the evening's
        if key == "h/key" and "result" in route:
            key = "h/scorer-key"  # h/<key>: a door helper's link; its result pages: a scorer's
        if key not in values:
            return None
        path = path.replace(f"<{name}>", values[key])
        for kind in ("int", "str", "slug"):
            path = path.replace(f"<{kind}:{name}>", values[key])
    return "/" + path.lstrip("^").rstrip("$")


def axe_violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at " + "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        for v in found
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_of_a_demo_evening_passes_axe(browser, live_server, host):
    evening = played_evening(host, 30)
    guest = Guest.objects.filter(evening=evening).order_by("pk").first()
    values = {
        "evening_id": str(evening.pk),
        "e/key": evening.public_key,
        "public_key": evening.public_key,
        "g/key": guest.key,
        "h/key": helper_link_create(evening=evening, role="door").key,
        "h/scorer-key": helper_link_create(evening=evening, role="scorer").key,
        "table": "1",
        "number": "1",
        "guest_id": str(guest.pk),
        "game": "draw_poker",
    }
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=False)
    page = context.new_page()
    # The same walk checks the Content-Security-Policy (issue 12 item 8): no page may load or run
    # anything the policy refuses (Chromium reports each refusal on the console).
    refused: list[str] = []
    page.on(
        "console", lambda m: refused.append(f"{page.url}: {m.text}") if "Content Security Policy" in m.text else None
    )
    page.goto(live_server.url + "/accounts/login/")
    problems = {"/accounts/login/": axe_violations(page)}
    page.fill("#id_username", host.username)
    page.fill("#id_password", "pass-word-123")
    page.click("main button[type=submit]")
    unfilled, scanned = [], []
    for name, route, names in routes():
        if name in NOT_PAGES or route.startswith(NOT_OURS) or name == "login":
            continue
        path = fill(route, names, values)
        if path is None:
            unfilled.append(f"{name} ({route})")
            continue
        for url in [path + "?mode=full", path + "?mode=moves"] if name == "room" else [path]:
            probe = context.request.get(live_server.url + url, max_redirects=0)
            if probe.status == 405 or "text/html" not in probe.headers.get("content-type", ""):
                continue  # a PDF, JSON or a POST-only action: not a page
            assert probe.status < 400, f"{url} answered {probe.status}"
            page.goto(live_server.url + url)
            scanned.append(url)
            problems[url] = axe_violations(page)
    context.close()
    assert not unfilled, f"Add these routes' arguments to the scan: {unfilled}"
    assert len(scanned) >= 30, scanned
    failing = {u: p for u, p in problems.items() if p}
    assert not failing, "\n".join(f"{u}: {p}" for u, p in failing.items())
    assert not refused, "\n".join(refused)


@pytest.mark.django_db
def test_a_pack_is_shown_by_a_letter_as_well_as_its_colour(make_evening, client, host):
    from django.template import Context, Template

    evening = make_evening(2, 2, red_label="Ladies", blue_label="Gentlemen")
    mark = Template("{% load pack_tags %}{% pack_mark 'red' evening %} {% pack_mark 'blue' evening hidden=True %}")
    assert mark.render(Context({"evening": evening})) == (
        '<span class="pack red" role="img" aria-label="Ladies" title="Ladies">L</span> '
        '<span class="pack blue" aria-hidden="true">G</span>'
    )
    evening.red_label, evening.blue_label = "Roses", "Rubies"  # the same first letter: R and B
    assert ">R</span>" in mark.render(Context({"evening": evening})) and ">B</span>" in mark.render(
        Context({"evening": evening})
    )
    assert mark.render(Context({})).startswith('<span class="pack red" role="img" aria-label="Red pack"')


@pytest.mark.django_db
def test_go_to_table_is_a_polite_live_region_and_every_page_has_a_skip_link(make_evening, client):
    from django.urls import reverse

    from tournament.services.draws import draw_digital

    evening = make_evening(4, 4)
    guest = evening.guests.first()
    html = client.get(reverse("guest-page", args=[guest.key])).content.decode()
    assert '<section class="now" id="now" aria-live="polite" aria-atomic="true">' in html  # not seated yet
    draw_digital(evening=evening)
    html = client.get(reverse("guest-page", args=[guest.key])).content.decode()
    region = html[html.index('id="now"') - 30 : html.index("</section>", html.index('id="now"'))]
    assert 'aria-live="polite"' in region and 'Go to</span> <span class="big">Table ' in region
    assert 'hx-swap="morph:outerHTML"' in html  # the region stays in place, so a change is announced
    for url in (
        reverse("guest-page", args=[guest.key]),
        reverse("rules"),
        reverse("login"),
        reverse("room", args=[evening.public_key]),
    ):
        assert '<a class="skip-link" href="#main">Skip to the content</a>' in client.get(url).content.decode()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_end_of_the_evening_passes_axe_at_every_stage(browser, live_server, host):
    """The end pages (issue 11 deliver 4) as they stand during the final count, at the first
    prize and with the final standings: the host's end page and a table's final count (also
    showing a count that is off), the board, the room display and the prize winners' phones."""
    from tests.fixtures_ending import count_every_table, ended_evening, ending_pages, reveal
    from tests.test_ending_browser import phone
    from tournament.services.ending import ceremony

    evening = ended_evening(host, 30, red_label="Ladies", blue_label="Gentlemen")
    page = phone(browser, live_server, host, width=1280)
    problems, scanned = {}, 0
    for step in (None, 1, ceremony(evening).steps):
        if step is not None:
            if evening.ceremony_step is None:
                count_every_table(evening)
            evening = reveal(evening, step)
        for item in ending_pages(evening):
            assert page.goto(live_server.url + item.url).status == 200, item.url
            scanned += 1
            problems[f"{item.url} (step {step})"] = axe_violations(page)
            if step is None and "/finish/count/" in item.url:  # the form refusing a count that is off
                field = page.locator("input[name^=counters_]").first
                field.fill(str(int(field.input_value()) + 3))
                page.locator("form.final-count button[type=submit]").click()
                assert "3 over" in page.content()
                problems[f"{item.url} (a count off)"] = axe_violations(page)
    assert scanned >= 3 * 7
    failing = {u: p for u, p in problems.items() if p}
    assert not failing, "\n".join(f"{u}: {p}" for u, p in failing.items())
