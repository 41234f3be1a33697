"""The season ceremony's pages (``clubs.ceremony``): the host's tap on the season page, and the
season's room display at ``/m/<room_key>/room/`` (no login, read-only; the key is 192
random bits and a wrong one gets the one 404 every private door answers, as a member's page)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubs.ceremony import season_ceremony, season_ceremony_next
from clubs.forms import SeasonCeremonyForm
from clubs.models import Club, Season
from tables.errors import RuleError
from tournament.private_doors import not_found_for, private
from tournament.snapshots import read_in_one_snapshot
from tournament.views.request_types import HostHttpRequest

POLL_SECONDS = 3
SHOWN_AT_MOST = 100  # house rule of the display: the final standings' top 100 fit one 1080p screen


def standings_size(lines: int) -> str:
    """How the final season standings of ``lines`` rows are written so that they fit one screen
    (house rule of the display, ``docs/clubs.md``): "few" (up to 12: one column, names at 4 % of
    the screen's height), "some" (up to 30: two columns), "many" (up to 60: three), "most" (four,
    the top ``SHOWN_AT_MOST``). Raises nothing."""
    for size, most in (("few", 12), ("some", 30), ("many", 60)):
        if lines <= most:
            return size
    return "most"


@login_required
@require_POST
def season_ceremony_tap(request: HostHttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """One tap of "Reveal next prize" (a POST of ``SeasonCeremonyForm``); a refusal is a message
    on the season page, and nothing was changed."""
    club = get_object_or_404(Club, pk=club_id, host=request.user)
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_id, club=club)
    form = SeasonCeremonyForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That tap came from a page that is out of date: nothing was changed. Look again.")
        return redirect("club-season", club.pk, season.pk)
    try:
        now = season_ceremony_next(season=season, seen_step=form.cleaned_data["seen_step"])
    except RuleError as error:
        messages.error(request, str(error))
    else:
        shown = now.latest.award.title if now.latest else "The final season standings"
        messages.success(request, f"{shown}: on the room display now.")
    return redirect("club-season", club.pk, season.pk)


@read_in_one_snapshot
def season_room(request: HttpRequest, room_key: str) -> HttpResponse:
    """The season's room display (full page, or its live part for htmx's poll): before the
    ceremony a welcome, then the prize just revealed (title, winners, why) in large type, then
    the prizes and the final season standings."""
    season = Season.objects.filter(room_key=room_key).select_related("club").first() if room_key else None
    if season is None:
        return not_found_for(request)
    now = season_ceremony(season)
    rows = now.standings.rows
    context = {
        "season": season,
        "club": season.club,
        "c": now,
        "rows": rows[:SHOWN_AT_MOST],
        "more": max(0, len(rows) - SHOWN_AT_MOST),
        "size": standings_size(len(rows)),
        "poll_seconds": POLL_SECONDS,
    }
    template = "clubs/_season_room_live.html" if request.headers.get("HX-Request") else "clubs/season_room.html"
    return private(render(request, template, context))
