"""The site's own fonts for every script a name is written in (issue 24 item 7), without a
browser: every ``@font-face`` of ``static/fonts.css`` and ``static/fonts-scripts.css`` names a
WOFF2 file that is there; each family folder has its licence and a README saying where its
files come from; the family stack of ``static/headtable.css`` sends each character of the
issue's names to the shipped font of its script (kana to Japanese, Hangul to Korean, Han to
Chinese); WhiteNoise serves the files and ``collectstatic`` collects them, leaving the WOFF2
uncompressed (they are compressed already). ``tournament/webfonts.py``, which writes the
stylesheet from Fontsource's npm packages, is tested on small packages of its own shape."""

from __future__ import annotations

import json
import re
import urllib.request
from functools import cache
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st

from tournament import webfonts

STATIC = Path(__file__).resolve().parent.parent / "static"
STYLESHEETS = ("fonts.css", "fonts-scripts.css")
NAMES = {  # the issue's names -> the family each is drawn with
    "ليلى": "Noto Sans Arabic Variable",
    "अनन्या": "Noto Sans Devanagari Variable",
    "さくら": "Noto Sans JP Variable",
    "王芳": "Noto Sans SC Variable",
    "민준": "Noto Sans KR Variable",
    "נועה": "Noto Sans Hebrew Variable",
    "สมชาย": "Noto Sans Thai Variable",
    "Zoë Brzęczyszczykiewicz": "Noto Sans Variable",
    "🎲": "Noto Emoji Variable",  # an emoji in a name or an evening's title, as the documents print it
}


@cache
def declared() -> tuple[tuple[str, str, tuple[tuple[int, int], ...]], ...]:
    """(family, src path under static/, unicode ranges) of every @font-face of both stylesheets."""
    found = []
    for sheet in STYLESHEETS:
        for rule in webfonts.FACE.finditer((STATIC / sheet).read_text()):
            body = rule["body"]
            family = re.search(r"font-family:\s*'([^']+)'", body)[1]
            src = re.search(r"src:\s*url\(([^)]+)\)", body)[1]
            ranges = webfonts.parse_ranges(re.search(r"unicode-range:\s*([^;}]+)", body)[1])
            found.append((family, src, ranges))
    return tuple(found)


@cache
def stack() -> tuple[str, ...]:
    """The families of the body's font-family in static/headtable.css, in order."""
    css = (STATIC / "headtable.css").read_text()
    value = re.search(r"body \{[^}]*?font-family:\s*([^;]+);", css)[1]
    return tuple(f.strip().strip('"') for f in value.split(","))


def drawn_with(character: str) -> str | None:
    """The first family of the stack with a face whose unicode-range has ``character`` (as a
    browser picks, the font having the glyph: Fontsource's ranges are the font's own)."""
    return next((family for family in stack() if ord(character) in coverage().get(family, ())), None)


@cache
def coverage() -> dict[str, frozenset[int]]:
    """family -> every code point its faces' unicode-ranges declare."""
    points: dict[str, set[int]] = {}
    for family, _, ranges in declared():
        points.setdefault(family, set()).update(c for lo, hi in ranges for c in range(lo, hi + 1))
    return {family: frozenset(p) for family, p in points.items()}


def test_every_font_face_names_a_woff2_file_that_is_there():
    faces = declared()
    assert len(faces) > 300  # 7 Noto Sans, 4 scripts, 97 + 120 + 120 CJK slices
    for family, src, _ in faces:
        path = STATIC / src
        assert path.is_file(), (family, src)
        assert path.read_bytes()[:4] == b"wOF2", src
    files = {src for _, src, _ in faces}
    on_disk = {str(p.relative_to(STATIC)) for p in (STATIC / "fonts").rglob("*.woff2")}
    assert on_disk == files  # nothing shipped that no page can use
    assert all(
        text.count("font-display: swap") + text.count("font-display:swap") == text.count("@font-face")
        for text in ((STATIC / s).read_text() for s in STYLESHEETS)
    )


def test_every_family_folder_has_its_licence_and_a_readme_naming_the_package():
    for script in webfonts.SCRIPTS:
        folder = STATIC / "fonts" / script.folder
        assert "SIL Open Font License, Version 1.1" in (folder / "OFL.txt").read_text()
        readme = (folder / "README.md").read_text()
        assert f"`{script.package}` {script.version}" in readme and "make web-fonts" in readme


