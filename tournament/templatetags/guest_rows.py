"""``{% guest_rows %}`` and ``{% guest_row %}``: the guests list's rows (``host/_guest_rows.html``,
``host/_guest_row.html``) written in Python, so that a list of 500 guests is not 500 template
includes with four ``{% url %}`` tags and some forty variable lookups each (issue 26 item 3:
the guests page at 500 guests within 50 times a bare view).

The HTML is the row the template wrote before, character for character: the same ids
(``guest-<id>``, ``act-<id>``), buttons, words and form fields. Each link is reversed once
per list with a stand-in guest id and the row's id put in its place (``RowLinks``); the CSRF
token is the page's (rendered once by Django's own ``{% csrf_token %}`` node). The rows read
the template's context: ``list`` (a ``tournament.selectors.guests.GuestList``), ``door``
(``tournament.views.guests.Door``), ``evening``, and for one row ``g`` and ``note``. A host's
row form carries the page's ``seen`` mark (``seen_tags.seen_field``, read once per page).
House rule: one guest, one row, one form (``tournament.views.guests``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape
from urllib.parse import quote

from django import template
from django.http import HttpResponse
from django.template.defaulttags import CsrfTokenNode
from django.urls import reverse
from django.utils.html import escapejs
from django.utils.safestring import SafeString, mark_safe

from tournament.templatetags.seen_tags import seen_field

register = template.Library()

_STAND_IN = 987654321  # a guest id no evening has: reversed once, then replaced by each row's


def _split(url: str) -> tuple[str, str]:
    """(before, after) the stand-in guest id in ``url``, escaped for an attribute."""
    before, _, after = url.rpartition(str(_STAND_IN))
    return escape(before), escape(after)


@dataclass(frozen=True)
class RowLinks:
    """Every row's links for one door, each as (before, after) the guest's id: the private
    link, the row's form (the host's or a door helper's), *Rename* and *Remove*. Build with
    ``RowLinks.of(door)``; ``link(part, pk)`` gives one row's address, escaped."""

    private: tuple[str, str]
    action: tuple[str, str]
    rename: tuple[str, str]
    remove: tuple[str, str]

    @classmethod
    def of(cls, door) -> RowLinks:
        """The links of ``door`` (a ``Door``: its evening, and its helper's key for a helper)."""
        pk = door.evening.pk
        if door.is_host:
            action = _split(reverse("host-guest-status", args=[pk, _STAND_IN]))
        else:
            action = _split(reverse("helper-guest", args=[door.helper.key, _STAND_IN]))
        return cls(
            private=_split(reverse("host-guest-link", args=[pk, _STAND_IN])),
            action=action,
            rename=_split(reverse("host-guest-name", args=[pk, _STAND_IN])),
            remove=_split(reverse("host-guest-remove", args=[pk, _STAND_IN])),
        )

    @staticmethod
    def link(part: tuple[str, str], pk: int) -> str:
        """The address of ``part`` for guest ``pk`` (escaped HTML attribute text)."""
        return f"{part[0]}{pk}{part[1]}"


@dataclass(frozen=True)
class _Shared:
    """What every row of one list shares, read once: the door, the list's filter as hidden
    fields and in *Remove*'s links, the pack labels, the CSRF field and the links."""

    is_host: bool
    links: RowLinks
    csrf: str
    seen: str
    hidden: str
    remove_query: str
    remove_vals: str
    red: str
    blue: str
    started: bool
    drawn: bool
    sitting_out: frozenset[int]
    history: set[int]
    seatable: bool = True


def _shared(context) -> _Shared:
    listing, door, evening = context["list"], context["door"], context["evening"]
    q, show = listing.q, listing.show
    remove_query = f"?q={escape(quote(str(q)))}&amp;show={escape(quote(str(show)))}" if q or show else ""
    return _Shared(
        is_host=door.is_host,
        links=RowLinks.of(door),
        csrf=CsrfTokenNode().render(context),
        seen=seen_field(evening) if door.is_host else "",  # the host's buttons carry when the page was drawn
        hidden=(
            f'<input type="hidden" name="q" value="{escape(str(q))}">'
            f'<input type="hidden" name="show" value="{escape(str(show))}">'
        ),
        remove_query=remove_query,
        remove_vals=f"{{&quot;q&quot;: &quot;{escapejs(q)}&quot;, &quot;show&quot;: &quot;{escapejs(show)}&quot;}}",
        red=escape(str(evening.red_label)),
        blue=escape(str(evening.blue_label)),
        started=bool(listing.started),
        drawn=bool(getattr(listing, "drawn", False)),
        sitting_out=listing.sitting_out,
        history=listing.history,
        seatable=bool(getattr(listing, "seatable", True)),
    )


