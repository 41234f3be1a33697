"""Every printed document built from the database (``tournament.documents.contents``): names read back,
QR codes scanned to the guests' real links, pages counted and measured, bad input refused.

The evening: ``tests/fixtures_printing.py`` (40 guests, names in many scripts, two rounds rung,
a third in play). Comparison helpers come from ``tests/test_printing_documents.py`` (pypdf text
folded with NFKC, whitespace collapsed; QR codes scanned with zxing-cpp from pypdfium2 images).
"""

import math

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.errors import RuleError
from tables.formats.poker.plan import PlanError
from tables.prizes import Prize
from tests.factories import EveningFactory, GuestFactory
from tests.fixtures_printing import (
    guest_names,
    long_name,
    printed_name,
    printing_evening,
)
from tests.pdf_reading import notdef_glyphs, page_texts
from tests.test_printing_documents import (
    all_text,
    assert_fonts_embedded,
    assert_pages,
    fold,
    read,
    scan,
)
from tournament.documents.contents import (
    DOCUMENTS,
    document,
    document_pdf,
    evening_outcome,
    printed_reason,
    unprintable_guests,
)
from tournament.formats.poker.documents import movement_line
from tournament.models import Guest
from tournament.printing import PrintError, page_size
from tournament.services.draws import draw_digital
from tournament.services.naming import namer

BASE = "https://poker.example.org"
PAPERS = ["A4", "letter"]


@pytest.fixture
def evening(host):
    return printing_evening(host)


def pdf_of(evening, slug, variant=None, paper="A4"):
    return document_pdf(evening=evening, slug=slug, variant=variant, paper=paper, base_url=BASE)


def test_the_evening_has_every_script(evening):
    names = set(evening.guests.values_list("name", flat=True))
    assert names == set(guest_names()) and len(names) == 40


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("variant,per_page", [("sheet", 8), ("tent", 4)])
def test_seating_cards_name_every_guest_and_every_qr_code_is_their_real_link(evening, paper, variant, per_page):
    pdf = pdf_of(evening, "seating-cards", variant, paper)
    assert_pages(pdf, math.ceil(40 / per_page), paper)
    assert_fonts_embedded(pdf)
    text = all_text(pdf)
    bare = text.replace(" ", "")
    guests = list(evening.guests.all())
    for guest in guests:
        assert fold(printed_name(guest.name)) in text or guest.name == long_name(), guest.name
        assert reverse("guest-page", args=[guest.key]) in bare  # the short link, whole
    # Wrapped over lines at 6 pt, never smaller: a 300-character name (longer than any way in
    # takes, 120) fills the name box and, on a Letter card, ends with "…" after 6 lines.
    assert long_name()[:200] in bare
    assert "Ann 🎉 Lee" in text
    links = sorted(BASE + reverse("guest-page", args=[g.key]) for g in guests)
    assert sorted(scan(pdf)) == links


def test_a_seating_card_shows_the_table_the_card_and_who_draws_for_the_other_pack(evening):
    text = all_text(pdf_of(evening, "seating-cards"))
    assert "Table 1 · Head table" in text and "Booby table" in text
    assert "ace of the Ladies pack" in text and "ace of the Gentlemen pack" in text
    cards = list(evening.draws.get().cards.select_related("guest"))
    for pack, label in (("red", "Ladies"), ("blue", "Gentlemen")):
        others = sum(1 for c in cards if c.pack == pack and c.guest.pack != pack)
        assert text.count(f"draws for the {label}") == others
    assert any(c.pack != c.guest.pack for c in cards)


@pytest.mark.parametrize("paper", PAPERS)
def test_table_tents_one_per_table_with_its_movement_line(evening, paper):
    tables = len(evening.draws.get().sizes)
    pdf = pdf_of(evening, "table-tents", paper=paper)
    assert_pages(pdf, tables, paper)
    pages = [fold(p) for p in page_texts(pdf)]
    assert "Head table" in pages[0] and movement_line(1, tables) in pages[0]
    assert "The winner of the pool takes a yellow counter" in pages[0]
    assert "The winner of the pool moves up to table 2" in pages[2]
    assert "Booby table" in pages[-1]
    assert f"moves up to table {tables - 1}; the head table sends one player down" in pages[-1]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("variant", ["blank", "prefilled"])
