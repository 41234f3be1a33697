"""The host's **Connect phones** page: the address guests' phones open, as text and as a QR code,
advice for the venue's Wi-Fi, and a plain warning when only this computer can reach the site.

The address is ``tournament.party.phone_address``: ``SITE_URL`` when ``make party`` set it to
this computer's network address, else the address the host's browser used. Login required.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.party import phone_address
from tournament.views.qr_codes import qr_svg


@login_required
def connect_phones(request: HttpRequest) -> HttpResponse:
    """The Connect phones page (see the module docstring)."""
    address = phone_address(request)
    return render(
        request,
        "host/connect.html",
        {
            "address": address,
            "qr": None if address.loopback else qr_svg(address.url + "/", label=f"QR code of {address.url}"),
        },
    )
