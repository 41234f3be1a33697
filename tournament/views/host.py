"""The host's pages: evenings, rounds, results, the bell, export (the guests list is in
``tournament.views.guests``, printing in ``tournament.views.printing``).

Login required; a host sees only their own evenings (another host's evening is a 404). Every
input is read by a form (``tournament.forms.evening``, ``tournament.forms.actions``); every change goes
through a service; a ``RuleError`` becomes a message on the page and saves nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import condition, require_POST, require_safe

from tables.errors import RuleError
from tables.words import counted
from tournament.exchange.export import evening_export
from tournament.exchange.importer import evening_import, export_read
from tournament.forms.bell import BELL_HELP, RoundActionForm
from tournament.forms.door import RoundNumberForm
from tournament.forms.evening import CountOffForm, EveningForm, ResultForm, TableJumpForm
from tournament.forms.exchange import EveningImportForm
from tournament.models import Bell, Evening, Guest, Result, Round
from tournament.registry import format_for
from tournament.selectors.board import disputed_tables, evening_board, last_step, missing_tables, unseated_guests
from tournament.selectors.guest_boards import shared_board
from tournament.services import bell, clock, results, state
from tournament.services.evening_settings import evening_settings_save
from tournament.services.naming import error_message
from tournament.views.board import needs_host
from tournament.views.format_pages import format_page, own_page
from tournament.views.request_types import HostHttpRequest, HtmxHttpRequest
from tournament.views.stale import ANY_CHANGE, CLOCK_BUTTONS, SETTINGS, acts_on_result, seen_beside, unchanged_since


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(Evening, pk=evening_id, host=request.user)


@login_required
def evening_list(request: HostHttpRequest) -> HttpResponse:
    """The host's evenings, and a form to create one."""
    form = EveningForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        evening = form.save(commit=False)
        evening.host = request.user
        evening.save()
        messages.success(request, f"“{evening.name}” is created. Now register your guests.")
        return redirect("host-guests", evening.pk)
    evenings = Evening.objects.filter(host=request.user)
    return render(request, "host/evening_list.html", {"evenings": evenings, "form": form})


@login_required
def evening_import_page(request: HostHttpRequest) -> HttpResponse:
    """Import an evening exported as JSON (``docs/export.md``): the file is checked whole and
    every bell replayed (``tournament.exchange.importer``) before anything is saved; the copy is
    a new evening of this host's, named as a copy ("Friday club (imported)"), and the page goes to
    its board. A file that is not an export, or whose bells do not replay, is shown on the form
    with the place in the file, and nothing is saved."""
    posted = request.method == "POST"
    form = EveningImportForm(request.POST, request.FILES) if posted else EveningImportForm()
    if posted and form.is_valid():
        try:
            with transaction.atomic():
                evening = evening_import(data=export_read(form.cleaned_data["raw"]), host=request.user)
        except RuleError as error:
            form.add_error("file", str(error))
        else:
            guests = counted(evening.guests.count(), "guest")
            messages.success(
                request,
                f"Imported as “{evening.name}” ({evening.get_format_display()}, {guests}), every bell replayed.",
            )
            return redirect("host-evening", evening.pk)
    return render(request, "host/evening_import.html", {"form": form})


def board_etag(request: HtmxHttpRequest, evening_id: int) -> str | None:
    """The board's ETag for its live poll (htmx), from the evening's ``version`` (every change to
    an evening bumps it): ``board-<id>-<version>``. None for a full page (a page load always
    renders, so a message after a refused action is never lost to a 304) and for an evening that
    is not this host's (the view answers 404). One query."""
    if not request.htmx or not request.user.is_authenticated:
        return None
    version = Evening.objects.filter(pk=evening_id, host=request.user).values_list("version", flat=True).first()
    return None if version is None else f"board-{evening_id}-{version}"