def test_the_body_names_every_shipped_family_after_noto_sans_and_base_links_both_stylesheets():
    families = {family for family, _, _ in declared()}
    assert stack() == ("Noto Sans Variable", *[webfonts_family(s) for s in webfonts.SCRIPTS], "sans-serif")
    assert set(stack()[:-1]) == families
    base = (STATIC.parent / "templates" / "base.html").read_text()
    assert base.index("'fonts.css'") < base.index("'fonts-scripts.css'") < base.index("'headtable.css'")


def webfonts_family(script: webfonts.Script) -> str:
    """The CSS family of a script's faces in the stylesheet."""
    return next(f for f, src, _ in declared() if src.startswith(f"fonts/{script.folder}/"))


@pytest.mark.parametrize("name, family", NAMES.items())
def test_each_name_of_the_issue_is_drawn_with_the_font_of_its_script(name, family):
    letters = [c for c in name if not c.isspace()]
    assert {drawn_with(c) for c in letters} == {family}, name


def test_kana_come_from_the_japanese_font_han_from_chinese_hangul_from_korean():
    assert drawn_with("カ") == drawn_with("ー") == drawn_with("ｶ") == "Noto Sans JP Variable"  # halfwidth too
    assert drawn_with("佐") == drawn_with("张") == "Noto Sans SC Variable"  # in both: the Chinese shapes
    assert drawn_with("한") == "Noto Sans KR Variable"
    chinese = [r for f, _, r in declared() if f == "Noto Sans SC Variable"]
    assert not any(lo <= k <= hi for ranges in chinese for lo, hi in ranges for k in range(0x3040, 0x3100))
    assert {drawn_with(chr(c)) for c in range(0xAC00, 0xD7A4)} == {"Noto Sans KR Variable"}  # every syllable


@pytest.mark.django_db
def test_whitenoise_serves_the_stylesheet_and_the_files(live_server):
    with urllib.request.urlopen(live_server.url + "/static/fonts-scripts.css", timeout=10) as answer:  # noqa: S310
        text = answer.read().decode()
    assert text.count("@font-face") == sum(1 for _, src, _ in declared() if "/noto-sans/" not in src)
    for script in webfonts.SCRIPTS:
        src = next(s for _, s, _ in declared() if s.startswith(f"fonts/{script.folder}/"))
        with urllib.request.urlopen(f"{live_server.url}/static/{src}", timeout=10) as answer:  # noqa: S310
            assert answer.status == 200 and answer.read()[:4] == b"wOF2"


def test_collectstatic_collects_the_fonts_and_leaves_the_woff2_uncompressed(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path):
        call_command("collectstatic", "--noinput", verbosity=0)
    for _, src, _ in declared():
        assert (tmp_path / src).read_bytes() == (STATIC / src).read_bytes(), src
        assert not (tmp_path / f"{src}.gz").exists(), src  # WhiteNoise skips compressed formats
    assert (tmp_path / "fonts-scripts.css.gz").exists()


# tournament/webfonts.py, the writer of the stylesheet.


def test_ranges_are_read_and_written_as_fontsource_writes_them():
    text = "U+0600-06FF,U+200C,U+1EE00-1EE03"
    assert webfonts.parse_ranges(text) == ((0x600, 0x6FF), (0x200C, 0x200C), (0x1EE00, 0x1EE03))
    assert webfonts.write_ranges(webfonts.parse_ranges(text)) == text
    assert webfonts.parse_ranges("U+25ee8,U+26ff6-26ff8") == ((0x25EE8, 0x25EE8), (0x26FF6, 0x26FF8))
    with pytest.raises(ValueError):
        webfonts.parse_ranges("U+4??")


def test_without_cuts_the_kana_out_of_a_range():
    assert webfonts.without(((0x3000, 0x30FF), (0x4E00, 0x4E01)), webfonts.KANA) == ((0x3000, 0x303F), (0x4E00, 0x4E01))
    assert webfonts.without(((0x3041, 0x3041),), webfonts.KANA) == ()
    assert webfonts.without(((0x30F0, 0x3105),), ((0x30A0, 0x30FF),)) == ((0x3100, 0x3105),)


pairs = st.lists(st.tuples(st.integers(0, 300), st.integers(0, 40)).map(lambda p: (p[0], p[0] + p[1])), max_size=6)


