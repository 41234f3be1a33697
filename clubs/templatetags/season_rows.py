"""``{% season_standing_rows s %}``, ``{% season_night_head s %}`` and ``{% season_night_rows s %}``:
the season page's two long tables (``clubs/season.html``: the standings, and the season evening
by evening, a row per member with a cell per evening) written in Python, so that 60 members
over a year of 52 evenings are not 3,120 loops of a ``join`` filter and a dozen variable lookups
(issue 26: "every page near its floor", a club's season).

The HTML is what the template's loops wrote before, character for character
(``tests/test_clubs_season_kept.py`` renders both). Each table is written once per season
version: the kept standings (``clubs.selectors.season_standings``) carry the HTML written from
them (``SeasonStandings.html``), so a season page drawn again unchanged writes no row.
"""

from __future__ import annotations

from collections.abc import Callable

from django import template
from django.template.defaultfilters import date as date_filter
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournament.templatetags.standing_rows import number

register = template.Library()

LEFT_CLASS = ' class="left"'  # a member who left the club: their row is greyed (static/headtable.css)


def _kept(s, name: str, write: Callable[[], str]) -> SafeString:
    """The HTML ``name`` of the standings ``s``: the one written for them before (``s.html``,
    shared by every copy of the kept standings), else ``write()`` kept from now on."""
    html = getattr(s, "html", None)
    if html is None:
        return mark_safe(write())  # noqa: S308 (the writers escape every text)
    if name not in html:
        html[name] = write()
    return mark_safe(html[name])  # noqa: S308 (the writers escape every text)


@register.simple_tag
def season_standing_rows(s) -> SafeString:
    """The ``<tr>`` rows of the season's standings ``s`` (``SeasonStandings``) as safe HTML: place,
    name ("(sub)", "(left the club)"; a member who left: a row of class ``left``), nights, the
    totals in the columns' order. Raises nothing. House rules: ``docs/clubs.md``, "Season standings"."""

    def write() -> str:
        out = []
        for r in s.rows:
            person = r.person
            out.append(
                f"<tr{LEFT_CLASS if person.left else ''}><td>{number(r.line.place)}</td>"
                f"<td>{escape(person.name)}{' <small>(sub)</small>' if person.sub else ''}"
                f"{' <small>(left the club)</small>' if person.left else ''}</td><td>{number(r.line.nights)}</td>"
                + "".join(f"<td>{number(t)}</td>" for t in r.totals)
                + "</tr>"
            )
        return "".join(out)

    return _kept(s, "standing_rows", write)


@register.simple_tag
def season_night_head(s) -> SafeString:
    """The head cells of the season evening by evening: one per evening of ``s``, its date ("5 Jan")
    linking to the evening's host page, "(not played)" for one that has not rung a bell."""

    def write() -> str:
        return "".join(
            f'<th><a href="{escape(reverse("host-evening", args=[e.pk]))}">{escape(date_filter(e.date, "j M"))}</a>'
            f"{' <small>(not played)</small>' if e.pk not in s.played else ''}</th>"
            for e in s.evenings
        )

    return _kept(s, "night_head", write)


@register.simple_tag
def season_night_rows(s) -> SafeString:
    """The ``<tr>`` rows of the season evening by evening: each person's name, then a cell per
    evening of ``s`` with that night's tallies in the columns' order ("2 · 1 · 40"), "—" where
    they were not there."""

    def write() -> str:
        out = []
        for r in s.rows:
            cells = "".join(
                "<td>—</td>" if not n else "<td>" + " · ".join(escape(t) for t in n) + "</td>" for n in r.nights
            )
            out.append(f"<tr><td>{escape(r.person.name)}</td>{cells}</tr>")
        return "".join(out)

    return _kept(s, "night_rows", write)


@register.simple_tag
def ledger_people_rows(ledger) -> SafeString:
    """The ``<tr>`` rows of the season's ledger per person (``SeasonLedger.people_shown``): name
    ("(sub)"), evenings settled, paid, received and net in money words; one row saying so when
    nothing is settled yet. House rules: ``docs/clubs.md``, "The kitty"."""

    def write() -> str:
        rows = [
            f"<tr><td>{escape(p.name)}{' <small>(sub)</small>' if p.sub else ''}</td><td>{number(p.evenings)}</td>"
            f"<td>{escape(paid)}</td><td>{escape(received)}</td><td>{escape(net)}</td></tr>"
            for p, paid, received, net in ledger.people_shown()
        ]
        return "".join(rows) or '<tr><td colspan="5">No evening of the season is settled yet.</td></tr>'

    return _kept(ledger, "people_rows", write)


@register.simple_tag
def ledger_evening_rows(ledger) -> SafeString:
    """The ``<tr>`` rows of the season's ledger per evening (``SeasonLedger.evenings_shown``): the
    evening's name linking to its settlement sheet, its date ("5 Jan 2026"), "(not settled)",
    collected, paid out and carried in money words; one row saying so for a season with no
    evening yet."""

    def write() -> str:
        rows = []
        for e, collected, paid_out, carried in ledger.evenings_shown():
            url = reverse("club-kitty", args=[ledger.club.pk, e.evening.pk])
            rows.append(
                f'<tr><td><a href="{escape(url)}">{escape(e.evening.name)}</a> · '
                f"{escape(date_filter(e.evening.date, 'j M Y'))}{'' if e.settled else ' <small>(not settled)</small>'}"
                f"</td><td>{escape(collected)}</td><td>{escape(paid_out)}</td><td>{escape(carried)}</td></tr>"
            )
        return "".join(rows) or '<tr><td colspan="4">No evening in the season yet.</td></tr>'

    return _kept(ledger, "evening_rows", write)
