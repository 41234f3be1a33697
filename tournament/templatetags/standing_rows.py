"""``{% standing_rows lines evening %}``: the standings table's rows on the host's standings page
(``host/standings.html``) written in Python, so that 500 guests are not 500 loops of a dozen
variable lookups, six localised numbers and a ``{% pack_mark %}`` each (issue 26 item 3: the
standings page at 500 guests within 50 times a bare view).

The HTML is the rows the template wrote before, character for character: a guest who has left
is a row of class ``left`` with "(left)" after the name; the two pack marks are built once per
page with ``pack_tags.pack_mark`` (they depend only on the pack and the evening's labels).
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.formats import localize
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournament.templatetags.pack_tags import pack_mark

register = template.Library()

LEFT_CLASS = ' class="left"'  # a guest who has left: their row is greyed (static/headtable.css)


def number(value) -> str:
    """``value`` as ``{{ value }}`` writes it: a whole number as its digits (the site sets no
    thousands separator), anything else through Django's ``localize``."""
    return str(value) if type(value) is int else str(localize(value))


@register.simple_tag
def standing_rows(lines: Iterable, evening) -> SafeString:
    """The ``<tr>`` rows of ``lines`` (``formats.poker.standings.StandingLine``: place, guest, row) on
    ``evening``'s pack labels, as safe HTML: place, pack mark and name ("(left)" for a guest
    who has left), yellow counters, counters, fresh stakes, counters won. Raises nothing.
    Columns: ``docs/rules/progressive-poker.md`` (the standings)."""
    marks = {pack: str(pack_mark(pack, evening)) for pack in ("red", "blue")}
    out = []
    for line in lines:
        guest, row = line.guest, line.row
        left = guest.status == "left"
        out.append(
            f"<tr{LEFT_CLASS if left else ''}><td>{number(line.place)}</td>"
            f"<td>{marks['blue' if str(guest.pack) == 'blue' else 'red']}<bdi>{escape(guest.name)}</bdi>"
            f"{' <small>(left)</small>' if left else ''}</td>\n"
            f"<td>{number(row.yellow)}</td><td>{number(row.counters)}</td>"
            f"<td>{number(row.fresh_stakes)}</td><td>{number(row.counters_won)}</td></tr>"
        )
    return mark_safe("".join(out))  # noqa: S308 (every value above is escaped or a number)
