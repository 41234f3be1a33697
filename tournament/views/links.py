"""The host's pages for private links and the door: each guest's link as a QR code to show on
screen, reissue (the old link dies at once) or revoke it; the evening's public registration
link as a QR code for the door, with who has checked in.

QR codes are drawn as inline SVG (``tournament.views.qr_codes``), so the page loads nothing
from other sites.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from tables.errors import RuleError
from tournament.forms.actions import DoorSwitchForm, LinkActionForm, form_problems
from tournament.models import Evening, Guest
from tournament.name_keys import name_order
from tournament.party import phone_address
from tournament.services.guests import guest_reissue_key
from tournament.services.links import guest_revoke_key
from tournament.services.naming import error_message
from tournament.services.registration import registration_open, registration_switch
from tournament.views.helpers import helper_links_context
from tournament.views.qr_codes import qr_svg


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(Evening, pk=evening_id, host=request.user)


@login_required
def guest_link(request: HttpRequest, evening_id: int, guest_id: int) -> HttpResponse:
    """One guest's private link and its QR code (to scan from the host's screen); reissue or
    revoke it with a POST (``action`` = "reissue" or "revoke"). A revoke asks first (the page
    again, with the question and a "Yes" button: ``confirmed``), as removing a guest does: the
    guest's phone stops working at once (found by trying the product: one click revoked)."""
    evening = _evening(request, evening_id)
    guest = get_object_or_404(Guest, pk=guest_id, evening=evening)
    asking = False
    if request.method == "POST":
        form = LinkActionForm(request.POST)
        try:
            if not form.is_valid():
                raise RuleError(" ".join(form_problems(form)))
            if form.cleaned_data["action"] == "revoke" and not form.cleaned_data["confirmed"]:
                asking = True
            elif form.cleaned_data["action"] == "reissue":
                guest_reissue_key(guest=guest, user=request.user, device=_device(request))
                messages.success(request, f"{guest.name} has a new link; the old one no longer works.")
            else:
                guest_revoke_key(guest=guest, user=request.user, device=_device(request))
                messages.success(request, f"{guest.name}'s link no longer works. Reissue it to give a new one.")
        except RuleError as error:
            messages.error(request, error_message(error, evening))
        if not asking:
            return redirect("host-guest-link", evening.pk, guest.pk)
    address = phone_address(request)
    url = address.url + reverse("guest-page", args=[guest.key])
    return render(
        request,
        "host/guest_link.html",
        {
            "evening": evening,
            "guest": guest,
            "url": url,
            "address": address,
            "qr": None if guest.key_revoked else qr_svg(url, label=f"QR code of {guest.name}'s private link"),
            "asking": asking,
        },
    )


@login_required
def links_list(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Every guest with their link's state (live / revoked) and a link to its QR code page, in
    the guests list's alphabetical order (``name_keys.name_order``: "Ángel" among the A's, a
    Hebrew or Arabic name by its letters, as on every other list of the evening's guests)."""
    evening = _evening(request, evening_id)
    guests = sorted(evening.guests.all(), key=lambda g: (name_order(g.name), g.pk))
    return render(request, "host/links.html", {"evening": evening, "guests": guests})


@login_required
def door(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The door: the evening's public link as a QR code (self-registration and its switch), the
    helpers' links (``tournament.views.helpers``) and who is here so far."""
    evening = _evening(request, evening_id)
    if request.method == "POST":
        form = DoorSwitchForm(request.POST)
        if not form.is_valid():
            messages.error(request, " ".join(form_problems(form)))
            return redirect("host-door", evening.pk)
        registration_switch(
            evening=evening,
            on=form.cleaned_data["self_registration"] == "on",
            user=request.user,
            device=_device(request),
        )
        messages.success(
            request, "Guests can register themselves now." if evening.self_registration else "Self-registration is off."
        )
        return redirect("host-door", evening.pk)
    address = phone_address(request)
    url = address.url + reverse("door", args=[evening.public_key])
    guests = sorted(evening.guests.all(), key=lambda g: (name_order(g.name), g.pk))
    return render(
        request,
        "host/door.html",
        helper_links_context(request, evening, address=address)
        | {
            "evening": evening,
            "url": url,
            "open": registration_open(evening),
            "address": address,
            "qr": qr_svg(url, label=f"QR code of the registration page of {evening.name}"),
            "here": [g for g in guests if g.status == Guest.Status.HERE],
            "waiting": [g for g in guests if g.status == Guest.Status.REGISTERED],
        },
    )
