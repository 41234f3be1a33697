"""Every page passes an axe-core scan (issue 11, deliver 6), in Chromium, with no violations.

The pages are not listed by hand: the test walks the site's URLconf and opens every route with
the values of a demo evening (an evening id, its public key, a guest's private key, table 1,
round 1, a guest id, a game), logged in as its host, so a page added later is scanned too.
A route that answers something other than a page (a PDF, JSON, a POST-only action: 405) is
passed over; a route whose arguments this test cannot fill fails the test, naming it, so it is
added here rather than forgotten. The room display is scanned in both of its modes, each slide
in turn, the login page logged out. Each page is opened on the screen its audience has: the
host's at 1280 px, a guest's phone at 390 px, the room's at 1920×1080 (``SCREENS``).

The walk runs over a Progressive Poker evening and over an evening of each format at tables of
four (Progressive Euchre, Drive Whist, Bunco: ``tests/fixtures_foursome_night.py``) with round 1
rung and the bell of round 2 waiting for a table's score; each format's captain's report is then
scanned with its score helper tapped (also at 320 px and refused), the host's report form, and
the evening's end with its prizes. A failure names the format (the test's id) and the page.
axe-core comes from the ``axe-playwright-python`` package."""

from __future__ import annotations

import os

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.fixtures_clubs import walk_club
from tests.fixtures_foursome_night import FORMATS, ended_night, waiting_night
from tests.fixtures_room import played_evening
from tournament.formats.partnership.state import foursome_state
from tournament.models import Guest
from tournament.services.clock import round_start
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


SCREENS = {  # who looks at a page, on what
    "host": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "room": {"viewport": {"width": 1920, "height": 1080}},
}
PHONE_ROUTES = ("g/", "h/", "e/", "m/", "rules/")  # guests', helpers', the door's and members' pages, the rules


def screen_of(name: str, route: str) -> str:
    """Who opens a route: the room display on the room's screen, guests' pages on a phone."""
    if name == "room":
        return "room"
    return "phone" if route.startswith(PHONE_ROUTES) else "host"


class AxeWalk:
    """Chromium over the live server with one context per screen of ``SCREENS`` (the host's
    logged in), keeping the Content-Security-Policy on: ``scan`` opens a page and keeps its axe
    violations under its address, ``scan_here`` the page as it stands after taps, ``walk`` every
    route of the URLconf. ``failures`` says what failed; every refusal of the policy is one."""

    def __init__(self, browser, live_server, host) -> None:
        self.url = live_server.url
        self.problems: dict[str, list[str]] = {}
        self.refused: list[str] = []
        self.contexts, self.pages = {}, {}
        for who, options in SCREENS.items():
            self.contexts[who] = browser.new_context(bypass_csp=False, **options)
            page = self.pages[who] = self.contexts[who].new_page()
            # The same walk checks the Content-Security-Policy (issue 12 item 8): no page may load or
            # run anything the policy refuses (Chromium reports each refusal on the console).
            page.on("console", lambda m, p=page: self._console(p, m))
        page = self.pages["host"]
        page.goto(self.url + "/accounts/login/")
        self.problems["/accounts/login/"] = axe_violations(page)
        page.fill("#id_username", host.username)
        page.fill("#id_password", "pass-word-123")
        page.click("main button[type=submit]")
        page.wait_for_load_state()

    def _console(self, page, message) -> None:
        if "Content Security Policy" in message.text:
            self.refused.append(f"{page.url}: {message.text}")

    def scan(self, who: str, url: str, label: str = ""):
        """Open ``url`` on ``who``'s screen and keep its violations; returns the page."""
        page = self.pages[who]
        response = page.goto(self.url + url)  # None: the same page, another #anchor
        assert response is None or response.status == 200, f"{url} answered {response.status}"
        self.scan_here(who, label or url)
        return page

    def scan_here(self, who: str, label: str) -> None:
        """Keep the violations of the page on ``who``'s screen as it stands, under ``label``."""
        self.problems[label] = axe_violations(self.pages[who])

    def scan_room(self, url: str, shots: str = "") -> None:
        """The room display at ``url``, each of its slides in turn (a slide not shown is hidden);
        with ``shots``, a screenshot of each at ``{shots}-{slide}.png``. Scanned once as it opens,
        then as the room sees it after the host's tap on "Start the room display"."""
        page = self.scan("room", url)
        page.locator(".room-unlock").click()
        page.wait_for_function("() => !!document.querySelector('#room-live')?.dataset.pages")
        page.evaluate("window.roomDisplay.pause()")
        for slide in page.evaluate("window.roomDisplay.pages()"):
            page.evaluate("([s, n]) => window.roomDisplay.show(s, n)", [slide["slide"], 0])
            self.scan_here("room", f"{url} (slide {slide['slide']})")
            if shots:
                page.screenshot(path=f"{shots}-{slide['slide']}.png")

    def walk(self, values: dict) -> list[str]:
        """Scan every route filled from ``values`` (``fill``); returns the addresses scanned.
        Fails naming the routes it cannot fill."""
        unfilled, scanned, landed = [], [], set()
        for name, route, names in routes():
            if name in NOT_PAGES or route.startswith(NOT_OURS) or name == "login":
                continue
            path = fill(route, names, values)
            if path is None:
                unfilled.append(f"{name} ({route})")
                continue
            who = screen_of(name, route)
            for url in [path + "?mode=full", path + "?mode=moves"] if name == "room" else [path]:
                probe = self.contexts[who].request.get(self.url + url, max_redirects=0)
                if probe.status == 405 or "text/html" not in probe.headers.get("content-type", ""):
                    continue  # a PDF, JSON or a POST-only action: not a page
                assert probe.status < 400, f"{url} answered {probe.status}"
                if probe.status >= 300:  # once a landing page (it says why the route sent you there)
                    to = probe.headers["location"].removeprefix(self.url)
                    if to.split("?")[0].split("#")[0] not in landed:
                        landed.add(to.split("?")[0].split("#")[0])
                        self.scan(who, to, f"{url} (sent on to {to})")
                elif name == "room":
                    self.scan_room(url)
                else:
                    self.scan(who, url)
                scanned.append(url)
        assert not unfilled, f"Add these routes' arguments to the scan: {unfilled}"
        return scanned

    def failures(self) -> str:
        """Every page's violations and every refusal of the policy, one a line ('' when none)."""
        lines = [f"{url}: {found}" for url, found in self.problems.items() if found]
        return "\n".join(lines + self.refused)

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()


