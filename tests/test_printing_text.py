"""Text for print: cleaning names, fonts per script, bidi, HarfBuzz shaping, wrap-or-shrink.

Rules: ``tournament/printing/text.py`` and ``fonts.py`` docstrings (issue 13).
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase import pdfmetrics

from tournament.printing.data import PrintError, page_size
from tournament.printing.fonts import FAMILIES, FONT_DIR, family_for, font_name, split_by_character, split_runs
from tournament.printing.samples import NAMES, SCRIPT_NAMES, sample_cards
from tournament.printing.text import (
    MIN_SIZE,
    _glyphs,
    _runs,
    _shape_by_reportlab,
    _visual_runs,
    _word,
    clean_text,
    fit,
    guest_print_name,
    isolate,
    layout_line,
    measure,
    name_problem,
)

# The font family each script's sample name must print in.
SCRIPT_FAMILY = {
    "Latin": "Sans",
    "Greek": "Sans",
    "Cyrillic": "Sans",
    "Chinese": "SC",
    "Japanese": "JP",
    "Hangul": "KR",
}


def glyph_ids(line):
    """The glyph id of every glyph drawn for a laid-out line."""
    ids = []
    for font, glyphs in line.pieces:
        face = pdfmetrics.getFont(font).face
        ids += [face.charToGlyph.get(ord(c), 0) for c in glyphs]
    return ids


def drawn(line):
    return "".join(str(glyphs) for _, glyphs in line.pieces)


def test_control_characters_are_removed_and_tabs_become_spaces():
    assert clean_text("Ann\x00a\x07 \tLee\n") == "Anna Lee"
    assert clean_text("Bob\u200f \u202eSmith") == "Bob Smith"  # bidi marks are format chars


def test_joiners_stay_because_shaping_needs_them():
    assert clean_text("ශ්\u200dරී") == "ශ්\u200dරී"


def test_emoji_are_kept_and_print_in_noto_emoji():
    assert clean_text("Zoë 🎉 Brown") == "Zoë 🎉 Brown"
    assert family_for("🎲") == "Emoji"
    assert name_problem("🎲") is None
    assert [font for font, _ in split_runs("🎲🎉")] == [font_name("Emoji")]


@pytest.mark.parametrize(
    "name,words",
    [
        ("   ", "nothing printable"),
        ("\x01\x02\x1b", "nothing printable"),
        ("\u200b\u200e\u2066", "nothing printable"),
        ("𓀀 𓀁", "Egyptian Hieroglyph A001"),
        ("Ann 𓀀", "no printing font has “𓀀”"),
    ],
)
def test_names_that_cannot_print_say_why(name, words):
    assert words in name_problem(name)


def test_a_name_that_cannot_print_prints_as_the_guest_number_never_a_question_mark():
    assert guest_print_name(12, "𓀀 𓀁") == "Guest no. 12"
    assert guest_print_name(12, "   ") == "Guest no. 12"
    assert guest_print_name(12, "Ann\tLee") == "Ann Lee"
    assert guest_print_name(12, "🎲") == "🎲"


def test_labels_leave_out_characters_no_font_has():
    assert clean_text("Table 𓀀 one") == "Table one"


def test_nfc_normalisation_joins_accents():
    assert clean_text("Ame\u0301lie") == "Amélie"


@pytest.mark.parametrize("script", list(SCRIPT_NAMES))
def test_every_script_prints_in_its_own_noto_font_with_no_missing_glyph(script):
    name = SCRIPT_NAMES[script]
    assert name_problem(name) is None
    expected = SCRIPT_FAMILY.get(script, script)
    for bold in (False, True):
        fonts = {font for font, chunk in split_runs(name, bold) if chunk.strip()}
        assert fonts == {font_name(expected, bold)}, (script, fonts)
        line = layout_line(name, bold)
        assert 0 not in glyph_ids(line), script  # no .notdef
        assert line.width > 0


@pytest.mark.parametrize("name", NAMES)
def test_every_sample_name_lays_out_without_a_missing_glyph(name):
    assert name_problem(name) is None
    assert 0 not in glyph_ids(layout_line(isolate(name), True))


def test_devanagari_is_shaped_into_conjuncts():
    line = layout_line("शर्मा")
    # HarfBuzz reorders the reph: the glyphs no longer spell the text, so it is carried as
    # ActualText for copying out.
    assert drawn(line) != "शर्मा"
    assert line.actual == "शर्मा"


def test_hebrew_is_drawn_right_to_left_and_copied_out_as_typed():
    line = layout_line("יוסי כהן")
    assert drawn(line) == "ןהכ יסוי"
    assert line.actual == "יוסי כהן"


def test_arabic_letters_join():
    line = layout_line("محمد")
    assert all(not ("\u0600" <= c <= "\u06ff") for c in drawn(line))  # contextual forms, not letters
    assert line.actual == "محمد"


def test_a_right_to_left_name_in_a_label_keeps_the_label_first():
    line = layout_line(f"Seat 2: {isolate('יוסי כהן')}")
    assert drawn(line).startswith("Seat 2: ")
    assert drawn(line).endswith("ןהכ יסוי")
    assert line.actual == "Seat 2: יוסי כהן"


def test_a_number_in_a_right_to_left_name_stays_on_the_names_side():
    # The isolated name runs right to left, so its trailing number is drawn on its left.
    assert drawn(layout_line(isolate("יוסי 3"))) == "3 יסוי"
    # Mixed with Latin and brackets: the bracket pair is mirrored in the right-to-left run.
    assert drawn(layout_line(isolate("(יוסי) Ann"))).startswith("Ann")


def test_a_joiner_in_a_right_to_left_name_keeps_every_letter_in_its_place():
    # Persian writes a zero width non-joiner inside words; python-bidi leaves it out of its
    # levels (UAX #9 rule X9). It stays in its word's right-to-left run, and the letters after
    # it keep their own levels: none is moved into the wrong run or dropped from the line.
    assert _visual_runs("سلام\u200cدنیا abc", False) == [("سلام\u200cدنیا", True), (" abc", False)]
    assert _visual_runs("abc אב\u200dג def", False) == [("abc ", False), ("אב\u200dג", True), (" def", False)]
    assert _visual_runs("\u200cאב x", False) == [("\u200cאב", True), (" x", False)]


def test_a_persian_name_with_a_joiner_prints_its_last_letter():
    name = "مهر\u200cناز"  # Mehrnaz: the non-joiner keeps "مهر" from joining "ناز"
    line = layout_line(isolate(name))
    assert line.actual == name
    # The final "ز" is drawn: the name is wider than the name without it.
    assert line.width > layout_line(isolate(name[:-1])).width


def test_latin_text_is_left_alone():
    line = layout_line("Søren")
    assert line.actual is None and drawn(line) == "Søren"


def test_short_name_stays_on_one_line_at_full_size():
    fitted = fit("Ann Lee", width=200, size=20)
    assert len(fitted.lines) == 1 and fitted.size == 20


def test_long_name_shrinks_before_it_wraps():
    name = "Maria Papadopoulou-Konstantinidou"
    full = measure(name, True) * 20
    fitted = fit(name, width=full * 0.8, size=20, bold=True)
    assert len(fitted.lines) == 1
    assert fitted.size == pytest.approx(16, abs=0.01)
    assert fitted.widths[0] <= full * 0.8 + 1e-6


def test_with_two_lines_allowed_a_long_name_wraps_at_full_size_first():
    name = "Seat 3: Maria Papadopoulou-Konstantinidou"
    width = measure(name, True) * 8 * 0.7
    fitted = fit(name, width=width, size=8, bold=True, lines=2)
    assert fitted.size == 8 and len(fitted.lines) == 2
    assert all(w <= width + 1e-6 for w in fitted.widths)


def test_nothing_is_ever_set_below_six_points_unless_cut():
    name = "Ekaterina Alexandrovna Romanova-Dolgorukova von Hohenzollern-Sigmaringen"
    fitted = fit(name, width=60, size=8, bold=True, lines=2, floor=0.5)
    assert fitted.size >= MIN_SIZE == 6


def test_a_name_too_long_to_shrink_wraps_and_every_line_fits():
    name = "Ekaterina Alexandrovna Romanova-Dolgorukova von Hohenzollern-Sigmaringen"
    fitted = fit(name, width=120, height=60, size=20, bold=True)
    assert len(fitted.lines) > 1
    assert all(w <= 120 + 1e-6 for w in fitted.widths)
    assert fitted.height <= 60 + 1e-6
    assert "".join(drawn(line) for line in fitted.lines).replace(" ", "") == name.replace(" ", "")


def test_300_characters_without_a_space_wrap_inside_the_box():
    name = "Ä" * 150 + "ж" * 150
    fitted = fit(name, width=236, height=80, size=20, bold=True)
    assert all(w <= 236 + 1e-6 for w in fitted.widths)
    assert fitted.height <= 80 + 1e-6
    assert fitted.size >= MIN_SIZE
    assert sum(len(drawn(line)) for line in fitted.lines) == 300


def test_text_too_long_even_at_the_smallest_size_is_cut_with_an_ellipsis():
    fitted = fit("W" * 5000, width=100, height=20, size=20)
    assert fitted.size == MIN_SIZE and fitted.height <= 20
    assert drawn(fitted.lines[-1]).endswith("…")


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=120), st.floats(40, 300), st.floats(10, 80))
def test_any_text_fits_its_box_or_is_cut(text, width, height):
    cleaned = clean_text(text)
    fitted = fit(cleaned, width=width, height=height, size=18)
    assert all(w <= width + 1e-6 for w in fitted.widths) or fitted.size == MIN_SIZE
    assert fitted.height <= height + 1e-6 or len(fitted.lines) == 1


@pytest.mark.parametrize(
    "paper,size",
    [("A4", (595.2755905511812, 841.8897637795277)), ("letter", (612, 792)), ("LETTER", (612, 792)), ("a4", None)],
)
def test_paper_sizes(paper, size):
    if size:
        assert page_size(paper) == pytest.approx(size)
    else:
        assert page_size(paper) == page_size("A4")


def test_unknown_paper_is_a_print_error():
    with pytest.raises(PrintError, match="choose A4 or letter"):
        page_size("A3")


def test_fonts_come_from_installed_packages_and_are_truetype():
    for family in FAMILIES:
        assert family.file().read_bytes()[:4] in (b"\x00\x01\x00\x00", b"true"), family.key  # glyf, not CFF
    assert sorted(p.name for p in FONT_DIR.iterdir()) == ["DejaVuSans.ttf", "LICENSE-DejaVu.txt"]


def test_a_name_shrinks_before_a_word_is_cut_between_letters():
    """Issue 24 item 8: the seating card broke "Augusti" over "n". A box in which "Marie-Augustin"
    fits only at 11 points, two lines of 20 points tall: the name is set whole on one line at
    about 10 points (shrunk by tenths from 14), where it was cut into two lines at 14."""
    from tournament.printing.text import fit, measure

    name = "Marie-Augustin"
    width = measure(name, True) * 11
    fitted = fit(name, width=width, size=20, height=2 * 20 * 1.2, bold=True, lines=2)
    assert len(fitted.lines) == 1 and 10 <= fitted.size <= 11, (len(fitted.lines), fitted.size)
    assert fitted.widths[0] <= width
    # Wider than the line even at the smallest size: then, and only then, it is cut.
    tiny = fit(name, width=measure(name, True) * 4, size=20, height=4 * 20 * 1.2, bold=True, lines=2)
    assert tiny.size == 6.0 and len(tiny.lines) > 1


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(" ".join),
    st.integers(min_value=1, max_value=200),
    st.booleans(),
)
def test_a_line_is_measured_at_the_width_it_is_drawn(names, cut, bold):
    """The width a line is fitted by (``measure``: HarfBuzz's advances alone) is the width of
    the line as laid out for drawing (``layout_line``: ReportLab's shaped glyphs), exactly, for
    every prefix a wrap or a cut word may try, in every script, bold or not."""
    line = names[:cut]
    assert measure(line, bold) == layout_line(line, bold).width


def test_a_space_after_an_emoji_is_the_texts_space_not_the_emoji_fonts():
    """Found by trying the product: "Poker night 🃏 Friday" printed a wide gap after the card
    in every PDF heading (Noto Emoji's space). Marks and joiners stay with the emoji."""
    assert split_runs("Poker night 🃏 Friday") == (
        (font_name("Sans"), "Poker night "),
        (font_name("Emoji"), "🃏"),
        (font_name("Sans"), " Friday"),
    )
    assert split_runs("👨\u200d👩\u200d👧 1")[0] == (font_name("Emoji"), "👨\u200d👩\u200d👧")
    gap = measure("Poker night 🃏 Friday") - measure("Poker night 🃏") - measure(" Friday")
    assert abs(gap) < 0.05  # the space is a text space: the parts add up
    assert measure(" ") < 0.4  # and a text space is narrower than a letter's em


# ---------------------------------------------------------------------------- the fast paths (issue 26 item 5)

LINKS = [card.short_url for card in sample_cards(60)]
#: Latin pairs Noto Sans kerns or joins ("AV", "To", "fi", "ffi"), digits, punctuation.
KERNED = st.text(alphabet="AVToWaPyLfil.,/-7Qzkx0 ", min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(st.one_of(KERNED, st.sampled_from([*NAMES, *LINKS]), st.text(min_size=1, max_size=30)), st.booleans())
def test_a_text_of_noto_sans_alone_is_cut_into_the_runs_a_character_by_character_cut_gives(text, bold):
    """``split_runs`` takes a text whose every character is Noto Sans's (and not CJK) as one
    run at once: the same runs as the character-by-character cut, for any text."""
    assert split_runs(text, bold) == split_by_character(text, bold)


@pytest.mark.parametrize("text", [*NAMES, *SCRIPT_NAMES.values(), *LINKS, "ﷺ لا", "ffi fl", "🎲 x", "a\u0301\u0302"])
def test_each_run_is_shaped_into_the_glyphs_reportlab_gives_it(text):
    """``_glyphs`` builds ReportLab's ``ShapedStr`` for a run straight from HarfBuzz's output:
    the same glyphs and the same shape data, number for number, as ``shapeFragWord``, for every
    run of every sample name in every script, bold and regular."""
    for bold in (False, True):
        for font, run in _runs(isolate(text), bold):
            reportlab = _shape_by_reportlab(font, run)  # first: it gives unmapped glyphs their codes
            ours = _glyphs(font, run)
            assert ours is not None, (font, run)
            assert str(ours) == str(reportlab)
            assert ours.__shapeData__ == reportlab.__shapeData__


@settings(max_examples=150, deadline=None)
@given(st.one_of(KERNED, st.sampled_from(LINKS)), st.booleans(), st.data())
def test_a_piece_of_a_long_word_is_measured_as_if_shaped_on_its_own(word, bold, data):
    """A piece of a word being cut (``_break_word``) is measured from the word's one shaping
    where HarfBuzz marks both cuts safe: exactly ``measure`` of the piece shaped on its own,
    kerning pairs and ligatures included, for every piece."""
    cut = _word(word, bold)
    n = len(cut.clusters)
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(i + 1, n))
    assert cut.piece_width(i, j, bold) == measure(word[cut.offsets[i] : cut.offsets[j]], bold)


def test_a_links_pieces_are_read_off_one_shaping():
    """A guest's link is cut without shaping each candidate piece: HarfBuzz marks most of its
    cuts safe (all but the kerned pairs), so ``_break_word`` reads the pieces' widths off it."""
    for link in LINKS:
        shaping = _word(link, False).shaping
        assert shaping is not None
        safe = [offset for offset in range(1, len(link)) if shaping.glyph_at(offset) is not None]
        assert len(safe) > 0.8 * len(link), (link, len(safe))
    assert _word("יוסי כהן", False).shaping is None  # right to left: every piece measured on its own


def test_a_line_written_again_in_a_document_gives_the_operators_it_gave_the_first_time():
    """``draw_line`` writes a line already written in the same document (the evening's name on
    every card) from the operators it gave the first time: the same operators as writing it
    afresh in a document of its own, for lines in every script."""
    from io import BytesIO

    from reportlab.pdfgen.canvas import Canvas

    from tournament.printing import text
    from tournament.printing.text import draw_line

    lines = [layout_line(isolate(name)) for name in [*SCRIPT_NAMES.values(), "Table 1 · Head table"]]

    def written(canvas, line, remembered=True):
        if not remembered:
            text._WRITTEN.pop(canvas._doc, None)
        textobject = canvas.beginText()
        draw_line(textobject, line, 9)
        return textobject._code, textobject._curSubset, textobject._fontname, textobject._x

    remembering, forgetting = Canvas(BytesIO()), Canvas(BytesIO())
    for canvas, remembered in ((remembering, True), (forgetting, False)):
        for line in lines:  # the first time: both documents give each character its code
            written(canvas, line, remembered)
    again = [written(remembering, line) for line in lines]
    afresh = [written(forgetting, line, remembered=False) for line in lines]
    assert again == afresh
    assert any(text._WRITTEN.get(remembering._doc, {}))  # the lines were remembered


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from([*NAMES, *LINKS]), st.sampled_from(["\u2068", "\u2069", " ", "2"]))).map("".join)
)
def test_a_line_with_no_right_to_left_letter_is_cut_at_its_isolates_as_the_bidi_cut_gives(line):
    """``_segments`` cuts a line with no right-to-left letter at its isolates at once: the
    same segments, each left to right, as the character-by-character cut with UAX #9's base
    level of each isolate, for any line of names, links and isolate marks."""
    from bidi.algorithm import get_base_level

    from tournament.printing.text import FSI, PDI, _segments

    parts, current = [], ""
    inside = line.find(PDI) >= 0 and (line.find(FSI) < 0 or line.find(PDI) < line.find(FSI))
    for char in line:
        if char in (FSI, PDI):
            if current:
                parts.append((current, inside))
            current, inside = "", char == FSI
        else:
            current += char
    if current:
        parts.append((current, inside))
    assert _segments(line) == [(text, isolated and get_base_level(text) == 1) for text, isolated in parts]


