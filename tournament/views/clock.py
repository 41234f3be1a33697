"""The host's round clock: ring now, pause, resume, add or take N minutes, set the clock, and
the clock's settings (auto-advance, change-over, warning, end of the evening).

Login required; another host's evening is a 404. Every change goes through
``tournament.services.clock``; the button and the minutes are read by forms
(``ClockActionForm``, ``ClockMinutesForm``); a ``RuleError``, an unknown button or a bad number
becomes a message on the evening page and changes nothing. Plain forms, so they work without JavaScript.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tables.errors import RuleError
from tournament.forms.actions import ClockActionForm, form_problems
from tournament.forms.evening import ClockMinutesForm, ClockSettingsForm
from tournament.models import Evening, Round
from tournament.services import clock
from tournament.services.naming import error_message
from tournament.services.state import current_round
from tournament.views.stale import ANY_CHANGE, CLOCK_BUTTONS, SETTINGS, seen_beside, unchanged_since


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(Evening, pk=evening_id, host=request.user)


def _minutes(request: HttpRequest) -> int:
    form = ClockMinutesForm(request.POST)
    if not form.is_valid():
        # An ErrorList gives each message as text (Django's __getitem__); django-stubs 6.1 types its
        # items as ValidationError | str, so str() says what Django already does.
        raise RuleError(" ".join(str(message) for message in form.errors["minutes"]))
    return form.cleaned_data["minutes"]


@login_required
@require_POST
def clock_control(request: HttpRequest, evening_id: int) -> HttpResponse:
    """POST ``action`` = ring | pause | resume | add | take | set (with ``minutes``): change the
    clock of the round in play, then back to the evening page with what happened. Taking all the
    time left or setting 0 changes nothing and goes to the bell's confirmation page
    (``_ends_the_round``)."""
    evening = _evening(request, evening_id)
    form = ClockActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form_problems(form)))
        return redirect("host-evening", evening.pk)
    action = form.cleaned_data["action"]
    device = request.META.get("HTTP_USER_AGENT", "")[:200]
    try:
        with unchanged_since(evening, form, ANY_CHANGE if action == "ring" else CLOCK_BUTTONS):
            if action == "ring":
                bell = clock.round_ring(evening=evening, user=request.user, device=device)
                rnd = current_round(evening)
                if bell is not None:
                    messages.success(request, f"The bell of round {bell.round.number} has rung.")
                else:
                    messages.info(request, f"The bell has rung; it waits for {rnd.waiting_for if rnd else 'results'}.")
                return redirect("host-evening", evening.pk)
            rnd = current_round(evening)
            if rnd is None:
                raise RuleError("No round is in play: start the next round first.")
            if action == "pause":
                clock.round_pause(round=rnd, user=request.user, device=device)
                messages.success(request, f"Round {rnd.number} is paused.")
            elif action == "resume":
                clock.round_resume(round=rnd, user=request.user, device=device)
                messages.success(request, f"Round {rnd.number} runs again.")
            elif action in ("take", "set") and _ends_the_round(rnd, action, minutes := _minutes(request)):
                messages.info(
                    request,
                    f"That would end round {rnd.number} now, which rings its bell: the clock was "
                    "not changed. Ring the bell here if the round is over.",
                )
                return redirect("host-bell-confirm", evening.pk, rnd.number)
            elif action in ("add", "take"):
                minutes = _minutes(request)
                clock.round_extend(
                    round=rnd, minutes=minutes if action == "add" else -minutes, user=request.user, device=device
                )
                word = "added to" if action == "add" else "taken from"
                messages.success(request, f"{minutes} minute{'s' if minutes != 1 else ''} {word} round {rnd.number}.")
            else:  # set
                minutes = _minutes(request)
                clock.round_set_time_left(round=rnd, seconds=minutes * 60, user=request.user, device=device)
                messages.success(request, f"Round {rnd.number}'s clock is set to {minutes}:00.")
    except RuleError as error:
        messages.error(request, error_message(error, evening))
    return redirect("host-evening", evening.pk)


def _ends_the_round(rnd: Round, action: str, minutes: int) -> bool:
    """Whether taking or setting ``minutes`` leaves no time on the clock, so the timed bell would
    ring at once. House rule: the clock's buttons never ring the bell behind the host's back;
    the host goes to the bell's confirmation page instead (it names missing and disputed
    results, and rings only from its button)."""
    if action == "set":
        return minutes == 0
    return minutes * 60 >= clock.round_seconds_left(rnd)


@login_required
def clock_settings(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The clock's settings page: how a round ends, auto-advance and change-over, the warning,
    the number of rounds and the end time."""
    evening = _evening(request, evening_id)
    form = ClockSettingsForm(request.POST or None, instance=Evening.objects.get(pk=evening.pk))
    if request.method == "POST" and form.is_valid() and (seen := seen_beside(request, form)) is not None:
        try:
            with unchanged_since(evening, seen, SETTINGS):
                clock.evening_set_clock(
                    evening=evening,
                    user=request.user,
                    device=request.META.get("HTTP_USER_AGENT", ""),
                    **{name: form.cleaned_data[name] for name in clock.CLOCK_FIELDS},
                )
        except RuleError as error:
            form.add_error(None, error_message(error, evening))
        else:
            messages.success(request, "The clock settings are saved.")
            return redirect("host-evening", evening.pk)
    return render(request, "host/clock_settings.html", {"evening": evening, "form": form})
