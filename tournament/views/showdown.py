"""The showdown helper's addresses: a table captain's (at their private link) and the host's.

The helper is the format's own page (``FormatPlugin.pages``: "guest_showdown" and
"host_showdown", Progressive Poker's ``formats/poker/showdown_pages.py``); these views find the
guest or the host's evening, keep the guest's page private, and hand it to the format. A format
that shows no hands (an old link or bookmark) leads to the table's report instead, saying so.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.cache import patch_cache_control

from tournament.models import Evening, Guest
from tournament.views.format_pages import own_page
from tournament.views.guest_csrf import csrf_private


def _private(response: HttpResponse) -> HttpResponse:
    response["Referrer-Policy"] = "no-referrer"  # the key never travels in a Referer, even to us
    response["X-Robots-Tag"] = "noindex, nofollow"
    patch_cache_control(response, private=True, no_cache=True)
    return response


@csrf_private  # the page is sent with no-referrer, so browsers post with "Origin: null"
def guest_showdown(request: HttpRequest, key: str) -> HttpResponse:
    """The showdown helper for the table the guest (as its captain) sits at now, drawn by the
    format (``own_page("guest_showdown")``); in a format with no showdown, the guest's page
    saying so. An unknown or revoked key is a 404."""
    guest = Guest.objects.select_related("evening").filter(key=key, key_revoked=False).first()
    if guest is None:
        raise Http404("No such page.")
    own = own_page("guest_showdown", request, guest)
    if own is None:  # an old link: this format shows no hands
        messages.info(request, f"{guest.evening.get_format_display()} has no showdown: report your table's score.")
        return _private(redirect(reverse("guest-page", args=[key])))
    return _private(own)


@login_required
def host_showdown(request: HttpRequest, evening_id: int, table: int) -> HttpResponse:
    """The showdown helper for one table of the host's evening, drawn by the format
    (``own_page("host_showdown")``); in a format with no showdown, that table's report form
    saying so. Another host's evening is a 404."""
    evening = get_object_or_404(Evening, pk=evening_id, host=request.user)
    own = own_page("host_showdown", request, evening, table)
    if own is None:  # an old link or bookmark: this format shows no hands
        messages.info(request, f"{evening.get_format_display()} has no showdown: enter the table's report.")
        return redirect("host-result", evening.pk, table)
    return own