def route_values(evening, guest, game: str) -> dict:
    """The values ``fill`` puts in the routes: ``evening``'s, ``guest``'s, table 1, round 1, and
    a club whose evening it is, with a season (``fixtures_clubs.walk_club``)."""
    return walk_club(evening) | {
        "evening_id": str(evening.pk),
        "e/key": evening.public_key,
        "public_key": evening.public_key,
        "g/key": guest.key,
        "h/key": helper_link_create(evening=evening, role="door").key,
        "h/scorer-key": helper_link_create(evening=evening, role="scorer").key,
        "table": "1",
        "number": "1",
        "guest_id": str(guest.pk),
        "game": game,
    }


def walk_evening(host, fmt: str):
    """The evening the route walk of ``fmt`` opens, the guest whose links it fills in, and
    further pages (url, screen) worth a look at that stage. Progressive Poker: round 1 rung,
    round 2 running (``played_evening``). Tables of four: the head table has finished round 2 and
    the bell waits for table 3 (``waiting_night``); the guest sits at table 3, told to send its
    score so far; the further pages are table 2's, whose report is confirmed and disputed."""
    if fmt == "poker":
        evening = played_evening(host, 30)
        return evening, Guest.objects.filter(evening=evening).order_by("pk").first(), []
    evening = waiting_night(host, fmt)
    tables = foursome_state(evening).tables
    guests = Guest.objects.in_bulk([p for t in tables for p in t if p > 0])
    e = evening.pk
    further = [(reverse("guest-page", args=[guests[p].key]), "phone") for p in tables[1] if p > 0]
    further += [(reverse(name, args=[e, t]), "host") for name in ("host-table", "host-result") for t in (2, 3)]
    further += [(reverse("host-correction", args=[e, 2, 2]), "host"), (reverse("host-bell-cuts", args=[e]), "host")]
    return evening, guests[next(p for p in tables[2] if p > 0)], further


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fmt", ["poker", *FORMATS])
def test_every_page_passes_axe(browser, live_server, host, fmt):
    evening, guest, further = walk_evening(host, fmt)
    walk = AxeWalk(browser, live_server, host)
    scanned = walk.walk(route_values(evening, guest, "draw_poker" if fmt == "poker" else fmt))
    for url, who in further:
        walk.scan(who, url)
    walk.close()
    assert len(scanned) >= 30, scanned
    assert not walk.failures(), f"{fmt}:\n{walk.failures()}"


SHOTS = "/tmp/a11y-formats"
TAPS = {  # the score helper on a captain's phone, as a guest taps it
    "euchre": ["[data-hand=NS][data-points='1']", "[data-hand=EW][data-points='2']", "[data-hand=NS][data-points='4']"],
    "whist": [],
    "bunco": [
        "fieldset.side-NS [data-roll='21']",
        "fieldset.side-NS [data-roll='2']",
        "fieldset.side-EW [data-roll='5']",
    ],
}


def tap_a_report(page, fmt: str) -> None:
    """Fill the captain's report as a guest would with the score helper: euchre's hands, bunco's
    rolls, one side's tricks at whist (the other side's follow)."""
    for selector in TAPS[fmt]:
        page.locator(selector).first.click()
    if fmt == "whist":
        page.locator("input[name=tricks_ns]").fill("8")
        assert page.locator("input[name=tricks_ew]").input_value() == "5"