# ---------------------------------------------------------------------------- plain strings (issue 26 item 5)


def _placed(line, size: float = 20) -> list[tuple[str, str, float, float, float]]:
    """Each character pdfplumber reads from a page where ``line`` alone is written at ``size``
    points from (40, 400): its glyph (font and character), x, baseline and advance in points."""
    import io

    import pdfplumber
    from reportlab.pdfgen.canvas import Canvas

    from tournament.printing.text import draw_line

    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    textobject = canvas.beginText()
    textobject.setTextOrigin(40, 400)
    draw_line(textobject, line, size)
    canvas.drawText(textobject)
    canvas.showPage()
    canvas.save()
    with pdfplumber.open(io.BytesIO(buffer.getvalue())) as document:
        return [(ch["fontname"], ch["text"], ch["x0"], ch["y0"], ch["adv"]) for ch in document.pages[0].chars]


def _shaped_way(line):
    """``line`` with every piece written as ReportLab's ``ShapedStr``, glyph by glyph (the way
    every piece was written before plain strings)."""
    from reportlab.pdfbase.ttfonts import ShapedStr

    from tournament.printing.text import Line

    pieces = tuple(
        (
            font,
            glyphs if isinstance(glyphs, ShapedStr) else (_glyphs(font, glyphs) or _shape_by_reportlab(font, glyphs)),
        )
        for font, glyphs in line.pieces
    )
    return Line(pieces, line.width, line.actual)


