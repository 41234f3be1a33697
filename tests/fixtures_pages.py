"""A demo evening with some history, and every page of it, for the tests that look at all pages
at once (no developer text; no horizontal overflow at 320 px).

``crawl_evening(host)`` builds 30 guests with names in many scripts, drawn, the house rules
changed (a table with no result is settled by lot, a split pool's winner as reported), two
rounds rung with random results (busts, seat changes, cuts, tables without a result), a guest
who left, a third round rung, and a fourth round in play with the head table's result in. ``every_page`` lists
each page a host, a guest or the room sees, with its audience.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.urls import reverse

from tables.formats.poker.showdown import Game
from tests.factories import EveningFactory, GuestFactory
from tests.fixtures_bell import random_rounds
from tests.fixtures_printing import guest_names
from tournament.formats.poker.departures import guest_depart
from tournament.formats.poker.house_rules import house_rules_set
from tournament.models import Evening, Guest
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.results import result_record
from tournament.services.state import evening_state


@dataclass(frozen=True)
class Page:
    """One page: its URL and who sees it ("host", "guest", "room" or "public")."""

    url: str
    audience: str


def crawl_evening(host) -> Evening:
    """The evening of the module docstring (seeded: the same history every run); one guest has
    a 120-character name without a space, the longest a name may be."""
    evening = EveningFactory(
        host=host, name="Spring Progressive", rounds_planned=6, red_label="Ladies", blue_label="Gentlemen"
    )
    names = guest_names()[:28] + ["Ä" * 40 + "ж" * 40 + "王" * 40, "Mårten Ek"]  # the longest name there may be
    for i, name in enumerate(names):
        GuestFactory(evening=evening, name=name, pack="red" if i % 2 else "blue", status=Guest.Status.HERE)
    draw_digital(evening=evening)
    house_rules_set(evening=evening, bell={"no_result": "lot", "pool_tie": "reported"}, prizes={"ties": "cut"})
    rng = random.Random(11)
    random_rounds(evening, rng, 2)
    leaver = Guest.objects.get(pk=evening_state(evening).tables[2][0])
    guest_depart(evening=evening, guest=leaver)
    random_rounds(evening, rng, 1)
    rnd = round_start(evening=evening)
    state = evening_state(evening)
    head = state.tables[0]
    result_record(
        round=rnd, table=1, pool_winner=head[0], in_call=[head[1]], counters={g: state.counters[g] for g in head}
    )
    evening.refresh_from_db()
    return evening


def every_page(evening: Evening) -> list[Page]:
    """Every page of ``evening``: the host's, three guests' (one who moved, one who left), the
    room's, the public ones and the rules."""
    e = evening.pk
    host = [
        reverse(name, args=[e])
        for name in (
            "host-evening",
            "host-evening-edit",
            "host-guests",
            "host-draw",
            "host-draw-pull",
            "host-draw-physical",
            "host-draw-seating",
            "host-print",
            "host-links",
            "host-door",
            "host-standings",
            "host-house-rules",
            "host-corrections",
            "host-bell-cuts",
            "host-clock-settings",
            "host-game",
            "host-end",
        )
    ]
    host += [
        reverse("host-evenings"),
        reverse("host-connect"),
        reverse("host-result", args=[e, 1]),
        reverse("host-showdown", args=[e, 1]),
        reverse("host-correction", args=[e, 1, 2]),
        reverse("host-guest-link", args=[e, evening.guests.order_by("pk").first().pk]),
        reverse("host-bell-confirm", args=[e, evening.rounds.order_by("-number").first().number]),
        reverse("host-audit", args=[e]),
    ]
    moved = evening.guests.filter(bell_entries__kind="up").order_by("pk").first()
    left = evening.guests.filter(status=Guest.Status.LEFT).first()
    head = Guest.objects.get(pk=evening_state(evening).tables[0][0])
    guests = []
    for guest in {g.pk: g for g in (moved, left, head) if g is not None}.values():
        guests += [reverse("guest-page", args=[guest.key]), reverse("guest-showdown", args=[guest.key])]
    reporter = Guest.objects.get(pk=evening_state(evening).tables[1][0])  # table 2 has not reported
    guests.append(reverse("guest-report", args=[reporter.key]))
    public = [
        reverse("home"),
        reverse("login"),
        reverse("rules"),
        reverse("guide"),
        reverse("door", args=[evening.public_key]),
        reverse("public-seating", args=[evening.public_key]),
        reverse("rules-evening", args=[evening.public_key]),
    ]
    public += [reverse("rules-game", args=[game.value]) for game in Game]
    return (
        [Page(url, "host") for url in host]
        + [Page(url, "guest") for url in guests]
        + [Page(reverse("room", args=[evening.public_key]), "room")]
        + [Page(url, "public") for url in public]
    )
