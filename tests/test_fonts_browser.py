"""The site brings its own font (issue 24 item 7): every page is set in the Noto Sans shipped in
``static/fonts/noto-sans/`` (``static/fonts.css``), so the room display lays out the same on any
computer. Three Chromiums with fresh profiles, each seeing other fonts through fontconfig: the
computer's own (DejaVu, Liberation), the computer's plus Noto Sans installed as a system font
(as Debian's ``fonts-noto-core`` does, where the pages that named "Noto Sans" used to measure
another font), and the computer's less DejaVu (Liberation Sans, Arial's metrics, stands in); each
sees the computer's rendering settings (hinting, antialiasing), only its fonts change. In each, the body's computed family is the shipped one,
every glyph of a long name is drawn with the web font (Chromium's own account of the fonts it
used), the font files come from ``/static/fonts/`` and from nowhere else, and each name on the
room display is as wide to the pixel as in the others, inside its box on every page."""

from __future__ import annotations

import os
import urllib.request

import pytest
from django.urls import reverse

from tests.fixtures_room import played_evening
from tests.test_room_scale import MEASURE, check_fits

# Debian's fonts-dejavu taken away, leaving fonts-liberation (Arial's metrics) to stand in.
NO_DEJAVU = "<selectfont><rejectfont><glob>/usr/share/fonts/truetype/dejavu/*</glob></rejectfont></selectfont>"
FAMILY = (
    ", ".join(
        f'"Noto Sans {script}Variable"'
        for script in ("", "Arabic ", "Hebrew ", "Devanagari ", "Thai ", "SC ", "JP ", "KR ")
    )
    + ", sans-serif"
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


def _fontconfig(tmp, name: str, body: str) -> str:
    path = tmp / f"{name}.conf"
    cache = tmp / f"{name}-cache"
    cache.mkdir(exist_ok=True)
    path.write_text(f'<?xml version="1.0"?>\n<fontconfig>{body}<cachedir>{cache}</cachedir></fontconfig>\n')
    return str(path)


@pytest.fixture(scope="module")
def chromiums(browser, chromium_path, tmp_path_factory):
    """Three headless Chromiums (fresh profiles) launched by the session's Playwright, the
    conftest's: the computer's fonts, those and Noto Sans installed, and those less DejaVu
    (Liberation Sans stands in); yields name -> browser."""
    tmp = tmp_path_factory.mktemp("fontconfig")
    system = '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
    configs = {
        "the computer's fonts": _fontconfig(tmp, "system", system),
        "Noto Sans installed": _fontconfig(tmp, "noto", f"{system}<dir>{_noto_dir()}</dir>"),
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