def _same_places(a, b) -> bool:
    return len(a) == len(b) and all(
        p[:2] == q[:2] and all(abs(u - v) <= 0.01 for u, v in zip(p[2:], q[2:], strict=True))
        for p, q in zip(a, b, strict=True)
    )


PLAIN_OR_NOT = [
    *NAMES,
    *SCRIPT_NAMES.values(),
    *LINKS[:10],
    "Table 1 · Head table",
    "AV Ta",
    "office",
    "a\u0301 e\u0300",
]


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("text", PLAIN_OR_NOT)
def test_a_run_written_as_a_plain_string_draws_the_same_glyphs_at_the_same_places(text, bold):
    """A run HarfBuzz left as it is (``text._unshaped``) is written as one plain string: on the
    page, the same glyphs (font and character) at the same x, baseline and advance, to 0.01
    pt, as writing it glyph by glyph, for every sample name in every script and the links;
    and the same operators, byte for byte (ReportLab writes an unkerned shaped run as one
    string too, after a loop over its glyphs that the plain string skips)."""
    line = layout_line(isolate(text), bold)
    assert _same_places(_placed(line), _placed(_shaped_way(line)))
    assert _operators(line) == _operators(_shaped_way(line))  # ReportLab merges an unadjusted run into one Tj too


def _operators(line) -> list[str]:
    """The PDF operators ``draw_line`` writes for ``line`` at 20 points on a fresh canvas."""
    from reportlab.pdfgen.canvas import Canvas

    from tournament.printing.text import draw_line

    textobject = Canvas(None).beginText()
    draw_line(textobject, line, 20)
    return list(textobject._code)


