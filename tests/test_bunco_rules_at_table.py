"""Each format's rules at the table (issue 24 deliver 4): Bunco's score pad offers what a roll
can score, worked out from the roll's rule (1 or 2 dice showing the target, a mini bunco, a
bunco: no +3, since three dice showing the target are a bunco); every report form's limits come
from one place (``tables.formats.table_rules.REPORT_LIMITS``); a new Bunco evening's rounds end
at the head table's 21 unless the host chooses the clock; and on such an evening a head-table
report that does not reach 21, or has both teams at 21, is refused in the rule's words.

Worked from ``docs/rules/bunco.md`` (Bunco: "three of the target is a bunco, 21 points"; "a team at
the head table reaching 21 points (more with a bunco) ends the round").
"""

from __future__ import annotations

import re
from io import StringIO
from itertools import product

import pytest
from django.core.management import call_command
from django.urls import reverse

from tables.formats.foursome import Side
from tables.formats.scoring import ROLL_POINTS, ScoreError, bunco_roll, bunco_score
from tables.formats.table_rules import REPORT_LIMITS, bunco_head_table_check, bunco_pad
from tests.factories import EveningFactory, GuestFactory
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.forms.fields import WholeNumberField
from tournament.models import Bell, Evening, Result
from tournament.registry import format_named
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db


def test_a_roll_scores_1_or_2_a_mini_bunco_or_a_bunco_and_never_3():
    throws = {bunco_roll(dice, 4)[0] for dice in product(range(1, 7), repeat=3)}
    assert throws == {0, 1, 2, 5, 21}  # (4, 4, 4) is a bunco, not 3 points
    assert ROLL_POINTS == (1, 2, 5, 21)
    pad = bunco_pad(4)
    assert [(b.points, b.label, b.what) for b in pad] == [
        (1, "+1", "1 point"),
        (2, "+2", "2 points"),
        (5, "Mini 5", "a mini bunco"),
        (21, "Bunco 21", "a bunco"),
    ]
    with pytest.raises(ScoreError, match=r"A roll scores 1 or 2 points \(dice showing the target\), 5 .* not 3"):
        bunco_score((1, 2, 3, 4), points={"NS": 3, "EW": 0}, rolls={1: [3]})


def _bunco_evening(round_end: str = Evening.RoundEnd.HEAD_POOL) -> Evening:
    evening = EveningFactory(format="bunco", round_end=round_end, rounds_planned=3)
    for n in range(12):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack=("red", "blue")[n % 2])
    foursome_draw(evening=evening)
    return evening


def test_the_captains_pad_has_the_rules_buttons_and_no_plus_3(client):
    evening = _bunco_evening()
    round_start(evening=evening)
    captain = evening.guests.get(pk=foursome_state(evening).tables[1][0])
    page = client.get(reverse("guest-report", args=[captain.key])).content.decode()
    rolls = re.findall(r'data-roll="(\d+)"', page)
    assert rolls == ["1", "2", "5", "21"] * 4  # four players, the pad's buttons each
    assert "+3" not in page and 'data-roll="3"' not in page
    assert "1 or 2 dice showing 1, a mini bunco (three of another number, 5) or a bunco (three 1s, 21)" in page


@pytest.mark.parametrize("fmt", ["euchre", "whist", "bunco"])
def test_every_report_form_takes_its_limits_from_the_one_place(fmt):
    """The host's result form and the captain's phone refuse the same numbers (the host's whist
    form took 99 tricks, the phone's Bunco form 999 buncos)."""
    seats = [(1, "Ann"), (2, "Bo"), (3, "Cy"), (4, "Di")]
    plugin = format_named(fmt)  # each format's plug-in names its forms (``PartnershipFormat``)
    host = plugin.host_report_form(None, players=[1, 2, 3, 4], names=["Ann", "Bo", "Cy", "Di"])
    phone = plugin.phone_report_form(seats=seats)
    limits = REPORT_LIMITS[fmt]
    assert dict(plugin.entry.foursome.limits) == limits
    for form in (host, phone):
        numbers = {name: f.max_value for name, f in form.fields.items() if isinstance(f, WholeNumberField)}
        assert numbers, form
        for name, most in numbers.items():
            count = name.split("_")[0]
            assert most == limits[count], (type(form).__name__, name, most)


