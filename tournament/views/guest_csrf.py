"""CSRF protection for the forms on guests' pages, which are sent with
``Referrer-Policy: no-referrer``.

Under that policy browsers send ``Origin: null`` with every POST from the page (Fetch standard,
"serializing a request origin"), which Django's CSRF middleware refuses as a foreign origin.
``csrf_private`` runs Django's own CSRF check for these views with a ``null`` origin read as
this site's origin; everything else is enforced as usual: the token in the form must match
the CSRF cookie (which browsers send only from this site: ``SameSite=Lax``), and any other
origin is refused. An attacker would also need the guest's 192-bit key to address the form.
"""

from __future__ import annotations

from functools import wraps

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from tournament.private_doors import private


def _checked(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """A stand-in view (and response getter) for the CSRF middleware's check: never called."""
    raise NotImplementedError("the CSRF check never calls the view")


def csrf_private(view):
    """Decorate a guest view that takes POSTs: Django's CSRF check, with ``Origin: null`` read
    as this site's origin. Returns the view; a failed check answers 403 with ``csrf_failure``'s
    page (``settings.CSRF_FAILURE_VIEW``)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method not in ("GET", "HEAD", "OPTIONS", "TRACE"):
            if request.META.get("HTTP_ORIGIN") == "null":
                request.META["HTTP_ORIGIN"] = f"{'https' if request.is_secure() else 'http'}://{request.get_host()}"
            refused = CsrfViewMiddleware(_checked).process_view(request, _checked, args, kwargs)
            if refused is not None:
                refused["Referrer-Policy"] = "no-referrer"
                refused["X-Robots-Tag"] = "noindex, nofollow"
                return refused
        return view(request, *args, **kwargs)

    return csrf_exempt(wrapped)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``settings.CSRF_FAILURE_VIEW``: a form that fails the CSRF check (a phone's page left open
    past its cookie, a form sent from elsewhere) answers 403 with a plain page that says what
    to do ("reload the page and send it again") and links back to the page: a guest's own page
    under ``/g/<key>/`` (the key the request already carried), else the front page. Django's
    ``reason`` is for the log (Django logs it), never shown. Private: no referrer, not indexed,
    never cached."""
    parts = request.path.split("/")
    back = f"/g/{parts[2]}/" if len(parts) > 3 and parts[1] == "g" and parts[2] else "/"
    response = render(request, "403_csrf.html", {"back": back, "guest_page": back != "/"}, status=403)
    return private(response)