@given(pairs, pairs)
def test_without_keeps_exactly_the_code_points_not_cut(ranges, cut):
    points = {c for lo, hi in ranges for c in range(lo, hi + 1)}
    cut_points = {c for lo, hi in cut for c in range(lo, hi + 1)}
    left = webfonts.without(tuple(ranges), tuple(cut))
    assert {c for lo, hi in left for c in range(lo, hi + 1)} == points - cut_points
    assert all(lo <= hi for lo, hi in left)


def fake_package(root: Path, script: webfonts.Script, version: str | None = None) -> Path:
    """A package shaped like Fontsource's: package.json, wght.css with a Latin face and the
    script's own (or two numbered slices, one all kana), files/, LICENSE."""
    package = root / script.folder / "package"
    (package / "files").mkdir(parents=True)
    meta = {"name": script.package, "version": version or script.version}
    (package / "package.json").write_text(json.dumps(meta))
    subsets = {"latin": "U+0000-00FF"}
    if script.subsets:
        subsets[script.subsets[0]] = "U+0600-06FF,U+200C"
    else:
        subsets |= {"0": "U+3000-30FF,U+4E00", "1": "U+3041-3096"}
    css = []
    for subset, ranges in subsets.items():
        name = f"{script.folder}-{subset}-wght-normal.woff2"
        (package / "files" / name).write_bytes(b"wOF2" + subset.encode())
        css.append(
            f"/* {name} */\n@font-face {{\n  font-family: 'X Variable';\n  font-style: normal;\n"
            f"  font-display: swap;\n  font-weight: 100 900;\n  src: url(./files/{name}) format('woff2-variations');\n"
            f"  unicode-range: {ranges};\n}}\n"
        )
    (package / "wght.css").write_text("\n".join(css))
    (package / "LICENSE").write_text("This Font Software is licensed under the SIL Open Font License, Version 1.1.")
    return package


def test_the_writer_ships_each_packages_own_script_and_cuts_the_kana_from_chinese(tmp_path):
    packages = {s.folder: fake_package(tmp_path / "npm", s) for s in webfonts.SCRIPTS}
    static = tmp_path / "static"
    (static / "fonts" / "noto-sans-sc").mkdir(parents=True)
    (static / "fonts" / "noto-sans-sc" / "stale.woff2").write_bytes(b"wOF2")
    total = webfonts.write(packages, static)
    css = (static / "fonts-scripts.css").read_text()
    assert "latin" not in css and "stale" not in css
    assert not (static / "fonts" / "noto-sans-sc" / "stale.woff2").exists()
    assert "src:url(fonts/noto-sans-arabic/noto-sans-arabic-arabic-wght-normal.woff2)" in css
    assert "noto-sans-sc-0-wght-normal.woff2) format('woff2-variations');unicode-range:U+3000-303F,U+4E00}" in css
    assert "noto-sans-sc-1-" not in css  # all kana: nothing left to declare
    assert not (static / "fonts" / "noto-sans-sc" / "noto-sans-sc-1-wght-normal.woff2").exists()
    assert "noto-sans-jp-1-wght-normal.woff2) format('woff2-variations');unicode-range:U+3041-3096}" in css
    assert sorted(p.name for p in (static / "fonts" / "noto-sans-jp").iterdir()) == [
        "OFL.txt",
        "README.md",
        "noto-sans-jp-0-wght-normal.woff2",
        "noto-sans-jp-1-wght-normal.woff2",
    ]
    assert total == sum(p.stat().st_size for p in (static / "fonts").rglob("*.woff2"))
    assert "declared without the kana (from Noto Sans JP) and Hangul" in " ".join(
        (static / "fonts" / "noto-sans-sc" / "README.md").read_text().split()
    )


def test_the_writer_refuses_another_version_or_a_file_that_is_not_woff2(tmp_path):
    arabic = webfonts.SCRIPTS[0]
    with pytest.raises(ValueError, match="5.2.8, not @fontsource-variable/noto-sans-arabic 5.3.0"):
        webfonts.shipped(arabic, fake_package(tmp_path / "old", arabic, "5.2.8"))
    package = fake_package(tmp_path / "bad", arabic)
    (package / "files" / "noto-sans-arabic-arabic-wght-normal.woff2").write_bytes(b"<html>")
    with pytest.raises(ValueError, match="is not a WOFF2 file"):
        webfonts.shipped(arabic, package)
