"""The draw's pages: plan and deal (digital, with the host's pick of who represents the other
pack), the physical draw (pull list, card-by-card entry, finish), changes of who is here before
round 1, and the seating for the host and, read-only, for the room at the evening's public link.

Host pages need a login and show only the host's own evenings (another's is a 404). Every input
is read by a form (``tournament.forms.actions``: a bad or missing field is a message and changes
nothing); every change goes through a service in ``tournament.services.draws``/``draw_physical``/``draw_changes``; a
``RuleError`` becomes a message on the page and saves nothing. Forms post and redirect without
JavaScript; with htmx the physical draw's entry form swaps only its panel.
"""

from __future__ import annotations

from typing import TypedDict

from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.http import require_POST

from tables.errors import RuleError
from tournament.forms.actions import DrawChangeForm, DrawForm, PhysicalActionForm, PhysicalCardForm, form_problems
from tournament.models import Evening, Guest
from tournament.party import phone_address
from tournament.registry import format_for
from tournament.selectors.draw import (
    PullPack,
    draw_changes,
    drawn_card_words,
    guest_find,
    pack_labels,
    physical_view,
    pull_list_view,
    representing_choice,
    seating_view,
)
from tournament.services import draw_changes as changes_services
from tournament.services import draw_physical, draws
from tournament.services.naming import error_message
from tournament.views.format_pages import format_page, own_page
from tournament.views.request_types import HtmxHttpRequest
from tournament.views.stale import ANY_CHANGE, unchanged_since


class _Actor(TypedDict):
    """Who changes the draw, as the draw services take it (and write it in the audit log)."""

    evening: Evening
    user: AbstractBaseUser | AnonymousUser
    device: str


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(Evening, pk=evening_id, host=request.user)


def _refused(request: HttpRequest, form) -> None:
    for problem in form_problems(form):
        messages.error(request, problem)


def _draw_post(request: HttpRequest, evening: Evening) -> HttpResponse:
    """The draw page's buttons (``DrawForm``): deal digitally, or start a physical draw; a
    button from a page drawn before a later change is refused with what changed
    (``tournament.views.stale``, house rule: the draw on any later change). Returns the
    redirect, with its message."""
    form = DrawForm(request.POST)
    if not form.is_valid():
        _refused(request, form)
        return redirect("host-draw", evening.pk)
    accept, action = form.cleaned_data["accept_relaxed"] == "1", form.cleaned_data["action"] or "digital"
    try:
        with unchanged_since(evening, form, ANY_CHANGE):
            if action == "physical":
                draw_physical.draw_physical_start(
                    evening=evening, accept_relaxed=accept, user=request.user, device=_device(request)
                )
            else:
                draws.draw_digital(
                    evening=evening,
                    accept_relaxed=accept,
                    user=request.user,
                    device=_device(request),
                    representing=form.cleaned_data["representing"],
                )
    except RuleError as error:
        messages.error(request, error_message(error, evening))
        return redirect("host-draw", evening.pk)
    if action == "physical":
        messages.success(
            request, "The physical draw is started: pull the cards on the pull list, then record each guest's card."
        )
        return redirect("host-draw-physical", evening.pk)
    messages.success(request, "The draw is made: every guest here has a table.")
    return redirect("host-evening", evening.pk)


