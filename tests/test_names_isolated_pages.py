"""Every guest's name on every page is in its own ``<bdi>``, in every registered format.

House rule (``tournament.templatetags.name_tags``): a right-to-left name must not take its
neighbours' numbers ("Table 3: דוד 40" must not read "40 דוד"), so each page writes each name
isolated. This plays a round and a bell of a small evening whose guests have Hebrew names and
reads the host's pages, a guest's page and the room display as HTML: a name found in text that
is not inside a ``<bdi>`` (nor an ``<option>``, ``<title>`` or a script, where HTML has no
markup) is a fault, reported with the words around it.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.test_capabilities import KEYS, _evening, _play
from tournament.models import Evening
from tournament.registry import format_for
from tournament.services.clock import round_ring, round_start
from tournament.services.draws import draw_digital
from tournament.services.ending import ceremony, ceremony_next, evening_end, final_count_record, final_count_tables
from tournament.services.state import current_round

NAMES = [
    "דוד",
    "שרה",
    "יעקב",
    "רחל",
    "משה",
    "לאה",
    "אהרן",
    "מרים",
    "יוסף",
    "רות",
    "נעמי",
    "שמואל",
    "חנה",
]
NOT_MARKED_UP = {"bdi", "option", "title", "script", "style", "textarea"}


class _BareNames(HTMLParser):
    """Collects the text of a page that is outside every element of ``NOT_MARKED_UP``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside: list[str] = []
        self.bare: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in NOT_MARKED_UP:
            self.inside.append(tag)

    def handle_endtag(self, tag):
        if self.inside and self.inside[-1] == tag:
            self.inside.pop()

    def handle_data(self, data):
        if not self.inside and data.strip():
            self.bare.append(data)


def bare_names(html: str) -> list[str]:
    """The pieces of ``html``'s text naming a guest outside a ``<bdi>``, each as found."""
    reader = _BareNames()
    reader.feed(html)
    return [text.strip() for text in reader.bare if any(name in text for name in NAMES)]


def _pages(evening, guest) -> dict[str, str]:
    e = evening.pk
    names = [
        "host-evening",
        "host-guests",
        "host-draw",
        "host-seats",
        "host-links",
        "host-standings",
        "host-corrections",
        "host-audit",
        "host-moves",
        "host-finish",
    ]
    pages = {name: reverse(name, args=[e]) for name in names}
    pages["host-table"] = reverse("host-table", args=[e, 1])
    pages["host-result"] = reverse("host-result", args=[e, 2])
    pages["host-guest-link"] = reverse("host-guest-link", args=[e, guest.pk])
    pages["host-correction"] = reverse("host-correction", args=[e, 1, 1])
    pages["guest-page"] = reverse("guest-page", args=[guest.key])
    pages["room"] = reverse("room", args=[evening.public_key])
    return pages


def _faults(client, evening, guest) -> dict[str, list[str]]:
    faults = {}
    for label, url in _pages(evening, guest).items():
        response = client.get(url, follow=True)
        assert response.status_code == 200, (label, response.status_code)
        found = bare_names(response.content.decode())
        if found:
            faults[label] = found[:3]  # the first few, enough to find the template
    return faults


@pytest.mark.parametrize("key", KEYS)
def test_every_name_on_every_page_is_isolated(key, host, client):
    """A round played and its bell rung, then the evening ended, the final count taken and the
    ceremony halfway: every page read at both points."""
    evening = _evening(host, key, rounds=2)
    for guest, name in zip(evening.guests.order_by("pk"), NAMES, strict=False):
        guest.name = name
        guest.save()
    draw_digital(evening=evening, user=host)
    _play(evening, host, rounds=1)
    evening.refresh_from_db()
    client.force_login(host)
    guest = evening.guests.order_by("pk").first()
    faults = {f"between rounds: {label}": found for label, found in _faults(client, evening, guest).items()}
    rnd = round_start(evening=evening, user=host)
    format_for(evening).example_result(evening=evening, rnd=rnd, table=1, user=host)
    faults |= {f"in play: {label}": found for label, found in _faults(client, evening, guest).items()}
    for table in range(2, len(format_for(evening).state(evening).tables) + 1):
        format_for(evening).example_result(evening=evening, rnd=rnd, table=table, user=host)
    evening.refresh_from_db()
    if current_round(evening) is not None and current_round(evening).state != "closed":
        round_ring(evening=evening, user=host)
    evening.refresh_from_db()
    if evening.stage != Evening.Stage.ENDED:
        evening_end(evening=evening, seen_round=2, user=host)
        evening.refresh_from_db()
    for table in final_count_tables(evening):
        final_count_record(evening=evening, table=table.number, counters=table.last, user=host)
    for step in range(ceremony(evening).steps // 2 + 1):
        ceremony_next(evening=evening, seen_step=step, user=host)
        evening.refresh_from_db()
    faults |= {f"ended: {label}": found for label, found in _faults(client, evening, guest).items()}
    assert not faults, faults


def test_names_found_in_words_are_written_as_name_isolated_writes_each_name():
    """``names_isolated`` writes each name it finds as ``name_isolated`` does (its ``<bdi>``,
    escaped) and the words between escaped as Django escapes them, whatever the markup, quotes
    or ampersands in either; a name is found only as a whole word."""
    from django.utils.html import conditional_escape

    from tournament.templatetags.name_tags import name_isolated, names_isolated

    names = ["Ann <b>", "O'Hara & Co", 'Bo "Jr"', "דוד", "Ann"]
    text = 'Ann <b> and O\'Hara & Co tie with Bo "Jr" & דוד; Annie <i>not</i> Ann.'
    expected = (
        name_isolated("Ann <b>")
        + conditional_escape(" and ")
        + name_isolated("O'Hara & Co")
        + conditional_escape(" tie with ")
        + name_isolated('Bo "Jr"')
        + conditional_escape(" & ")
        + name_isolated("דוד")
        + conditional_escape("; Annie <i>not</i> ")
        + name_isolated("Ann")
        + conditional_escape(".")
    )
    assert str(names_isolated(text, names)) == str(expected)