def _buttons(s: _Shared, pk: int, status: str, name: str, seat) -> tuple[str, str]:
    """A row's buttons as HTML text: (its check-in, seat or check-out button, its *Left*)."""
    sitting_out = pk in s.sitting_out
    if status != "here":
        button = (
            f'<button id="act-{pk}" name="action" value="here" class="small" '
            f'data-keep="the check-in of {name}">Check in</button>\n'
        )
    elif sitting_out:
        button = '<span class="small sitting-out">Sits this round out (the schedule)</span>\n'
    elif s.drawn and not seat and s.is_host and s.seatable:
        button = (
            f'<button id="act-{pk}" name="action" value="here" class="small">Seat now</button> '
            '<button name="action" value="registered" class="small secondary">Check out</button>\n'
        )
    elif not seat or not s.started and s.is_host:
        button = f'<button id="act-{pk}" name="action" value="registered" class="small secondary">Check out</button>'
    else:
        button = ""
    left = (
        '<button name="action" value="left" class="small secondary">Left</button>'
        if s.is_host and (seat or sitting_out)
        else ""
    )
    return button, left


def _row(s: _Shared, g, note: str = "") -> str:
    """One guest's row (``g``, a ``Guest`` with its seat read) as HTML text."""
    pk, status, name = g.pk, g.status, escape(str(g.name))
    seat = getattr(g, "seat", None)
    links = s.links
    pick = (
        f'<input type="checkbox" form="bulk" name="guest" value="{pk}" aria-label="Tick {name}">'
        if status == "registered"
        else ""
    )
    who = (
        f'<a href="{links.link(links.private, pk)}" title="{name}\'s private link"><bdi>{name}</bdi></a>'
        if s.is_host
        else f"<bdi>{name}</bdi>"
    )
    if g.contact and s.is_host:
        who += f' <small class="contact">{escape(str(g.contact))}</small>'
    if note:
        who += f' <span class="note" role="alert">{escape(str(note))}</span>'
    label = s.red if g.pack == "red" else s.blue
    table = escape(str(seat.table)) if seat else ""
    action = links.link(links.action, pk)
    keep = "" if s.is_host else f' data-keep="the change to {name}"'
    button, left = _buttons(s, pk, status, name, seat)
    tail = ""
    if s.is_host:
        tail += (
            f' <a class="small rename" href="{links.link(links.rename, pk)}?back=guests" '
            f'aria-label="Rename {name}">Rename</a>'
        )
        if pk not in s.history:
            remove = links.link(links.remove, pk)
            tail += (
                f' <a class="small remove" href="{remove}{s.remove_query}" hx-get="{remove}" '
                f'hx-vals=\'{s.remove_vals}\' hx-target="closest tr" hx-swap="outerHTML">Remove…</a>'
            )
    return (
        f'<tr id="guest-{pk}" class="{escape(str(status))}">\n'
        f'<td class="pick">{pick}</td>\n'
        f'<th scope="row" class="who">{who}</th>\n'
        f'<td class="pk"><span class="pack {escape(str(g.pack))}" aria-hidden="true"></span>{label}</td>\n'
        f'<td class="st">{escape(str(g.get_status_display()))}</td>\n'
        f'<td class="tb">{table}</td>\n'
        f'<td class="acts"><form method="post" action="{action}" hx-post="{action}" hx-target="closest tr" '
        f'hx-swap="outerHTML"{keep}>{s.csrf}{s.seen}{s.hidden}\n'
        f"{button}\n"
        f"{left}\n"
        f"</form>{tail}</td>\n"
        "</tr>\n"
    )


_SLOT = "<!--csrf and seen-->"  # where each row's form takes the page's own fields (no escaped text has "<")
ROWS_SLOT = "<!--the guests list's rows-->"  # where ``RowsSplice`` puts the rows in (no escaped text has "<")


def _key(s: _Shared) -> tuple:
    return (s.is_host, s.links, s.hidden, s.remove_query, s.remove_vals, s.red, s.blue, s.started, s.drawn)


def _kept_pieces(s: _Shared, listing) -> list[str]:
    """The whole list's rows (``listing`` unfiltered, read with its ``reading``) written once
    per reading and door, split at each form's slot for the page's own CSRF field and ``seen``
    mark (put in on every request)."""
    reading = listing.reading
    key = _key(s)
    pieces = reading.rows_html.get(key)
    if pieces is None:
        blank = replace(s, csrf=_SLOT, seen="")
        pieces = reading.rows_html[key] = "".join(_row(blank, g) + "\n" for g in listing.rows).split(_SLOT)
    return pieces


def _kept_rows(s: _Shared, listing) -> str:
    """The whole list's rows as ``guest_rows`` writes them (``_kept_pieces``, each form with the
    page's CSRF field and ``seen`` mark)."""
    return (s.csrf + s.seen).join(_kept_pieces(s, listing))


def _kept_rows_bytes(s: _Shared, listing) -> bytes:
    """``_kept_rows`` encoded as UTF-8, from the pieces encoded once per reading and door."""
    key = _key(s)
    pieces = listing.reading.rows_bytes.get(key)
    if pieces is None:
        pieces = listing.reading.rows_bytes[key] = [p.encode() for p in _kept_pieces(s, listing)]
    return (s.csrf + s.seen).encode().join(pieces)


