"""Hebrew names with their vowel points (niqqud) print with every mark where it belongs.

Found by a stranger's report ("שָׁלוֹם", "יְהוּדָה" print wrongly: marks misplaced or boxes). Each
link of the chain is pinned: the font has every Hebrew point (fontTools, both weights printed),
as a mark of no width; the text normaliser keeps every mark (NFC only); HarfBuzz places the
marks on their letters (zero advance, GPOS offsets); every document that prints a guest's name
reads back the name as typed (the ActualText reader and pypdf) with no missing glyph; and the
page, rendered as Chrome's PDF viewer draws it (PDFium), shows the shin dot on the right of
its letter and the sin dot on the left, the dagesh inside the kaf, the qamats under the bet.
"""

from __future__ import annotations

import io
import unicodedata
from dataclasses import replace

import pypdf
import pypdfium2
import pytest
import uharfbuzz
from fontTools.ttLib import TTFont as FontFile
from reportlab.pdfgen.canvas import Canvas

from tests.pdf_reading import fold, notdef_glyphs, pdf_text
from tournament.printing import CertificatesPdf, PrizeData, ResultsPdf, ScoreSheetsPdf, SeatingCardsPdf
from tournament.printing.fonts import BOLD, BY_KEY, REGULAR, _instance, register_fonts
from tournament.printing.samples import sample_cards, sample_results, sample_sheets
from tournament.printing.tally_cards import TallyCardsPdf
from tournament.printing.tally_data import TallyCardData
from tournament.printing.text import draw_in_box, layout_line, normalise

NAMES = ("שָׁלוֹם", "יְהוּדָה", "מֹשֶׁה כֹּהֵן", "בְּרֵאשִׁית שַׂרָה", "אַבְרָהָם")
# Every Hebrew point and the cantillation marks (Unicode's Hebrew block, the combining marks).
POINTS = tuple(chr(c) for c in range(0x0591, 0x05C8) if unicodedata.category(chr(c)) == "Mn")


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


@pytest.mark.parametrize("weight", [REGULAR, BOLD])
def test_the_hebrew_font_printed_has_every_point_as_a_mark_of_no_width(weight):
    font = FontFile(io.BytesIO(_instance(BY_KEY["Hebrew"], weight)))
    cmap = font.getBestCmap()
    missing = [f"U+{ord(p):04X}" for p in POINTS if ord(p) not in cmap]
    assert missing == []
    widths = {f"U+{ord(p):04X}": font["hmtx"][cmap[ord(p)]][0] for p in POINTS}
    assert {k: w for k, w in widths.items() if w} == {}
    assert "GPOS" in font  # the marks are placed by anchors, not by their own outlines alone


@pytest.mark.parametrize("name", NAMES)
def test_the_normaliser_keeps_every_mark(name):
    # NFC puts marks of one letter in their canonical order and changes nothing else here.
    assert normalise(name) == _nfc(name)
    assert sorted(c for c in normalise(name) if unicodedata.category(c) == "Mn") == sorted(
        c for c in name if unicodedata.category(c) == "Mn"
    )


def _shaped(text: str, bold: bool) -> tuple[list, uharfbuzz.Font]:
    """``text`` shaped as ``layout_line`` shapes it, each glyph with its cluster (a letter and
    its marks share one): [(glyph info, position)] and the HarfBuzz font, at 1000 units."""
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    font = layout_line(text, bold).pieces[0][0]
    hb_font = uharfbuzz.Font(pdfmetrics.getFont(font).hbFace)
    buffer = uharfbuzz.Buffer()
    buffer.cluster_level = uharfbuzz.BufferClusterLevel.MONOTONE_GRAPHEMES
    buffer.add_str(text)
    buffer.guess_segment_properties()
    uharfbuzz.shape(hb_font, buffer, {"kern": True, "liga": True})
    return list(zip(buffer.glyph_infos, buffer.glyph_positions, strict=True)), hb_font


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_shaping_sets_each_mark_on_its_letter_with_no_advance(name, bold):
    text = normalise(name)
    line = layout_line(text, bold)
    assert {font for font, _ in line.pieces} <= {"HT-Hebrew", "HT-Hebrew-Bold"}
    assert line.actual == text  # copied out as typed (the glyphs run right to left)
    glyphs, hb_font = _shaped(text, bold)
    pen = 0
    letters: dict[int, tuple[int, int]] = {}  # cluster -> the letter's ink, left to right
    marks: list[tuple[int, int, int]] = []  # (cluster, ink left, ink right)
    for info, pos in glyphs:
        extents = hb_font.get_glyph_extents(info.codepoint)
        left = pen + pos.x_offset + extents.x_bearing
        ink = (left, left + extents.width)
        if pos.x_advance == 0:
            marks.append((info.cluster, *ink))
        elif extents.width:
            letters[info.cluster] = ink
        pen += pos.x_advance
    assert len(marks) == sum(1 for c in text if unicodedata.category(c) == "Mn")
    for cluster, left, right in marks:
        base_left, base_right = letters[cluster]
        centre = (left + right) / 2
        assert base_left - 60 <= centre <= base_right + 60, (name, cluster, (left, right), (base_left, base_right))


