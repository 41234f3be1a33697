"""The evening's public page at ``/e/<public key>/``: guests register themselves (name and pack)
when the host has turned self-registration on, then go to their own private link, where they
check themselves in on arrival. An unknown key gets the guest pages' one 404."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tables.errors import RuleError
from tournament.forms.evening import SelfRegistrationForm
from tournament.models import Evening, Guest
from tournament.private_doors import not_found, private
from tournament.services.naming import error_message
from tournament.services.registration import registration_open, self_register
from tournament.services.sends import send_once, send_seen
from tournament.views.guest_csrf import csrf_private
from tournament.views.kept import ALREADY, RECORDED, REFUSED, already_words, form_words, kept_answer, request_id


@csrf_private
def door_page(request: HttpRequest, key: str) -> HttpResponse:
    """Register yourself: a name, a pack, "I am here now". On success, redirect to the new
    guest's private page; on bad input, the form again with the reason (nothing saved). A
    phone's resend of a registration that reached the server leads to the guest registered
    then (``services.sends``), not to "already registered"."""
    evening = Evening.objects.filter(public_key=key).first() if 0 < len(key) <= 64 else None
    if evening is None:
        return not_found()
    form = SelfRegistrationForm(request.POST or None, evening=evening)
    if request.method == "POST":
        seen = send_seen(evening=evening, request_id=request_id(request))
        if seen is not None and seen.guest is not None:
            messages.success(request, already_words(seen))
            return kept_answer(request, private(redirect("guest-page", seen.guest.key)), ALREADY, already_words(seen))
        if form.is_valid() and (guest := _registered(request, evening, form)) is not None:
            return kept_answer(request, private(redirect("guest-page", guest.key)), RECORDED)
    page = private(
        render(request, "guest/door.html", {"evening": evening, "form": form, "open": registration_open(evening)})
    )
    if request.method == "POST":
        return kept_answer(request, page, REFUSED, form_words(form))
    return page


def _registered(request: HttpRequest, evening: Evening, form: SelfRegistrationForm) -> Guest | None:
    """Register the valid ``form``'s guest once per one-time id (``services.sends``); returns
    the guest, or None with the reason added to the form (nothing saved)."""
    try:
        sent = send_once(
            evening=evening,
            request_id=request_id(request),
            action="guest.register",
            record=lambda: self_register(
                evening=evening,
                name=form.cleaned_data["name"],
                pack=form.cleaned_data["pack"],
                here_now=form.cleaned_data["here_now"],
                device=request.META.get("HTTP_USER_AGENT", "")[:200],
            ),
            words=lambda guest: f"the registration of {guest.name}",
            guest=lambda guest: guest,
        )
    except RuleError as error:
        form.add_error("name", error_message(error, evening))
        return None
    return sent.value if sent.first is None else sent.first.guest  # the latter: a resend racing its first send
