"""The ``seen`` hidden field of a host action form (issue 22 item 7): ``{% seen_field evening %}``
inside each ``<form method="post">`` of a host's page, after ``{% csrf_token %}``; it writes when
the page was drawn (``tournament.forms.seen``), which the view's check reads
(``tournament.views.stale``)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournament.forms.seen import Seen
from tournament.models import Evening
from tournament.selectors.stale import page_seen

register = template.Library()
_MEMO = "_seen_when_drawn"


def seen_of(evening: Evening) -> Seen:
    """When this page of ``evening`` is drawn (``page_seen``), read once per evening instance
    (a page with a form on each of 300 guests' rows makes one query, not 300)."""
    seen = evening.__dict__.get(_MEMO)
    if seen is None:
        seen = evening.__dict__[_MEMO] = page_seen(evening)
    return seen


@register.simple_tag
def seen_field(evening: Evening | None) -> SafeString:
    """``<input type="hidden" name="seen" value="17.342">``: the evening's version and newest
    audit entry when the page was drawn; nothing (an unchecked form) when the page has no
    evening. Usage: ``{% seen_field evening %}``."""
    if not isinstance(evening, Evening) or evening.pk is None:
        return SafeString("")
    return format_html('<input type="hidden" name="seen" value="{}">', seen_of(evening).mark())
