"""The corrections page's rounds written in Python: each rung round's heading, its bell's
warnings and a row per table (who sat there, the result in words, the *Correct* link), so that
125 tables are not 125 loops with a ``{% url %}`` tag each (issue 26 item 3: the host's pages at
500 guests within 50 times a bare view, the first draw after a change too).

The HTML is what ``host/_correction_rounds.html`` wrote, character for character
(``tests/test_host_pages_kept.py`` holds its loop as it stood): the same words and escaping
(``html.escape``, which Django's autoescape calls), the bell's time in the current time zone as
the template's ``time`` filter gives it, each link reversed once per round with a stand-in
table number and the table's put in its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import time_format
from django.utils.safestring import SafeString, mark_safe

from tournament.models import Evening
from tournament.services.corrections import RoundHistory
from tournament.templatetags.html_text import html_text
from tournament.templatetags.name_tags import names_isolated

_STAND_IN = 987654321  # a table number no evening has: reversed once, then replaced by each table's
NO_BELL = "<p>No bell has rung yet: results of the round in play are entered on the evening page.</p>\n"
_HEAD = (
    '<div class="scroll"><table class="standings"><thead><tr><th>Table</th><th>Who sat there</th>'
    '<th>Result</th><th><span class="sr-only">Correct</span></th></tr></thead>\n<tbody>'
)


def _round(evening: Evening, history: RoundHistory) -> str:
    """One rung round's section: its heading with how and when its bell rang, its warnings and
    a row per table."""
    number = history.round.number
    before, _, after = reverse("host-correction", args=[evening.pk, number, _STAND_IN]).rpartition(str(_STAND_IN))
    before, after = escape(before), escape(after)
    rung_at = history.bell.rung_at
    local = timezone.localtime(rung_at) if rung_at is not None and timezone.is_aware(rung_at) else rung_at
    when = html_text(time_format(local, "H:i")) if local is not None else ""
    everyone = history.names  # each name in the words isolated (``names_isolated``)
    warnings = "".join(f'<p class="warning">{names_isolated(w, everyone)}</p>' for w in history.warnings)
    rows = "".join(
        f"<tr>\n<td>{table}</td>\n"
        f"<td><small>{', '.join(f'<bdi>{html_text(name)}</bdi>' for name in names)}</small></td>\n"
        f"<td>{names_isolated(words, names) if words else '<em>no result</em>'}</td>\n"
        f'<td><a class="button small secondary" href="{before}{table}{after}">Correct</a></td>\n</tr>'
        for table, names, words in history.rows
    )
    return (
        f'\n<section class="history" aria-labelledby="r{number}-h"><h2 id="r{number}-h">Round {number} '
        f"<small>· bell rung {html_text(history.rung)} at {when}</small></h2>\n"
        f"{warnings}\n{_HEAD}{rows}</tbody></table></div>\n</section>\n"
    )


def rounds_html(evening: Evening, rounds: Sequence[RoundHistory]) -> SafeString:
    """Every rung round of ``rounds`` (``services.corrections.correction_rounds``, newest
    first) as safe HTML, or the line saying no bell has rung yet."""
    return mark_safe("".join(_round(evening, h) for h in rounds) or NO_BELL)
