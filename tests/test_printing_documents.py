"""Every printed document: names read back, QR codes scanned, pages counted and measured.

Rules: issue 7 items 1-7 and "Bad input"; ``tournament/printing/*.py`` docstrings.

How names are compared: the PDF's text is read back as a reader honouring ``/ActualText``
copies it (``tests/pdf_reading.py``: shaped and right-to-left lines carry their logical text),
NFC-normalised with whitespace collapsed, so every name, in every script, must appear exactly
as typed (NFC).
"""

import io
import math
import unicodedata

import pypdf
import pypdfium2
import pytest
import zxingcpp

from tests.pdf_reading import notdef_glyphs, page_texts, pdf_text
from tournament.printing import (
    CertificatesPdf,
    PrintError,
    PullListPdf,
    ResultsPdf,
    ScoreSheetsPdf,
    SeatingCardsPdf,
    TableTentsPdf,
    page_size,
)
from tournament.printing.samples import (
    sample_cards,
    sample_pull,
    sample_results,
    sample_sheets,
    sample_tents,
)

EVENING = "Spring Progressive Poker · Ελλάδα · 春"
PAPERS = ["A4", "letter"]


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def read(pdf: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(pdf))


def all_text(pdf: bytes) -> str:
    return fold(pdf_text(pdf))


def assert_pages(pdf: bytes, count: int, paper: str, landscape: bool = False) -> None:
    reader = read(pdf)
    assert len(reader.pages) == count
    width, height = page_size(paper)
    if landscape:
        width, height = height, width
    for page in reader.pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx((width, height), abs=0.01)


def assert_fonts_embedded(pdf: bytes) -> None:
    reader = read(pdf)
    seen = 0
    for page in reader.pages:
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = descendant.get("/FontDescriptor")
            assert descriptor is not None, font  # no unembedded standard-14 font
            assert "/FontFile2" in descriptor.get_object(), font  # TrueType, embedded
            seen += 1
    assert seen


def scan(pdf: bytes) -> list[str]:
    """Every QR code found on every page, rendered at 144 dpi; each must be at error
    correction level M (a creased card still scans)."""
    found = []
    document = pypdfium2.PdfDocument(pdf)
    for page in document:
        image = page.render(scale=2).to_pil()
        codes = [r for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]
        assert [r.ec_level for r in codes] == ["M"] * len(codes)
        found += [r.text for r in codes]
    return found


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("variant,per_page", [("sheet", 8), ("tent", 4)])
def test_seating_cards_names_qr_codes_pages(paper, variant, per_page):
    cards = sample_cards(40)
    pdf = SeatingCardsPdf(evening_name=EVENING, cards=cards, paper=paper, variant=variant).render()
    assert_pages(pdf, math.ceil(40 / per_page), paper)
    assert_fonts_embedded(pdf)
    text = all_text(pdf)
    squeezed = text.replace(" ", "")
    for card in cards:
        assert fold(card.name) in text, card.name
        assert card.short_url in squeezed
    assert notdef_glyphs(pdf) == {}
    assert sorted(scan(pdf)) == sorted(card.url for card in cards)


def test_seating_card_shows_table_card_pack_and_representation():
    card = sample_cards(40)[0]
    text = all_text(SeatingCardsPdf(evening_name=EVENING, cards=[card]).render())
    assert "Table 1 · Head table" in text
    assert card.card_name in text and card.pack_label in text
    assert card.represents and card.represents in text


def test_seating_cards_for_a_partial_last_page():
    pdf = SeatingCardsPdf(evening_name="E", cards=sample_cards(9)).render()
    assert len(read(pdf).pages) == 2


def test_no_draw_yet_says_so_instead_of_printing_empty_cards():
    with pytest.raises(PrintError, match="No draw yet: run the draw"):
        SeatingCardsPdf(evening_name=EVENING, cards=[])


def test_unknown_paper_and_variant_are_print_errors():
    with pytest.raises(PrintError, match="A4 or letter"):
        SeatingCardsPdf(evening_name=EVENING, cards=sample_cards(8), paper="A5")
    with pytest.raises(PrintError, match="sheet or tent"):
        SeatingCardsPdf(evening_name=EVENING, cards=sample_cards(8), variant="poster")


def test_a_name_that_cannot_print_never_stops_the_other_cards():
    from dataclasses import replace

    cards = sample_cards(8)
    cards[3] = replace(cards[3], name="\x00\x1b\x7f")
    cards[5] = replace(cards[5], name="𓀀 𓀁")
    pdf = SeatingCardsPdf(evening_name=EVENING, cards=cards).render()
    text = all_text(pdf)
    assert "Guest on card 4" in text and "Guest on card 6" in text
    assert all(fold(c.name) in text for i, c in enumerate(cards) if i not in (3, 5))
    assert "?" not in text and notdef_glyphs(pdf) == {}


def test_emoji_print_in_black_and_white_and_controls_are_dropped():
    from dataclasses import replace

    card = replace(sample_cards(8)[0], name="Ann\x07 🎉 Lee")
    only = replace(sample_cards(8)[1], name="🎲")
    pdf = SeatingCardsPdf(evening_name=EVENING, cards=[card, only]).render()
    text = all_text(pdf)
    assert "Ann 🎉 Lee" in text and "🎲" in text
    assert notdef_glyphs(pdf) == {}