def test_score_sheets_one_per_table_with_the_names_drawn_there(evening, paper, variant):
    draw = evening.draws.get()
    pdf = pdf_of(evening, "score-sheets", variant, paper)
    assert_pages(pdf, len(draw.sizes), paper, landscape=True)
    assert_fonts_embedded(pdf)
    pages = [fold(p) for p in page_texts(pdf)]
    assert "Call" in pages[0] and "Yellow" in pages[0] and "Call" not in pages[1]
    for number in range(1, len(draw.sizes) + 1):
        page = pages[number - 1].replace("Seat ", "\n").replace(" ", "")
        for card in draw.cards.filter(rank=number).select_related("guest"):
            assert fold(printed_name(card.guest.name)).replace(" ", "") in page, card.guest.name


def test_pre_filled_score_sheets_write_the_live_results_and_yellow_counters(evening):
    head = fold(page_texts(pdf_of(evening, "score-sheets", "prefilled"))[0])
    blank = fold(page_texts(pdf_of(evening, "score-sheets", "blank"))[0])
    # Round 1: the winner 60, the last guest 40; round 2: the winner (who won round 1) 70.
    for number in ("60", "40", "70"):
        assert f" {number} " in f" {head} " and f" {number} " not in f" {blank} "
    assert "✓" in head and "✓" not in blank
    assert "pre-filled" in head and "blank" in blank


def test_a_corrected_result_prints_its_correction_not_the_superseded_row(evening):
    from tournament.models import Result
    from tournament.services.results import result_record
    from tournament.services.state import evening_state

    rnd = evening.rounds.get(number=3)
    ids = evening_state(evening).tables[0]
    counters = {g: 50 for g in ids}
    counters[ids[0]], counters[ids[1]] = 77, 23
    result_record(round=rnd, table=1, pool_winner=ids[0], counters=counters)
    assert Result.objects.filter(round=rnd, table=1).count() == 2
    text = fold(page_texts(pdf_of(evening, "score-sheets", "prefilled"))[0])
    assert " 77 " in text and " 23 " in text


@pytest.mark.parametrize("paper", PAPERS)
def test_pull_list_takes_the_cards_of_the_draws_plan_with_the_hosts_labels(evening, paper):
    pdf = pdf_of(evening, "pull-list", paper=paper)
    assert_pages(pdf, 1, paper)
    text = all_text(pdf)
    assert "Ladies · red cards" in text and "Gentlemen · blue cards" in text
    # The draw's plan seats the same guests: its cards, counted by pack and rank, are the list.
    from collections import Counter

    from tables.table_cards import rank_name

    dealt = Counter(evening.draws.get().cards.values_list("pack", "rank"))
    for pack, label in (("red", "Ladies"), ("blue", "Gentlemen")):
        ranks = sorted(rank for p, rank in dealt if p == pack)
        lines = " ".join(f"{rank_name(r).capitalize()} {dealt[pack, r]}" for r in ranks)
        total = sum(dealt[pack, r] for r in ranks)
        assert f"{label} · {pack} cards Card How many Pulled {lines} Total {total}" in text


def test_pull_list_before_the_draw_is_for_the_guests_checked_in(host):
    evening = EveningFactory(host=host)
    for i in range(14):
        GuestFactory(evening=evening, name=f"R{i}", pack="red")
    for i in range(6):
        GuestFactory(evening=evening, name=f"B{i}", pack="blue")
    GuestFactory(evening=evening, name="Not here", pack="blue", status=Guest.Status.REGISTERED)
    text = all_text(pdf_of(evening, "pull-list"))
    # 20 here: 4 + 6 + 6 + 4 = 2+2, 3+3, 3+3, 2+2: each pack gives 10 cards.
    assert "Ace 2 Deuce 3 Trey 3 Four 2 Total 10" in text
    assert text.count("Total 10") == 2


