"""Text for print: cleaning names, fonts per script, right-to-left shaping, shrink-then-wrap.

Rules: ``tournament/printing/text.py`` and ``fonts.py`` docstrings (issue 7 item 6).
"""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.printing.data import PrintError, page_size
from tournament.printing.fonts import FONT_DIR, has_glyph, split_runs
from tournament.printing.samples import NAMES
from tournament.printing.text import (
    MIN_SIZE,
    clean_text,
    fit,
    measure,
    printable_name,
    visual,
)


def test_control_characters_are_removed_and_tabs_become_spaces():
    assert clean_text("Ann\x00a\x07 \tLee\n") == "Anna Lee"
    assert clean_text("Bob\u200f \u202eSmith") == "Bob Smith"  # bidi marks are format chars


def test_emoji_are_removed_not_boxed():
    assert clean_text("Zoë 🎉 Brown 👍🏽") == "Zoë Brown"
    assert clean_text("Ann ❤️ Lee") in ("Ann ❤ Lee", "Ann Lee")  # heart kept only as text symbol
    assert clean_text("👨‍👩‍👧 Family") == "Family"


def test_a_letter_no_font_has_prints_as_a_question_mark():
    # Devanagari is not among the vendored scripts (documented in text.py).
    assert clean_text("Priya प") == "Priya ?"


def test_name_of_only_control_characters_raises_a_clear_print_error():
    with pytest.raises(PrintError, match="nothing printable.*correct the name"):
        printable_name("\x01\x02\x1b", "Guest 3")
    with pytest.raises(PrintError, match="Guest 3"):
        printable_name("🎉🎉", "Guest 3")


def test_nfc_normalisation_joins_accents():
    assert clean_text("Ame\u0301lie") == "Amélie"


@pytest.mark.parametrize("name", NAMES)
def test_every_sample_name_is_printable_with_a_font_that_has_every_glyph(name):
    cleaned = clean_text(name)
    assert cleaned == unicodedata.normalize("NFC", name)  # nothing lost from real names
    for bold in (False, True):
        for font, chunk in split_runs(visual(cleaned), bold):
            for char in chunk:
                assert has_glyph(font, char), (name, font, char)


def test_each_script_gets_its_own_font():
    fonts = {font for font, _ in split_runs(visual("Anna Σοφία Дмитрий נועה 王 さくら 김"))}
    assert {"HT-Sans", "HT-Hebrew", "HT-CJK", "HT-Hangul"} <= fonts
    arabic = split_runs(visual("محمد"))
    assert [font for font, _ in arabic] == ["HT-Arabic"]


def test_hebrew_is_put_in_display_order():
    assert visual("נועה כהן") == "ןהכ העונ"


def test_arabic_is_shaped_and_reversed_and_loses_nothing():
    name = "محمد العلي"
    shown = visual(name)
    assert all(0xFE70 <= ord(c) <= 0xFEFF or c == " " for c in shown)  # presentation forms
    # How RTL is compared: reversing the display string and folding presentation forms
    # (NFKC) gives back the name as typed.
    assert unicodedata.normalize("NFKC", shown[::-1]) == name


def test_latin_text_is_left_alone():
    assert visual("Søren") == "Søren"


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


def test_a_name_too_long_to_shrink_wraps_and_every_line_fits():
    name = "Ekaterina Alexandrovna Romanova-Dolgorukova von Hohenzollern-Sigmaringen"
    fitted = fit(name, width=120, height=60, size=20, bold=True)
    assert len(fitted.lines) > 1
    assert all(w <= 120 + 1e-6 for w in fitted.widths)
    assert fitted.height <= 60 + 1e-6
    assert "".join(chunk for line in fitted.lines for _, chunk in line).replace(" ", "") == name.replace(" ", "")


def test_300_characters_without_a_space_wrap_inside_the_box():
    name = "Ä" * 150 + "ж" * 150
    fitted = fit(name, width=236, height=52, size=20, bold=True)
    assert all(w <= 236 + 1e-6 for w in fitted.widths)
    assert fitted.height <= 52 + 1e-6
    assert fitted.size >= MIN_SIZE
    assert sum(len(chunk) for line in fitted.lines for _, chunk in line) == 300


def test_text_too_long_even_at_the_smallest_size_is_cut_with_an_ellipsis():
    fitted = fit("W" * 5000, width=100, height=20, size=20)
    assert fitted.size == MIN_SIZE and fitted.height <= 20
    assert fitted.lines[-1][-1][1].endswith("…")


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=120), st.floats(40, 300), st.floats(10, 80))
def test_any_text_fits_its_box_or_is_cut(text, width, height):
    cleaned = clean_text(text)
    fitted = fit(cleaned, width=width, height=height, size=18)
    assert all(w <= width + 1e-6 for w in fitted.widths)
    assert fitted.height <= height + 1e-6 or len(fitted.lines) == 1


@pytest.mark.parametrize("paper,size", [("A4", (595.2755905511812, 841.8897637795277)),
                                        ("letter", (612, 792)), ("LETTER", (612, 792)), ("a4", None)])
def test_paper_sizes(paper, size):
    if size:
        assert page_size(paper) == pytest.approx(size)
    else:
        assert page_size(paper) == page_size("A4")


def test_unknown_paper_is_a_print_error():
    with pytest.raises(PrintError, match="choose A4 or letter"):
        page_size("A3")


def test_fonts_are_vendored_truetype_with_their_licences():
    files = sorted(p.name for p in FONT_DIR.iterdir())
    ttfs = [f for f in files if f.endswith(".ttf")]
    assert len(ttfs) >= 10 and any(f.startswith("LICENSE-") for f in files)
    for name in ttfs:
        assert (FONT_DIR / name).read_bytes()[:4] in (b"\x00\x01\x00\x00", b"true")  # glyf, not CFF
    assert sum((FONT_DIR / f).stat().st_size for f in files) < 25 * 1024 * 1024
