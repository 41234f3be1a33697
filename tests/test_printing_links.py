"""Printed links: a guest's link under the QR code of a seating card (sheet and tent) and of a
score card prints whole, at 7 pt at least, clear of every other text, and the QR codes still
scan. Rules: issue 13 item 3 ("7 pt at least": a guest whose camera will not scan types the
link), ``seating_cards.LINK_SIZE`` and ``text.fit_link``."""

import io
from dataclasses import replace

import pdfplumber
import pytest

from tests.test_printing_documents import scan
from tournament.printing import SeatingCardsPdf
from tournament.printing.samples import sample_cards
from tournament.printing.tally_cards import TallyCardsPdf
from tournament.printing.tally_data import TallyCardData
from tournament.printing.text import fit_link, measure

# The short link is the site's address without its scheme (``documents.contents``), then
# /g/ and the guest's 43-character key: the sample's host, a party's local name with its port,
# and a long host name.
SITES = ["headtable.example", "headtable.local:8000", "bunco-night-at-the-village-hall.example.org:8443"]


def _cards(site: str, count: int = 8):
    return [
        replace(
            card,
            url=f"http://{site}/g/{card.url.rsplit('/g/', 1)[1]}",
            short_url=f"{site}/g/{card.url.rsplit('/g/', 1)[1]}",
        )
        for card in sample_cards(8)[:count]
    ]


def _link_chars(pdf: bytes, links: list[str]) -> list[tuple[list[dict], list[dict]]]:
    """For each page: the characters of the links printed on it (found in the page's drawing
    order, each link's characters one after another) and every other character."""
    out = []
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            chars = page.chars
            drawn = "".join(ch["text"] for ch in chars)
            ours: set[int] = set()
            start = 0
            for link in links:
                at = drawn.find(link, start)
                if at >= 0:
                    ours.update(range(at, at + len(link)))
                    start = at + len(link)
            out.append(([chars[i] for i in sorted(ours)], [ch for i, ch in enumerate(chars) if i not in ours]))
    return out


def _overlap(a: dict, b: dict) -> bool:
    return a["x0"] < b["x1"] and b["x0"] < a["x1"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def _assert_links(pdf: bytes, links: list[str], per_page: int) -> None:
    pages = _link_chars(pdf, links)
    assert sum(len(ours) for ours, _ in pages) == sum(len(link) for link in links)  # every link whole
    for ours, others in pages:
        assert len(ours) == sum(len(link) for link in links[:per_page])
        assert min(ch["size"] for ch in ours) >= 7
        clash = [(a["text"], b["text"]) for a in ours for b in others if _overlap(a, b)]
        assert clash == []


@pytest.mark.parametrize("site", SITES)
@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("variant,per_page", [("sheet", 8), ("tent", 4)])
def test_seating_card_links_print_whole_at_7_pt_at_least(site, paper, variant, per_page):
    cards = _cards(site, per_page)
    assert len(cards[0].short_url) >= 64
    pdf = SeatingCardsPdf(evening_name="Links", cards=cards, paper=paper, variant=variant).render()
    _assert_links(pdf, [card.short_url for card in cards], per_page)
    assert sorted(scan(pdf)) == sorted(card.url for card in cards)


@pytest.mark.parametrize("site", SITES)
def test_score_card_links_print_whole_at_7_pt_at_least(site):
    cards = [
        TallyCardData(
            name=name,
            url=f"http://{site}/g/{key}/",
            short_url=f"{site}/g/{key}/",
            seat="Table 1 · North",
            columns=("Round", "Table", "Partner", "Points"),
            rows=tuple((str(r), "1", "Ann", "") for r in range(1, 13)),
        )
        for name, key in (("Ann Smith", "k001x07919Qz".ljust(43, "7")), ("Bob Jones", "k002x15838Qz".ljust(43, "7")))
    ]
    pdf = TallyCardsPdf(evening_name="Links", title="Bunco", cards=cards).render()
    _assert_links(pdf, [card.short_url for card in cards], 2)
    assert sorted(scan(pdf)) == sorted(card.url for card in cards)


def test_a_link_breaks_after_its_slashes_and_cuts_only_a_piece_wider_than_a_line():
    link = "headtable.local:8000/g/" + "k001x07919Qz".ljust(43, "7") + "/"
    wide = fit_link(link, width=measure(link) * 7.5 + 1, size=7.5)
    assert [line.pieces[0][1] for line in wide.lines] == [link]
    two = fit_link(link, width=measure(link) * 7.5 - 1, size=7.5)
    assert [str(line.pieces[0][1]) for line in two.lines] == ["headtable.local:8000/g/", link[23:]]
    narrow = fit_link(link, width=60, size=7.5)
    assert narrow.size == 7.5 and "".join(str(line.pieces[0][1]) for line in narrow.lines) == link
    assert all(line.width * 7.5 <= 60 for line in narrow.lines) and len(narrow.lines) > 3