def refuse_a_report(page, fmt: str) -> None:
    """Send a report the format refuses (euchre: a tie with no play-off; whist: 8 and 6 tricks,
    typed past the helper; bunco: a bunco but 3 points for its player's team) and see its message."""
    if fmt == "euchre":
        page.locator("input[name=points_ns]").fill("5")
        page.locator("input[name=points_ew]").fill("5")
    elif fmt == "whist":
        page.locator("input[name=tricks_ns]").evaluate("el => { el.value = '8'; }")
        page.locator("input[name=tricks_ew]").evaluate("el => { el.value = '6'; }")
    else:
        page.locator("fieldset.side-NS input[name^=points_]").first.fill("3")
        page.locator("fieldset.side-NS input[name^=buncos_]").first.fill("1")
    page.get_by_role("button", name="Send the result").click()
    assert page.locator("[role=alert]").inner_text().endswith("Nothing was saved.")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_captains_report_and_the_hosts_form_with_the_score_helper_pass_axe(browser, live_server, host, fmt):
    """Table 3's captain, while the bell waits for their table: the phone's page, the report
    form empty, tapped, at 320 px, refused, then sent (the bell moves everyone: the phone says
    where to go, the room display and the host's moves show the moves); round 3's report on the
    host's form, tapped hand by hand at euchre. Screenshots go to /tmp/a11y-formats/."""
    os.makedirs(SHOTS, exist_ok=True)
    evening = waiting_night(host, fmt)
    captain = Guest.objects.get(pk=next(p for p in foursome_state(evening).tables[2] if p > 0))
    walk = AxeWalk(browser, live_server, host)
    phone = walk.scan("phone", reverse("guest-page", args=[captain.key]), "the captain's page")
    phone.get_by_role("link", name="Report the result of table 3").click()
    walk.scan_here("phone", "the report form")
    tap_a_report(phone, fmt)
    walk.scan_here("phone", "the report form, tapped")
    phone.screenshot(path=f"{SHOTS}/{fmt}-report-390.png", full_page=True)
    phone.set_viewport_size({"width": 320, "height": 700})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 320
    phone.screenshot(path=f"{SHOTS}/{fmt}-report-320.png", full_page=True)
    walk.scan_here("phone", "the report form at 320 px")
    phone.set_viewport_size(SCREENS["phone"]["viewport"])
    refuse_a_report(phone, fmt)
    walk.scan_here("phone", "the report form, refused")
    walk.scan("phone", reverse("guest-report", args=[captain.key]))
    tap_a_report(phone, fmt)
    phone.get_by_role("button", name="Send the result").click()
    assert "result is sent" in phone.locator(".messages").inner_text()
    walk.scan_here("phone", "the captain's page after the bell")
    room = reverse("room", args=[evening.public_key])
    walk.scan_room(room + "?mode=full", f"{SHOTS}/{fmt}-room-full")
    walk.scan_room(room + "?mode=moves", f"{SHOTS}/{fmt}-room-moves")
    walk.scan("host", reverse("host-moves", args=[evening.pk]))
    round_start(evening=evening)
    form = walk.scan("host", reverse("host-result", args=[evening.pk, 1]), "the host's report form")
    if fmt == "euchre":
        for hand in ("North–South +1", "East–West +2", "North–South +4"):
            form.get_by_role("button", name=hand, exact=True).click()
        walk.scan_here("host", "the host's report form, tapped")
    walk.close()
    assert not walk.failures(), f"{fmt}:\n{walk.failures()}"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_end_of_an_evening_at_tables_of_four_passes_axe(browser, live_server, host, fmt):
    """The evening ended by its last bell (no final count at tables of four), at the first
    prize and with every prize shown: the host's end page and board (and, before the first
    prize, the standings and the last moves), the room display, the phones of each prize's
    first winner and of the last guest."""
    from tests.fixtures_ending import reveal
    from tournament.formats.partnership.standings import foursome_standings
    from tournament.services.ending import ceremony

    os.makedirs(SHOTS, exist_ok=True)
    evening = ended_night(waiting_night(host, fmt))
    table = foursome_standings(evening)
    guests = {p.winners[0].pk: p.winners[0] for p in table.prizes if p.winners}
    guests[table.lines[-1].guest.pk] = table.lines[-1].guest
    walk = AxeWalk(browser, live_server, host)
    for step in (None, 1, ceremony(evening).steps):
        if step is not None:
            evening = reveal(evening, step)
        for name in ("host-finish", "host-evening") + (("host-standings", "host-moves") if step is None else ()):
            walk.scan("host", reverse(name, args=[evening.pk]), f"{name} (step {step})")
        walk.scan_room(reverse("room", args=[evening.public_key]), f"{SHOTS}/{fmt}-room-end-{step}")
        for guest in guests.values():
            walk.scan("phone", reverse("guest-page", args=[guest.key]), f"{guest.name}'s phone (step {step})")
    walk.close()
    assert len(guests) >= 2 and len(walk.problems) >= 3 * 5
    assert not walk.failures(), f"{fmt}:\n{walk.failures()}"


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