@login_required
@format_page("draw")
def draw_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Plan the tables for the guests here; deal digitally (or redraw before round 1), with an
    optional pick of who represents the other pack; or start a physical draw. Also lists the
    changes of who is here since the draw, with the host's choices."""
    evening = _evening(request, evening_id)
    if request.method == "POST":
        return _draw_post(request, evening)
    plan = offer = None
    problem = ""
    try:
        plan = draws.draw_plan(evening=evening)
    except RuleError as error:
        problem, offer = error_message(error, evening), draws.plan_offer(evening=evening)
    shown = plan or offer
    open_draw = draw_physical.open_physical_draw(evening)
    return render(
        request,
        "host/draw.html",
        {
            "evening": evening,
            "plan": plan,
            "offer": offer,
            "problem": problem,
            "live": draws.live_draw(evening),
            "open": open_draw,
            "open_done": open_draw.cards.count() if open_draw else 0,
            "open_total": sum(open_draw.sizes) if open_draw else 0,
            "started": evening.rounds.exists(),
            "changes": draw_changes(evening),
            "registered": evening.guests.filter(status=Guest.Status.REGISTERED).count(),
            "choice": representing_choice(evening, shown) if shown else None,
            "address": phone_address(request),
        },
    )


@login_required
@require_POST
def draw_change(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Before round 1: seat a latecomer at a free seat, take a leaver out of the draw, or let a
    latecomer take a leaver's seat (``action`` = seat / release / swap)."""
    evening = _evening(request, evening_id)
    if (own := own_page("draw_change", request, evening)) is not None:
        return own
    form = DrawChangeForm(request.POST)
    if not form.is_valid():
        _refused(request, form)
        return redirect("host-draw", evening.pk)
    action, guest = form.cleaned_data["action"], form.cleaned_data["guest"]
    kwargs: _Actor = {"evening": evening, "user": request.user, "device": _device(request)}
    try:
        with unchanged_since(evening, form, ANY_CHANGE):
            if action == "seat":
                table = form.cleaned_data["table"]
                changes_services.draw_seat_latecomer(guest_id=guest, table=table, **kwargs)
                done = f"Seated at table {table}."
            elif action == "release":
                changes_services.draw_release_guest(guest_id=guest, **kwargs)
                done = "Taken out of the draw; their table is one smaller."
            else:
                changes_services.draw_swap_guest(leaving_id=guest, arriving_id=form.cleaned_data["latecomer"], **kwargs)
                done = "The latecomer has taken the seat."
        messages.success(request, done)
    except RuleError as error:
        messages.error(request, error_message(error, evening))
    return redirect("host-draw", evening.pk)


@login_required
def pull_list_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The pull list, ready to print: which cards to take out of each real pack, with the
    host's pack labels. For the physical draw being recorded, once play has begun for the draw in
    force (the guests here then cannot be drawn again), else for the guests here now."""
    evening = _evening(request, evening_id)
    if (own := own_page("draw_physical", request, evening)) is not None:
        return own
    open_draw = draw_physical.open_physical_draw(evening)
    problem, plan = "", None
    packs: list[PullPack] = []
    try:
        plan, packs = pull_list_view(evening)
    except RuleError as error:
        problem = error_message(error, evening)
    return render(
        request,
        "host/draw_pull_list.html",
        {
            "evening": evening,
            "packs": packs,
            "plan": plan,
            "problem": problem,
            "open": open_draw,
            "begun": open_draw is None and evening.rounds.exists(),  # the draw in force's cards, for the record
            "seat_cards": format_for(evening).seats_named,
        },
    )


def _physical_context(evening: Evening, **extra) -> dict:
    draw = draw_physical.open_physical_draw(evening)
    return {"evening": evening, "view": physical_view(draw) if draw else None, **extra}


@login_required
def physical_page(request: HtmxHttpRequest, evening_id: int) -> HttpResponse:
    """Record the cards guests drew from real packs: a guest's name (type-ahead) and the card
    as typed ("3", "trey", "3 red"); Enter saves and the focus returns to the name. Shows the
    cards and guests left and the cards recorded. With htmx, only the panel is swapped."""
    evening = _evening(request, evening_id)
    if (own := own_page("draw_physical", request, evening)) is not None:
        return own
    template = "host/_draw_physical.html" if request.htmx else "host/draw_physical.html"
    if request.method != "POST":
        return render(request, template, _physical_context(evening))
    form = PhysicalCardForm(request.POST)
    name, card = str(request.POST.get("guest", ""))[:200], str(request.POST.get("card", ""))[:40]
    if not form.is_valid():
        return render(
            request,
            template,
            _physical_context(
                evening,
                error=" ".join(form_problems(form)),
                name=name.replace("\x00", ""),
                card=card.replace("\x00", ""),
            ),
        )
    name, card = form.cleaned_data["guest"], form.cleaned_data["card"]
    try:
        draw = draw_physical.open_physical_draw(evening)
        if draw is None:
            raise RuleError("No physical draw is being recorded: start one from the draw page.")
        view = physical_view(draw)
        if view.problem:
            raise RuleError(view.problem)
        guest = guest_find(evening, name, view.guests_left)
        with unchanged_since(evening, form, ANY_CHANGE):
            row = draw_physical.draw_physical_record(
                evening=evening, guest_id=guest.pk, card=card, user=request.user, device=_device(request)
            )
    except RuleError as error:
        return render(
            request, template, _physical_context(evening, error=error_message(error, evening), name=name, card=card)
        )
    done = drawn_card_words(evening, guest, row)
    if request.htmx:
        return render(request, template, _physical_context(evening, done=done))
    messages.success(request, done)
    return redirect("host-draw-physical", evening.pk)


@login_required
@require_POST
def physical_action(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Undo one guest's card (``action=withdraw``, ``guest`` id), finish the draw (seat
    everyone), or cancel it (the draw in force stays)."""
    evening = _evening(request, evening_id)
    if (own := own_page("draw_physical", request, evening)) is not None:
        return own
    form = PhysicalActionForm(request.POST)
    if not form.is_valid():
        _refused(request, form)
        return redirect("host-draw-physical", evening.pk)
    action = form.cleaned_data["action"]
    kwargs: _Actor = {"evening": evening, "user": request.user, "device": _device(request)}
    try:
        with unchanged_since(evening, form, ANY_CHANGE):
            if action == "withdraw":
                draw_physical.draw_physical_withdraw(guest_id=form.cleaned_data["guest"], **kwargs)
            elif action == "finish":
                draw_physical.draw_physical_finish(**kwargs)
            else:
                draw_physical.draw_physical_cancel(**kwargs)
        if action == "withdraw":
            messages.success(request, "The card is undone: record it again.")
        elif action == "finish":
            messages.success(request, "The draw is finished: every guest here is seated.")
            return redirect("host-draw-seating", evening.pk)
        else:
            messages.success(request, "The physical draw is cancelled.")
            return redirect("host-draw", evening.pk)
    except RuleError as error:
        messages.error(request, error_message(error, evening))
    return redirect("host-draw-physical", evening.pk)


@login_required
def seating_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The seating of the draw in force for the host: every table with its card's rank, its
    kind and its guests with their packs; links to the public view and the seating cards."""
    evening = _evening(request, evening_id)
    if (own := own_page("seating", request, evening)) is not None:
        return own
    return render(
        request,
        "host/draw_seating.html",
        {
            "evening": evening,
            "seating": seating_view(evening),
            "labels": pack_labels(evening),
            "address": phone_address(request),
        },
    )


def public_seating(request: HttpRequest, key: str) -> HttpResponse:
    """The seating of the draw in force at the evening's public link, read-only, for the room.
    An unknown key is a plain 404. Answers 304 while the evening's version is unchanged."""
    evening = Evening.objects.filter(public_key=key).first()
    if evening is None:
        raise Http404("No such page.")
    etag = f'"seating-{evening.version}"'
    unchanged = get_conditional_response(request, etag=etag)  # Django's If-None-Match: 304
    if unchanged is not None:
        return unchanged
    response = render(
        request,
        "host/draw_seating_public.html",
        {"evening": evening, "seating": seating_view(evening), "labels": pack_labels(evening)},
    )
    response["ETag"] = etag
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    patch_cache_control(response, no_cache=True)
    return response