@pytest.mark.parametrize(
    "text",
    [
        "AV Ta",  # kerned pairs
        "office",  # the "ffi" ligature
        "a\u0301",  # a mark HarfBuzz positions
        SCRIPT_NAMES["Hebrew"],  # right to left
        SCRIPT_NAMES["Arabic"],  # right to left, joined
        SCRIPT_NAMES["Devanagari"],  # conjuncts, vowel signs reordered
    ],
)
def test_kerned_ligated_marked_and_right_to_left_runs_keep_the_shaped_way(text):
    from reportlab.pdfbase.ttfonts import ShapedStr

    pieces = layout_line(isolate(text)).pieces
    assert all(isinstance(glyphs, ShapedStr) for _, glyphs in pieces), pieces


def test_links_and_unkerned_names_are_written_as_plain_strings():
    from reportlab.pdfbase.ttfonts import ShapedStr

    # A link's key line (the line no other card prints), a host with no kerned pair, and a
    # Cyrillic name Noto Sans does not kern ("headtable.example/g/" kerns "e.": shaped).
    keys = [link.split("/g/")[1] for link in LINKS[:10]]
    for text in [*keys, "headtable.local:8000/g/", "Дмитрий Иванович Смирнов"]:
        assert all(not isinstance(glyphs, ShapedStr) for _, glyphs in layout_line(isolate(text)).pieces), text


def test_a_kerned_run_written_as_a_plain_string_would_move_its_glyphs():
    """What the comparison above can see: "AV" written as a plain string (its kerning lost)
    puts the "V" elsewhere than the shaped "AV"."""
    from tournament.printing.text import Line

    shaped = layout_line("AV")
    plain = Line(tuple((font, str(glyphs)) for font, glyphs in shaped.pieces), shaped.width, shaped.actual)
    assert not _same_places(_placed(plain), _placed(shaped))