@pytest.mark.parametrize("paper", PAPERS)
def test_results_list_every_guest_the_prizes_and_the_settlement(evening, paper):
    pdf = pdf_of(evening, "results", paper=paper)
    assert_fonts_embedded(pdf)
    text = all_text(pdf)
    bare = text.replace(" ", "")
    for name in guest_names():
        assert fold(printed_name(name)).replace(" ", "") in bare, name
    assert "Most yellow counters" in text and "Most counters won, Ladies" in text
    assert "Most counters won, Gentlemen" in text and "Booby prize" in text
    assert "Settlement" in text and "+2.00" in text and "-1.00" in text  # +20 and -10 counters at 0.10
    assert "house rule" not in text and "Guests " not in text
    for page in read(pdf).pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(page_size(paper), abs=0.01)


def test_results_without_a_counter_value_have_no_settlement(host):
    evening = printing_evening(host, guests=16, counter_value=None)
    assert "Settlement" not in all_text(pdf_of(evening, "results"))


@pytest.mark.parametrize("paper", PAPERS)
def test_certificates_one_landscape_page_per_winner(evening, paper):
    outcome = evening_outcome(evening)
    winners = [(p.title, name) for p in outcome.prizes for name in p.winners]
    pdf = pdf_of(evening, "certificates", paper=paper)
    assert_pages(pdf, len(winners), paper, landscape=True)
    for page, (title, name) in zip(page_texts(pdf), winners, strict=True):
        text = fold(page)
        assert title in text
        assert fold(printed_name(name)).replace(" ", "") in text.replace(" ", "")


def test_printed_reason_names_the_guests_and_drops_house_rule_notes():
    names = {3: "Zoë", 5: "Ann"}
    cut = Prize(
        "head_table", "Most yellow counters", (5,), "", "house rule: ties=cut", why="2 yellow counters.", tied=(3, 5)
    )
    assert printed_reason(cut, names) == "2 yellow counters. 2 guests tied; Ann won the cut."
    assert cut.reason_for(namer(names)) == (
        "2 yellow counters. Zoë and Ann tied; Ann won the cut (house rule: a tie for a prize is cut)."
    )
    shared = Prize("booby", "Booby prize", (3, 5), "", "", why="The fewest counters won (0).", tied=(3, 5))
    assert printed_reason(shared, names) == "The fewest counters won (0). 2 guests tied and share it."


# Bad input: a clear message, no PDF.


@pytest.mark.parametrize("slug", ["seating-cards", "score-sheets", "results", "certificates"])
def test_no_draw_yet_is_a_clear_message(make_evening, slug):
    evening = make_evening(6, 6)
    with pytest.raises(PrintError, match="No draw yet"):
        document(evening=evening, slug=slug)


@pytest.mark.parametrize("slug", ["table-tents", "pull-list"])
def test_tents_and_pull_list_before_the_draw_need_eight_guests_here(make_evening, slug):
    assert document(evening=make_evening(6, 6), slug=slug).render().startswith(b"%PDF")
    with pytest.raises(PlanError, match="too few"):
        document(evening=make_evening(3, 3), slug=slug)


def test_seating_cards_wait_for_a_physical_draw_to_be_complete(evening):
    evening.draws.update(complete=False, kind="physical")
    with pytest.raises(PrintError, match="not complete: record every guest's card"):
        document(evening=evening, slug="seating-cards")


def test_results_before_the_first_bell_say_so(make_evening):
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    with pytest.raises(PrintError, match="No bell has rung yet"):
        document(evening=evening, slug="results")
    with pytest.raises(PrintError, match="No results yet"):
        document(evening=evening, slug="score-sheets", variant="prefilled")


@pytest.mark.parametrize("kind", DOCUMENTS, ids=lambda k: k.slug)
def test_an_unknown_paper_size_or_variant_is_refused(evening, kind):
    with pytest.raises(PrintError, match="A4 or letter"):
        document(evening=evening, slug=kind.slug, paper="A5").render()
    with pytest.raises(PrintError, match="not “poster”"):
        document(evening=evening, slug=kind.slug, variant="poster")


