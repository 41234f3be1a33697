"""Helpers' pages at ``/h/<key>/``: a volunteer works the door or enters the scores on their
phone, without the host's password; and the host's part of it, creating, showing (QR code)
and revoking the links on the door page.

- A **door** link shows the guests list (find as you type, check in and out, check in the
  ticked or everyone listed) and a form to add a guest: the host's own list
  (``tournament.views.guests``) through a ``Door`` that names the helper. Seating a guest
  after round 1, marking someone as left, removing a guest and private links stay the host's.
- A **scorer** link shows the round in play, table by table, and takes a table's result with
  the host's result form (counts must add up, as on the captains' phones). A format draws
  these two pages itself when it names them (``FormatPlugin.pages``: "scorer" and
  "scorer_result", called with the link; the formats at tables of four take the format's own
  report form there); else they are the pages below.

Like a guest's private link: an unknown or revoked key answers the one 404
(``tournament.private_doors.not_found``); every answer carries ``Referrer-Policy: no-referrer``
and ``X-Robots-Tag: noindex``; keys are kept out of the logs (``tournament.private_logs``).
A link used for the other helper's job, or for a host action, is refused with 403 and a
message saying what the link is for; nothing changes.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tables.errors import RuleError
from tournament.forms.door import HelperLinkForm, RoundNumberForm
from tournament.forms.evening import GuestForm, ResultForm
from tournament.forms.seen import SeenVersionForm
from tournament.models import Evening, Guest, HelperLink
from tournament.party import phone_address
from tournament.private_doors import not_found, private
from tournament.selectors.board import evening_board
from tournament.services import helpers, state
from tournament.services.naming import error_message
from tournament.services.sends import send_once
from tournament.views.format_pages import own_page
from tournament.views.guest_csrf import csrf_private
from tournament.views.guests import Door, add_guests, check_in_many, guest_action, list_page, rows_response
from tournament.views.kept import ALREADY, RECORDED, REFUSED, already_words, form_words, kept_answer, request_id
from tournament.views.qr_codes import qr_svg
from tournament.views.request_types import HtmxHttpRequest
from tournament.views.stale import report_unchanged_since, seen_beside


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def refused(request: HttpRequest, link: HelperLink, message: str) -> HttpResponse:
    """The 403 a helper's link gets when used for what it does not allow: the reason in words
    and a way back to the link's own page; nothing was changed."""
    return render(
        request, "helper/refused.html", {"link": link, "evening": link.evening, "message": message}, status=403
    )


def helper_view(role: str | None = None):
    """Decorate a helper view ``view(request, link, ...)``: the key becomes its live
    ``HelperLink`` (else the one 404), ``role`` ("door"/"scorer", or None for either) is
    checked (else 403 with the reason), POSTs pass Django's CSRF check (``csrf_private``), and
    every answer carries the private links' headers (no referrer, no indexing)."""

    def decorate(view):
        @wraps(view)
        def wrapped(request: HttpRequest, key: str, *args, **kwargs) -> HttpResponse:
            link = helpers.helper_lookup(key)
            if link is None:
                return not_found()
            try:
                if role is not None:
                    helpers.helper_require(link, role)
            except RuleError as error:
                return private(refused(request, link, error_message(error, link.evening)))
            return private(view(request, link, *args, **kwargs))

        return csrf_private(wrapped)

    return decorate


def _door(link: HelperLink) -> Door:
    return Door(evening=link.evening, helper=link)


@helper_view()
def helper_page(request: HtmxHttpRequest, link: HelperLink) -> HttpResponse:
    """A helper's page: the door's guests list (and adding a guest, by POST), or the scorer's
    tables for the round in play."""
    if link.role == HelperLink.Role.SCORER:
        if request.method == "POST":
            return refused(request, link, "This link enters table results; it cannot add guests. Ask the host.")
        own = own_page("scorer", request, link)
        return own if own is not None else scorer_page(request, link)
    door = _door(link)
    if request.method == "POST":
        return add_guests(request, door)
    return list_page(request, door, one=GuestForm(evening=link.evening, prefix="one"))


