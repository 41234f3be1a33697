"""The host's kitty pages: an evening's settlement sheet (its fee and payouts, *Settle*), the
season's ledger (its dues and the club's currency), and the season's exports (standings and
ledger as CSV and PDF, the season as JSON). Each view reads a form and calls a service
(``clubs.kitty``); a ``RuleError`` becomes a message and nothing was changed. Only the club's
host sees them (another's is a 404)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render

from clubs import exports, kitty
from clubs.kitty_forms import KittyForm, MoneyForm, fee_text, payouts_text
from clubs.ledger import season_ledger, settlement_sheet
from clubs.models import ClubEvening, Season
from clubs.selectors import season_standings
from clubs.versions import season_version
from tables.errors import RuleError
from tables.kitty import money_words
from tournament.registry import format_for
from tournament.snapshots import read_in_one_snapshot
from tournament.views.request_types import HostHttpRequest


def _link(request: HostHttpRequest, club_id: int, evening_id: int) -> ClubEvening:
    """The host's club evening (another host's, another club's or none: 404)."""
    return get_object_or_404(
        ClubEvening.objects.select_related("club", "evening"),
        club_id=club_id,
        evening_id=evening_id,
        club__host=request.user,
    )


def _season(request: HostHttpRequest, club_id: int, season_id: int) -> Season:
    """The host's club's season (404 otherwise)."""
    return get_object_or_404(
        Season.objects.select_related("club"), pk=season_id, club_id=club_id, club__host=request.user
    )


@login_required
def evening_kitty(request: HostHttpRequest, club_id: int, evening_id: int) -> HttpResponse:
    """An evening's kitty: the fee and payouts form, the settlement sheet (as it would be settled
    now, or as it was settled), and *Settle the evening*."""
    link = _link(request, club_id, evening_id)
    evening = link.evening
    try:
        prizes = format_for(evening).kitty_prizes(evening)
    except RuleError:
        prizes = ()
    rules = kitty.kitty_rules(link)
    initial = {"fee": fee_text(rules.fee), "payouts": payouts_text(rules.payouts)}
    form = KittyForm(prizes, request.POST if request.POST.get("action") == "kitty" else None, initial=initial)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "settle":
                sheet = kitty.evening_settle(evening=evening)
                messages.success(
                    request,
                    f"“{evening.name}” is settled: {money_words(sheet.collected, link.club.currency)} collected.",
                )
                return redirect("club-kitty", link.club_id, evening.pk)
            if form.is_valid():
                kitty.kitty_set(evening=evening, fee=form.cleaned_data["fee"], payouts=form.cleaned_data["payouts"])
                messages.success(request, "The kitty is saved.")
                return redirect("club-kitty", link.club_id, evening.pk)
        except RuleError as error:
            messages.error(request, str(error))
    context = {
        "club": link.club,
        "evening": evening,
        "form": form,
        "sheet": settlement_sheet(evening),
        "prizes": prizes,
    }
    return render(request, "clubs/kitty.html", context)


def _paper(request: HostHttpRequest) -> str:
    """The paper asked for ("letter"), A4 for anything else."""
    return "letter" if request.GET.get("paper") == "letter" else "A4"


def _download(body: bytes | str, content_type: str, filename: str) -> HttpResponse:
    """A download named ``filename``."""
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def evening_kitty_pdf(request: HostHttpRequest, club_id: int, evening_id: int) -> HttpResponse:
    """The evening's settlement sheet as a PDF."""
    link = _link(request, club_id, evening_id)
    pdf = exports.settlement_pdf(settlement_sheet(link.evening), paper=_paper(request))
    return _download(pdf, "application/pdf", f"settlement-{link.evening_id}.pdf")


@login_required
@read_in_one_snapshot
def season_ledger_page(request: HostHttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """The season's ledger (collected, paid out, carried; per evening, per member), and the
    club's currency and the season's dues."""
    season = _season(request, club_id, season_id)
    initial = {"currency": season.club.currency, "dues": fee_text(season.dues_cents)}
    form = MoneyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            kitty.kitty_money_set(season=season, currency=form.cleaned_data["currency"], dues=form.cleaned_data["dues"])
        except RuleError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, "The currency and the season dues are saved.")
            return redirect("club-ledger", club_id, season.pk)
    version = season_version(season, fresh=request.method == "GET")  # a refused change may have left old copies
    return render(
        request, "clubs/ledger.html", {"club": season.club, "ledger": season_ledger(season, version), "form": form}
    )


@login_required
def season_export(request: HostHttpRequest, club_id: int, season_id: int, what: str) -> HttpResponse:
    """A season's export: ``what`` is "standings.csv", "standings.pdf", "ledger.csv",
    "ledger.pdf" or "season.json" (the URLs name only these)."""
    season = _season(request, club_id, season_id)
    paper = _paper(request)
    name = f"season-{season.pk}-{what}"
    if what == "standings.csv":
        return _download(exports.standings_csv(season_standings(season)), "text/csv; charset=utf-8", name)
    if what == "standings.pdf":
        return _download(exports.standings_pdf(season_standings(season), paper), "application/pdf", name)
    if what == "ledger.csv":
        return _download(exports.ledger_csv(season_ledger(season)), "text/csv; charset=utf-8", name)
    if what == "ledger.pdf":
        return _download(exports.ledger_pdf(season_ledger(season), paper), "application/pdf", name)
    response = JsonResponse(exports.season_json(season), json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
