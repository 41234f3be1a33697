"""The guests list at the door (``/host/e/<id>/guests/``), built for 30 to 500 guests.

- **Find a guest as you type**: the search box asks for the list's rows with htmx (``?q=``,
  ``&show=`` a status) and swaps only the table body; without JavaScript the same form is a
  plain GET and the page comes back filtered.
- **One button, one row**: *Check in*, *Check out*, *Seat now*, *Left* post the row's form;
  with htmx the answer is that row alone, swapped in place (the page is not reloaded and keeps
  its scroll position and focus); without JavaScript a redirect brings the list back as it was
  (same filter) at the row's anchor. Seating or unseating a guest after round 1 moves others,
  so then the whole list body is swapped.
- **Many at once**: tick guests and *Check in the ticked*, or *Check in everyone listed* (the
  guests not here yet under the current filter).
- ***Remove* asks first** (a confirmation row with htmx, a page without) and is offered only
  for a guest whom the evening's history never mentions; the service refuses the others with
  "mark them as left instead" (``tournament.services.history``).

Every input comes through a form (``tournament.forms.door``); every change through a service.
The page works for the host (logged in) and, through ``Door``, for a door helper's link
(``tournament.views.helpers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from tables.errors import RuleError
from tables.words import joined
from tournament.forms.door import GuestActionForm, GuestBulkForm, GuestFilterForm, GuestRemoveForm
from tournament.forms.evening import GuestForm, GuestListForm, GuestNameForm
from tournament.forms.seen import Seen
from tournament.models import Evening, Guest
from tournament.registry import format_for
from tournament.selectors.guests import GuestList, guest_list, guest_row
from tournament.services import guests as guest_services
from tournament.services.helpers import HelperRefused
from tournament.services.naming import error_message
from tournament.services.sends import send_once
from tournament.templatetags.guest_rows import RowsSplice
from tournament.views.kept import ALREADY, RECORDED, REFUSED, already_words, form_words, kept_answer, request_id
from tournament.views.request_types import HtmxHttpRequest
from tournament.views.stale import acts_on_guest, unchanged_since


@dataclass(frozen=True)
class Door:
    """Who works the guests list and where its forms go: the host (``user``) or a door helper
    (``helper``, their link's row; see ``tournament.views.helpers``)."""

    evening: Evening
    user: Any = None
    helper: Any = None

    @property
    def is_host(self) -> bool:
        """True for the host: every action; a door helper only registers and checks in."""
        return self.helper is None

    def who(self) -> dict:
        """The ``user``/``helper`` keyword arguments for the services' audit entries."""
        return {"user": self.user} | ({"helper": self.helper} if self.helper is not None else {})

    def list_url(self) -> str:
        """The guests list's address for this door."""
        if self.helper is not None:
            return reverse("helper-page", args=[self.helper.key])
        return reverse("host-guests", args=[self.evening.pk])

    def bulk_url(self) -> str:
        """Where "check in the ticked / everyone listed" posts."""
        if self.helper is not None:
            return reverse("helper-check-in", args=[self.helper.key])
        return reverse("host-guests-check-in", args=[self.evening.pk])

    def back(self, *, q: str = "", show: str = "", guest: int | None = None) -> str:
        """The list's address with its filter and a row's anchor (for the no-JavaScript redirects)."""
        query = urlencode({k: v for k, v in (("q", q), ("show", show)) if v})
        return self.list_url() + (f"?{query}" if query else "") + (f"#guest-{guest}" if guest else "")


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(Evening, pk=evening_id, host=request.user)


def _host_door(request: HttpRequest, evening_id: int) -> Door:
    return Door(evening=_evening(request, evening_id), user=request.user)


def _context(door: Door, listing: GuestList, **extra) -> dict:
    return {"evening": door.evening, "door": door, "list": listing, **extra}


def rows_response(
    request: HttpRequest, door: Door, *, q: str = "", show: str = "", news: str = "", alert: bool = False
) -> HttpResponse:
    """The list's body (rows, the bulk bar, the counts, a line of news) for an htmx swap of
    ``#guest-rows``; a GET (a search) reads the list kept for the evening's version."""
    listing = guest_list(door.evening, q=q, show=show, kept=request.method == "GET")
    splice = RowsSplice()
    context = _context(door, listing, oob=True, news=news, alert=alert, rows_splice=splice)
    response = splice.splice(render(request, "host/_guest_rows.html", context))
    return reswap(retarget(response, "#guest-rows"), "outerHTML")


def row_response(
    request: HttpRequest, door: Door, guest: Guest, *, q: str = "", show: str = "", news: str = "", alert: bool = False
) -> HttpResponse:
    """One guest's row, freshly read, for an htmx swap of that row; the counts and a line of
    news ride along out of band."""
    listing = guest_list(door.evening, q=q, show=show)
    fresh = next((g for g in listing.rows if g.pk == guest.pk), None)
    if fresh is None:  # no longer under the filter: show it anyway until the next search
        fresh = guest_row(door.evening, guest.pk)
    if fresh is None:
        return rows_response(request, door, q=q, show=show, news=news, alert=alert)
    return render(
        request,
        "host/_guest_row_swap.html",
        _context(door, listing, g=fresh, news=news, alert=alert, note=news if alert else ""),
    )


def list_page(request: HtmxHttpRequest, door: Door, **forms) -> HttpResponse:
    """The whole guests page (or, for an htmx search, only its rows) under ``?q=&show=``."""
    search = GuestFilterForm(request.GET or None)
    q, show = search.filters()
    if request.htmx and not request.htmx.history_restore_request and request.htmx.target == "guest-rows":
        return rows_response(request, door, q=q, show=show)
    listing = guest_list(door.evening, q=q, show=show, kept=request.method == "GET")  # a POST's is fresh
    template = "host/guests.html" if door.is_host else "helper/door.html"
    splice = RowsSplice()  # the whole list's rows go into the response once, as bytes
    keep = request.method == "GET"  # the registration forms unbound: written once per version
    context = _context(door, listing, search=search, rows_splice=splice, keep_forms=keep, **forms)
    return splice.splice(render(request, template, context))


def add_guests(request: HtmxHttpRequest, door: Door) -> HttpResponse:
    """A POST to the list: one guest at the door (``one-``) or, for the host, a list (``many-``).
    Redirects to the list at the new guest on success; the page with the reasons otherwise."""
    evening = door.evening
    one, many = GuestForm(evening=evening, prefix="one"), GuestListForm(prefix="many")
    if "one-name" in request.POST or not door.is_host:
        one = GuestForm(request.POST, evening=evening, prefix="one")
        if one.is_valid():
            added = _add_one(request, door, one)
            if added is not None:
                return added
        page = list_page(request, door, one=one, many=many)
        return kept_answer(request, page, REFUSED, form_words(one))
    else:
        many = GuestListForm(request.POST, request.FILES, prefix="many")
        if many.is_valid():
            try:
                rows = guest_services.parse_guest_list(
                    many.cleaned_data["text"], evening=evening, different=many.cleaned_data["different"]
                )
                created = guest_services.guests_register(
                    evening=evening,
                    rows=rows,
                    check_in=many.cleaned_data["check_in"],
                    device=_device(request),
                    **door.who(),
                )
            except guest_services.GuestListError as error:
                for problem in error.problems:
                    many.add_error(None, problem)
                if error.near:
                    many.ask_different()
            else:
                messages.success(request, f"{len(created)} guests registered.")
                return redirect(door.list_url())
    return list_page(request, door, one=one, many=many)


def _add_one(request: HttpRequest, door: Door, one: GuestForm) -> HttpResponse | None:
    """Register the valid one-guest form ``one`` once per the phone's one-time id
    (``services.sends``); the redirect to the list at the guest (with what happened, or
    "recorded already" for a resend), or None with the reason added to the form."""
    evening = door.evening
    try:
        sent = send_once(
            evening=evening,
            request_id=request_id(request),
            action="guest.register",
            record=lambda: guest_services.guest_add(
                evening=evening,
                name=one.cleaned_data["name"],
                pack=one.cleaned_data["pack"],
                contact=one.cleaned_data["contact"],
                check_in=one.cleaned_data["check_in"],
                device=_device(request),
                different=one.cleaned_data["different"],
                **door.who(),
            ),
            words=lambda guest: f"the registration of {guest.name}",
            guest=lambda guest: guest,
        )
    except RuleError as error:
        one.add_error("name", str(error.problems[0]) if hasattr(error, "problems") else error_message(error, evening))
        if getattr(error, "near", False):  # the same name apart from accents or spacing: ask the host first
            one.ask_different()
        return None
    if sent.first is not None:
        words, guest, outcome = already_words(sent.first), sent.first.guest, ALREADY
    else:
        guest, outcome = sent.value, RECORDED
        assert guest is not None
        words = f"{guest.name} is registered" + (" and checked in." if one.cleaned_data["check_in"] else ".")
        if one.cleaned_data["check_in"] and (late := guest_services.late_guest_words(evening)):
            words += f" {late}"  # a guest who cannot be seated tonight is told so at once
    messages.success(request, words)
    # The whole list, scrolled to the new guest's row (marked by :target), never filtered to them:
    # found by trying the product, a list filtered to the guest just added seemed to lose the others.
    back = door.back(guest=guest.pk) if guest is not None else door.list_url()
    return kept_answer(request, redirect(back), outcome, words)


@login_required
def guests_page(request: HtmxHttpRequest, evening_id: int) -> HttpResponse:
    """The host's guests list: register (one, a pasted list, a CSV file), find, check in or out,
    seat, mark as left, remove (see the module docstring)."""
    door = _host_door(request, evening_id)
    if request.method == "POST":
        return add_guests(request, door)
    return list_page(
        request, door, one=GuestForm(evening=door.evening, prefix="one"), many=GuestListForm(prefix="many")
    )


def _change(door: Door, guest: Guest, action: str, device: str) -> tuple[str, bool]:
    """Do one row's action (``GuestActionForm.action``) through its service; returns (what
    happened in words, whether other rows changed). Raises ``HelperRefused`` for an action a
    helper's link may not do, ``RuleError`` from the services (nothing changed then)."""
    if action == "reissue" and door.is_host:
        guest_services.guest_reissue_key(guest=guest, device=device, **door.who())
        return f"{guest.name} has a new private link; the old one no longer works.", False
    seated = Guest.objects.filter(pk=guest.pk, seat__isnull=False).exists()
    drawn = door.evening.stage != Evening.Stage.REGISTRATION  # after the draw, before round 1 too (issue 22)
    if action == "left" and not seated and drawn:  # sitting this round out, in play still
        seated = guest.pk in format_for(door.evening).sitting_out(door.evening)
    if door.is_host and action in ("left", "here") and (action == "left") == seated and drawn:
        return _seat_change(door, guest, action, device), True
    _helper_may(door, action, seated)
    guest_services.guest_set_status(guest=guest, status=action, device=device, **door.who())
    words = {"here": "is checked in", "registered": "is checked out", "left": "is marked as left"}
    return f"{guest.name} {words[action]}.", False


def _seat_change(door: Door, guest: Guest, action: str, device: str) -> str:
    """After the draw, a seat given up ("left") or taken ("here") changes the tables: the
    evening's format decides how (``FormatPlugin.seat_change``: between rounds after round 1,
    or the draw's seats before it). Returns the moves in words.
    Raises ``RuleError`` as the format's services do."""
    fmt = format_for(door.evening)
    return fmt.seat_change(evening=door.evening, guest=guest, leaving=action == "left", user=door.user, device=device)


def _helper_may(door: Door, action: str, seated: bool) -> None:
    """Raise ``HelperRefused`` when a helper's link (not the host) asks for ``action``: a
    helper's door only checks in and out, and never a guest who sits at a table (``seated``).
    House rule: a helper's link checks guests in and out, the host does the rest."""
    if not door.is_host and (action not in ("here", "registered") or seated):
        raise HelperRefused(
            "Only the host can do that: this link checks guests in and out (and not a guest "
            "who sits at a table). Ask the host."
        )


def guest_action(request: HtmxHttpRequest, door: Door, guest: Guest) -> HttpResponse:
    """A row's button (see ``GuestActionForm``): the row swapped in place with htmx, or a
    redirect to the list at the row without JavaScript. Refusals change nothing and say why."""
    form = GuestActionForm(request.POST)
    q, show = form.filters()
    outcome = REFUSED
    if not form.is_valid() or "action" not in form.cleaned_data:
        news, alert, spread = "That button was not understood: reload the page and try again.", True, False
    else:
        try:
            seen = form.seen_at() if door.is_host else None  # a helper's phone resends by its request id
            (news, spread), outcome = _change_once(request, door, guest, form.cleaned_data["action"], seen)
            alert = False
        except HelperRefused as error:
            message = error_message(error, door.evening)
            page = render(
                request, "helper/refused.html", {"link": door.helper, "evening": door.evening, "message": message}
            )
            page.status_code = 403
            return kept_answer(request, page, REFUSED, message)
        except RuleError as error:
            news, alert, spread = error_message(error, door.evening), True, False
    if request.htmx:
        if spread:
            answer = rows_response(request, door, q=q, show=show, news=news)
        else:
            answer = row_response(request, door, guest, q=q, show=show, news=news, alert=alert)
    else:
        (messages.error if alert else messages.success)(request, news)
        answer = redirect(door.back(q=q, show=show, guest=guest.pk))
    return kept_answer(request, answer, outcome, news)


def _change_once(
    request: HttpRequest, door: Door, guest: Guest, action: str, seen: Seen | None = None
) -> tuple[tuple[str, bool], str]:
    """``_change`` once per the phone's one-time id (``services.sends``): ((what happened in
    words, whether other rows changed), "recorded"), or for a resend of a change recorded
    before ((those words, False), "already") and nothing changes. Raises as ``_change``, and
    ``StalePage`` (a ``RuleError``) when the row's page was drawn (``seen``) before a change to
    this guest (house rule: another guest's change refuses nothing, ``acts_on_guest``)."""

    def record() -> tuple[str, bool]:
        with unchanged_since(door.evening, seen, acts_on_guest(guest.pk, guest.name)):
            return _change(door, guest, action, _device(request))

    words = {"here": "check-in", "registered": "check-out", "left": "leaving", "reissue": "new private link"}
    sent = send_once(
        evening=door.evening,
        request_id=request_id(request),
        action=f"guest.{action}",
        record=record,
        words=lambda done: f"{guest.name}'s {words.get(action, action)}",
        guest=lambda done: guest,
    )
    if sent.first is not None:
        return (already_words(sent.first), False), ALREADY
    assert sent.value is not None
    return sent.value, RECORDED


GUEST_GONE = "That guest is no longer on the list (removed meanwhile): nothing was changed. The list is as it is now."


def guest_gone(request: HtmxHttpRequest, door: Door) -> HttpResponse:
    """A row's button for a guest no longer on the evening's list (removed from another page
    or phone since this one was shown): with htmx the list's body as it is now with
    ``GUEST_GONE`` as its news (an alert), else back to the list with it; nothing changes."""
    q, show = GuestActionForm(request.POST).filters()
    if request.htmx:
        return rows_response(request, door, q=q, show=show, news=GUEST_GONE, alert=True)
    messages.error(request, GUEST_GONE)
    return redirect(door.back(q=q, show=show))


@login_required
@require_POST
def guest_status(request: HtmxHttpRequest, evening_id: int, guest_id: int) -> HttpResponse:
    """The host's row buttons: check in or out, seat now, left, or a new private link; for a
    guest removed meanwhile, ``guest_gone``."""
    door = _host_door(request, evening_id)
    guest = Guest.objects.filter(pk=guest_id, evening=door.evening).first()
    if guest is None:
        return guest_gone(request, door)
    return guest_action(request, door, guest)


def check_in_many(request: HtmxHttpRequest, door: Door) -> HttpResponse:
    """Check in the ticked guests, or everyone listed under the posted filter (``GuestBulkForm``);
    the list's body swapped with htmx, a redirect to the list without JavaScript."""
    ids = list(door.evening.guests.values_list("pk", flat=True))
    form = GuestBulkForm(request.POST, guest_ids=ids)
    q, show = form.filters()
    alert = True
    if not form.is_valid():
        news = " ".join(str(e) for errors in form.errors.values() for e in errors)
        if "guest" in form.errors:
            news = "A ticked guest is no longer on the list: reload the page and try again."
    else:
        if form.cleaned_data["everyone"]:
            chosen = [g.pk for g in guest_list(door.evening, q=q, show=show).waiting_listed]
        else:
            chosen = form.cleaned_data["guest"]
        done = guest_services.guests_check_in(
            evening=door.evening, guest_ids=chosen, device=_device(request), **door.who()
        )
        alert = not done
        news = (
            f"{len(done)} checked in: {joined(g.name for g in done)}."
            if done
            else "Nobody to check in: everyone listed is here already (or has left)."
        )
    if request.htmx:
        answer = rows_response(request, door, q=q, show=show, news=news, alert=alert)
    else:
        (messages.error if alert else messages.success)(request, news)
        answer = redirect(door.back(q=q, show=show))
    return kept_answer(request, answer, REFUSED if not form.is_valid() else RECORDED, news)


@login_required
@require_POST
def guests_check_in(request: HtmxHttpRequest, evening_id: int) -> HttpResponse:
    """The host's "check in the ticked" and "check in everyone listed"."""
    return check_in_many(request, _host_door(request, evening_id))


@login_required
def guest_remove(request: HtmxHttpRequest, evening_id: int, guest_id: int) -> HttpResponse:
    """*Remove*, asked first: a GET shows the question (a row with htmx, a page without), a POST
    with ``confirm=yes`` removes the guest. A guest whom history refers to is refused with
    "mark them as left instead" and nothing changes."""
    door = _host_door(request, evening_id)
    guest = get_object_or_404(Guest.objects.select_related("seat"), pk=guest_id, evening=door.evening)
    form = GuestRemoveForm(request.POST if request.method == "POST" else request.GET)
    q, show = form.filters()
    refusal = ""
    if request.method == "POST" and form.choice("confirm"):
        try:
            guest_services.guest_remove(guest=guest, device=_device(request), **door.who())
        except RuleError as error:
            refusal = error_message(error, door.evening)
        else:
            if request.htmx:
                return rows_response(request, door, q=q, show=show, news=f"{guest.name} is removed.")
            messages.success(request, f"{guest.name} is removed.")
            return redirect(door.back(q=q, show=show))
    elif request.method == "POST":
        refusal = "Nothing was removed: press “Yes, remove them” to confirm."
    if request.htmx and (refusal or form.choice("keep")):
        return row_response(request, door, guest, q=q, show=show, news=refusal, alert=bool(refusal))
    if request.htmx:
        return render(
            request,
            "host/_guest_remove_row.html",
            {"evening": door.evening, "g": guest, "q": q, "show": show, "door": door},
        )
    return render(
        request,
        "host/guest_remove.html",
        {
            "evening": door.evening,
            "g": guest,
            "q": q,
            "show": show,
            "refusal": refusal,
            "back": door.back(q=q, show=show, guest=guest.pk),
        },
    )


@login_required
def guest_name(request: HttpRequest, evening_id: int, guest_id: int) -> HttpResponse:
    """Correct a guest's name (GET: the form; POST: save it and go back to the print page, or
    the guests page with ``?back=guests``). A refused name shows the form again with the reason."""
    evening = _evening(request, evening_id)
    guest = get_object_or_404(Guest, pk=guest_id, evening=evening)
    back = "host-guests" if request.GET.get("back") == "guests" else "host-print"
    form = GuestNameForm(request.POST or None, initial={"name": guest.name})
    if request.method == "POST" and form.is_valid():
        try:
            guest_services.guest_rename(
                guest=guest, name=form.cleaned_data["name"], user=request.user, device=_device(request)
            )
        except RuleError as error:
            form.add_error("name", error_message(error, evening))
        else:
            messages.success(request, f"The name is now {guest.name}.")
            return redirect(back, evening.pk)
    return render(request, "host/guest_name.html", {"evening": evening, "guest": guest, "form": form, "back": back})
