"""The host's pages at tables of four in Debian's Chromium (issue 15): a Progressive Euchre
evening run from the host's pages alone at 1280 px (the evening created with its format, eight
guests registered and checked in, the partnership draw, each table's report on the host's
result form, one of them tapped hand by hand, the bell, the moves, the standings, the last
round and the prizes), and a Drive Whist night whose phone at 390 px says where to go after
the bell (the circle: winners one table towards the head, the head table's winners round to
the last table, losers stay). Screenshots go to /tmp/hostfmt2/."""

from __future__ import annotations

import os
import re

import pytest

from tests.test_accessibility import axe_violations
from tournament.formats.partnership.state import foursome_state
from tournament.models import Evening, Guest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = "/tmp/hostfmt2"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = [
    "Ada Byron",
    "Ben Okafor",
    "Chloé Martin",
    "Dev Patel",
    "Edith Wharton",
    "Farid Haddad",
    "Greta Lind",
    "Hugo Brand",
]


def shot(page, name: str) -> None:
    """A full-page screenshot in ``SHOTS``, and the page fits its width (no sideways scroll)."""
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name


def host_page(browser, live_server, host, width: int = 1280):
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(host.username)
    page.get_by_label("Password").fill("pass-word-123")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/host/")
    return page


def create_evening(page, name: str, fmt: str, rounds: int, names: list[str] = NAMES) -> Evening:
    """The host creates an evening of format ``fmt`` (its title in the list) with ``rounds``
    rounds, registers ``names`` (half in each pack) and checks them all in."""
    page.get_by_label(re.compile(r"^Name:?$")).fill(name)
    page.get_by_label(re.compile(r"^Date:?$")).fill("2026-12-04")
    page.get_by_label(re.compile(r"^Format:?$")).select_option(label=fmt)
    page.get_by_label(re.compile(r"^Rounds planned:?$")).fill(str(rounds))
    page.get_by_role("button", name="Create the evening").click()
    evening = Evening.objects.get(name=name)
    packs = ("red", "blue")
    page.get_by_label("Paste a list").fill("\n".join(f"{n}, {packs[i % 2]}" for i, n in enumerate(names)))
    page.get_by_label("Check them all in now").check()
    page.get_by_role("button", name="Register the list").click()
    assert f"{len(names)} guests registered" in page.content()
    return evening


