"""Benchmark: seating cards for 500 guests, shaping on, against the same renderer without
shaping and against a bare ReportLab canvas, all three in the same run.

Measures ``SeatingCardsPdf(...).render()`` for 500 sample guests (a name in every script the
fonts cover, ``samples.NAMES``): wall time (best of ``--repeat``) and peak Python memory
(tracemalloc, a separate run), three ways:

* **shaped**: the real renderer (HarfBuzz shaping through ReportLab, bidi runs, ActualText);
* **unshaped**: the same renderer with ``text.SHAPING["on"] = False`` (font per run, fitting,
  cards and QR codes as before, but no bidi and no HarfBuzz): what shaping itself costs;
* **bare canvas**: the least a PDF of those cards could cost with ReportLab: every text a card
  prints drawn with ``drawString`` in its first run's font at a fixed size (not shaped), each
  QR code by the same encoder as the same filled path (``qr.draw_qr``: zxing-cpp), the card's
  and the playing card's outlines as rounded rectangles, 8 to a page, with no cleaning,
  fitting, wrapping, bidi or cut marks.

Every face is registered and warmed before timing (a process pays that once: about 0.5 s per
CJK face). The caches of the text layout are cleared before each timed run, so every name is
laid out and shaped afresh.

Run: ``.venv/bin/python bench/bench_print.py [--guests 500] [--repeat 3] [--no-memory]``.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from tournament.printing import SeatingCardsPdf, text  # noqa: E402
from tournament.printing.data import table_label  # noqa: E402
from tournament.printing.fonts import BASE, register_fonts, split_runs  # noqa: E402
from tournament.printing.qr import draw_qr  # noqa: E402
from tournament.printing.samples import NAMES, sample_cards  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ratios import report  # noqa: E402


def _fresh() -> None:
    """Forget every laid-out line and shaped run (the fonts stay registered)."""
    text.forget_layouts()


def shaped(cards) -> bytes:
    """The real renderer, shaping on."""
    _fresh()
    return SeatingCardsPdf(evening_name="Bench evening", cards=cards).render()


def unshaped(cards) -> bytes:
    """The same renderer with shaping (bidi and HarfBuzz) off."""
    text.SHAPING["on"] = False
    try:
        _fresh()
        return SeatingCardsPdf(evening_name="Bench evening", cards=cards).render()
    finally:
        text.SHAPING["on"] = True
        _fresh()


def bare(cards) -> bytes:
    """The baseline: the same ink on a bare canvas, 8 cards to a page: every text a card prints
    (the evening's name, the guest's name, the table, the card drawn, its pack, whom the guest
    represents, the short link in three slices) drawn with ``drawString`` in its first run's
    font at a fixed size (not cleaned, fitted, wrapped or shaped), the QR code by the same
    encoder, the card's outline and the playing card's as rounded rectangles."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, initialFontName=BASE)
    width, height = A4
    for start in range(0, len(cards), 8):
        for slot, card in enumerate(cards[start : start + 8]):
            x = 40 + (slot % 2) * width / 2
            y = height - 120 - (slot // 2) * height / 4
            canvas.roundRect(x - 10, y - 40, width / 2 - 60, height / 4 - 20, 6)
            words = [
                ("Bench evening", False, 7.5, 110),
                (card.name, True, 14, 60),
                (table_label(card.table, card.table_kind), True, 13, 30),
                (card.card_name, False, 9, 10),
                (card.pack_label, False, 9, 0),
                (card.represents or "", False, 9, -10),
            ]
            link = card.short_url
            words += [(link[i * 22 : (i + 1) * 22], False, 7, -20 - 8 * i) for i in range(3)]
            for words_, bold, size, dy in words:
                if words_:
                    canvas.setFont(split_runs(words_, bold)[0][0], size)
                    canvas.drawString(x, y + dy, words_)
            canvas.roundRect(x + 100, y - 10, 30, 42, 3)
            draw_qr(canvas, card.url, x + 150, y - 20, 90)
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
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory runs")
    args = parser.parse_args()
    register_fonts()
    cards = sample_cards(args.guests)
    for run in (shaped, unshaped, bare):
        run(cards[: len(NAMES)])  # warm up: every name once, so every face is registered
    ways = {"shaped": shaped, "unshaped": unshaped, "bare canvas": bare}
    # Interleaved (shaped, unshaped, bare, shaped, …) so a change in the machine's load between
    # the repeats falls on all three alike; the best of each is kept.
    best = {label: (float("inf"), 0) for label in ways}
    for _ in range(args.repeat):
        for label, run in ways.items():
            seconds, size = timed(run, cards, 1)
            best[label] = (min(best[label][0], seconds), size)
    results = {
        label: (seconds, 0 if args.no_memory else peak(ways[label], cards), size)
        for label, (seconds, size) in best.items()
    }
    print(f"seating cards, {args.guests} guests, A4, best of {args.repeat} interleaved runs")
    print(f"{'':14}{'time s':>9}{'per 100':>9}{'peak MiB':>10}{'PDF KiB':>9}")
    for label, (t, m, s) in results.items():
        print(f"{label:14}{t:9.3f}{t * 100 / args.guests:9.3f}{m / 2**20:10.1f}{s / 1024:9.0f}")
    t_s, m_s, _ = results["shaped"]
    for other in ("unshaped", "bare canvas"):
        t_o, m_o, _ = results[other]
        memory = "" if args.no_memory else f", peak memory {m_s / m_o:.2f}x"
        print(f"ratio shaped / {other}: time {t_s / t_o:.2f}x{memory}")
    report(
        f"{args.guests} seating cards",
        t_s / results["bare canvas"][0],
        "a bare canvas with the same QR encoder",
        1.5,
        detail=f"{t_s:.1f} s",
    )
    report(f"{args.guests} seating cards, shaping on", t_s / results["unshaped"][0], "shaping off")


if __name__ == "__main__":
    main()
