"""The room display: a projector or TV page at the evening's public link, ``/e/<public_key>/room/``.

No login, read-only. It shows the round's clock in very large type (the server's deadline,
corrected for the device's clock offset by ``static/live.js``), the round number, every table
with its guests, the latest moves, and the leaderboard of yellow counters. For the minute after
a bell it shows the moves only (``?mode=full`` keeps everything; ``?mode=moves`` keeps the moves),
so the room can read where to go. ``static/room.js`` plays the bell sound (after the usual first
tap to unlock audio) and asks the screen to stay awake.

Live: htmx polls the same URL every few seconds and as soon as the clock passes its deadline;
the ETag is the evening's version plus the display mode, so an unchanged display costs two
small queries and a 304.
"""

from __future__ import annotations

from datetime import timedelta

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from tournament.models import Bell, Evening, Round
from tournament.selectors import database_now, evening_board
from tournament.services.clock import next_round_due_at

POLL_SECONDS = 3
MOVES_ONLY_SECONDS = 60  # house rule: the minute after a bell is for the moves
MODES = ("auto", "full", "moves")


def _display_mode(evening: Evening, asked: str) -> tuple[str, Bell | None]:
    """("moves" | "full", the last live bell) for this request: "moves" for the minute after a
    bell unless the URL asks for a mode. One query."""
    last = (Bell.objects.filter(round__evening=evening, undone_at__isnull=True)
            .order_by("-round__number", "-id").only("id", "rung_at").first())
    if asked in ("full", "moves"):
        return asked, last
    recent = last is not None and database_now() - last.rung_at < timedelta(seconds=MOVES_ONLY_SECONDS)
    return ("moves" if recent else "full"), last


@require_safe
def room_display(request: HttpRequest, public_key: str) -> HttpResponse:
    """The room display (full page, or its live part for htmx). 404 for an unknown key."""
    evening = Evening.objects.filter(public_key=public_key).first()
    if evening is None:
        raise Http404("No such evening.")
    asked = request.GET.get("mode", "auto")
    asked = asked if asked in MODES else "auto"
    mode, last = _display_mode(evening, asked)
    etag = f'"room-{evening.version}-{mode}-{int(bool(request.htmx))}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        context = _room_context(evening, mode=mode, asked=asked, etag=etag)
        response = render(request, "room/_live.html" if request.htmx else "room/page.html", context)
    response["ETag"] = etag
    response["X-Robots-Tag"] = "noindex, nofollow"
    patch_cache_control(response, no_cache=True)
    return response


def _room_context(evening: Evening, *, mode: str, asked: str, etag: str) -> dict:
    """What the display shows: the board, the last bell's moves (by guest name), the yellow
    counters leaders (top 10 with any; else the first 5), the next round's start (auto-advance),
    the paused time, and ``bell_key``: the number of the last round whose bell has rung (room.js
    plays the bell when it grows)."""
    board = evening_board(evening)
    rnd = board.round
    moves = sorted((e for e in board.last_entries
                    if (e.to_table and e.from_table != e.to_table) or e.kind in ("yellow", "stake")),
                   key=lambda e: (e.guest.name.casefold(), e.pk))
    lines = board.standing_lines()
    rung = rnd.number if rnd is not None and rnd.state == Round.State.RUNG else 0
    return {
        "evening": evening, "board": board, "mode": mode, "asked": asked, "moves": moves, "etag": etag,
        "leaders": [line for line in lines if line[2].yellow][:10] or lines[:5],
        "next_round": next_round_due_at(evening=evening), "server_now": database_now(),
        "poll_seconds": POLL_SECONDS,
        "last_round": bool(rnd and evening.rounds_planned and rnd.number >= evening.rounds_planned),
        "paused_left": int(rnd.paused_seconds_left or 0) if rnd is not None and rnd.state == Round.State.PAUSED else 0,
        "bell_key": rung or (board.last_bell.round.number if board.last_bell is not None else 0),
    }