def test_the_host_runs_a_progressive_euchre_evening_at_1280(browser, live_server, host):
    page = host_page(browser, live_server, host)
    evening = create_evening(page, "Euchre at the hall", "Progressive Euchre", 2)
    assert evening.format == "euchre" and evening.rounds_planned == 2
    shot(page, "euchre-01-guests")
    page.goto(f"{live_server.url}/host/e/{evening.pk}/draw/")
    assert "8 guests here make 2 tables of four" in page.content()
    page.get_by_role("button", name="Deal the draw").click()
    shot(page, "euchre-02-seating")
    page.goto(f"{live_server.url}/host/e/{evening.pk}/")
    page.get_by_role("button", name="Start round 1").click()
    shot(page, "euchre-03-round-1")
    state = foursome_state(evening)
    names = dict(evening.guests.values_list("id", "name"))
    (n1, e1, s1, w1), (n2, e2, s2, w2) = [[names[p] for p in t] for t in state.tables]

    # Table 1, hand by hand: North–South 1, 2, 1, 4; East–West 2, 1 (8 to 3).
    page.get_by_role("link", name="Enter the report of table 1").click()
    assert page.locator("h1").inner_text() == "Table 1 · Head table: round 1's report"
    for hand in ("North–South +1", "North–South +2", "East–West +2", "North–South +1", "East–West +1"):
        page.get_by_role("button", name=hand, exact=True).click()
    page.get_by_role("button", name="North–South +4", exact=True).click()
    page.get_by_role("button", name="Take back the last hand").click()
    page.get_by_role("button", name="North–South +4", exact=True).click()
    assert page.locator("[data-total=NS]").inner_text() == "8" and page.locator("[data-total=EW]").inner_text() == "3"
    assert page.locator("[data-hands-list] li").all_inner_texts() == [
        "North–South, 1 point",
        "North–South, 2 points",
        "East–West, 2 points",
        "North–South, 1 point",
        "East–West, 1 point",
        "North–South, 4 points",
    ]
    assert not page.get_by_label("Or the hands, one at a time").is_visible()  # the codes are for no JavaScript
    shot(page, "euchre-04-report-taps")
    assert not axe_violations(page), page.url
    page.get_by_role("button", name="Save the report").click()
    assert "Report saved for table 1." in page.content()
    # Table 2 by its totals: East–West win 8 to 6.
    page.get_by_role("link", name="Enter the report of table 2").click()
    page.get_by_label(f"North–South ({n2} and {s2}): points").fill("6")
    page.get_by_label(f"East–West ({e2} and {w2}): points").fill("8")
    page.get_by_role("button", name="Save the report").click()
    assert "2 of 2 tables in" in page.content()
    shot(page, "euchre-05-all-in")

    # The bell: every report is in, so it rings at once. Euchre's ladder: table 1's North–South
    # (8 to 3) stay, its East–West go to the foot table; table 2's East–West move up.
    page.get_by_role("button", name="Ring the bell now").click()
    assert "The bell of round 1 has rung" in page.content()
    results = page.locator("ul.bell-words li").all_inner_texts()
    assert results == [
        "Table 1 · Head table: North–South won, 8 points to 3",
        "Table 2 · Foot table: East–West won, 8 points to 6",
    ]
    shot(page, "euchre-06-after-bell")
    page.get_by_role("link", name="Moves (round 1)").click()
    moves = page.locator("ol.foursome-moves").inner_text()
    assert f"{n1} won at the head table and stays at table 1." in moves
    assert f"{e1} lost at the head table and moves down to table 2, the foot table." in moves
    assert f"{w2} won at table 2 and moves up to table 1, the head table." in moves
    assert f"{s2} lost at table 2 and stays at table 2." in moves
    shot(page, "euchre-07-moves")
    assert not axe_violations(page), page.url
    page.get_by_role("link", name="Standings and prizes").first.click()
    shot(page, "euchre-08-standings")
    rows = page.locator("table.tally-table tbody tr").all_inner_texts()
    assert len(rows) == 8 and all(row.startswith("1\t") for row in rows[:4])
    page.goto(f"{live_server.url}/host/e/{evening.pk}/tables/2/")
    shot(page, "euchre-09-table-2")
    assert not axe_violations(page), page.url

    # Round 2, the last: both tables by their totals, then the bell ends the evening.
    page.goto(f"{live_server.url}/host/e/{evening.pk}/")
    page.get_by_role("button", name="Start round 2").click()
    for table, (ns, ew) in ((1, (5, 9)), (2, (10, 2))):
        page.get_by_role("link", name=f"Enter the report of table {table}").click()
        page.locator("input[name=points_NS]").fill(str(ns))
        page.locator("input[name=points_EW]").fill(str(ew))
        page.get_by_role("button", name="Save the report").click()
        assert f"Report saved for table {table}." in page.content()
    page.get_by_role("button", name="Ring the bell now").click()
    shot(page, "euchre-10-last-bell")
    assert "The evening has ended" in page.content()
    assert page.locator("ul.bell-words li").all_inner_texts() == [
        "Table 1 · Head table: East–West won, 9 points to 5",
        "Table 2 · Foot table: North–South won, 10 points to 2",
    ]
    shot(page, "euchre-10-last-bell")
    page.get_by_role("link", name="Standings and prizes").first.click()
    prizes = page.locator("ul.prizes").inner_text()
    shot(page, "euchre-11-prizes")
    assert not axe_violations(page), page.url
    assert "Most stars, Red pack" in prizes and "Most stars, Blue pack" in prizes
    # Two stars is the most anyone has (two wins in two rounds); the booby prize: no star, those level cut for it.
    assert re.search(r"Most stars, Blue pack: .+ · 2 stars[.;,]|Most stars, Red pack: .+ · 2 stars[.;,]", prizes)
    # A tie names who tied and who won the cut (house rule: a tie for a prize is cut).
    assert re.search(
        r"Booby prize: fewest stars: .+ · 0 stars\.( .+ tied; .+ won the cut \(house rule: a tie for a prize is cut\)\.)?",
        prizes,
    )
    rows = [r.split("\t") for r in page.locator("table.tally-table tbody tr").all_inner_texts()]
    starless = [row[1] for row in rows if row[2] == "0"]
    assert starless and any(name in prizes.splitlines()[-1] for name in starless)


