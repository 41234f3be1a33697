"""Users never see developer text: every page of a demo evening with some history (host pages,
guests' pages, the room display, the public pages and the rules) is fetched and its visible
text (and the titles, labels and placeholders a user reads) searched for file names, option
code names, raw dicts, "None", guests by id, and, on the host's and the room's pages, a guest
addressed as "you". The sources of the rules are cited in words. (The audit log is left out
here: its entries are written in sentences by their own change.)"""

from __future__ import annotations

import re
from dataclasses import fields
from html.parser import HTMLParser

import pytest

from tables.formats.poker.bell.options import CHOICES, BellOptions
from tables.formats.poker.prizes import BOOBY_RULES, TIE_RULES, PrizeOptions
from tables.formats.poker.showdown import Game
from tables.sources import BOOK
from tests.fixtures_pages import crawl_evening, every_page
from tournament.formats.poker.game_forms import OPTION_WORDS
from tournament.forms.bell import rule_in_words


class VisibleText(HTMLParser):
    """The text a reader sees: text outside <script>/<style>, plus title, aria-label, alt and
    placeholder attributes and the value of buttons."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.hidden += 1
        for name, value in attrs:
            if value and name in ("title", "aria-label", "alt", "placeholder"):
                self.parts.append(value)
            if value and name == "value" and tag == "button":
                pass  # a button's value is sent, not shown

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def code_names() -> set[str]:
    """Every option key and choice of the bell, the prizes and the games that has an underscore
    (those are code; "mistigris" or "cut" alone are English)."""
    names = {f.name for f in fields(BellOptions)} | {f.name for f in fields(PrizeOptions)}
    names |= {choice for choices in CHOICES.values() for choice in choices}
    names |= set(BOOBY_RULES) | set(TIE_RULES) | set(OPTION_WORDS) | {game.value for game in Game}
    return {name for name in names if "_" in name}


FILE_NAME = re.compile(r"[0-9a-f]{3}_[0-9a-f]{12,16}\.txt|\.md\b|\.py\b|\bseeds/")
GUEST_ID = re.compile(r"\b[Gg]uest \d+\b|\b[Gg]uests \d+, \d+|\bguest\(s\)")
# A guest addressed in the second person: the bell's own sentences to them, or "Name: You ...".
SECOND_PERSON = re.compile(
    r"\b[Yy]ou (won|lost|had|cut|split|are at|have left|hold|keep|count)\b"
    r"|\b[Yy]our (seat|table \d|\d+ counters)|: You\b|\bWelcome(?: back)?:"
)


def problems(text: str, audience: str) -> list[str]:
    """What is wrong with a page's visible ``text`` for its ``audience``."""
    found = [f"file name {m.group(0)!r}" for m in FILE_NAME.finditer(text)]
    found += [f"code name {name!r}" for name in sorted(code_names()) if re.search(rf"\b{name}\b", text)]
    found += [f"raw data {m.group(0)!r}" for m in re.finditer(r".{0,30}[{}].{0,30}", text)]
    found += [f"“None” in {m.group(0)!r}" for m in re.finditer(r".{0,30}\bNone\b.{0,30}", text)]
    found += [f"a guest by id {m.group(0)!r}" for m in GUEST_ID.finditer(text)]
    if audience in ("host", "room"):
        found += [
            f"second person {m.group(0)!r}"
            for m in re.finditer(rf".{{0,40}}(?:{SECOND_PERSON.pattern}).{{0,20}}", text)
        ]
    return found


@pytest.fixture
def evening(host):
    return crawl_evening(host)


def test_no_page_shows_developer_text(client, host, evening):
    from django.test import Client

    hosting = Client()
    hosting.force_login(host)
    pages = every_page(evening)
    assert len(pages) >= 36
    report = {}
    for page in pages:
        response = (hosting if page.audience == "host" else client).get(page.url)
        assert response.status_code == 200, (page.url, response.status_code)
        found = problems(visible_text(response.content.decode()), page.audience)
        if found:
            report[page.url] = found
    assert not report, "\n".join(f"{url}: {'; '.join(found)}" for url, found in report.items())