@helper_view(HelperLink.Role.DOOR)
def helper_guest(request: HtmxHttpRequest, link: HelperLink, guest_id: int) -> HttpResponse:
    """The door helper's row buttons: check a guest in or out (a host action is refused with
    403 and the reason); a guest removed meanwhile is said so (``guest_gone``), not the 404
    of a link that does not work."""
    if request.method != "POST":
        return redirect("helper-page", link.key)
    guest = Guest.objects.filter(pk=guest_id, evening=link.evening).first()
    if guest is None:  # removed by the host meanwhile (a check-in kept on the phone while the Wi-Fi was down)
        return _guest_gone(request, link)
    return guest_action(request, _door(link), guest)


def _guest_gone(request: HtmxHttpRequest, link: HelperLink) -> HttpResponse:
    """The answer to a row's button for a guest who is no longer on the list (the host removed
    them): the list's rows with the reason (htmx) or the list with it as a message; nothing
    changed. Told to a phone's kept form as refused (``views.kept``)."""
    words = "That guest is no longer on the list (the host removed them), so nothing was changed. Ask the host."
    if request.htmx:
        return kept_answer(request, rows_response(request, _door(link), news=words, alert=True), REFUSED, words)
    messages.error(request, words)
    return kept_answer(request, redirect("helper-page", link.key), REFUSED, words)


@helper_view(HelperLink.Role.DOOR)
def helper_check_in(request: HtmxHttpRequest, link: HelperLink) -> HttpResponse:
    """The door helper's "check in the ticked" and "check in everyone listed"."""
    if request.method != "POST":
        return redirect("helper-page", link.key)
    return check_in_many(request, _door(link))


def scorer_page(request: HttpRequest, link: HelperLink) -> HttpResponse:
    """The scorer's page: the round in play and each table with its result (in or missing)."""
    evening = link.evening
    board = evening_board(evening)
    current = state.current_round(evening)
    return render(
        request,
        "helper/scorer.html",
        {
            "link": link,
            "evening": evening,
            "board": board,
            "round": current,
            "tables_in": sum(1 for t in board.tables if t.result is not None),
        },
    )


@helper_view(HelperLink.Role.SCORER)
def helper_result(request: HttpRequest, link: HelperLink, table: int) -> HttpResponse:
    """The scorer enters one table's result for the round in play (the host's result form;
    counts must add up; a result of that table that came in since the form was drawn, its
    ``seen`` mark, refuses it: ``views.stale.report_unchanged_since``). Redirects to the scorer's tables when saved; the form with the reason
    otherwise (nothing saved). A format that draws its own scorer's form (``own_page``
    "scorer_result") answers instead."""
    if (own := own_page("scorer_result", request, link, table)) is not None:
        return own
    evening = link.evening
    current = state.current_round(evening)
    board = evening_board(evening)
    if current is None or not 1 <= table <= len(board.tables):
        words = no_round_words(evening)
        messages.error(request, words)
        return kept_answer(request, redirect("helper-page", link.key), REFUSED, words)
    seat = board.tables[table - 1]
    required = table == 1  # the last round's counts are the host's final count, after its bell
    posted = request.POST if request.method == "POST" else None
    form = ResultForm(posted, guests=[line.guest for line in seat.lines], counters_required=required)
    round_form = RoundNumberForm(posted, initial={"round": current.number})
    if (
        posted is not None
        and form.is_valid()
        and round_form.is_valid()
        and (seen := seen_beside(request, form)) is not None
    ):
        sent = _scorer_sent(request, link, table, form, round_form.cleaned_data["round"], seen)
        if sent is not None:
            return sent
    page = render(
        request,
        "helper/result.html",
        {
            "link": link,
            "evening": evening,
            "round": current,
            "table": seat,
            "form": form,
            "round_form": round_form,
            "counters_required": required,
        },
    )
    return kept_answer(request, page, REFUSED, form_words(form) or form_words(round_form)) if posted else page


def _scorer_sent(
    request: HttpRequest, link: HelperLink, table: int, form: ResultForm, round_number: int, seen: SeenVersionForm
) -> HttpResponse | None:
    """Record the scorer's valid result ``form`` for ``table`` in round ``round_number`` once per
    the phone's one-time id (``services.sends``), unless a result of that table came in since
    the form was drawn (``seen``): the redirect to the scorer's tables (with "saved", or
    "recorded already" for a resend), or None with the reason and "Nothing was saved." added
    to the form."""
    winner, in_call, counters = form.result()

    def record():
        with report_unchanged_since(link.evening, seen, round_number, table):
            return helpers.scorer_report(
                link=link,
                round_number=round_number,
                table=table,
                pool_winner=winner,
                in_call=in_call,
                counters=counters,
                tied=form.tied(),
                device=_device(request),
            )

    winner_ticked = form.winner_ticked_in_call()
    note = (  # issue 24 item 8: the tick is not dropped silently
        f" {winner_ticked} won the pool, so is in the call anyway: only the others ticked are listed in the call."
        if winner_ticked
        else ""
    )
    return scorer_send(request, link, form, table=table, round_number=round_number, record=record, note=note)


