"""QR codes of guests' private links, encoded by zxing-cpp (a compiled encoder) and drawn as
vector squares.

``zxingcpp.create_barcode`` encodes the link (its writer is Zint's, in C: the smallest version
that fits, mixing byte, alphanumeric and numeric segments) at error correction level M (15 %),
so a creased card still scans; the dark modules are drawn as one filled path of horizontal runs
(one rectangle a run, written in the code's own units), which is much lighter in the PDF than
one rectangle object per module. A quiet zone of 4
modules is left white around the code (ISO/IEC 18004). ReportLab's own pure-Python encoder took
about 20 ms a code (10 s for 500 seating cards); zxing-cpp takes about 0.2 ms.
Where the rule comes from: issue 7 item 1 ("a QR code of the guest's private link"); issue 26
item 5 (cards in seconds: a compiled encoder).
"""

from __future__ import annotations

import re

import zxingcpp
from reportlab.pdfgen.canvas import Canvas

QUIET = 4  # modules of white border around the code
LEVEL = "M"  # error correction: 15 % of the code may be lost
DARK_RUN = re.compile(rb"\x00+")  # zxing-cpp's image: 0 is a dark module, 255 a light one


def _symbol(value: str) -> tuple[bytes, int]:
    """The QR code of ``value`` at level M as one byte a module, row after row (0 dark, 255
    light), with no quiet zone, and its side in modules (21 for version 1, 4 more a version).
    Raises ``ValueError`` (zxing-cpp's) if ``value`` is too long for any version."""
    code = zxingcpp.create_barcode(value, zxingcpp.BarcodeFormat.QRCode, ec_level=LEVEL)
    image = code.to_image(scale=1, add_quiet_zones=False)
    return bytes(memoryview(image)), image.shape[1]  # type: ignore[arg-type]  # a buffer; its stub omits it


def qr_modules(value: str) -> list[list[bool]]:
    """The QR code of ``value`` as rows of booleans (True = dark), smallest version that fits."""
    pixels, side = _symbol(value)
    return [[pixel == 0 for pixel in pixels[r * side : (r + 1) * side]] for r in range(side)]


def draw_qr(canvas: Canvas, value: str, x: float, y: float, size: float) -> None:
    """Draw the QR code of ``value`` in the square at (``x``, ``y``) (lower left), ``size`` points
    a side including the quiet zone, which is painted white.

    The dark runs are written as one path in the code's own units (one unit a module, rows
    counting down from the code's top left corner, set by one transformation), each run
    0.02 module taller above and below so that no hairline shows between rows."""
    pixels, side = _symbol(value)
    module = size / (side + 2 * QUIET)
    canvas.saveState()
    canvas.setFillGray(1)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillGray(0)
    canvas.transform(module, 0, 0, -module, x + QUIET * module, y + size - QUIET * module)
    rects = [
        f"{run.start() - r * side} {r - 0.02:.2f} {run.end() - run.start()} 1.04 re"
        for r in range(side)
        for run in DARK_RUN.finditer(pixels, r * side, (r + 1) * side)
    ]
    canvas.addLiteral(" ".join(rects) + " f")
    canvas.restoreState()
