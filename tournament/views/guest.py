"""A guest's phone page at their private link, and the evening's public pages.

The private link carries a random 192-bit key (never an id). An unknown, revoked or reissued key
gets the same plain 404 as any other wrong address. Guest pages send
``Referrer-Policy: no-referrer`` and ``X-Robots-Tag: noindex`` and load nothing from other sites.

Live updates: htmx polls the same URL every few seconds and when the phone wakes up; the page
carries an ETag made from the evening's version, so the browser revalidates and an unchanged
page is answered 304.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_cache_control

from tournament.models import Evening, Guest
from tournament.selectors import evening_board

POLL_SECONDS = 4


def _private(response: HttpResponse) -> HttpResponse:
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    patch_cache_control(response, private=True, no_cache=True)
    return response


def guest_page(request: HttpRequest, key: str) -> HttpResponse:
    """The guest's page: their table now (large), who sits there, the clock, what the last
    bell did to them, their counters and yellow counters, and the standings."""
    guest = Guest.objects.select_related("evening").filter(key=key, key_revoked=False).first()
    if guest is None:
        raise Http404("No such page.")
    evening = guest.evening
    etag = f'"{evening.version}-{int(bool(request.htmx))}"'
    if request.headers.get("If-None-Match") == etag:
        return _private(HttpResponseNotModified())
    board = evening_board(evening)
    table = board.table_of(guest.pk)
    line = next((ln for ln in table.lines if ln.guest.pk == guest.pk), None) if table else None
    place = next((i for i, g, _ in board.standing_lines() if g.pk == guest.pk), None)
    context = {
        "evening": evening, "guest": guest, "board": board, "table": table, "line": line, "place": place,
        "entries": board.entries_for(guest.pk), "server_now": timezone.now(), "poll_seconds": POLL_SECONDS,
        "live": evening.stage != Evening.Stage.ENDED,
    }
    template = "guest/_page.html" if request.htmx else "guest/page.html"
    response = render(request, template, context)
    response["ETag"] = etag
    return _private(response)


def rules_page(request: HttpRequest) -> HttpResponse:
    """The rules: Progressive Poker, the seating draw, and each seed game, with every house rule."""
    return render(request, "rules.html")
