"""Words a host reads at tables of four, from the stranger's Bunco night: a pack's empty prize
says which guests have none, the draw page speaks of the host's own pack labels, and the
ceremony's message ends with one full stop even after a name that ends with one."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.formats import BUNCO
from tables.formats.prizes import award_foursome_prizes
from tables.packs import Pack

pytestmark = pytest.mark.django_db


def test_a_packs_prize_nobody_won_says_nobody_in_this_pack_when_the_other_pack_has_one():
    tallies = {1: {"minis": 1, "wins": 1}, 2: {"minis": 0, "wins": 1}, 3: {"wins": 0}, 4: {"wins": 2}}
    packs = {1: Pack.BLUE, 2: Pack.RED, 3: Pack.RED, 4: Pack.BLUE}
    prizes = {p.key: p for p in award_foursome_prizes(tallies, packs, BUNCO.prizes, ties="shared")}
    assert prizes["most_minis_blue"].winners == (1,)
    assert prizes["most_minis_red"].winners == ()
    assert prizes["most_minis_red"].reason == "Not awarded: nobody in this pack has any mini buncos."


def test_the_draw_page_names_the_hosts_pack_labels(client, host, make_evening):
    client.force_login(host)
    evening = make_evening(4, 4, format="bunco", red_label="Ladies", blue_label="Gents")
    page = client.get(reverse("host-draw", args=[evening.pk])).content.decode()
    assert "(<bdi>Ladies</bdi>: North and East; <bdi>Gents</bdi>: South and West)" in page
    assert "red pack" not in page
