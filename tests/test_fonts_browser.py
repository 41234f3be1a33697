"""The site brings its own font (issue 24 item 7): every page is set in the Noto Sans shipped in
``static/fonts/noto-sans/`` (``static/fonts.css``), so the room display lays out the same on any
computer. Three Chromiums with fresh profiles, each seeing other fonts through fontconfig: the
computer's own (DejaVu, Liberation), the computer's plus Noto Sans installed as a system font
(as Debian's ``fonts-noto-core`` does, where the pages that named "Noto Sans" used to measure
another font), and the computer's less DejaVu (Liberation Sans, Arial's metrics, stands in); each
sees the computer's rendering settings (hinting, antialiasing), only its fonts change. In each, the body's computed family is the shipped one,
every glyph of a long name is drawn with the web font (Chromium's own account of the fonts it
used), the font files come from ``/static/fonts/`` and from nowhere else, and each name on the
room display is as wide to the pixel as in the others, inside its box on every page. Names in
the scripts Noto Sans lacks (the issue's "ليلى", "अनन्या", "さくら", "王芳", "민준", "נועה", "สมชาย")
are drawn with the shipped fonts of ``static/fonts-scripts.css`` on a guest's phone at 390 px
(/tmp/fonts-scripts-guest-390.png) and on the room display in all three Chromiums, the second
with the same Noto fonts installed as system fonts, as wide to the pixel in each
(/tmp/fonts-scripts-room-N.png)."""

from __future__ import annotations

import os
import re
import urllib.request

import pytest
from django.urls import reverse

from tests.fixtures_room import played_evening
from tests.test_room_scale import MEASURE, check_fits
from tournament.models import Guest

# Debian's fonts-dejavu taken away, leaving fonts-liberation (Arial's metrics) to stand in.
NO_DEJAVU = "<selectfont><rejectfont><glob>/usr/share/fonts/truetype/dejavu/*</glob></rejectfont></selectfont>"
FAMILY = (
    ", ".join(
        f'"Noto Sans {script}Variable"'
        for script in ("", "Arabic ", "Hebrew ", "Devanagari ", "Thai ", "SC ", "JP ", "KR ")
    )
    + ', "Noto Emoji Variable", sans-serif'
)

# Each seated name's text and width in px on the "find your name" slide's pages.
WIDTHS = """() => [...document.querySelectorAll('#room-live .slide.active .name')]
  .filter((el) => el.offsetParent !== null)
  .map((el) => [el.textContent.trim(), el.getBoundingClientRect().width])"""
FONT_FILES = """() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\\.(woff2?|ttf|otf)$/.test(n))"""
LOADED = """async () => { await document.fonts.ready;
  return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family); }"""


def _noto_dir() -> str:
    """Where the printing's Noto Sans lives (``manimgx-fonts``): the system font of the second
    Chromium."""
    import manimgx_fonts

    return os.path.dirname(manimgx_fonts.__file__)


def _cjk_dir() -> str:
    """Where the printing's Noto Sans SC, TC, JP and KR live (``justmytype-intl-cjk``)."""
    import justmytype_intl_cjk

    return os.path.join(os.path.dirname(justmytype_intl_cjk.__file__), "fonts")


def _fontconfig(tmp, name: str, body: str) -> str:
    path = tmp / f"{name}.conf"
    cache = tmp / f"{name}-cache"
    cache.mkdir(exist_ok=True)
    path.write_text(f'<?xml version="1.0"?>\n<fontconfig>{body}<cachedir>{cache}</cachedir></fontconfig>\n')
    return str(path)


@pytest.fixture(scope="module")
def chromiums(browser, chromium_path, tmp_path_factory):
    """Three headless Chromiums (fresh profiles) launched by the session's Playwright, the
    conftest's: the computer's fonts, those and the printing's Noto fonts installed (Noto Sans,
    its Arabic, Hebrew, Devanagari, Thai... and CJK families), and those less DejaVu
    (Liberation Sans stands in); yields name -> browser."""
    tmp = tmp_path_factory.mktemp("fontconfig")
    system = '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
    configs = {
        "the computer's fonts": _fontconfig(tmp, "system", system),
        "Noto Sans installed": _fontconfig(tmp, "noto", f"{system}<dir>{_noto_dir()}</dir><dir>{_cjk_dir()}</dir>"),
        "no DejaVu, Liberation Sans only": _fontconfig(tmp, "liberation", system + NO_DEJAVU),
    }
    browsers = {
        name: browser.browser_type.launch(
            executable_path=chromium_path,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
            env={**os.environ, "FONTCONFIG_FILE": config},
        )
        for name, config in configs.items()
    }
    yield browsers
    for each in browsers.values():
        each.close()