def test_a_drive_whist_night_the_host_enters_tricks_and_phones_say_where_to_go(browser, live_server, host):
    """Twelve guests, three tables. Tricks: table 1 North–South 8 to 5, table 2 East–West 7 to
    6, table 3 North–South 9 to 4. Drive Whist's circle (Foster, ``docs/rules/drive-whist.md``): the
    winners move one table towards the head, the head table's winners go round to the last
    table, the losers stay; partners are kept (the format's default)."""
    page = host_page(browser, live_server, host)
    names = [*NAMES, "Ines Duarte", "Jonas Weber", "Kiri Tane", "Lena Sørensen"]
    evening = create_evening(page, "Whist drive", "Drive Whist", 3, names)
    page.goto(f"{live_server.url}/host/e/{evening.pk}/draw/")
    page.get_by_role("button", name="Deal the draw").click()
    page.goto(f"{live_server.url}/host/e/{evening.pk}/")
    page.get_by_role("button", name="Start round 1").click()
    tables = foursome_state(evening).tables
    guests = Guest.objects.in_bulk([p for t in tables for p in t])
    (n1, e1, s1, w1), (n2, e2, s2, w2), (n3, e3, s3, w3) = tables
    phones = {}
    for player in (n1, e2, n2, s3):
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{live_server.url}/g/{guests[player].key}/")
        phones[player] = phone
    assert phones[n1].locator(".now .big").inner_text() == "Table 1"
    shot(phones[n1], "whist-01-phone-before")

    for table, (ns, ew) in ((1, (8, 5)), (2, (6, 7)), (3, (9, 4))):
        page.get_by_role("link", name=f"Enter the report of table {table}").click()
        assert "the two sides' tricks make 13" in page.content()
        page.locator("input[name=tricks_NS]").fill(str(ns))
        page.locator("input[name=tricks_EW]").fill(str(ew))
        if table == 1:
            shot(page, "whist-02-host-tricks")
        page.get_by_role("button", name="Save the report").click()
        assert f"Report saved for table {table}." in page.content()
    page.get_by_role("button", name="Ring the bell now").click()
    assert page.locator("ul.bell-words li").all_inner_texts() == [
        "Table 1 · Head table: North–South won, 8 tricks to 5",
        "Table 2: East–West won, 7 tricks to 6",
        "Table 3 · Foot table: North–South won, 9 tricks to 4",
    ]
    shot(page, "whist-03-host-after-bell")
    page.get_by_role("link", name="Moves (round 1)").click()
    assert "the head table's winners go round to the foot table" in page.content().replace("&#x27;", "'")
    shot(page, "whist-04-host-moves")
    assert not axe_violations(page), page.url

    expected = {
        n1: ("You won at the head table: go to the foot table, table 3.", "Table 3", guests[s1].name),
        e2: ("You won at table 2: move up to table 1, the head table.", "Table 1", guests[w2].name),
        n2: ("You lost at table 2: stay at table 2.", "Table 2", guests[s2].name),
        s3: ("You won at table 3: move up to table 2.", "Table 2", guests[n3].name),
    }
    for player, (words, table, partner) in expected.items():
        phone = phones[player]
        phone.wait_for_function("() => document.body.innerText.includes('At the last bell')", timeout=15_000)
        assert words in phone.locator(".bellnews").inner_text()
        # the live page morphs its parts in place: wait for the table to be the new one
        phone.wait_for_function("t => document.querySelector('.now .big')?.innerText === t", arg=table, timeout=15_000)
        assert f"Your partner: {partner}" in phone.locator(".partner").inner_text()  # partners are kept
        shot(phone, f"whist-05-phone-{table.replace(' ', '-').lower()}-{player}")
