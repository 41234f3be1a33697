"""The evening's public page at ``/e/<public key>/``: guests register themselves (name and pack)
when the host has turned self-registration on, then go to their own private link, where they
check themselves in on arrival. An unknown key gets the guest pages' one 404."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tables.errors import RuleError
from tournament.forms.evening import SelfRegistrationForm
from tournament.models import Evening
from tournament.private_doors import not_found, private
from tournament.services.naming import error_message
from tournament.services.registration import registration_open, self_register
from tournament.views.guest_csrf import csrf_private


@csrf_private
def door_page(request: HttpRequest, key: str) -> HttpResponse:
    """Register yourself: a name, a pack, "I am here now". On success, redirect to the new
    guest's private page; on bad input, the form again with the reason (nothing saved)."""
    evening = Evening.objects.filter(public_key=key).first() if 0 < len(key) <= 64 else None
    if evening is None:
        return not_found()
    form = SelfRegistrationForm(request.POST or None, evening=evening)
    if request.method == "POST" and form.is_valid():
        try:
            guest = self_register(
                evening=evening,
                name=form.cleaned_data["name"],
                pack=form.cleaned_data["pack"],
                here_now=form.cleaned_data["here_now"],
                device=request.META.get("HTTP_USER_AGENT", "")[:200],
            )
        except RuleError as error:
            form.add_error("name", error_message(error, evening))
        else:
            return private(redirect("guest-page", guest.key))
    return private(
        render(request, "guest/door.html", {"evening": evening, "form": form, "open": registration_open(evening)})
    )