def _fonts_drawn(page, selector: str) -> list[dict]:
    """The fonts Chromium drew the first element matching ``selector`` with: its
    ``CSS.getPlatformFontsForNode`` (family name, whether a web font, how many glyphs)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    return cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_computer_draws_the_room_display_in_the_shipped_font_to_the_pixel(chromiums, live_server, host):
    evening = played_evening(host, 30)
    url = live_server.url + reverse("room", args=[evening.public_key]) + "?mode=full"
    widths: dict[str, dict[str, float]] = {}
    for name, browser in chromiums.items():
        context = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=False)
        page = context.new_page()
        requests: list[str] = []
        page.on("request", lambda r, seen=requests: seen.append(r.url))
        page.goto(url)
        page.wait_for_function("() => !!document.querySelector('#room-live')?.dataset.pages")
        page.evaluate("window.roomDisplay.pause()")
        assert page.evaluate("getComputedStyle(document.body).fontFamily") == FAMILY, name
        assert "Noto Sans Variable" in page.evaluate(LOADED), name
        seating = next(s for s in page.evaluate("window.roomDisplay.pages()") if s["slide"] == "seating")
        seen: dict[str, float] = {}
        for number in range(seating["pages"]):
            page.evaluate("([s, n]) => window.roomDisplay.show(s, n)", ["seating", number])
            page.evaluate(LOADED)  # the page's new text may ask for another subset
            check_fits(page.evaluate(MEASURE), big_screen=True)
            seen.update(dict(page.evaluate(WIDTHS)))
        widths[name] = seen
        assert "Aleksandra Wolańska-Brzęczyszczykiewicz" in seen, name  # the longest, Latin Extended
        page.evaluate("([s, n]) => window.roomDisplay.show(s, n)", ["seating", 0])
        drawn = _fonts_drawn(page, "#room-live .slide.active .seat .name")
        assert drawn and all(f["isCustomFont"] and f["familyName"] == "Noto Sans" for f in drawn), (name, drawn)
        files = page.evaluate(FONT_FILES)
        static = live_server.url + "/static/fonts/noto-sans/"
        assert static + "noto-sans-latin-wght-normal.woff2" in files, (name, files)
        assert static + "noto-sans-latin-ext-wght-normal.woff2" in files, (name, files)  # ń, ę
        assert all(f.startswith(static) for f in files), (name, files)
        assert all(r.startswith(live_server.url) for r in requests), name  # no CDN, nothing from elsewhere
        context.close()
    first, *others = widths.values()
    for name, seen in zip(list(widths)[1:], others, strict=True):
        assert seen.keys() == first.keys()
        apart = {text: (first[text], seen[text]) for text in first if abs(first[text] - seen[text]) > 0.5}
        assert not apart, f"with {name}, names are not as wide as with the computer's fonts: {apart}"


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310 (the live server's own URL)
        assert answer.status == 200, url
        return answer.read()


@pytest.mark.django_db
def test_the_font_is_served_from_static_with_its_licence_and_the_css_says_swap(live_server):
    text = _get(live_server.url + "/static/fonts.css").decode()
    faces = text.count("@font-face")
    assert faces == 7 and text.count("font-display: swap;") == faces
    for subset in ("latin", "latin-ext", "greek", "greek-ext", "cyrillic", "cyrillic-ext", "vietnamese"):
        assert f"url(fonts/noto-sans/noto-sans-{subset}-wght-normal.woff2)" in text
        assert _get(f"{live_server.url}/static/fonts/noto-sans/noto-sans-{subset}-wght-normal.woff2")[:4] == b"wOF2"
    assert "SIL Open Font License, Version 1.1" in _get(live_server.url + "/static/fonts/noto-sans/OFL.txt").decode()


# The names in the scripts fonts.css lacks -> the font Chromium must draw each with.
SCRIPT_NAMES = {
    "ليلى": "Noto Sans Arabic",
    "अनन्या": "Noto Sans Devanagari",
    "さくら": "Noto Sans JP",
    "王芳": "Noto Sans SC",
    "민준": "Noto Sans KR",
    "נועה": "Noto Sans Hebrew",
    "สมชาย": "Noto Sans Thai",
}
# The family of every face in document.fonts that has loaded, once the page's fonts are ready.
FACES_LOADED = """async () => { await document.fonts.ready;
  return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '')); }"""


def _script_evening(host):
    """Eight guests at two tables, round 1 rung: seven named in the issue's scripts, one Latin."""
    evening = played_evening(host, 8)
    for guest, name in zip(evening.guests.order_by("pk"), SCRIPT_NAMES, strict=False):
        Guest.objects.filter(pk=guest.pk).update(name=name, name_key=Guest.fold_name(name))
    return evening


