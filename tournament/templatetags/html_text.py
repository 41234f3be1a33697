"""``html_text(value)``: a value as a template writes it into HTML, for the long lists written
in Python (the board's tiles, the audit log's rows, the corrections page's rounds): safe text as
it is, any other escaped, as ``django.utils.html.conditional_escape`` gives it, without its lazy
wrapper, which costs more than the escaping when a page writes 500 names (issue 26 item 3)."""

from __future__ import annotations

from html import escape

from django.utils.functional import Promise


def html_text(value: object) -> str:
    """``value`` as HTML text: a safe string (``__html__``) as it is, a lazy one made plain, any
    other escaped (``html.escape``, which Django's autoescape calls)."""
    if isinstance(value, Promise):
        value = str(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))
