"""QR codes (``tournament.printing.qr``): the smallest code at level M, decoded back to the link,
drawn in a PDF that scans."""

import io

import zxingcpp
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from tests.test_printing_documents import scan
from tournament.printing.qr import QUIET, draw_qr, qr_modules

KEY = "k001x07919Qz".ljust(43, "7")  # as long as a real key (43 characters)
LINK = f"https://headtable.example/g/{KEY}/"


def decode(rows: list[list[bool]]) -> list[zxingcpp.Barcode]:
    """The codes zxing-cpp reads from ``rows`` drawn 8 pixels a module with the quiet zone."""
    side = len(rows) + 2 * QUIET
    image = Image.new("L", (side * 8, side * 8), 255)
    for r, row in enumerate(rows):
        for c, dark in enumerate(row):
            if dark:
                image.paste(0, ((c + QUIET) * 8, (r + QUIET) * 8, (c + QUIET + 1) * 8, (r + QUIET + 1) * 8))
    return zxingcpp.read_barcodes(image)


def test_a_guests_link_is_a_version_4_code_at_level_m_and_decodes_to_the_link():
    # 72 characters: in bytes alone it needs version 5 (37 modules; version 4 holds 62 bytes at
    # level M), but the key's digits as a numeric segment fit version 4: 33 modules a side.
    rows = qr_modules(LINK)
    assert len(rows) == 33 and all(len(row) == 33 for row in rows)
    # The three finder patterns: a 7-module dark ring round a 3 x 3 dark centre, top left.
    assert rows[0][:7] == [True] * 7 and rows[1][:7] == [True] + [False] * 5 + [True]
    assert rows[3][2:5] == [True] * 3 and rows[0][26:] == [True] * 7 and rows[26][:7] == [True] * 7
    found = decode(rows)
    assert [(f.text, f.ec_level) for f in found] == [(LINK, "M")]


def test_a_short_address_is_a_version_2_code():
    # 24 characters in bytes: more than version 1 holds at level M (14), within version 2 (26).
    rows = qr_modules("http://192.168.7.9:8000/")
    assert len(rows) == 25
    assert [(f.text, f.ec_level) for f in decode(rows)] == [("http://192.168.7.9:8000/", "M")]


def test_codes_drawn_on_a_page_scan_at_their_size():
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(400, 200))
    links = [LINK, LINK.replace("k001", "k002"), "http://192.168.7.9:8000/"]
    for i, link in enumerate(links):
        draw_qr(canvas, link, 10 + i * 130, 50, 90 - i * 10)
    canvas.showPage()
    canvas.save()
    assert sorted(scan(buffer.getvalue())) == sorted(links)
