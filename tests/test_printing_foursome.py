"""The printed documents of the formats at tables of four, read back as text
(``tournament.formats.partnership.documents``): score cards with each player's name, seat, partner, QR link
and the rounds rung written in; table cards with the seats and the movement; Bunco's tally
sheets; the results and certificates with the format's prizes. The expected values are worked
by hand from the reports below and ``docs/rules/tables-of-four.md``.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tests.pdf_reading import notdef_glyphs, page_texts, pdf_text
from tournament.documents.contents import document, document_problem, documents_for
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.views.printing import URL_NAMES

pytestmark = pytest.mark.django_db
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Zoë", "Jiří", "سارا", "李雷"]


def _evening(fmt: str, guests: int = 8, **kw) -> Evening:
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK, name="Friday club", **kw)
    for n in range(guests):
        GuestFactory(evening=evening, name=NAMES[n], pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    return evening


def _ring(evening: Evening, reports: dict[int, dict]) -> Bell:
    rnd = round_start(evening=evening)
    for table, report in reports.items():
        foursome_report(round=rnd, table=table, report=report)
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert bell is not None
    return bell


def _names(evening: Evening) -> dict[int, str]:
    return dict(evening.guests.values_list("id", "name"))


def _card(pdf: bytes, title: str, name: str) -> str:
    """The text of ``name``'s score card, from its name line on."""
    chunks = pdf_text(pdf).split(f"Friday club · {title} · score card\n")
    return next(c for c in chunks if c.startswith(f"{name}\n"))


def test_a_euchre_score_card_names_the_player_their_seat_and_partner_and_writes_in_a_rung_round():
    evening = _evening("euchre", rounds_planned=6)
    names = _names(evening)
    (n1, e1, s1, w1), (n2, e2, s2, w2) = foursome_state(evening).tables
    _ring(evening, {1: {"points": {"NS": 5, "EW": 7}}, 2: {"points": {"NS": 6, "EW": 2}}})
    pdf = document(evening=evening, slug="score-cards").render()
    assert len(page_texts(pdf)) == 4  # 8 players, two cards a page
    # By hand (docs/rules/tables-of-four.md): E-W won the head table 7 to 5 and stay, taking North and East in the
    # order of their seats (East -> North, West -> East); table 2's winners N-S (6 to 2) come up
    # to South and West (North -> South, South -> West): the head's East now partners table 2's North.
    card = _card(pdf, "Progressive Euchre", names[e1])
    assert card.startswith(f"{names[e1]}\nNow at table 1, North; partner: {names[n2]}\n")
    key = evening.guests.get(pk=e1).key
    assert f"/g/{key}/" in card
    grid = card[card.index("Round\n") :].split("\n")
    assert grid[:15] == [
        "Round",
        "Table",
        "Partner",
        "Points",
        "Star",
        "1",
        "1",
        names[w1],
        "7",  # round 1: a star drawn (a shape, not text)
        "2",
        "1",
        names[n2],  # round 2 in play: table and partner only
        "3",
        "4",
        "5",
    ]
    assert grid[16:19] == ["Total", "7", "1"]  # 7 points, 1 star
    loser = _card(pdf, "Progressive Euchre", names[n1])
    assert loser.startswith(f"{names[n1]}\nNow at table 2, ")  # the head table's losers: the foot table
    assert "\n1\n1\n" + names[s1] + "\n5\n" in loser
    assert not notdef_glyphs(pdf)


def test_a_whist_score_card_counts_tricks_per_hand_and_keeps_partners_round_the_circle():
    evening = _evening("whist", rounds_planned=4)
    names = _names(evening)
    (n1, e1, s1, w1), (n2, e2, s2, w2) = foursome_state(evening).tables
    _ring(evening, {1: {"tricks": {"NS": 8, "EW": 5}}, 2: {"tricks": {"NS": 3, "EW": 10}}})
    pdf = document(evening=evening, slug="score-cards").render()
    # By hand: the circle sends the head table's winners (N-S, 8 tricks) round to the last table,
    # table 2's winners (E-W, 10) up to table 1; Drive Whist keeps partners by default.
    card = _card(pdf, "Drive Whist", names[n1])
    assert card.startswith(f"{names[n1]}\nNow at table 2, ") and f"partner: {names[s1]}\n" in card
    grid = card[card.index("Hand\n") :].split("\n")
    assert grid[:13] == ["Hand", "Table", "Partner", "Tricks", "1", "1", names[s1], "8", "2", "2", names[s1], "3", "4"]
    assert grid[13:15] == ["Total", "8"]
    assert "\n1\n2\n" + names[w2] + "\n10\n2\n1\n" + names[w2] + "\n" in _card(pdf, "Drive Whist", names[e2])