def test_the_host_whist_form_refuses_14_tricks_as_the_phone_does(client, host):
    from tests.fixtures_foursome_night import waiting_night

    evening = waiting_night(host, "whist")
    client.force_login(host)
    seats = " ".join(map(str, foursome_state(evening).tables[2]))
    page = client.post(
        reverse("host-result", args=[evening.pk, 3]),
        {"round": "2", "seated": seats, "tricks_NS": "14", "tricks_EW": "0"},
    ).content.decode()
    assert "North–South's tricks: at most 13." in page.replace("&#x27;", "'")


def test_a_new_bunco_evening_ends_its_rounds_at_the_head_tables_21_unless_the_host_chooses(client, host):
    client.force_login(host)
    base = {"name": "Dice", "date": "2026-11-30", "minutes_per_round": "20", "red_label": "R", "blue_label": "B"}
    page = client.get(reverse("host-evenings")).content.decode()
    assert "As the format plays it (Bunco: when a team at the head table reaches 21" in page
    for name, fmt, chosen, expected in [
        ("Dice", "bunco", "", "head_pool"),
        ("Dice by the clock", "bunco", "clock", "clock"),
        ("Euchre", "euchre", "", "clock"),
    ]:
        response = client.post(reverse("host-evenings"), {**base, "name": name, "format": fmt, "round_end": chosen})
        assert response.status_code == 302, response.content.decode()[:2000]
        assert Evening.objects.get(name=name).round_end == expected, name
    call_command("load_demo", "--format", "bunco", stdout=StringIO())
    assert Evening.objects.get(name="Demo evening (Bunco)").round_end == "head_pool"


def _round_at_foot_tables(evening: Evening):
    rnd = round_start(evening=evening)
    foursome_report(round=rnd, table=2, report={"points": {"NS": 30, "EW": 8}})
    foursome_report(round=rnd, table=3, report={"points": {"NS": 4, "EW": 25}})
    return rnd


@pytest.mark.parametrize(
    "points, words",
    [
        ({"NS": 20, "EW": 3}, "North–South have 20 and East–West 3, so neither has yet. Play on"),
        ({"NS": 21, "EW": 22}, "only one team can have 21 or more: North–South have 21 and East–West 22"),
        ({"NS": 40, "EW": 21}, "only one team can have 21 or more"),
    ],
)
def test_a_head_table_report_that_contradicts_the_21_is_refused_and_rings_nothing(points, words):
    evening = _bunco_evening()
    rnd = _round_at_foot_tables(evening)
    with pytest.raises(ScoreError, match=re.escape(words)):
        foursome_report(round=rnd, table=1, report={"points": points})
    assert not Result.objects.filter(round=rnd, table=1).exists()
    assert not Bell.objects.filter(round=rnd).exists()
    foursome_report(round=rnd, table=1, report={"points": {"NS": 3, "EW": 21}})
    assert Bell.objects.filter(round=rnd, undone_at__isnull=True).count() == 1  # 21 rang the bell


def test_after_the_clock_rang_the_head_tables_score_so_far_need_not_reach_21():
    evening = _bunco_evening()
    rnd = _round_at_foot_tables(evening)
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK) is None  # waits for the head table's score so far
    foursome_report(round=rnd, table=1, report={"points": {"NS": 20, "EW": 3}})
    assert Bell.objects.filter(round=rnd, undone_at__isnull=True).count() == 1  # the bell moved everyone
    with pytest.raises(ScoreError, match="only one team can have 21 or more"):
        bunco_head_table_check({Side.NORTH_SOUTH: 21, Side.EAST_WEST: 21}, ended_by_report=False)


def test_an_evening_by_the_clock_takes_any_head_table_score():
    evening = _bunco_evening(Evening.RoundEnd.CLOCK)
    rnd = _round_at_foot_tables(evening)
    foursome_report(round=rnd, table=1, report={"points": {"NS": 20, "EW": 23}})
    assert Result.objects.filter(round=rnd, table=1).exists()
