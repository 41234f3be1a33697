"""QR codes on screen: a private or public link drawn as inline SVG from zxing-cpp's encoder
(``tournament.printing.qr``), so a page shows it without loading anything from other sites."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournament.printing.qr import QUIET, qr_modules


def qr_svg(value: str, *, label: str) -> SafeString:
    """An inline SVG QR code of ``value`` (dark runs as one path, a white quiet zone of 4
    modules), scaled by CSS; ``label`` is its accessible name."""
    rows = qr_modules(value)
    size = len(rows) + 2 * QUIET
    parts = []
    for r, row in enumerate(rows):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                parts.append(f"M{start + QUIET} {r + QUIET}h{c - start}v1h-{c - start}z")
            else:
                c += 1
    return mark_safe(
        f'<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" role="img" '
        f'aria-label="{escape(label)}" shape-rendering="crispEdges"><rect width="{size}" height="{size}" '
        f'fill="#fff"/><path d="{"".join(parts)}" fill="#000"/></svg>'
    )