def test_the_checks_catch_each_kind_of_developer_text():
    assert problems("Source: 000_8fd897c0e7bb035c.txt", "public")
    assert problems("seeds/README.md (Progressive Poker)", "public")
    assert problems("Our rule for no_result is stay; pool_tie cut", "host")
    assert problems("was: bell={}", "host")
    assert problems("Pack: None", "host")
    assert problems("Guest 17 won the pool", "host")
    assert problems("Mårten: You won the pool at table 2: go to table 1.", "host")
    assert problems("Mårten: You won the pool at table 2: go to table 1.", "room")
    assert not problems("You won the pool at table 2: go to table 1.", "guest")
    assert not problems("Mårten won the pool at table 2: goes to the head table (table 1).", "host")
    assert not problems("Play the mistigris: the tied guests cut.", "public")


def test_the_bell_speaks_of_a_guest_on_the_board_and_to_them_on_their_phone(client, host, evening):
    from tournament.models import Bell

    last = Bell.objects.filter(round__evening=evening, undone_at__isnull=True).order_by("-round__number", "-id").first()
    up = last.entries.filter(kind="up").select_related("guest").first()
    assert (
        up.text
        == f"You won the pool at table {up.from_table}: go to {'the head table (table 1)' if up.to_table == 1 else f'table {up.to_table}'}."
        or up.text.startswith("You won the lot")
    )
    assert up.about == up.text.replace("You won", f"{up.guest.name} won").replace(": go to", ": goes to")
    client.force_login(host)
    # The last bell's moves are a tab of the board of their own (issue 11: the board at 84 tables).
    board = visible_text(client.get(f"/host/e/{evening.pk}/moves/").content.decode())
    guest = visible_text(client.get(f"/g/{up.guest.key}/").content.decode())
    assert up.about in board and up.text not in board
    assert up.text in guest


def test_sources_are_cited_in_words():
    assert rule_in_words("seeds/README.md (Progressive Poker)") == f"{BOOK}, “Progressive Poker”"
    assert rule_in_words("house rule: no_result=stay") == (
        "house rule: a table has no pool winner at the bell: that table sits out this bell: nobody there moves;"
        " the winner below moves past it"
    )
    assert rule_in_words("house rule: booby_rule=fewest_won") == (
        "house rule: the booby prize: the fewest counters won, fresh stakes charged"
    )
    assert rule_in_words("house rule: a late guest takes a stake; house rule: arrive_at=booby") == (
        "house rule: a late guest takes a stake; house rule: where a late guest sits: at the booby table"
        " (unless it is full)"
    )
    assert rule_in_words("house rule: the host chose the table") == "house rule: the host chose the table"


def test_rules_pages_cite_the_book(client, evening):
    for game in Game:
        text = visible_text(client.get(f"/rules/{game.value}/").content.decode())
        if game in (Game.WHISKEY_POKER, Game.COMMERCE, Game.DRAW_POKER):
            assert "Foster's Complete Hoyle (R. F. Foster, 1909)" in text, game
    assert "Foster's Complete Hoyle" in visible_text(client.get("/rules/").content.decode())


def test_no_end_of_evening_page_shows_developer_text(client, host):
    """The end pages at each stage: the final count, the first prize, the last prize, the
    final standings (issue 11 deliver 4)."""
    from django.test import Client

    from tests.fixtures_ending import count_every_table, ended_evening, ending_pages, reveal
    from tournament.services.ending import ceremony

    hosting = Client()
    hosting.force_login(host)
    evening = ended_evening(host, 30, red_label="Ladies", blue_label="Gentlemen")
    steps = [None, 1, len(ceremony(evening).prizes), ceremony(evening).steps]
    report, seen = {}, 0
    for step in steps:
        if step is not None:
            if evening.ceremony_step is None:
                count_every_table(evening)
            evening = reveal(evening, step)
        for page in ending_pages(evening):
            response = (hosting if page.audience == "host" else client).get(page.url)
            assert response.status_code == 200, (page.url, response.status_code)
            seen += 1
            found = problems(visible_text(response.content.decode()), page.audience)
            if found:
                report[f"{page.url} (step {step})"] = found
    assert seen >= 4 * 7
    assert not report, "\n".join(f"{url}: {'; '.join(found)}" for url, found in report.items())
