"""``{% table_tiles board evening %}``: the grid of tables on the host's board (``host/_board.html``)
written in Python, so that 84 tables are not 84 loops of two ``{% url %}`` tags and some twenty
variable lookups each (issue 26 item 3: the board at 500 guests within 50 times a bare view).

The HTML is what the template's loop wrote before, character for character: each table's tile
(its kind, and while a round is open whether its result is missing, disputed or in), its link,
"head" or "booby", the result's state and link, and how many guests sit there. Each link is
reversed once per board with a stand-in table number and the table's put in its place.
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournament.templatetags.html_text import html_text
from tournament.templatetags.name_tags import names_isolated, sent_by

register = template.Library()

_STAND_IN = 987654321  # a table number no evening has: reversed once, then replaced by each table's


def _link(name: str, evening_pk: int):
    """A function of a table number giving the address of ``name`` for that table (escaped)."""
    before, _, after = reverse(name, args=[evening_pk, _STAND_IN]).rpartition(str(_STAND_IN))
    before, after = escape(before), escape(after)
    return lambda number: f"{before}{number}{after}"


def _state(result, number: int, result_url: str) -> tuple[str, str]:
    """(the tile's class suffix, its ``tile-state`` paragraph) while a round is open."""
    if not result:
        return " missing", f'<p class="tile-state"><a href="{result_url}">Enter the result</a></p>'
    if result.status == "disputed":
        return " disputed", f'<p class="tile-state"><strong>Disputed</strong> · <a href="{result_url}">decide</a></p>'
    off = ' · <strong class="count-off">count off</strong>' if result.count_off else ""
    return " in", (
        '<p class="tile-state"><span class="tick" aria-hidden="true">✓</span> Result in · '
        f'<a href="{result_url}" aria-label="Change the result of table {number}">change</a>{off}</p>'
    )


@register.simple_tag
def table_tiles(board, evening) -> SafeString:
    """Every table's tile of ``board`` (a ``selectors.board.EveningBoard``) on ``evening``'s board,
    as safe HTML, each opening with a line break and ending with one as the loop's did. Raises
    nothing. Head and booby tables: ``docs/rules/progressive-poker.md``."""
    table_url, result_url = _link("host-table", evening.pk), _link("host-result", evening.pk)
    out = []
    for t in board.tables:
        number, kind = int(t.number), str(t.kind)
        state, paragraph = _state(t.result, number, result_url(number)) if board.round else ("", "")
        mark = {"head": " <small>head</small>", "booby": " <small>booby</small>"}.get(kind, "")
        seats = len(t.lines)
        out.append(
            f'\n<li class="tile {escape(kind)}{state}" id="table-{number}">\n'
            f'  <h3><a href="{table_url(number)}">Table {number}</a>{mark}</h3>\n'
            f"  {paragraph}\n"
            f'  <p class="tile-guests">{seats} guest{"" if seats == 1 else "s"}</p>\n</li>\n'
        )
    return mark_safe("".join(out))  # noqa: S308 (every value above is escaped or a number)


def _seat(s, words: dict[str, str]) -> str:
    """One player of a partnership: the name (isolated; a ghost's marked) and the seat's word
    (``words``: each seat word's HTML, written once per board)."""
    ghost = ' class="ghost"' if s.is_ghost else ""
    word = s.seat_word
    said = words.get(word)
    if said is None:
        said = words[word] = f' <span class="seat-word">({html_text(word)})</span>'
    return f"<bdi{ghost}>{html_text(s.name)}</bdi>{said}"


@register.filter
def seat_names(t) -> list[str]:
    """The names of a table of four's players (``t.partnerships``: two pairs of seats, each
    with its ``name``), North–South first: for ``names_isolated`` on words naming them."""
    return [s.name for pair in t.partnerships for s in pair]


def _report(t, words, result_url: str) -> str:
    """A table's report while a round is open: its state, who sent it, its words and the link."""
    result = t.result
    if not result:
        return f'<p class="report"><span class="status missing">No report yet</span> · <a href="{result_url}">enter the report</a></p>'
    status = str(result.status)
    said = {"confirmed": "Confirmed", "disputed": "Disputed"}.get(status, "Report in")
    sender = sent_by(result)  # a player or a scorer (issue 23); nothing for the host's own
    sent = f" from {sender}" if sender else ""
    return (
        f'<p class="report"><span class="status {html_text(status)}">{said}</span>{sent}: '
        f'{names_isolated(words, seat_names(t))} · <a href="{result_url}">change</a></p>'
    )


@register.simple_tag
def foursome_tiles(rows, board, evening) -> SafeString:
    """Every table's tile on the host's board at tables of four (``partnership/host_board_live.html``):
    ``rows`` are (table, its report in words) (``formats.partnership.host_pages._rows``), ``board``
    a ``FoursomeBoard``. Each tile: the table's link, its partnerships (North–South first) with
    each player's seat, and while a round is open its report and link. Safe HTML, each tile
    opening with a line break and ending with one as the loop's did; raises nothing. Seats and
    partnerships: ``docs/rules/tables-of-four.md``."""
    table_url, result_url = _link("host-table", evening.pk), _link("host-result", evening.pk)
    out: list[str] = []
    seat_words: dict[str, str] = {}
    for t, words in rows:
        number = int(t.number)
        pairs = "".join(
            f'<li><span class="side">{"North–South" if i == 0 else "East–West"}:</span> '
            + " and ".join(_seat(s, seat_words) for s in pair)
            + "</li>"
            for i, pair in enumerate(t.partnerships)
        )
        report = _report(t, words, result_url(number)) if board.round else ""
        out.append(
            f'\n<li class="foursome-table" id="table-{number}">\n'
            f'  <h3><a href="{table_url(number)}">{html_text(t.label)}</a></h3>\n'
            f'  <ul class="partners">{pairs}</ul>\n'
            f"  {report}\n</li>\n"
        )
    return mark_safe("".join(out))  # noqa: S308 (every value above is escaped or a number)


@register.simple_tag
def missing_links(tables, evening, noun: str = "result") -> SafeString:
    """The links to enter each of ``tables``' missing ``noun`` ("result", "report"), one ``<li>``
    each (the board's list of tables still to report), as safe HTML; raises nothing."""
    result_url = _link("host-result", evening.pk)
    return mark_safe(  # noqa: S308 (numbers and escaped addresses only)
        "".join(
            f'<li><a href="{result_url(int(t.number))}" aria-label="Enter the {html_text(noun)} of table {int(t.number)}">'
            f"{int(t.number)}</a></li>"
            for t in tables
        )
    )
