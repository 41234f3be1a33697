"""QR codes of guests' private links, drawn with ReportLab's own encoder.

Uses ``reportlab.graphics.barcode.qrencoder`` (the encoder behind ``QrCodeWidget``) and draws
the dark modules as one filled path (horizontal runs merged), which is much lighter in the
PDF than one rectangle object per run. Error correction level M (15 %), so a creased card
still scans; a quiet zone of 4 modules is left white around the code (ISO/IEC 18004).
Where the rule comes from: issue 7 item 1 ("a QR code of the guest's private link").
"""

from __future__ import annotations

import itertools

from reportlab.graphics.barcode import qrencoder
from reportlab.pdfgen.canvas import Canvas

QUIET = 4  # modules of white border around the code


def qr_modules(value: str) -> list[list[bool]]:
    """The QR code of ``value`` as rows of booleans (True = dark), smallest version that fits."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(value)
    code.make()
    return [[bool(m) for m in row] for row in code.modules]


def draw_qr(canvas: Canvas, value: str, x: float, y: float, size: float) -> None:
    """Draw the QR code of ``value`` in the square at (``x``, ``y``) (lower left), ``size`` points
    a side including the quiet zone, which is painted white."""
    rows = qr_modules(value)
    count = len(rows)
    module = size / (count + 2 * QUIET)
    canvas.saveState()
    canvas.setFillGray(1)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillGray(0)
    path = canvas.beginPath()
    for r, row in enumerate(rows):
        top = y + size - (QUIET + r) * module
        c = 0
        for dark, group in itertools.groupby(row):
            n = len(list(group))
            if dark:
                path.rect(x + (QUIET + c) * module, top - module * 1.02, n * module, module * 1.04)
            c += n
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
