"""The host's club pages: each view reads a form and calls a service (``clubs.services``); a
``RuleError`` becomes a message on the page, and nothing was changed. Only the club's host sees
a club (another's is a 404)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubs import services
from clubs.ceremony import season_ceremony
from clubs.forms import (
    ClubEveningForm,
    ClubForm,
    MemberActionForm,
    MemberListForm,
    PickForm,
    SeasonCeremonyForm,
    SeasonCloseForm,
    SeasonForm,
    UsualEveningForm,
)
from clubs.models import Club, Member, Season
from clubs.selectors import club_page, today
from clubs.versions import season_version
from tables.errors import RuleError
from tournament.models import Evening, Guest
from tournament.name_keys import name_order
from tournament.snapshots import read_in_one_snapshot
from tournament.views.request_types import HostHttpRequest


def _club(request: HostHttpRequest, club_id: int) -> Club:
    """The host's club ``club_id`` (another host's or none: 404)."""
    return get_object_or_404(Club, pk=club_id, host=request.user)


def _refused(request: HostHttpRequest, error: RuleError) -> None:
    messages.error(request, str(error))


@login_required
def club_list(request: HostHttpRequest) -> HttpResponse:
    """The host's clubs, and the form to create one (name, usual format and its options, how the
    seasons rank, subs shown)."""
    form = ClubForm(request.POST or None)
    usual = UsualEveningForm(request.POST or None)  # no prefix: formats.js reads its select[name=format]
    if request.method == "POST" and form.is_valid() and usual.is_valid():
        try:
            club = services.club_create(
                host=request.user,
                name=form.cleaned_data["name"],
                format=usual.cleaned_data["format"],
                evening_settings=usual.usual(),
                season_order=form.cleaned_data["season_order"],
                subs_shown=form.cleaned_data["subs_shown"],
            )
        except RuleError as error:
            _refused(request, error)
        else:
            messages.success(request, f"{club.name} is created. Now add its members.")
            return redirect("club", club.pk)
    clubs = Club.objects.filter(host=request.user)
    return render(request, "clubs/club_list.html", {"clubs": clubs, "form": form, "usual": usual})


@login_required
def club_detail(request: HostHttpRequest, club_id: int) -> HttpResponse:
    """The club: its roster (import, remove, mark as left), its evenings (a new one; one of the
    host's brought in), its subs (promote), its seasons (open, close, standings)."""
    club = _club(request, club_id)
    form = MemberListForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            rows = services.parse_member_list(form.cleaned_data["text"], club=club)
            added = services.members_add(club=club, rows=rows)
        except RuleError as error:
            _refused(request, error)
        else:
            messages.success(request, f"{len(added)} members added.")
            return redirect("club", club.pk)
    context = {
        "page": club_page(club),
        "form": form,
        "season_form": SeasonForm(),
        "close_form": SeasonCloseForm(initial={"on": today()}),
        "settings_form": ClubForm(
            initial={"name": club.name, "season_order": club.season_order, "subs_shown": club.subs_shown}
        ),
    }
    return render(request, "clubs/club_detail.html", context)


@login_required
@require_POST
def club_settings(request: HostHttpRequest, club_id: int) -> HttpResponse:
    """Change how the club's seasons rank and whether subs are shown."""
    club = _club(request, club_id)
    form = ClubForm(request.POST, format=club.format)
    if form.is_valid():
        try:
            services.club_settings_change(
                club=club, season_order=form.cleaned_data["season_order"], subs_shown=form.cleaned_data["subs_shown"]
            )
        except RuleError as error:
            _refused(request, error)
        else:
            messages.success(request, "The season standings' settings are saved.")
    else:
        messages.error(request, "Choose how the seasons rank.")
    return redirect("club", club.pk)


@login_required
@require_POST
def member_action(request: HostHttpRequest, club_id: int, member_id: int) -> HttpResponse:
    """Remove a member (refused when they have history), mark them as left, or back."""
    club = _club(request, club_id)
    member = Member.objects.filter(club=club, pk=member_id).first()
    form = MemberActionForm(request.POST)
    if member is None or not form.is_valid():
        messages.error(request, "That member is no longer on the roster; the page is reloaded.")
        return redirect("club", club.pk)
    action = form.cleaned_data["action"]
    try:
        if action == "remove":
            services.member_remove(member=member)
            messages.success(request, f"{member.name} is removed from the roster.")
        else:
            services.member_mark_left(member=member, on=today() if action == "left" else None)
            messages.success(
                request, f"{member.name} {'left the club' if action == 'left' else 'is back in the club'}."
            )
    except RuleError as error:
        _refused(request, error)
    return redirect("club", club.pk)


@login_required
def club_evening_new(request: HostHttpRequest, club_id: int) -> HttpResponse:
    """A new evening of the club: the evening form with the club's usual settings, the roster to
    tick and subs to add; then the evening's guests page."""
    club = _club(request, club_id)
    roster = sorted(Member.objects.filter(club=club, left_on__isnull=True), key=lambda m: (name_order(m.name), m.pk))
    form = ClubEveningForm(club, roster, request.POST or None)
    if request.method == "POST" and form.is_valid():
        evening = form.save(commit=False)
        evening.host = request.user
        try:
            services.club_evening_create(
                club=club,
                evening=evening,
                member_ids=form.cleaned_data["members"],
                subs=form.cleaned_data["subs"],
                user=request.user,
            )
        except RuleError as error:
            _refused(request, error)
        else:
            messages.success(request, f"“{evening.name}” is created with {evening.guests.count()} guests.")
            return redirect("host-guests", evening.pk)
    return render(request, "clubs/evening_new.html", {"club": club, "form": form})


@login_required
@require_POST
def sub_promote(request: HostHttpRequest, club_id: int) -> HttpResponse:
    """Make a sub of the club's evenings a member."""
    club = _club(request, club_id)
    form = PickForm(request.POST)
    guest = (
        Guest.objects.filter(pk=form.cleaned_data["pk"], evening__host=request.user).first()
        if form.is_valid()
        else None
    )
    if guest is None:
        messages.error(request, "That sub is no longer a guest; the page is reloaded.")
        return redirect("club", club.pk)
    try:
        member = services.sub_promote(club=club, guest=guest)
    except RuleError as error:
        _refused(request, error)
    else:
        messages.success(request, f"{member.name} is a member now: their nights as a sub count as theirs.")
    return redirect("club", club.pk)


@login_required
@require_POST
def evening_bring(request: HostHttpRequest, club_id: int) -> HttpResponse:
    """Make one of the host's evenings the club's (before its draw when it is another club's)."""
    club = _club(request, club_id)
    form = PickForm(request.POST)
    evening = Evening.objects.filter(pk=form.cleaned_data["pk"], host=request.user).first() if form.is_valid() else None
    if evening is None:
        messages.error(request, "That evening is not one of yours; the page is reloaded.")
        return redirect("club", club.pk)
    try:
        services.evening_club_set(evening=evening, club=club)
    except RuleError as error:
        _refused(request, error)
    else:
        messages.success(request, f"“{evening.name}” is one of {club.name}'s evenings.")
    return redirect("club", club.pk)


@login_required
@require_POST
def season_new(request: HostHttpRequest, club_id: int) -> HttpResponse:
    """Open a season (refused when its dates overlap another's)."""
    club = _club(request, club_id)
    form = SeasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the season's first day (and its last, or leave it empty).")
        return redirect("club", club.pk)
    try:
        season = services.season_open(club=club, **form.cleaned_data)
    except RuleError as error:
        _refused(request, error)
        return redirect("club", club.pk)
    messages.success(request, f"The season “{season.name}” is open.")
    return redirect("club-season", club.pk, season.pk)


@login_required
@require_POST
def season_close(request: HostHttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """Close a season on a day."""
    club = _club(request, club_id)
    season = get_object_or_404(Season, pk=season_id, club=club)
    form = SeasonCloseForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the season's last day.")
    else:
        try:
            services.season_close(season=season, on=form.cleaned_data["on"])
        except RuleError as error:
            _refused(request, error)
        else:
            messages.success(
                request, f"The season “{season.name}” is closed: its last day is {season.ends_on:%d %b %Y}."
            )
    return redirect("club-season", club.pk, season.pk)


@login_required
@read_in_one_snapshot
def season_page(request: HostHttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """A season's standings: members (and subs, when the club shows them) ranked over its
    evenings, nights played, each evening's tallies, the season's prizes."""
    club = _club(request, club_id)
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_id, club=club)
    now = season_ceremony(season, season_version(season, fresh=True))  # the season and club as just read
    context = {
        "club": club,
        "s": now.standings,
        "c": now,
        "close_form": SeasonCloseForm(initial={"on": today()}),
        "reveal_form": SeasonCeremonyForm(initial={"seen_step": now.shown}),
        "room_url": request.build_absolute_uri(reverse("season-room", args=[season.room_key])),
    }
    return render(request, "clubs/season.html", context)
