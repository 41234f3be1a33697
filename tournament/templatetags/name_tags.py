"""Guests' names kept apart from the words and numbers around them, so a right-to-left name
(Arabic, Hebrew) does not take its neighbours' numbers: "Counters: محمد 40, Dan 80" must not
show as "40 محمد, Dan 80" (the Unicode bidirectional algorithm reorders a right-to-left name
with the number beside it unless the name is isolated; W3C, "Inline markup and bidirectional
text in HTML": ``<bdi>``). House rule: every page writes each guest's name in a ``<bdi>``.

- ``name_isolated(name)``: one name in its ``<bdi>`` (escaped), for words built in Python with
  ``format_html``.
- ``{{ text|names_isolated:names }}``: words built elsewhere as plain text (a bell's line
  stored with names, a verdict, a prize's reason), escaped, with each of ``names`` found in
  them put in its ``<bdi>``.
- ``{{ result|sent_by:"the host" }}``: who sent a table's result (``Result.sender``): a guest's
  name or a scorer's label isolated in the words, or the given words for the host.
- ``{{ names|names_joined:", " }}``: a list of names, each isolated, joined; ``{{ names|names_listed }}``:
  each isolated, listed "A, B and C" (``tables.words.joined``).
- ``{{ p.reason|winners_isolated:p }}``: words about a prize (its reason), each of its
  winners' names in them isolated; ``{{ standings|standing_names }}``: the names of a format's
  standings' guests, for ``names_isolated`` on words naming any of them (a tie's reason).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from functools import lru_cache

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from tables.words import joined

register = template.Library()


def name_isolated(name: str) -> SafeString:
    """``name`` escaped, in a ``<bdi>`` (its own direction, isolated from its neighbours)."""
    return format_html("<bdi>{}</bdi>", name)


@lru_cache(maxsize=64)
def _finder(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """A pattern matching any of ``names`` as whole words, the longest first ("Red 10" before
    "Red 1"); None for no names."""
    words = sorted({n for n in names if n and n.strip()}, key=len, reverse=True)
    if not words:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)")


@register.filter
def names_isolated(text: object, names: Iterable[str] | None) -> SafeString:
    """``text`` (plain words) escaped, each of ``names`` in it put in a ``<bdi>``. A ``text``
    already safe (built with ``format_html``, its names isolated) is returned as it is."""
    if isinstance(text, SafeString):
        return text
    words = "" if text is None else str(text)
    finder = _finder(tuple(names or ()))
    if finder is None:
        return conditional_escape(words)
    # Each part is a plain ``str`` cut from ``words``: escaped as Django's ``escape`` does
    # (``html.escape``), each name in its ``<bdi>`` as ``name_isolated`` writes it, without
    # ``format_html`` per name (a prize's reason at 500 guests names hundreds; issue 26 item 3).
    out, at = [], 0
    for found in finder.finditer(words):
        out.append(html.escape(words[at : found.start()]))
        out.append(f"<bdi>{html.escape(found.group(0))}</bdi>")
        at = found.end()
    out.append(html.escape(words[at:]))
    return mark_safe("".join(out))  # noqa: S308 - every part escaped above


@register.filter
def names_joined(names: Iterable[str] | None, between: str = ", ") -> SafeString:
    """Each of ``names`` in its ``<bdi>``, joined by ``between`` (escaped)."""
    return mark_safe(conditional_escape(between).join(name_isolated(n) for n in (names or ())))  # noqa: S308 - each part escaped


@register.filter
def sent_by(result: object, host: str = "") -> SafeString:
    """Who sent ``result`` (a ``Result``), as a page writes it: "<bdi>Ann</bdi>", "the scorer
    <bdi>Britt</bdi>", "the scorer (link 3)", or ``host`` for the host's own entry ("the host"
    where a guest reads it; "", the default, on the host's pages, which then say nothing).
    Escaped; the wording is ``Result.sender``'s (``HelperLink.as_sender``). Raises nothing."""
    words, name = result.sender(host)  # type: ignore[attr-defined]
    if not name or not words.endswith(name):
        return conditional_escape(words)
    return format_html("{}<bdi>{}</bdi>", words[: len(words) - len(name)], name)


@register.filter
def names_listed(names: Iterable[object] | None) -> SafeString:
    """Each of ``names`` (names, or guests with a ``name``) in its ``<bdi>``, listed by the one
    rule, "A, B and C" (``tables.words.joined``): ``{{ s.did_not_play|names_listed }}``."""
    isolated = [name_isolated(str(getattr(n, "name", n))) for n in (names or ())]
    return mark_safe(joined(isolated))  # noqa: S308 - each name escaped, the joints are plain words


@register.filter
def winners_isolated(text: object, prize: object) -> SafeString:
    """``text`` (plain words about ``prize``, a prize standing with ``winners``: guests or
    names) escaped, each winner's name in it put in a ``<bdi>`` (``names_isolated``)."""
    winners = getattr(prize, "winners", None) or ()
    return names_isolated(text, [getattr(w, "name", w) for w in winners])


@register.filter
def standing_names(standings: object) -> list[str]:
    """The names of the guests in a format's standings (``standings.lines``: each line a guest's
    ``name``, or its ``guest`` with one), in order; [] for none."""
    lines = getattr(standings, "lines", None) or ()
    return [getattr(line, "name", None) or line.guest.name for line in lines]
