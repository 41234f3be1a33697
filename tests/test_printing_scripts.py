"""Every script a guest list may hold, in every document, on A4 and Letter (issue 13 item 4).

For each document, an evening whose guests carry a name in every script of
``samples.SCRIPT_NAMES`` (Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Bengali, Tamil,
Telugu, Gujarati, Gurmukhi, Kannada, Malayalam, Thai, Lao, Khmer, Myanmar, Sinhala, Georgian,
Armenian, Ethiopic, Chinese, Japanese, Hangul) is printed; each name is read back as a
reader honouring ``/ActualText`` copies it (``tests/pdf_reading.py``), and must equal the name
as typed (NFC, whitespace collapsed); every glyph drawn must be a real glyph of the font the
PDF embeds (none is ``.notdef``), and each script's own Noto font must be embedded. Then 500
guests with those names print every document.
"""

from __future__ import annotations

from functools import cache

import pytest

from tests.pdf_reading import fold, notdef_glyphs, pdf_text
from tests.test_printing_documents import read
from tournament.printing import (
    CertificatesPdf,
    PrizeData,
    PullListPdf,
    ResultsPdf,
    ScoreSheetsPdf,
    SeatingCardsPdf,
    TableTentsPdf,
)
from tournament.printing.samples import (
    NAMES,
    SCRIPT_NAMES,
    sample_cards,
    sample_pull,
    sample_results,
    sample_sheets,
    sample_tents,
)

EVENING = "Spring Progressive · Ελλάδα · 春"
COUNT = len(NAMES)  # every sample name once: all of SCRIPT_NAMES among them
# The embedded font (PostScript name) each script's name must print in.
FONT = {
    "Latin": "NotoSans-",
    "Greek": "NotoSans-",
    "Cyrillic": "NotoSans-",
    "Chinese": "NotoSansSC-",
    "Japanese": "NotoSansJP-",
    "Hangul": "NotoSansKR-",
}


def render(document: str, paper: str, count: int = COUNT) -> bytes:
    standings, prizes, settle = sample_results(count)
    if document == "seating-cards":
        return SeatingCardsPdf(evening_name=EVENING, cards=sample_cards(count), paper=paper).render()
    if document == "seating-tents":
        return SeatingCardsPdf(evening_name=EVENING, cards=sample_cards(count), paper=paper, variant="tent").render()
    if document == "score-sheets":
        return ScoreSheetsPdf(evening_name=EVENING, sheets=sample_sheets(count), paper=paper, prefilled=True).render()
    if document == "results":
        return ResultsPdf(
            evening_name=EVENING, standings=standings, prizes=prizes, settlement=settle, paper=paper
        ).render()
    if document == "certificates":
        everyone = [PrizeData("Prize for a fine name", tuple(SCRIPT_NAMES.values()), "a name in its own script")]
        return CertificatesPdf(
            evening_name=EVENING, prizes=everyone if count == COUNT else prizes, paper=paper
        ).render()
    if document == "table-tents":
        return TableTentsPdf(evening_name=EVENING, tables=sample_tents(count), paper=paper).render()
    return PullListPdf(evening_name=EVENING, packs=sample_pull(count), paper=paper).render()


NAMED = ["seating-cards", "seating-tents", "score-sheets", "results", "certificates"]


@cache
def printed(document: str, paper: str) -> tuple[bytes, str]:
    pdf = render(document, paper)
    return pdf, fold(pdf_text(pdf))


def embedded_fonts(pdf: bytes) -> set[str]:
    names = set()
    for page in read(pdf).pages:
        for ref in page["/Resources"].get("/Font", {}).values():
            names.add(str(ref.get_object()["/BaseFont"]).split("+", 1)[-1])
    return names


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("document", NAMED)
def test_every_script_reads_back_as_typed(document, paper):
    _, text = printed(document, paper)
    missing = [script for script, name in SCRIPT_NAMES.items() if fold(name) not in text]
    assert missing == [], f"{document}: not read back: {missing}"
    assert "?" not in text


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("document", NAMED)
def test_every_glyph_is_real_and_each_script_has_its_own_font(document, paper):
    pdf, _ = printed(document, paper)
    assert notdef_glyphs(pdf) == {}
    fonts = embedded_fonts(pdf)
    for script in SCRIPT_NAMES:
        prefix = FONT.get(script, f"NotoSans{script}-")
        assert any(name.startswith(prefix) for name in fonts), (document, script, sorted(fonts))


def test_500_guests_with_a_name_in_every_script_print_every_document():
    for document in (*NAMED, "table-tents", "pull-list"):
        pdf = render(document, "A4", count=500)
        assert pdf.startswith(b"%PDF") and len(read(pdf).pages) >= 1, document
    cards = render("seating-cards", "A4", count=500)
    assert len(read(cards).pages) == 63
    text = fold(pdf_text(cards))
    assert all(fold(name) in text for name in SCRIPT_NAMES.values())