class RowsSplice:
    """The whole guests list's rows (500 guests: some 470,000 characters) put into the page's
    response once, as bytes, after the page around them is drawn, instead of being copied by
    every template that includes them and encoded with the page (issue 26 item 3: the guests
    page at 500 guests within 50 times a bare view). A view passes one in the context as
    ``rows_splice``; ``{% guest_rows %}`` then writes ``ROWS_SLOT`` and hands it the rows
    (``rows``, UTF-8); ``splice(response)`` puts them in place of the slot. The page is the one
    the template alone writes, character for character. A list under a filter (a search) is
    written in place as before."""

    def __init__(self) -> None:
        self.rows: bytes | None = None

    def splice(self, response: HttpResponse) -> HttpResponse:
        """``response`` (the page drawn with this splice) with the rows in place of the slot;
        unchanged when the rows were written in place. Returns it."""
        if self.rows is not None:
            before, slot, after = response.content.partition(ROWS_SLOT.encode())
            if slot:
                response.content = before + self.rows + after
        return response


@register.simple_tag(takes_context=True)
def guest_rows(context) -> SafeString:
    """Every listed guest's row (``list.rows``), each followed by a newline, as safe HTML; ""
    for an empty list (the template says "Nobody ..."). The whole list read once per evening
    version (``GuestList.reading``) is written once per door and version (``_kept_rows``), and
    put in the response as bytes by the context's ``rows_splice`` when the view gives one
    (``RowsSplice``)."""
    listing = context["list"]
    rows = listing.rows
    if not rows:
        return mark_safe("")
    shared = _shared(context)
    if listing.reading is not None and listing.unfiltered:
        splice = context.get("rows_splice")
        if isinstance(splice, RowsSplice):
            splice.rows = _kept_rows_bytes(shared, listing)
            return mark_safe(ROWS_SLOT)
        return mark_safe(_kept_rows(shared, listing))
    return mark_safe("".join(_row(shared, g) + "\n" for g in rows))


@register.simple_tag(takes_context=True)
def guest_row(context) -> SafeString:
    """One guest's row (``g``, with ``note`` beside the name when given) as safe HTML."""
    return mark_safe(_row(_shared(context), context["g"], context.get("note") or ""))


_CSRF_SLOT = "csrfslot4b1d9e"  # a CSRF token no request has (letters and digits: escaped as it is)


class KeptFormsNode(template.Node):
    """``{% kept_forms "name" %}...{% endkept_forms %}``: the guests page's registration forms
    (one guest at the door, a pasted list or a file), unbound, written once per evening version
    (kept with the list's reading, ``EveningGuests.parts_html``) with a slot for each form's CSRF
    token, the request's own put in on every request: Django writes each of their dozen fields
    through some five templates (issue 26 item 3: the guests page at 500 guests within 50 times
    a bare view). Kept per door's list address (the search box's form goes there) and the pack
    labels. Written afresh, as the template says, unless the view says the forms are the
    unbound ones (``keep_forms`` in the context, a plain GET; the tag's ``form``, if named,
    unbound too) and the list was read kept."""

    def __init__(self, name: str, nodelist: template.NodeList, unbound: template.Variable | None = None) -> None:
        self.name, self.nodelist, self.unbound = name, nodelist, unbound

    def render(self, context) -> str:
        listing, evening, door = context.get("list"), context.get("evening"), context.get("door")
        reading = getattr(listing, "reading", None)
        token = str(context.get("csrf_token") or "")
        form = self.unbound.resolve(context) if self.unbound is not None else None
        if (
            reading is None
            or evening is None
            or door is None
            or not context.get("keep_forms")
            or getattr(form, "is_bound", False)
            or token in ("", "NOTPROVIDED")
        ):
            return self.nodelist.render(context)
        key = (self.name, door.list_url(), str(evening.red_label), str(evening.blue_label))
        pieces = reading.parts_html.get(key)
        if pieces is None:
            with context.push(csrf_token=_CSRF_SLOT):
                pieces = reading.parts_html[key] = self.nodelist.render(context).split(_CSRF_SLOT)
        return mark_safe(escape(token).join(pieces))


@register.tag
def kept_forms(parser, token) -> KeptFormsNode:
    """``{% kept_forms "name" [form] %}...{% endkept_forms %}`` (``KeptFormsNode``; ``form``: a
    form written afresh whenever it is bound, e.g. the search box under a search)."""
    bits = token.split_contents()
    if len(bits) not in (2, 3) or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError("kept_forms takes one quoted name and, maybe, a form")
    nodelist = parser.parse(("endkept_forms",))
    parser.delete_first_token()
    return KeptFormsNode(bits[1][1:-1], nodelist, template.Variable(bits[2]) if len(bits) == 3 else None)