def test_bunco_prints_tally_marks_wins_and_losses_tally_sheets_and_its_prizes():
    evening = _evening("bunco", 12, rounds_planned=6)
    names = _names(evening)
    (n1, e1, s1, w1), (n2, e2, s2, w2), (n3, e3, s3, w3) = foursome_state(evening).tables
    _ring(
        evening,
        {
            1: {"points": {"NS": 48, "EW": 9}, "buncos": {str(n1): 2}, "minis": {str(e1): 1}},
            2: {"points": {"NS": 4, "EW": 12}},
            3: {"points": {"NS": 9, "EW": 7}},
        },
    )
    cards = document(evening=evening, slug="score-cards").render()
    grid = _card(cards, "Bunco", names[n1]).split("Mini buncos\n", 1)[1].split("\n")
    assert grid[:5] == ["1", "1", names[s1], "W", "||"]  # a win and two buncos as tally marks
    assert grid[-6:-1] == ["Total", "1", "0", "2", "0"]
    loser = _card(cards, "Bunco", names[e1]).split("Mini buncos\n", 1)[1].split("\n")
    assert loser[:5] == ["1", "1", names[w1], "L", "|"]  # a loss and one mini bunco
    sheets = page_texts(document(evening=evening, slug="tally-sheets").render())
    assert len(sheets) == 3
    assert sheets[2].startswith("Table 3 · Foot table · Bunco tally sheet\n")
    assert "Friday club · the round ends when the clock runs out" in sheets[0]  # the evening ends rounds by the clock
    assert "Round\nNumber\nNorth–South points\nEast–West points\nBuncos rolled by\nWon by\n1\n1\nNS EW" in sheets[0]
    tents = page_texts(document(evening=evening, slug="table-tents").render())
    assert (
        "Table 3\nFoot table\nNorth\nSouth\nEast\nWest\nNorth–South and East–West are partners\n"
        "The winners move up to table 2; the losers stay; partners change every round." in tents[2]
    )
    results = pdf_text(document(evening=evening, slug="results").render())
    assert f"Most buncos, Red pack\n{names[n1]}\n2 buncos." in results  # once per pack
    assert f"Most mini buncos, Red pack\n{names[e1]}\n1 mini bunco." in results
    assert (
        re.search(r"1 loss\. \d guests tied; .+ won the cut\.", results)
        and f"The last bunco of the night\n{names[n1]}" in results
    )
    assert f"1\n{names[n1]}\nRed pack\n1\n0\n2\n0\n48" in results  # wins, losses, buncos, minis, points
    certificates = page_texts(document(evening=evening, slug="certificates").render())
    assert f"Most buncos, Red pack\nawarded to\n{names[n1]}\n2 buncos." in certificates[0]


def test_what_each_format_prints_and_what_it_refuses():
    euchre = _evening("euchre")
    assert [k.slug for k in documents_for(euchre)] == ["score-cards", "table-tents", "results", "certificates"]
    assert [k.slug for k in documents_for(_evening("bunco"))][2] == "tally-sheets"
    assert document_problem(evening=euchre, slug="results").startswith("No bell has rung yet")
    assert "no document “tally-sheets”" in document_problem(evening=euchre, slug="tally-sheets")
    assert "no document “pull-list”" in document_problem(evening=euchre, slug="pull-list")
    poker = EveningFactory()
    assert "no document “score-cards”" in document_problem(evening=poker, slug="score-cards")
    before = EveningFactory(format="bunco")
    assert document_problem(evening=before, slug="score-cards").startswith("No draw yet")
    key = euchre.guests.first()
    key.key_revoked = True
    key.save()
    assert "private link is revoked" in document_problem(evening=euchre, slug="score-cards")


def test_the_print_page_offers_the_formats_documents_and_downloads_them(client):
    evening = _evening("bunco")
    client.force_login(evening.host)
    page = client.get(reverse("host-print", args=[evening.pk])).content.decode()
    assert "Score cards" in page and "Tally sheets" in page and "Pull list" not in page
    response = client.get(reverse("host-print-cards", args=[evening.pk]) + "?paper=letter")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f"/g/{evening.guests.first().key}/" in pdf_text(response.content).replace("\n", "")
    # Progressive Poker's score sheets (an old link): the print page at Bunco's tally sheets, saying why.
    moved = client.get(reverse("host-print-scores", args=[evening.pk]) + "?paper=letter")
    assert moved.status_code == 302
    assert moved["Location"] == reverse("host-print", args=[evening.pk]) + "?paper=letter#doc-tally-sheets"
    page = client.get(moved["Location"]).content.decode()
    assert (
        "Score sheets are printed for Progressive Poker. This evening plays Bunco: print its tally sheets below."
        in page
    )


