"""``{% audit_rows rows %}``: the audit log's rows (``host/audit.html``) written in Python, so that a
page of 100 entries is not 100 loops of three date filters and some fifteen variable lookups
(issue 26 item 3: the host's pages at 500 guests within 50 times a bare view).

The HTML is the loop the template wrote, character for character (``tests/test_audit_rows.py``
holds it as it stood): each entry's time (its ISO form as stored, then the time and the day in
the current time zone, as the template's ``date`` filter gives them), its sentence, who did it
and from which device, escaped as Django's autoescape does; "Nothing yet." for no entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.safestring import SafeString, mark_safe

from tournament.templatetags.html_text import html_text
from tournament.templatetags.name_tags import names_isolated

register = template.Library()


def _row(row: Mapping, names: Sequence[str]) -> str:
    """One entry's row: ``row`` holds the ``entry`` (an ``AuditEntry`` with its user, guest and
    helper read), its ``sentence`` (each of ``names`` in it in a ``<bdi>``) and its ``device``
    name."""
    entry = row["entry"]
    at = entry.at
    local = timezone.localtime(at) if timezone.is_aware(at) else at
    user, helper, guest = entry.user, entry.helper, entry.guest
    if user:
        who = f"{html_text(user.username)} (host)"
    elif helper:
        who = "a helper's link"
    elif guest:
        who = "a private link"
    else:
        who = ""
    brk = "<br>" if user or helper or guest else ""
    return (
        f'<tr>\n<td><time datetime="{html_text(at.isoformat())}">{html_text(date_format(local, "H:i:s"))}</time>'
        f"<br><small>{html_text(date_format(local, 'j M'))}</small></td>\n"
        f"<td>{names_isolated(row['sentence'], names)}</td>\n"
        f'<td><small>{who}{brk}<span title="{html_text(entry.device)}">{html_text(row["device"])}</span></small></td>\n</tr>'
    )


@register.simple_tag
def audit_rows(rows: Iterable[Mapping], names: Sequence[str] = ()) -> SafeString:
    """Every entry's row of ``rows`` (``views.corrections.audit_page``'s), as safe HTML, the
    guests' ``names`` in the sentences isolated; the "Nothing yet." row for none."""
    written = "".join(_row(r, names) for r in rows)
    return mark_safe(written or '<tr><td colspan="3">Nothing yet.</td></tr>')
