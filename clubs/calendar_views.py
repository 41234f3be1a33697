"""The host's calendar pages: a season's evenings with their date, place and host member (each
changed through ``CalendarForm`` and ``clubs.calendar.evening_calendar_set``), and the members'
private links for the season (given, or a new one in place of one). A ``RuleError`` becomes a
message and nothing was changed. Only the club's host sees them (another's is a 404)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubs import calendar
from clubs.forms import CalendarForm, LinkPickForm
from clubs.member_page import season_calendar
from clubs.models import ClubEvening, Member, MemberLink, Season
from tables.errors import RuleError
from tournament.name_keys import name_order
from tournament.views.request_types import HostHttpRequest


def _season(request: HostHttpRequest, club_id: int, season_id: int) -> Season:
    """The host's club's season (404 otherwise)."""
    return get_object_or_404(
        Season.objects.select_related("club"), pk=season_id, club_id=club_id, club__host=request.user
    )


@login_required
def season_calendar_page(request: HostHttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """The season's calendar: each evening's date, time, place and host member (a link to change
    them), and every member's private link for the season (their page and calendar feed)."""
    season = _season(request, club_id, season_id)
    links = sorted(
        MemberLink.objects.filter(season=season).select_related("member"),
        key=lambda link: (name_order(link.member.name), link.pk),
    )
    context = {
        "club": season.club,
        "season": season,
        "calendar": season_calendar(season),
        "links": [(x, request.build_absolute_uri(f"/m/{x.key}/")) for x in links],
        "unlinked": Member.objects.filter(club=season.club).exclude(links__season=season).count(),
    }
    return render(request, "clubs/calendar.html", context)


@login_required
def calendar_evening(request: HostHttpRequest, club_id: int, season_id: int, evening_id: int) -> HttpResponse:
    """Change one evening's date, start time, place and host member (the season's evening; 404
    otherwise). Refused with the reason, nothing changed: a host member who left, a date outside
    the season."""
    season = _season(request, club_id, season_id)
    link = get_object_or_404(ClubEvening.objects.select_related("evening"), club_id=club_id, evening_id=evening_id)
    if link.evening.date < season.starts_on or (season.ends_on is not None and link.evening.date > season.ends_on):
        raise Http404("not one of this season's evenings")
    members = sorted(Member.objects.filter(club_id=club_id), key=lambda m: (name_order(m.name), m.pk))
    initial = {
        "date": link.evening.date,
        "starts_at": link.starts_at,
        "place": link.place,
        "host_member": link.host_member_id,
    }
    form = CalendarForm(members, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            calendar.evening_calendar_set(
                link=link,
                date=data["date"],
                starts_at=data["starts_at"],
                place=data["place"],
                host_member=next((m for m in members if m.pk == data["host_member"]), None),
            )
        except RuleError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"“{link.evening.name}” is saved in the calendar.")
            return redirect("club-calendar", club_id, season.pk)
    context = {"club": season.club, "season": season, "evening": link.evening, "form": form}
    return render(request, "clubs/calendar_evening.html", context)


@login_required
@require_POST
def member_links(request: HostHttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """Give every member without one their private link for the season; with ``pk`` (a link's
    id), a new key for that one link (the old one stops working)."""
    season = _season(request, club_id, season_id)
    form = LinkPickForm(request.POST)
    try:
        if "pk" in request.POST:
            link = (
                MemberLink.objects.filter(season=season, pk=form.cleaned_data["pk"]).select_related("member").first()
                if form.is_valid()
                else None
            )
            if link is None:
                messages.error(request, "That link is gone; the page is reloaded.")
            else:
                calendar.member_link_reissue(link=link)
                messages.success(request, f"{link.member.name} has a new link: the old one no longer opens.")
        else:
            made = calendar.member_links_issue(season=season)
            messages.success(request, f"{len(made)} member{'s' if len(made) != 1 else ''} given their link.")
    except RuleError as error:
        messages.error(request, str(error))
    return redirect("club-calendar", club_id, season.pk)