@pytest.mark.parametrize(
    ("key", "slug", "words", "anchor"),
    [
        (
            "poker",
            "score-cards",
            "Score cards are printed for Progressive Euchre, Drive Whist, Bunco and Euchre tournament. "
            "This evening plays Progressive Poker: print its score sheets below.",
            "#doc-score-sheets",
        ),
        (
            "poker",
            "tally-sheets",
            "Tally sheets are printed for Bunco. This evening plays Progressive Poker: print its score sheets below.",
            "#doc-score-sheets",
        ),
        (
            "euchre",
            "tally-sheets",
            "Tally sheets are printed for Bunco. This evening plays Progressive Euchre: print its score cards below.",
            "#doc-score-cards",
        ),
        (
            "whist",
            "pull-list",
            "Pull list is printed for Progressive Poker. This evening plays Drive Whist, which has no pull "
            "list: choose one of its documents below.",
            "",
        ),
    ],
)
def test_another_formats_document_leads_to_the_print_page_saying_why(client, key, slug, words, anchor):
    """No print page offers another format's document, but an old link (or the format changed
    since) must not end in a bare error: the print page, at the format's own document."""
    evening = EveningFactory() if key == "poker" else _evening(key)
    client.force_login(evening.host)
    url = reverse(URL_NAMES[slug], args=[evening.pk])
    offered = client.get(reverse("host-print", args=[evening.pk])).content.decode()
    assert url not in offered
    moved = client.get(url)
    assert (
        moved.status_code == 302
        and moved["Location"] == reverse("host-print", args=[evening.pk]) + "?paper=A4" + anchor
    )
    page = client.get(moved["Location"]).content.decode()
    assert words in page and page.count('role="alert"') == 0


def test_the_print_command_writes_the_formats_documents_and_refuses_poker_ones(tmp_path):
    import io

    from django.core.management import call_command
    from django.core.management.base import CommandError

    evening = _evening("whist", 12)
    out = tmp_path / "cards.pdf"
    stdout = io.StringIO()
    call_command("print_document", str(evening.pk), "score-cards", "-o", str(out), stdout=stdout)
    assert "\tScore cards\t" in stdout.getvalue()
    text = pdf_text(out.read_bytes())
    assert all(name in text for name in NAMES)  # every script prints: Latin, Czech, Arabic, Chinese
    assert not notdef_glyphs(out.read_bytes())
    with pytest.raises(CommandError, match="no document “score-sheets” for this evening"):
        call_command("print_document", str(evening.pk), "score-sheets", "-o", str(out))


def test_after_the_last_bell_a_score_card_has_the_rounds_played_a_star_for_each_won_and_no_next_seat():
    evening = _evening("euchre", rounds_planned=2)
    names = _names(evening)
    (n1, e1, s1, w1), _ = foursome_state(evening).tables
    # Round 1: the head table's North-South (n1 and s1) win 7 to 5 and stay, n1 taking North.
    _ring(evening, {1: {"points": {"NS": 7, "EW": 5}}, 2: {"points": {"NS": 6, "EW": 2}}})
    # Round 2: n1 sits North again (the stayers keep North and East) and wins 7 to 3.
    assert foursome_state(evening).tables[0][0] == n1
    _ring(evening, {1: {"points": {"NS": 7, "EW": 3}}, 2: {"points": {"NS": 1, "EW": 6}}})
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED
    built = document(evening=evening, slug="score-cards")
    card = next(c for c in built.cards if c.name == names[n1])
    assert card.seat == "The evening has ended: 2 rounds played."
    assert [row[0] for row in card.rows] == ["1", "2"]  # no row for a round never played
    assert [row[3:] for row in card.rows] == [("7", "star"), ("7", "star")]  # a filled star each
    assert card.totals == ("Total", "", "", "14", "2")
    text = _card(built.render(), "Progressive Euchre", names[n1])
    assert "Now at" not in text and "partner:" not in text
    assert text.split("Total")[0].rstrip().endswith("7")  # round 2's points are the last row


def test_a_score_card_names_a_partner_who_left_by_name():
    """Found by trying the product: Hal's round-1 partner, who left later, was printed as "a
    guest" on Hal's card."""
    from tournament.formats.partnership.bell import foursome_guest_leaves
    from tournament.models import Guest

    evening = _evening("euchre", rounds_planned=6)
    names = _names(evening)
    (n1, e1, s1, w1), _ = foursome_state(evening).tables
    _ring(evening, {1: {"points": {"NS": 5, "EW": 7}}, 2: {"points": {"NS": 6, "EW": 2}}})
    foursome_guest_leaves(evening=evening, guest=Guest.objects.get(pk=w1))  # East's round-1 partner leaves
    pdf = document(evening=evening, slug="score-cards").render()
    card = _card(pdf, "Progressive Euchre", names[e1])
    grid = card[card.index("Round\n") :].split("\n")
    assert grid[5:8] == ["1", "1", names[w1]] and "a guest" not in card
