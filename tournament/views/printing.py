"""The host's print page and one download view per printed document.

The print page lists every document of the evening's format (``documents_for``: Progressive
Poker's, or the score cards, table cards, tally sheets, results and certificates at tables of four) with its variants as
download links on the chosen paper (A4 or US Letter), and says plainly what is missing for a
document that cannot print yet ("No draw yet: ..."), and lists the guests whose names cannot
be printed (they print as "Guest no. N"), each with a link to correct the name. QR codes and
links carry the address phones use (``tournament.party.phone_address``); when only this
computer can reach it the page says so above everything else. A download that cannot be made
(no draw, an unknown paper size, a revoked link) shows the print page again with the reason
and HTTP 400: never an empty or broken PDF. A download of a document another format prints
(score cards for Progressive Poker, score sheets for Bunco: an old link, or the format changed)
goes to the print page at this format's own document for the same use, saying why. Login
required; another host's evening is a 404.
Rules: issue 7, issue 13.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from tables.errors import RuleError
from tournament.documents.contents import document, documents_for, evening_kind, other_format_document
from tournament.documents.print_checks import PrintChecks, print_checks
from tournament.forms.actions import PrintQuery
from tournament.models import Evening
from tournament.party import phone_address
from tournament.printing import page_size

PAPERS = (("A4", "A4"), ("letter", "US Letter"))
URL_NAMES = {
    "seating-cards": "host-print-seating",
    "table-tents": "host-print-tents",
    "score-sheets": "host-print-scores",
    "pull-list": "host-print-pull",
    "results": "host-print-results",
    "certificates": "host-print-certificates",
    "score-cards": "host-print-cards",
    "tally-sheets": "host-print-tally",
}


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(Evening, pk=evening_id, host=request.user)


def _query(request: HttpRequest) -> tuple[str, str, str]:
    """(paper, variant, problem) from ``?paper=`` ("A4" when absent) and ``?variant=`` ("" when
    absent), as given; a value the ``PrintQuery`` form refuses (NUL, too long) gives A4, no
    variant and the problem in words."""
    query = PrintQuery(request.GET)
    if not query.is_valid():
        return "A4", "", "The paper or the variant in the address is not one this page offers: choose a link below."
    return query.cleaned_data["paper"] or "A4", query.cleaned_data["variant"], ""


def _rows(evening: Evening, checks: PrintChecks, *, paper: str) -> list[dict]:
    """Every document of the evening's format as the print page lists it: {"kind", "links"
    (label, url on ``paper``, problem), "problems", "note"}, from its ``checks``."""
    rows = []
    for check in checks.documents:
        base = reverse(URL_NAMES[check.kind.slug], args=[evening.pk])
        links = [
            {"label": label, "url": f"{base}?paper={paper}&variant={value}", "problem": problem}
            for value, label, problem in check.variants
        ]
        rows.append({"kind": check.kind, "links": links, "problems": list(check.problems), "note": check.note})
    return rows


def _page(request: HttpRequest, evening: Evening, *, paper: str, error: str = "", status: int = 200) -> HttpResponse:
    """The print page: every document with its variants, links on ``paper``, what is missing."""
    errors = [error] if error else []
    try:
        page_size(paper)
    except RuleError as refused:
        if str(refused) not in error:
            errors.append(f"{refused} The links below are for A4.")
        paper = "A4"
    checks = print_checks(evening)  # kept per evening version: the page drawn again checks nothing
    rows = _rows(evening, checks, paper=paper)
    context = {
        "evening": evening,
        "rows": rows,
        "errors": errors,
        "paper": paper,
        "address": phone_address(request),
        "unprintable": checks.unprintable,
        "papers": [{"value": v, "label": label, "url": f"{request.path}?paper={v}"} for v, label in PAPERS],
    }
    return render(request, "host/print.html", context, status=status)


@login_required
def print_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The evening's print page (see the module docstring); ``?paper=letter`` for US Letter."""
    evening = _evening(request, evening_id)
    paper, _, problem = _query(request)
    return _page(request, evening, paper=paper, error=problem, status=400 if problem else 200)


def _other_format(request: HttpRequest, evening: Evening, slug: str, *, paper: str) -> HttpResponse:
    """A download of another format's document (an old link, or the format changed since):
    the print page at the format's own document for the same use, with the reason in words
    (``other_format_document``); never a bare error for a link the site once gave."""
    reason, instead = other_format_document(evening, slug)
    messages.info(request, reason)
    anchor = f"#doc-{instead}" if instead else ""
    return redirect(f"{reverse('host-print', args=[evening.pk])}?{urlencode({'paper': paper})}{anchor}")


def _download(request: HttpRequest, evening_id: int, slug: str) -> HttpResponse:
    """Build document ``slug`` for ``?paper=`` and ``?variant=`` and send it as a PDF download,
    or the print page with the reason (HTTP 400) when it cannot be made."""
    evening = _evening(request, evening_id)
    paper, variant, problem = _query(request)
    if slug not in {kind.slug for kind in documents_for(evening)}:
        return _other_format(request, evening, slug, paper=paper)
    kind = evening_kind(evening, slug)
    if problem:
        return _page(request, evening, paper=paper, error=f"{kind.title}: {problem}", status=400)
    variant = variant or kind.default_variant
    try:
        pdf = document(
            evening=evening, slug=slug, paper=paper, variant=variant, base_url=phone_address(request).url
        ).render()
    except RuleError as error:
        return _page(request, evening, paper=paper, error=f"{kind.title}: {error}", status=400)
    response = HttpResponse(pdf, content_type="application/pdf")
    suffix = "" if variant == kind.default_variant else f"-{variant}"
    filename = f"{slug}{suffix}-{evening.pk}-{paper.lower()}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def print_seating_cards(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The seating cards PDF (``?variant=sheet|tent``, ``?paper=A4|letter``)."""
    return _download(request, evening_id, "seating-cards")


@login_required
def print_table_tents(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The table tent cards PDF (``?paper=A4|letter``)."""
    return _download(request, evening_id, "table-tents")


@login_required
def print_score_sheets(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The score sheets PDF (``?variant=blank|prefilled``, ``?paper=A4|letter``)."""
    return _download(request, evening_id, "score-sheets")


@login_required
def print_pull_list(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The pull list PDF for a physical draw (``?paper=A4|letter``)."""
    return _download(request, evening_id, "pull-list")


@login_required
def print_results(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The results PDF: prizes, standings, settlement (``?paper=A4|letter``)."""
    return _download(request, evening_id, "results")


@login_required
def print_certificates(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The prize certificates PDF (``?paper=A4|letter``)."""
    return _download(request, evening_id, "certificates")


@login_required
def print_score_cards(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The players' score cards at tables of four (``?paper=A4|letter``)."""
    return _download(request, evening_id, "score-cards")


@login_required
def print_tally_sheets(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Bunco's per-table tally sheets (``?paper=A4|letter``)."""
    return _download(request, evening_id, "tally-sheets")