@login_required
@condition(etag_func=board_etag)
def evening_detail(request: HtmxHttpRequest, evening_id: int) -> HttpResponse:
    """The evening's board, in the order a host needs it at 84 tables: the round and its clock,
    what needs the host (tables missing a result, disputes, count warnings), then a compact
    grid of the tables (each opens its own page); the moves and standings are tabs of their own.

    Polled by htmx every 5 s for the live part (``host/_board.html``): an unchanged evening is a
    304 with no body (``board_etag``); a changed one is morphed in place (idiomorph), so keyboard
    focus stays and alerts already shown are not announced again."""
    evening = _evening(request, evening_id)
    if (own := own_page("board", request, evening, live=bool(request.htmx))) is not None:
        return own
    shared = shared_board(evening)  # the one every phone shares: once per process and version
    board = shared.board
    template = "host/_board.html" if request.htmx else "host/evening_detail.html"
    here = sum(1 for g in board.guests.values() if g.status == Guest.Status.HERE)
    return render(
        request,
        template,
        {
            "evening": evening,
            "board": board,
            "ceremony": shared.ceremony,
            "here": here,
            "needs": needs_host(board),
            "undo": last_step(evening, {pk: g.name for pk, g in board.guests.items()}),
            "etag": f'"board-{evening.pk}-{evening.version}"',
            "tab": "board",
            "jump": TableJumpForm(tables=len(board.tables)),
        },
    )


