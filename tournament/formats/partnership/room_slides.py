"""The room display's two long slides at tables of four written in Python: every table's four
players, partners together (``tables_slide``), and "find your name" (``seating_slide``), so that
500 guests are not 125 tables of template loops and lookups (issue 26 item 3: the room display
at 500 guests within 50 times a bare view, its first draw after a change too).

The HTML is what ``partnership/_room_tables.html`` and ``_room_seating.html`` wrote, character
for character (``tests/test_host_pages_kept.py`` holds those templates as they stood): the same
classes, words and escaping (``html.escape``, which Django's autoescape calls). Rules of what
the slides say: ``docs/rules/tables-of-four.md`` (the tables, partners facing each other).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

from tournament.formats.partnership.boards import FoursomeBoard, FoursomeTable

_KINDS = {"head": '<span class="to-kind">head</span>', "booby": '<span class="to-kind">foot</span>'}
_AMP = ' <span class="amp">&amp;</span> '


def _table(table: FoursomeTable) -> str:
    """One table's item: its number (head or foot), then its two partnerships, "against"
    between them."""
    pairs = []
    for i, pair in enumerate(table.partnerships):
        names = _AMP.join(f'<bdi class="name{" ghost" if s.is_ghost else ""}">{escape(s.name)}</bdi>' for s in pair)
        pairs.append(
            f'<li class="pair">{names}</li>' + ('<li class="vs" aria-hidden="true">against</li>' if i == 0 else "")
        )
    return (
        f'<li class="item four {escape(table.kind)}"><p class="to"><span class="to-number">{table.number}</span>'
        f'{_KINDS.get(table.kind, "")}</p>\n    <ul class="pairs">{"".join(pairs)}</ul></li>'
    )


def tables_slide(four: FoursomeBoard) -> SafeString:
    """The tables slide of ``four`` (the evening's board at tables of four) as safe HTML, every
    name escaped; "" before the draw (no tables)."""
    if not four.tables:
        return mark_safe("")
    return mark_safe(
        '\n<section class="slide room-tables" data-slide="tables" data-title="The tables" data-seconds="10" '
        'aria-labelledby="room-tables-h">\n'
        '  <h2 id="room-tables-h">The tables <small>partners side by side</small></h2>\n'
        f'  <ul class="pager tables-pager">{"".join(_table(t) for t in four.tables)}</ul>\n'
        "</section>\n"
    )


def seating_slide(seating: Sequence[tuple[str, int, int | None, str]]) -> SafeString:
    """The "find your name" slide as HTML text: for each (name, player, table or None, seat
    letter) the name and its table and seat, or "sits out" (a schedule's sit-out, no table), as
    safe HTML; "" for nobody."""
    if not seating:
        return mark_safe("")
    items = "".join(
        f'<li class="item seat"><bdi class="name">{escape(name)}</bdi> '
        + (
            f'<span class="at"><span class="sr-only">table </span>{table}<small class="seat-word"> {escape(seat)}</small></span>'
            if table
            else '<span class="at out">sits out</span>'
        )
        + "</li>"
        for name, _player, table, seat in seating
    )
    return mark_safe(
        '\n<section class="slide room-seating" data-slide="seating" data-title="Find your name" data-seconds="10" '
        'aria-labelledby="room-seating-h">\n'
        '  <h2 id="room-seating-h">Find your name</h2>\n'
        f'  <ul class="pager seating-pager">{items}</ul>\n'
        "</section>\n"
    )
