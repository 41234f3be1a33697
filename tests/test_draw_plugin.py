"""The draw's questions asked of every registered format's plug-in (``FormatPlugin``: the plan's
latecomers and leavers, who represents the other pack, the physical draw's pull list, the rules
pages): each format answers them, and its answers agree with what its own draw deals."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.module_loading import import_string

from tables.errors import RuleError
from tables.packs import Pack
from tests.factories import EveningFactory, GuestFactory
from tournament.registry import format_named

KEYS = [import_string(path).key for path in settings.HEAD_TABLE_FORMATS]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize(("red", "blue"), [(6, 6), (9, 3), (2, 11), (13, 0), (5, 12)])
def test_who_must_draw_from_the_other_pack_is_what_the_draw_deals(key, red, blue):
    """``from_other_pack`` (the draw page's choice of who represents the other pack) counts as
    many guests of each pack as the format's digital draw deals a card of the other pack."""
    fmt = format_named(key)
    rules = fmt.rules_of(EveningFactory.build(format=key, rounds_planned=7))
    guests = [(n, Pack.RED if n <= red else Pack.BLUE) for n in range(1, red + blue + 1)]
    try:
        dealt = rules.draw(guests, accept_relaxed=True, rng=random.Random(7))
    except RuleError:
        pytest.skip("the format cannot seat these guests")
    need = fmt.from_other_pack(dealt.plan, red=red, blue=blue)
    own = dict(guests)
    for pack in Pack:
        drawn = sum(1 for c in dealt.cards if c.represents_other and own[c.guest] is pack)
        assert need[pack] == drawn, (pack, need, drawn)


@pytest.mark.parametrize("key", KEYS)
def test_every_format_says_which_tables_take_a_latecomer_and_lose_a_leaver(key):
    """``free_seats``, ``plan_with_latecomer`` and ``plan_without_guest`` answer for every format:
    a table with a free seat takes one more, and a table that lets a guest go is one smaller;
    a refusal is a ``RuleError`` in words."""
    fmt = format_named(key)
    plan = fmt.rules_of(EveningFactory.build(format=key, rounds_planned=7)).plan(21, accept_relaxed=True)
    for table in fmt.free_seats(plan):
        grown = fmt.plan_with_latecomer(plan, table)
        assert grown.sizes[table - 1] == plan.sizes[table - 1] + 1 and grown.guests == plan.guests + 1
    for table in range(1, plan.tables + 1):
        try:
            smaller = fmt.plan_without_guest(plan, table)
        except RuleError as error:
            assert str(error)
            continue
        assert smaller.sizes[table - 1] == plan.sizes[table - 1] - 1 and smaller.guests == plan.guests - 1


@pytest.mark.parametrize("key", KEYS)
def test_the_pull_list_of_the_fewest_guests_the_format_seats(db, client, key):
    """The pull list prints for the fewest guests the format's plan seats (at tables of four a
    single table: the page once failed on a one-table plan)."""
    fmt = format_named(key)
    evening = EveningFactory(format=key, rounds_planned=7)
    fewest = next(n for n in range(1, 20) if _seats(fmt.rules_of(evening), n))
    for i in range(fewest):
        GuestFactory(evening=evening, name=f"Guest {chr(65 + i)}", pack="red" if i % 2 else "blue")
    client.force_login(evening.host)
    page = client.get(reverse("host-draw-pull", args=[evening.pk]))
    assert page.status_code == 200
    assert "Take these cards out" in page.content.decode() or "seat" in page.content.decode().lower()


def _seats(rules, guests: int) -> bool:
    try:
        rules.plan(guests)
    except RuleError:
        return False
    return True


@pytest.mark.parametrize("key", KEYS)
def test_the_evenings_rules_page_is_its_formats(db, client, key):
    """``/e/<key>/rules/`` is drawn by the evening's format (``evening_rules_page``) and names it
    or the game its tables play; a seed game's page answers for a poker evening's link only
    through the format whose tables play it."""
    evening = EveningFactory(format=key)
    page = client.get(reverse("rules-evening", args=[evening.public_key]), follow=True)
    assert page.status_code == 200
    text = page.content.decode()
    assert format_named(key).title in text or "Draw Poker" in text
    seed = client.get(reverse("rules-game", args=["commerce"]) + f"?evening={evening.public_key}")
    assert seed.status_code == 200 and "Commerce" in seed.content.decode()