NOTHING_SAVED = "Nothing was saved."


def no_round_words(evening: Evening) -> str:
    """What a scorer's result form answers, in every format, when there is no round in play or
    no such table: the evening has ended (house rule, issue 23 item 4: no word of a next round
    after the end), else "No round is in play, or there is no such table." Nothing is saved."""
    if evening.stage == Evening.Stage.ENDED:
        return "The evening has ended: there are no more rounds, so there is nothing to enter."
    return "No round is in play, or there is no such table."


def scorer_send(
    request: HttpRequest,
    link: HelperLink,
    form,
    *,
    table: int,
    round_number: int,
    record,
    what: str = "result",
    names=None,
    note: str = "",
) -> HttpResponse | None:
    """A scorer's valid form for ``table`` in round ``round_number`` recorded once per the phone's
    one-time id (``services.sends``: ``record()`` stores it): the redirect to the scorer's
    tables, with "<What> saved for table N." (and ``note``) or "recorded already" for a resend,
    as the kept form's answer; or None with the rules' reason (guests by ``names``, id -> name)
    and "Nothing was saved." added to ``form``. Every format's scorer page sends through here."""
    try:
        sent = send_once(
            evening=link.evening,
            request_id=request_id(request),
            action="result.record",
            record=record,
            words=lambda result: f"table {table}'s {what} for round {round_number}",
        )
    except RuleError as error:
        said = error_message(error, link.evening, names=names)
        form.add_error(None, said if NOTHING_SAVED.lower() in said.lower() else f"{said} {NOTHING_SAVED}")
        return None
    outcome, words = RECORDED, f"{what.capitalize()} saved for table {table}.{note}"
    if sent.first is not None:
        outcome, words = ALREADY, already_words(sent.first)
    messages.success(request, words)
    return kept_answer(request, redirect("helper-page", link.key), outcome, words)


def helper_links_context(request: HttpRequest, evening: Evening, *, address=None) -> dict:
    """What the door page shows of the helpers' links: each link with its address on the
    network phones use (``address``, a ``tournament.party.PhoneAddress``) and QR code, and the
    form to create one."""
    address = address or phone_address(request)
    rows = []
    for link in evening.helper_links.all():
        url = address.url + reverse("helper-page", args=[link.key])
        rows.append(
            {
                "link": link,
                "url": url,
                "qr": None if link.revoked_at else qr_svg(url, label=f"QR code of {link.who}'s link"),
            }
        )
    return {"helper_links": rows, "helper_form": HelperLinkForm(link_numbers=[])}


@login_required
@require_POST
def helper_links(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The host creates a helper's link (``action`` = "create", a ``role`` and an optional
    ``label``) or revokes one (``action`` = "revoke", ``link`` = its number). Redirects to the
    door page's helpers section, with what happened or why not."""
    evening = get_object_or_404(Evening, pk=evening_id, host=request.user)
    numbers = list(evening.helper_links.values_list("number", flat=True))
    form = HelperLinkForm(request.POST, link_numbers=numbers)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect(reverse("host-door", args=[evening.pk]) + "#helpers")
    try:
        if form.cleaned_data["action"] == "create":
            link = helpers.helper_link_create(
                evening=evening,
                role=form.cleaned_data["role"],
                label=form.cleaned_data["label"],
                user=request.user,
                device=_device(request),
            )
            messages.success(request, f"Link {link.number} is ready: show its QR code to {link.label or 'the helper'}.")
        else:
            link = helpers.helper_link_revoke(
                evening=evening, number=form.cleaned_data["link"], user=request.user, device=_device(request)
            )
            messages.success(request, f"Link {link.number} is revoked: it no longer works.")
    except RuleError as error:
        messages.error(request, error_message(error, evening))
    return redirect(reverse("host-door", args=[evening.pk]) + "#helpers")