@login_required
def evening_edit(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Change the evening's settings (``services.evening_settings``: saved against the evening
    as it is now; a refusal is shown on the form and saves nothing). The form checks a copy of
    the evening, so the page's heading, back link and title keep the saved name when the save
    is refused (a form's checks write what was typed onto its instance)."""
    evening = _evening(request, evening_id)
    form = EveningForm(request.POST or None, instance=Evening.objects.get(pk=evening.pk))
    if request.method == "POST" and form.is_valid() and (seen := seen_beside(request, form)) is not None:
        settings, format_options = form.settings()
        try:
            with unchanged_since(evening, seen, SETTINGS):
                evening_settings_save(
                    evening=evening,
                    settings=settings,
                    format_options=format_options,
                    user=request.user,
                    device=request.META.get("HTTP_USER_AGENT", ""),
                )
        except RuleError as error:
            form.add_error(None, error_message(error, evening))
        else:
            messages.success(request, "Saved.")
            return redirect("host-evening", evening.pk)
    return render(request, "host/evening_edit.html", {"evening": evening, "form": form})


@login_required
@require_POST
def round_action(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Start the next round, pause, resume, add a minute, ring the bell now, undo the last bell,
    or choose who rings a reopened round's bell (``RoundActionForm``).

    *Ring the bell now* with results missing goes first to a confirmation page naming the
    tables (``bell_confirm``); the bell rings only from its "ring anyway" button. A ring for a
    round that is no longer in play (a second tap, a stale tab) and an undo of a bell that is
    no longer the last one are refused with the reason; nothing changes.

    A button from a page drawn before a later change is refused with what changed since
    (``tournament.views.stale``; house rule: start, ring, reopened and undo on any later change
    to the play, pause, resume and the minutes on a change of the clock or a step)."""
    evening = _evening(request, evening_id)
    form = RoundActionForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect("host-evening", evening.pk)
    acts_on = CLOCK_BUTTONS if form.cleaned_data["action"] in ("pause", "resume", "plus", "minus") else ANY_CHANGE
    try:
        with unchanged_since(evening, form, acts_on):
            response = _round_action_run(request, evening, form.cleaned_data)
    except RuleError as error:
        messages.error(request, error_message(error, evening))
        response = None
    return response or redirect("host-evening", evening.pk)


def _round_action_run(request: HttpRequest, evening: Evening, data: dict) -> HttpResponse | None:
    """Carry out one valid ``RoundActionForm`` action (``data``, its cleaned data) through the
    services and queue its message; returns a redirect only when the bell needs confirming.
    Raises ``RuleError`` when the action does not fit the round in play (none, or another round
    than the button's). House rule: a stale button changes nothing."""
    action, shown, device = data["action"], data["round"], _device(request)
    current = state.current_round(evening)
    if action == "start":
        waiting = [] if data["confirmed"] else unseated_guests(evening)
        if waiting:  # house rule: the host is asked before a round starts with guests here unseated
            number = evening.rounds.count() + 1
            context = {"evening": evening, "waiting": waiting, "number": number}
            return render(request, "host/start_confirm.html", context)
        rnd = clock.round_start(evening=evening, user=request.user, device=device)
        messages.success(request, f"Round {rnd.number} has started.")
    elif action == "undo":
        _bell_undo(request, evening, data["bell"], device)
    elif action == "ring" and shown is not None and (current is None or current.number != shown):
        now = f" Round {current.number} is in play now." if current is not None else ""
        raise RuleError(f"The bell of round {shown} has rung already: nothing more was rung.{now}")
    elif current is None:
        raise RuleError("No round is in play.")
    elif action == "ring":
        return _bell_ring_now(request, evening, current, data["confirmed"], device)
    elif action == "reopened":
        rnd = bell.bell_reopened_rings(
            evening=evening, round_number=shown or current.number, by=data["by"], user=request.user, device=device
        )
        messages.success(
            request,
            f"Round {rnd.number}'s bell rings when the head table's result is recorded."
            if rnd.reopened == Round.Reopened.HEAD_POOL
            else f"Round {rnd.number}'s bell rings only when you ring it.",
        )
    elif shown is not None and current.number != shown:
        raise RuleError(
            f"That button was for round {shown}, but round {current.number} is in play now: nothing was changed."
        )
    elif action == "pause":
        clock.round_pause(round=current, user=request.user, device=device)
    elif action == "resume":
        clock.round_resume(round=current, user=request.user, device=device)
    else:  # plus, minus
        clock.round_extend(round=current, minutes=1 if action == "plus" else -1, user=request.user, device=device)
    return None


def _bell_undo(request: HttpRequest, evening: Evening, bell_id: int, device: str) -> None:
    """Undo step ``bell_id`` (``bell.bell_undo``: the bell, arrival or departure the board's
    button named) and say what the host does next. Raises ``RuleError`` when that step is no
    longer the last one (a second tap, a stale tab)."""
    undone = bell.bell_undo(evening=evening, bell_id=bell_id, user=request.user, device=device)
    if undone.kind == Bell.Kind.BELL:
        messages.success(
            request,
            f"The bell of round {undone.round.number} is undone; seats are back as they "
            f"were. Round {undone.round.number} waits for you: correct any result, then "
            "ring the bell.",
        )
    elif undone.kind == Bell.Kind.ARRIVE:
        name = Guest.objects.filter(pk=undone.record.get("guest")).values_list("name", flat=True).first() or "The guest"
        messages.success(
            request,
            f"{bell.bell_words(undone)} is undone; seats are back as they were. {name} is still checked in, "
            "without a seat: seat them from the guests page when they play.",
        )
    else:
        messages.success(request, f"{bell.bell_words(undone)} is undone; seats are back as they were.")


def _bell_ring_now(
    request: HttpRequest, evening: Evening, current: Round, confirmed: bool, device: str
) -> HttpResponse | None:
    """*Ring the bell now* for round ``current``: the confirmation page first when results are
    missing or disputed and the host has not ``confirmed``, else the bell (or why it waits).
    Returns the redirect to the confirmation page, or None. Raises ``RuleError`` as
    ``bell.bell_ring``. House rule: a disputed result counts as reported if the host rings
    anyway (the host decides a dispute by entering the right result first)."""
    if not confirmed and (missing_tables(evening, current) or disputed_tables(current)):
        return redirect("host-bell-confirm", evening.pk, current.number)
    if bell.bell_ring(round_id=current.pk, cause=Bell.Cause.HOST, user=request.user, device=device):
        messages.success(request, f"The bell of round {current.number} has rung.")
    else:
        current.refresh_from_db()
        messages.info(
            request,
            f"The bell has rung and waits: {current.waiting_for}"
            if current.waiting_for
            else "The bell had already rung.",
        )
    return None


@login_required
@require_safe
def bell_confirm(request: HttpRequest, evening_id: int, number: int) -> HttpResponse:
    """The second step of *Ring the bell now* when results are missing or disputed: which tables
    (and who sits there) have no result for round ``number``, which results a guest disputed
    (who, and why), a button to ring anyway and the way back to
    enter them. A round no longer in play goes back to the board with a message."""
    evening = _evening(request, evening_id)
    current = state.current_round(evening)
    if current is None or current.number != number:
        messages.error(request, f"The bell of round {number} has rung already: there is nothing to confirm.")
        return redirect("host-evening", evening.pk)
    if (own := own_page("bell_confirm", request, evening, number)) is not None:
        return own
    board = evening_board(evening)
    needs = needs_host(board)
    missing = needs.missing
    no_result = BELL_HELP["no_result"][1][format_for(evening).house_rule(evening, "no_result")]
    # What ringing now would do (a dry run): the rules may make the bell wait whatever the house
    # rule for a table with no result says (Progressive Poker: until the head table's pool is
    # decided), and the page says so rather than promise a bell that rings.
    waits = format_for(evening).bell_preview(current).waiting if missing else ""
    return render(
        request,
        "host/bell_confirm.html",
        {
            "evening": evening,
            "round": current,
            "board": board,
            "missing": missing,
            "no_result": no_result,
            "waits": waits,
            "disputed": needs.disputed,
            "tables_in": len(board.tables) - len(missing),
            "form": RoundActionForm(initial={"action": "ring", "round": current.number, "confirmed": True}),
        },
    )


def _result_saved(request: HttpRequest, evening: Evening, current: Round, table: int, form, count_form, seen):
    """Record the host's valid result ``form`` for ``table`` of round ``current`` (the counts
    checked as on the phones), refused as a ``StalePage`` when that table's result, a step, the
    draw or the ceremony changed since the form's page was drawn (``seen``). Returns the
    ``Result``; raises ``results.CountersDoNotAddUp`` and ``RuleError`` as ``result_record``."""
    winner, in_call, counters = form.result()
    with unchanged_since(evening, seen, acts_on_result(current.number, table)):
        return results.result_record(
            round=current,
            table=table,
            pool_winner=winner,
            in_call=in_call,
            counters=counters,
            tied=form.tied(),
            count_check=True,
            agreed_off=count_form.agreed_off(),
            user=request.user,
            device=_device(request),
        )


@login_required
@format_page("result")
def result_entry(request: HttpRequest, evening_id: int, table: int) -> HttpResponse:
    """Enter a table's result for the round in play: pool winner, the call, counters.

    Counts are checked as on the captains' phones (``results.counters_add_up``): counts that do
    not add up are refused with the difference, and a tick box "the table agrees the count is
    off by N" appears; ticked, the result is recorded with that difference and the board flags
    the table until the bell. A form for another round (a stale tab, or a table whose bell has
    rung) saves nothing and says so."""
    evening = _evening(request, evening_id)
    board = evening_board(evening)
    current = _result_form_round(request, evening, state.current_round(evening), table, len(board.tables))
    if not isinstance(current, Round):  # the redirect, with its message
        return current
    seat = board.tables[table - 1]
    guests = [line.guest for line in seat.lines]
    initial, counters, count_initial = _result_initial(seat.result)
    # Counters are required at the head table only: the last round's counts are the final count,
    # taken table by table after its bell (tournament.services.ending).
    form = ResultForm(
        request.POST or None, guests=guests, counters_required=table == 1, initial=initial, counters_initial=counters
    )
    count_form = CountOffForm(request.POST or None, prefix="count", initial=count_initial)
    off = seat.result.count_off if seat.result is not None else 0
    posted = request.method == "POST" and form.is_valid() and count_form.is_valid()
    if posted and (seen := seen_beside(request, form)) is not None:
        try:
            row = _result_saved(request, evening, current, table, form, count_form, seen)
        except results.CountersDoNotAddUp as error:
            form.add_error(None, error_message(error, evening))
            off = error.difference
            count_form = CountOffForm(prefix="count", initial={"off_by": off})
        except RuleError as error:
            form.add_error(None, error_message(error, evening))
        else:
            _result_saved_message(request, table, row)
            return redirect("host-evening", evening.pk)
    return render(
        request,
        "host/result.html",
        {
            "evening": evening,
            "round": current,
            "table": seat,
            "form": form,
            "count_form": count_form,
            "off": off,
            "off_size": abs(off),
        },
    )


def _result_saved_message(request: HttpRequest, table: int, row: Result) -> None:
    """Tell the host table ``table``'s result ``row`` is saved, and, when the table agreed its
    count is off, by how much (short or over) and that the board flags it until the bell."""
    if row.count_off:
        messages.warning(
            request,
            f"Result saved for table {table}, with the count {row.count_off_size:,} "
            f"{'short' if row.count_off < 0 else 'over'} as the table agrees: the board "
            "flags it until the bell.",
        )
    else:
        messages.success(request, f"Result saved for table {table}.")


def _result_form_round(
    request: HttpRequest, evening: Evening, current: Round | None, table: int, tables: int
) -> Round | HttpResponse:
    """The round in play (``current``) when the result form can be shown or saved; else the
    redirect (with its message): a damaged round field, a round whose bell has rung, no round
    in play, no table ``table`` among ``tables``, or a form for another round than ``current``.
    House rule: a stale form saves nothing and says so (issue 11)."""
    shown = RoundNumberForm(request.POST) if request.method == "POST" and "round" in request.POST else None
    if shown is not None and not shown.is_valid():
        messages.error(request, "That form was damaged, so it saved nothing: enter the result again.")
        return redirect("host-evening", evening.pk)
    posted_round = shown.cleaned_data["round"] if shown is not None else None
    if current is None and posted_round is not None:
        messages.error(
            request,
            f"Round {posted_round}'s bell has rung, so that form saved nothing. To change its "
            "result, use “Correct an earlier result”.",
        )
        return redirect("host-evening", evening.pk)
    if current is None or not 1 <= table <= tables:
        messages.error(request, "No round is in play, or there is no such table.")
        return redirect("host-evening", evening.pk)
    if posted_round is not None and posted_round != current.number:
        messages.error(
            request,
            f"That form was for round {posted_round}, but round {current.number} is in play now: "
            "nothing was saved. Enter this round's result below.",
        )
        return redirect("host-result", evening.pk, table)
    return current


def _result_initial(result) -> tuple[dict | None, dict[int, int], dict]:
    """The result form's initial values from the table's live ``result`` (None for none):
    (winner, the call and ties as strings; counters by guest id; the count-off form's)."""
    if result is None:
        return None, {}, {}
    initial = {
        "pool_winner": str(result.pool_winner_id or ""),
        "in_call": [str(g) for g in result.in_call],
        "tied": [str(g) for g in result.tied],
    }
    counters = {int(k): v for k, v in result.counters.items()}
    count_initial = {"agree": True, "off_by": result.count_off} if result.count_off else {}
    return initial, counters, count_initial


@login_required
def export_json(request: HttpRequest, evening_id: int) -> JsonResponse:
    """The whole evening as JSON (schema in docs/export.md)."""
    evening = _evening(request, evening_id)
    response = JsonResponse(evening_export(evening), json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="evening-{evening.pk}.json"'
    return response


def home(request: HttpRequest) -> HttpResponse:
    """The front page: hosts go to their evenings; others see what Head Table is."""
    if request.user.is_authenticated:
        return redirect("host-evenings")
    return render(request, "home.html")