def test_an_unknown_document_is_refused(evening):
    with pytest.raises(PrintError, match="no document “menu”"):
        document(evening=evening, slug="menu")


@pytest.mark.parametrize("bad", ["\x07\x1b\x7f", "   ", "𓀀 𓀁"])
def test_a_stored_name_that_cannot_print_prints_as_the_guest_number_and_is_listed(evening, bad):
    guest = evening.guests.order_by("id")[5]
    Guest.objects.filter(pk=guest.pk).update(name=bad)
    assert [(u.guest.pk, bool(u.reason)) for u in unprintable_guests(evening)] == [(guest.pk, True)]
    for slug in ("seating-cards", "score-sheets", "results"):
        pdf = pdf_of(evening, slug)
        text = all_text(pdf)
        assert f"Guest no. {guest.pk}" in text, slug
        assert "?" not in text and notdef_glyphs(pdf) == {}, slug
    assert len(scan(pdf_of(evening, "seating-cards"))) == 40  # nobody else's card is held back


def test_a_revoked_link_is_refused_and_a_guest_who_left_gets_no_card(evening):
    from tournament.services.guests import guest_reissue_key
    from tournament.services.links import guest_revoke_key

    guests = list(evening.guests.order_by("id")[:2])
    guest_revoke_key(guest=guests[0])
    with pytest.raises(PrintError, match=rf"guest no\. {guests[0].pk}\): .*link is revoked.*Reissue"):
        document(evening=evening, slug="seating-cards")
    guest_reissue_key(guest=guests[0])
    Guest.objects.filter(pk=guests[1].pk).update(status=Guest.Status.LEFT)
    pdf = pdf_of(evening, "seating-cards")
    assert len(scan(pdf)) == 39
    assert fold(guests[1].name) not in all_text(pdf) or guests[1].name == long_name()


def test_more_than_thirteen_tables_print_numbered_cards(host):
    evening = EveningFactory(host=host)
    for i in range(90):
        GuestFactory(evening=evening, name=f"Guest {i}", pack="red" if i % 2 else "blue")
    draw = draw_digital(evening=evening)
    assert len(draw.sizes) > 13
    text = all_text(pdf_of(evening, "seating-cards"))
    assert f"{len(draw.sizes)} of the" in text and "king of the" in text
    assert f"Table {len(draw.sizes)} · Booby table" in text


def test_query_counts_do_not_grow_with_the_guests(host):
    small, large = printing_evening(host, guests=16), printing_evening(host, guests=40)
    counts = []
    for evening in (small, large):
        row = []
        for kind in DOCUMENTS:
            variant = "prefilled" if kind.slug == "score-sheets" else None
            with CaptureQueriesContext(connection) as queries:
                document(evening=evening, slug=kind.slug, variant=variant)
            row.append(len(queries))
        counts.append(row)
    assert counts[0] == counts[1]
    assert max(counts[1]) <= 12


def test_rule_errors_are_what_the_callers_catch(evening):
    assert issubclass(PrintError, RuleError)


def test_a_guest_seated_on_arrival_gets_a_seating_card_at_their_table(make_evening):
    # The stranger's night: two guests arrived after round 1 and were seated; the seating
    # cards printed then had none for them. Every guest at a table has a card (house rule).
    from tests.fixtures_bell import play, seat_by_names
    from tournament.registry import format_for

    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"]])
    play(evening, ids, {1: ("A1", [], {"A1": 60, "A2": 50, "A3": 50, "A4": 40}), 2: ("B1", [], {})})
    late = GuestFactory(evening=evening, name="Zoë Late", pack="blue", status=Guest.Status.REGISTERED)
    format_for(evening).seat_change(evening=evening, guest=late, leaving=False, user=None, device="")
    late.refresh_from_db()
    pdf = pdf_of(evening, "seating-cards")
    text = all_text(pdf)
    assert fold("Zoë Late") in text and "Seated on arrival" in text
    assert f"Table {late.seat.table}" in text
    assert BASE + reverse("guest-page", args=[late.key]) in scan(pdf)
    assert len(scan(pdf)) == 9