@pytest.mark.parametrize("variant", ["sheet", "tent"])
def test_a_300_character_name_without_spaces_still_builds(variant):
    from dataclasses import replace

    cards = sample_cards(8)
    cards[0] = replace(cards[0], name="Ä" * 100 + "ж" * 100 + "王" * 100)
    pdf = SeatingCardsPdf(evening_name="E" * 300, cards=cards, variant=variant).render()
    text = all_text(pdf).replace(" ", "")
    assert "Ä" * 30 in text and "王" * 30 in text
    assert sorted(scan(pdf)) == sorted(c.url for c in cards)


def test_500_guests_build():
    cards = sample_cards(500)
    pdf = SeatingCardsPdf(evening_name=EVENING, cards=cards).render()
    assert len(read(pdf).pages) == 63


@pytest.mark.parametrize("paper", PAPERS)
def test_table_tents(paper):
    tables = sample_tents(40)
    pdf = TableTentsPdf(evening_name=EVENING, tables=tables, paper=paper).render()
    assert_pages(pdf, len(tables), paper)
    assert_fonts_embedded(pdf)
    pages = page_texts(pdf)
    first, last = fold(pages[0]), fold(pages[-1])
    assert "Head table" in first and "1" in first
    assert "Booby table" in last and tables[-1].movement in last
    assert "The winner of the pool moves up to table 2" in fold(pages[2])


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("prefilled", [False, True])
def test_score_sheets(paper, prefilled):
    sheets = sample_sheets(40)
    pdf = ScoreSheetsPdf(evening_name=EVENING, sheets=sheets, paper=paper, prefilled=prefilled).render()
    assert_pages(pdf, len(sheets), paper, landscape=True)
    assert_fonts_embedded(pdf)
    pages = [fold(p) for p in page_texts(pdf)]
    assert "Call" in pages[0] and "Yellow" in pages[0]  # the head table's extra columns
    assert "Call" not in pages[1] and "Counters" in pages[1]
    for sheet, page in zip(sheets, pages, strict=True):
        for name in sheet.seats:
            assert fold(name) in page.replace("Seat ", "\n")  # seat headers name the guests
        counters = str(sheet.rows[0].entries[0].counters)
        assert (f" {counters} " in f" {page} ") == prefilled or not prefilled


def test_score_sheet_with_many_rounds_continues_on_a_second_page():
    sheet = sample_sheets(40)[1]
    from dataclasses import replace

    pdf = ScoreSheetsPdf(evening_name=EVENING, sheets=[replace(sheet, rounds=24)]).render()
    assert len(read(pdf).pages) == 2


@pytest.mark.parametrize("paper", PAPERS)
def test_pull_list(paper):
    packs = sample_pull(40)
    pdf = PullListPdf(evening_name=EVENING, packs=packs, paper=paper).render()
    assert_pages(pdf, 1, paper)
    text = all_text(pdf)
    assert "Red pack · red cards" in text and "Blue pack · blue cards" in text
    assert f"Total {sum(c for _, c in packs[0].cards)}" in text


@pytest.mark.parametrize("paper", PAPERS)
def test_results_with_settlement(paper):
    standings, prizes, settle = sample_results(40)
    pdf = ResultsPdf(evening_name=EVENING, standings=standings, prizes=prizes, settlement=settle, paper=paper).render()
    assert_fonts_embedded(pdf)
    reader = read(pdf)
    assert len(reader.pages) >= 3
    text = all_text(pdf)
    for row in standings:
        assert fold(row.name) in text, row.name
    for prize in prizes:
        assert prize.title in text
    assert "Settlement" in text and settle[0].amount in text


def test_results_without_settlement_has_no_settlement_page():
    standings, prizes, _ = sample_results(12)
    text = all_text(ResultsPdf(evening_name=EVENING, standings=standings, prizes=prizes).render())
    assert "Settlement" not in text


@pytest.mark.parametrize("paper", PAPERS)
def test_certificates_one_page_per_winner(paper):
    _, prizes, _ = sample_results(40)
    pdf = CertificatesPdf(evening_name=EVENING, prizes=prizes, paper=paper).render()
    winners = [(p.title, name) for p in prizes for name in p.winners]
    assert_pages(pdf, len(winners), paper, landscape=True)
    for page, (title, name) in zip(page_texts(pdf), winners, strict=True):
        text = fold(page)
        assert title in text and fold(name) in text


@pytest.mark.parametrize(
    "make",
    [
        lambda: TableTentsPdf(evening_name="E", tables=[]),
        lambda: ScoreSheetsPdf(evening_name="E", sheets=[]),
        lambda: PullListPdf(evening_name="E", packs=[]),
        lambda: ResultsPdf(evening_name="E", standings=[]),
        lambda: CertificatesPdf(evening_name="E", prizes=[]),
        lambda: TableTentsPdf(evening_name="E", tables=sample_tents(12), paper="legal"),
    ],
)
def test_nothing_to_print_or_bad_paper_is_a_print_error(make):
    with pytest.raises(PrintError):
        make()
