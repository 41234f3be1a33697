"""Benchmark: seating cards for 500 guests, against a bare ReportLab canvas in the same run.

Measures ``SeatingCardsPdf(...).render()`` for 500 sample guests (names in many scripts):
wall time (best of ``--repeat``) and peak Python memory (tracemalloc, a separate run). The
baseline, timed the same way in the same process, is the least a PDF of those cards could
cost with ReportLab: a bare canvas drawing each name in one embedded TrueType font at a fixed
size and each QR code through ReportLab's ``QrCodeWidget`` + ``renderPDF``, 8 to a page, with
no cleaning, shaping, font fallback, fitting, card drawing or cut marks. The ratio says what
all of that costs.

Run: ``.venv/bin/python bench/bench_print.py [--guests 500] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reportlab.graphics import renderPDF  # noqa: E402
from reportlab.graphics.barcode.qr import QrCodeWidget  # noqa: E402
from reportlab.graphics.shapes import Drawing  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from tournament.printing import SeatingCardsPdf  # noqa: E402
from tournament.printing.fonts import BASE, register_fonts  # noqa: E402
from tournament.printing.samples import sample_cards  # noqa: E402


def ours(cards) -> bytes:
    """The real renderer."""
    return SeatingCardsPdf(evening_name="Bench evening", cards=cards).render()


def bare(cards) -> bytes:
    """The baseline: names and QR codes on a bare canvas, 8 cards to a page."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, initialFontName=BASE)
    width, height = A4
    for start in range(0, len(cards), 8):
        for slot, card in enumerate(cards[start : start + 8]):
            x = 40 + (slot % 2) * width / 2
            y = height - 120 - (slot // 2) * height / 4
            canvas.setFont(BASE, 14)
            canvas.drawString(x, y + 60, card.name)
            widget = QrCodeWidget(card.url, barWidth=90, barHeight=90)
            drawing = Drawing(90, 90)
            drawing.add(widget)
            renderPDF.draw(drawing, canvas, x + 150, y - 20)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def timed(fn, cards, repeat: int) -> tuple[float, int]:
    """Best wall time in seconds over ``repeat`` runs, and the PDF's size in bytes."""
    best, size = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        size = len(fn(cards))
        best = min(best, time.perf_counter() - start)
    return best, size


def peak(fn, cards) -> int:
    """Peak traced Python memory in bytes during one run."""
    tracemalloc.start()
    fn(cards)
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


def main() -> None:
    """Print time, peak memory and PDF size for ours and the baseline, and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    register_fonts()
    cards = sample_cards(args.guests)
    ours(cards[:8]), bare(cards[:8])  # warm up: font parsing, caches
    t_ours, s_ours = timed(ours, cards, args.repeat)
    t_bare, s_bare = timed(bare, cards, args.repeat)
    m_ours, m_bare = peak(ours, cards), peak(bare, cards)
    print(f"seating cards, {args.guests} guests, A4, best of {args.repeat}")
    print(f"{'':14}{'time s':>9}{'per 100':>9}{'peak MiB':>10}{'PDF KiB':>9}")
    for label, t, m, s in (("SeatingCardsPdf", t_ours, m_ours, s_ours), ("bare canvas", t_bare, m_bare, s_bare)):
        print(f"{label:14}{t:9.3f}{t * 100 / args.guests:9.3f}{m / 2**20:10.1f}{s / 1024:9.0f}")
    print(f"ratio ours / bare: time {t_ours / t_bare:.2f}x, peak memory {m_ours / m_bare:.2f}x, size {s_ours / s_bare:.2f}x")


if __name__ == "__main__":
    main()