def _names_drawn(page, selector: str) -> dict[str, list[dict]]:
    """name -> the fonts Chromium drew it with (``CSS.getPlatformFontsForNode``), for every
    element matching ``selector``."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    drawn = {}
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]:
        html = cdp.send("DOM.getOuterHTML", {"nodeId": node})["outerHTML"]
        drawn[re.sub(r"<[^>]+>", "", html).strip()] = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return drawn


def _check_scripts(page, live_server, selector: str, where: str) -> None:
    """Every name of SCRIPT_NAMES under ``selector`` is drawn with its shipped font only, every
    shipped family has a loaded face, and every font file came from /static/fonts/<family>/."""
    loaded = set(page.evaluate(FACES_LOADED))
    assert loaded >= {f"{family} Variable" for family in SCRIPT_NAMES.values()} | {"Noto Sans Variable"}, (
        where,
        loaded,
    )
    drawn = _names_drawn(page, selector)
    for name, family in SCRIPT_NAMES.items():
        assert name in drawn, (where, name, list(drawn))
        fonts = drawn[name]
        # A CJK variable font names its default instance: "Noto Sans JP Thin", drawn at the page's weight.
        assert fonts and all(f["isCustomFont"] and f["familyName"].removesuffix(" Thin") == family for f in fonts), (
            where,
            name,
            fonts,
        )
    files = page.evaluate(FONT_FILES)
    assert files and all(f.startswith(live_server.url + "/static/fonts/") for f in files), (where, files)
    for family in SCRIPT_NAMES.values():
        folder = family.lower().replace(" ", "-")
        assert any(f"/static/fonts/{folder}/" in f for f in files), (where, family, files)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_names_in_every_script_are_drawn_with_the_shipped_fonts_on_a_guests_phone(browser, live_server, host):
    evening = _script_evening(host)
    guest = evening.guests.order_by("pk").first()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/g/{guest.key}/")
    _check_scripts(phone, live_server, "section.standings li bdi", "the guest's page")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    phone.screenshot(path="/tmp/fonts-scripts-guest-390.png", full_page=True)
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_names_in_every_script_are_as_wide_on_the_room_display_whatever_fonts_the_computer_has(
    chromiums, live_server, host
):
    """The room display in the three Chromiums: the computer's fonts (no Arabic, Thai or CJK font
    at all here), those and the Noto fonts of every script installed as system fonts (the
    printing's), those less DejaVu: each name drawn with the shipped font, as wide to the pixel."""
    evening = _script_evening(host)
    url = live_server.url + reverse("room", args=[evening.public_key]) + "?mode=full"
    widths = {}
    for name, each in chromiums.items():
        room = each.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        room.goto(url)
        room.wait_for_function("() => !!document.querySelector('#room-live')?.dataset.pages")
        room.click(".room-unlock")  # the host's tap: the screenshot shows the slide, not the button
        room.evaluate("window.roomDisplay.pause()")
        room.evaluate("([s, n]) => window.roomDisplay.show(s, n)", ["seating", 0])
        _check_scripts(room, live_server, "#room-live .slide.active .seat .name", f"the room display, {name}")
        check_fits(room.evaluate(MEASURE), big_screen=True)
        widths[name] = dict(room.evaluate(WIDTHS))
        room.screenshot(path=f"/tmp/fonts-scripts-room-{len(widths)}.png")
        room.context.close()
    first, *others = widths.values()
    assert set(SCRIPT_NAMES) <= set(first)
    for name, seen in zip(list(widths)[1:], others, strict=True):
        apart = {text: (first[text], seen[text]) for text in first if abs(first[text] - seen[text]) > 0.5}
        assert not apart, f"with {name}, names are not as wide as with the computer's fonts: {apart}"
