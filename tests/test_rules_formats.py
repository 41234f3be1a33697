"""The rules pages of the formats at tables of four: the host's board links to its format's page,
which answers (no 404) with the format's rules, the host's options and the silent cases decided,
in words (sources named, no code names)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tests.test_no_developer_text import visible_text
from tournament.formats.partnership.state import foursome_draw

pytestmark = pytest.mark.django_db

COMMON = [
    "a ghost takes the seat they were moved into. They keep their tallies",
    "A late guest takes the ghost seat nearest the foot table. With no ghost seated, they open a new foot table, "
    "with three ghosts.",
    "The seat cards are dealt by table number, not by the rank of a playing card",
    "ghosts fill the empty seats: from the foot table up",
    "A ghost wins no prize",
    "the higher cut's side counts as the winners",
    "the host undoes the last bell, enters the right report, and rings the bell again",
    "every later bell, departure and arrival is taken again in order",
    "the two who stayed take north and east, in the order of the seats they held",
    "the arriving pair takes the two empty ones, in the order of the seats they left",
    "the pair coming up from the table below counts as the two who stayed",
    "a ghost holds no place",
    "guests tied for a prize cut for it, or share it, as the host chooses; no other tally decides it",
]
OWN = {
    "euchre": [
        "a lone hand taking all 5 tricks scores 4",
        "each winning player gets a star",
        "the head table's losers go down to the foot table (foster)",
        "decided by the score so far",
        "an exact tie is played off (one more hand)",
        "the game of euchre (1887), chapter viii",
        "euchre prizes by",
        "total points",
        "the booby prize for the fewest stars, one prize, even to a guest who won no star",
        "points do not decide a tie on stars",
        "guests are placed by stars, then points",
        "the booby prize goes to the guest with the fewest, even if that is none",
    ],
    "whist": [
        "the head table's winners go round to the last table",
        "the losing gentleman deals the next hand",
        "a table of drive whist cannot tie",
        "guests are placed by tricks, then wins",
        'foster\'s complete hoyle (1897; revised 1909), "drive whist"',
    ],
    "bunco": [
        "three of a kind of another number is a mini bunco",
        "a tie is rolled off",
        "its points count for its team",
        "the bunco clubs have in common",
        "decided by the score so far",
        "most buncos, most wins and most mini buncos: one prize for each pack where the host keeps two",
        "the booby prize for the most losses: one prize, whatever the packs",
        "if several guests rolled one in that round, they share it",
        "guests are placed by wins, then buncos, then points",
        "that pack has no prize for the most mini buncos",
    ],
}


def _text(response) -> str:
    return re.sub(r"\s+", " ", visible_text(response.content.decode())).lower()


@pytest.mark.parametrize("fmt", ["euchre", "whist", "bunco"])
def test_the_boards_rules_link_opens_the_formats_rules_page(client, host, fmt):
    evening = EveningFactory(host=host, format=fmt)
    for n in range(10):
        GuestFactory(evening=evening, name=f"Player {n + 1}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    client.force_login(host)
    board = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    link = re.search(r'href="([^"]*)">the rules</a>', board)
    assert link is not None
    page = client.get(link.group(1).replace("&amp;", "&"))
    assert page.status_code == 200
    text = _text(page)
    for sentence in COMMON + OWN[fmt]:
        assert sentence.lower() in text, sentence
    assert f"the options {evening.name.lower()} plays" in text
    for code in ("ladder_down", "prize_by_points", "playoff", ".py", "foursome"):
        assert code not in text, code


def test_the_format_pages_show_the_defaults_and_the_rules_index_links_them(client):
    whist = _text(client.get("/rules/whist/"))
    assert "the host's options" in whist
    assert (
        "change at every bell or are kept. kept" in whist
    )  # Foster's Drive Whist keeps the winners' partnership by default
    assert "euchre prizes by" not in whist
    index = client.get("/rules/").content.decode()
    for key in ("euchre", "whist", "bunco"):
        assert f'href="/rules/{key}/"' in index
    assert client.get("/rules/canasta/").status_code == 404


def test_the_evenings_own_rules_page_shows_its_format_and_options(client):
    evening = EveningFactory(format="whist", options={"format": {"partners_change": True}})
    page = client.get(reverse("rules-evening", args=[evening.public_key]))
    text = visible_text(page.content.decode()).lower()
    assert page.status_code == 200 and "drive whist" in text and "the losing gentleman deals the next hand" in text
    assert "draw poker" not in text


def test_the_table_game_page_sends_a_format_at_tables_of_four_to_its_settings(client):
    evening = EveningFactory(format="bunco")
    client.force_login(evening.host)
    page = client.get(reverse("host-game", args=[evening.pk]), follow=True)
    assert page.redirect_chain[-1][0] == reverse("host-evening-edit", args=[evening.pk])
    assert "this evening plays Bunco" in page.content.decode()