def _ink(text: str) -> tuple[int, tuple[int, int, int, int], list[tuple[int, int]]]:
    """``text`` drawn alone at 120 points, rendered by PDFium (Chrome's PDF viewer) at 2x:
    (the count of dark pixels, their box (left, top, right, bottom), every dark pixel)."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(300, 220))
    draw_in_box(canvas, normalise(text), 0, 20, 300, 180, size=120, bold=True)
    canvas.showPage()
    canvas.save()
    image = pypdfium2.PdfDocument(buffer.getvalue())[0].render(scale=2).to_pil().convert("L")
    width, height = image.size
    data = image.load()
    dark = [(x, y) for y in range(height) for x in range(width) if data[x, y] < 128]
    xs, ys = [x for x, _ in dark], [y for _, y in dark]
    return len(dark), (min(xs), min(ys), max(xs), max(ys)), dark


def _above(dark: list[tuple[int, int]], top: int) -> list[tuple[int, int]]:
    return [(x, y) for x, y in dark if y < top - 4]


def test_the_shin_dot_is_drawn_over_the_right_of_its_letter_and_the_sin_dot_over_the_left():
    _, (left, top, right, _), _ = _ink("ש")
    _, _, shin = _ink("שׁ")
    _, _, sin = _ink("שׂ")
    middle = (left + right) / 2
    shin_dot, sin_dot = _above(shin, top), _above(sin, top)
    assert shin_dot and sin_dot  # a dot above the letter, in each
    assert min(x for x, _ in shin_dot) > middle  # on the right
    assert max(x for x, _ in sin_dot) < middle  # on the left


def test_the_dagesh_is_drawn_inside_the_kaf_and_the_qamats_under_the_bet():
    plain, box, _ = _ink("כ")
    dotted, dotted_box, _ = _ink("כּ")
    assert dotted > plain  # the dagesh has ink of its own
    assert all(abs(a - b) <= 2 for a, b in zip(box, dotted_box, strict=True))  # inside the letter's box
    _, (left, _, right, bottom), _ = _ink("ב")
    _, _, qamats = _ink("בָ")
    below = [(x, y) for x, y in qamats if y > bottom + 4]
    assert below and left <= min(x for x, _ in below) and max(x for x, _ in below) <= right


def _tally(name: str, partner: str) -> TallyCardData:
    rows = tuple((str(r), "1", partner, "") for r in (1, 2))
    return TallyCardData(
        name=name,
        url="https://headtable.example/g/abc/",
        short_url="headtable.example/g/abc/",
        seat=f"Table 1 · North · partner {partner}",
        columns=("Round", "Table", "Partner", "Points"),
        rows=rows,
    )


def _documents() -> dict[str, bytes]:
    """Every kind of document that prints a guest's name, the names pointed."""
    cards = [replace(c, name=n) for c, n in zip(sample_cards(8), NAMES, strict=False)]
    sheet = sample_sheets(8)[0]
    sheet = replace(sheet, seats=NAMES[: len(sheet.seats)])
    standings, prizes, settle = sample_results(8)
    standings = [replace(s, name=n) for s, n in zip(standings, NAMES, strict=False)]
    return {
        "seating cards": SeatingCardsPdf(evening_name="ערב", cards=cards, paper="A4").render(),
        "score sheets": ScoreSheetsPdf(evening_name="ערב", sheets=[sheet], paper="A4").render(),
        "score cards": TallyCardsPdf(
            evening_name="ערב",
            title="Bunco",
            cards=[_tally(n, NAMES[(i + 2) % len(NAMES)]) for i, n in enumerate(NAMES)],
        ).render(),
        "results": ResultsPdf(evening_name="ערב", standings=standings, prizes=prizes, settlement=settle).render(),
        "certificates": CertificatesPdf(
            evening_name="ערב", prizes=[PrizeData("Most buncos", NAMES, "3 buncos")], paper="A4"
        ).render(),
    }


@pytest.mark.parametrize("document", ["seating cards", "score sheets", "score cards", "results", "certificates"])
def test_every_document_prints_the_pointed_names_as_typed_with_no_missing_glyph(document):
    pdf = _documents()[document]
    assert notdef_glyphs(pdf) == {}
    text = fold(pdf_text(pdf))  # as a reader that honours /ActualText copies it (Acrobat)
    assert [n for n in NAMES[:4] if fold(n) not in text] == []
    # pypdf reads the glyphs themselves: the same letters and marks, canonically equal.
    plain = fold("".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages))
    assert [n for n in NAMES[:4] if fold(n) not in plain] == []
