"""Progressive Poker's showdown helper (its own pages, ``PokerFormat.pages``): a table captain (at their private link) or the host enters the hands
shown at one table, sees the verdict with the reason for every hand, and sends the winner as
the table's pool winner.

One page, one form: every tap on the card grid, "Show the verdict" and "Send" post the whole
state (hands, dealer, the seat the grid fills), so it works without JavaScript; with it,
``static/poker/showdown.js`` (in this package) fills the grid in the browser. The posted state is read by
``tournament.forms.actions.ShowdownForm`` (a damaged form is shown again with the reason;
nothing is sent). The verdict is computed on the server (``tournament.formats.poker.showdowns``),
and again when it is sent. At the head table the bell needs everyone's counters (the last
round's are the host's final count, after its bell), so "Send" opens the result form pre-filled
with the winner instead of sending at once.
"""

from __future__ import annotations

import uuid

from django import forms as django_forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from tables.errors import RuleError
from tournament.formats.poker.game_forms import (
    ShowdownEntry,
    card_grid,
    options_summary,
    plays_mistigris,
)
from tournament.formats.poker.games import evening_game
from tournament.formats.poker.showdowns import showdown_decide, showdown_report
from tournament.forms.actions import ShowdownForm, form_problems
from tournament.forms.evening import ResultForm
from tournament.models import Evening, Guest
from tournament.selectors.board import TableBoard, evening_board
from tournament.services import state


def guest_showdown_page(request: HttpRequest, guest: Guest) -> HttpResponse:
    """The showdown helper for the table ``guest`` (as its captain) sits at now, for the
    product's ``views.showdown.guest_showdown`` (which found the guest at their private link and
    keeps the page private). House rule: a captain may enter the hands shown, as the host may."""
    board = evening_board(guest.evening)
    table = board.table_of(guest.pk)
    return _page(
        request,
        evening=guest.evening,
        board_table=table,
        reporter=guest,
        user=None,
        back=reverse("guest-page", args=[guest.key]),
        back_label="Back to my table",
    )


def host_showdown_page(request: HttpRequest, evening: Evening, table: int) -> HttpResponse:
    """The showdown helper for ``table`` (1 = the head table) of the host's ``evening``, for the
    product's ``views.showdown.host_showdown``; a table the evening has not is a 404."""
    board = evening_board(evening)
    if not 1 <= table <= len(board.tables):
        raise Http404("No such table.")
    return _page(
        request,
        evening=evening,
        board_table=board.tables[table - 1],
        reporter=None,
        user=request.user,
        back=reverse("host-evening", args=[evening.pk]),
        back_label=evening.name,
    )


def _seating(table: TableBoard) -> list[int]:
    return [line.guest.pk for line in table.lines]


def _read_entry(
    request: HttpRequest, form: ShowdownForm | None, number: int, seating: list[int], poker: bool
) -> tuple[dict | None, ShowdownEntry, str | None]:
    """Read the showdown ``form`` (None on a GET) for table ``number`` seated as ``seating``
    (guest ids by seat). Returns (cleaned data or None, the hands entered so far, an error
    text or None); a form posted for other players is dropped with a warning message. The
    dealer is seat 1 at poker unless told (the dealer's seat changes no poker verdict)."""
    entry = ShowdownEntry(hands=[""] * len(seating), dealer="1" if poker else "")
    if form is None:
        return None, entry, None
    post = form.cleaned_data if form.is_valid() else None
    changed = f"The players at table {number} have changed: enter the hands again."
    if post is None:
        if "seating" in form.errors:
            messages.warning(request, changed)
            return None, entry, None
        return None, entry, " ".join(form_problems(form))
    if form.posted_seating() != seating:
        messages.warning(request, changed)
        return None, entry, None
    entry = ShowdownEntry.from_post(form.entry_data(), len(seating))
    entry.dealer = entry.dealer or ("1" if poker else "")
    return post, entry, None


def _hand_rows(result, names: list[str]) -> list[dict]:
    """The verdict's hands for the page (seat, name, cards, label, reason, wins, worst); none
    without a verdict. ``names`` are the players' names by seat."""
    if result is None:
        return []
    return [
        {
            "seat": h.seat,
            "name": names[h.seat - 1],
            "cards": h.cards,
            "label": h.strength.label,
            "reason": h.reason,
            "wins": h.seat in result.best,
            "worst": h.seat in result.worst,
        }
        for h in result.hands
    ]


def _page(
    request: HttpRequest,
    *,
    evening: Evening,
    board_table: TableBoard | None,
    reporter: Guest | None,
    user,
    back: str,
    back_label: str,
) -> HttpResponse:
    """The showdown helper for ``board_table`` (None: the guest has no seat now, so the page
    says so): reads the posted state, applies the button tapped (a card, "Show the verdict",
    "Send") and shows the page again, or redirects once the winner is sent. ``reporter``: the
    captain at their private link, else the host ``user``."""
    setting = evening_game(evening)
    context = {
        "evening": evening,
        "setting": setting,
        "summary": options_summary(setting.game, setting.options),
        "table": board_table,
        "back": back,
        "back_label": back_label,
        "reporter": reporter,
    }
    if board_table is None:
        return render(request, "poker/showdown.html", context)
    return _table_page(request, context, evening=evening, board_table=board_table, reporter=reporter, user=user)


def _table_page(
    request: HttpRequest, context: dict, *, evening: Evening, board_table: TableBoard, reporter: Guest | None, user
) -> HttpResponse:
    """The showdown helper of one table (``context``: the page's header, ``setting`` in it): the
    hands entered, the verdict, the seats and the card grid; a redirect once the winner is sent."""
    setting = context["setting"]
    seating = _seating(board_table)
    names = [line.guest.name for line in board_table.lines]
    rnd = state.current_round(evening)
    counters_required = _counters_required(board_table)
    poker = setting.game.hand_size == 5  # the dealer's seat changes no poker verdict: seat 1 unless told
    result = result_form = None
    request_id = uuid.uuid4().hex  # one per verdict shown: a double tap on "Send" saves once
    form = ShowdownForm(request.POST, seats=len(seating)) if request.method == "POST" else None
    post, entry, error = _read_entry(request, form, board_table.number, seating, poker)
    if post is not None and form is not None:  # (a form read: there is one)
        action = form.button()
        entry, result, error = _apply_button(action, post, entry, evening=evening, setting=setting, seats=len(seating))
        if action in ("send", "record"):
            request_id = post["request_id"] or request_id
        if result is not None and action in ("send", "record"):
            seat = post["send"] or post["sent_seat"] or 0
            sent = _send(
                request,
                evening=evening,
                rnd=rnd,
                table=board_table,
                entry=entry,
                seat=seat,
                action=action,
                reporter=reporter,
                user=user,
                request_id=request_id,
            )
            if isinstance(sent, HttpResponse):
                return sent
            result_form, error = sent
            context["sent_seat"] = seat
    context.update(_entry_context(entry, result, names, seating, setting))
    context.update(
        {
            "error": error,
            "request_id": request_id,
            "result_form": result_form,
            "round": rnd,
            "counters_required": counters_required,
            "poker": poker,
        }
    )
    return render(request, "poker/showdown.html", context)


def _apply_button(
    action: str, post: dict, entry: ShowdownEntry, *, evening: Evening, setting, seats: int
) -> tuple[ShowdownEntry, object, str | None]:
    """Apply the button tapped (``action``, with the form's cleaned ``post``) to the hands
    entered: pick or unpick a card, clear the hands (keeping the dealer), or (any other button)
    decide the showdown. Returns (the entry, the verdict or None, the reason it could not be
    decided or None). ``setting``: the evening's game."""
    result, error = None, None
    if action == "pick":
        entry.pick(post["pick"], setting.game.hand_size)
    elif action == "unpick":
        entry.unpick(post["unpick"])
    elif action == "clear":
        entry = ShowdownEntry(hands=[""] * seats, dealer=entry.dealer, during_play=entry.during_play)
    else:
        try:
            result = showdown_decide(
                evening=evening, hands=entry.hands, dealer_seat=entry.dealer, during_play=entry.during_play
            )
        except RuleError as problem:
            error = str(problem)
    return entry, result, error


def _entry_context(entry: ShowdownEntry, result, names: list[str], seating: list[int], setting) -> dict:
    """The page's hands and card grid: the ``entry`` so far (seats with their names and hands,
    the cards used), the verdict ``result`` (None: none yet) with its hands and winners' names,
    the ``seating`` (guest ids by seat) and the game's hand size (``setting``: the evening's game)."""
    used = entry.used()
    return {
        "entry": entry,
        "result": result,
        "hands": _hand_rows(result, names),
        "seats": [
            {"number": n, "name": names[n - 1], "hand": entry.hands[n - 1], "active": n == entry.active}
            for n in range(1, len(seating) + 1)
        ],
        "seating": ",".join(map(str, seating)),
        "grid": card_grid(with_mistigris=plays_mistigris(setting.options)),
        "used": {str(card): seat for card, seat in used.items()},
        "winner_names": [names[s - 1] for s in result.best] if result else [],
        "names": names,  # isolated where the verdict's words name them (templatetags.name_tags)
        "hand_size": setting.game.hand_size,
        "ends_during_play": setting.game.value == "my_ship_sails",
    }


def _counters_required(table: TableBoard) -> bool:
    """Whether sending ``table``'s winner needs everyone's counters: at the head table only (the
    last round's counts: the final count, after its bell)."""
    return table.number == 1


def _send(request, *, evening, rnd, table, entry, seat, action, reporter, user, request_id):
    """Send the winner: at once, or (head table) through the pre-filled result form.
    Returns a redirect when saved, else (result form or None, error text or None)."""
    seating = _seating(table)
    names = [line.guest.name for line in table.lines]
    counters_required = _counters_required(table)
    device = request.META.get("HTTP_USER_AGENT", "")[:200]
    if rnd is None:
        return None, "No round is in play, so there is no result to send now."
    if not 1 <= seat <= len(seating):
        return None, f"Seat {seat} is not at this table: seats are 1 to {len(seating)}."
    winner = seating[seat - 1]
    guests = [line.guest for line in table.lines]
    in_call, counters, form = (), None, None
    if counters_required:
        form = ResultForm(
            request.POST if action == "record" else None,
            guests=guests,
            counters_required=True,
            initial={"pool_winner": str(winner)},
        )
        form.fields["pool_winner"].widget = django_forms.HiddenInput()
        if action != "record" or not form.is_valid():
            return form, None
        chosen, in_call, counters = form.result()
        if chosen != winner:
            return form, "The pool winner on the form is not the one the showdown decided: show the verdict again."
    try:
        showdown_report(
            round=rnd,
            table=table.number,
            seating=seating,
            hands=entry.hands,
            dealer_seat=entry.dealer,
            seat=seat,
            in_call=in_call,
            counters=counters,
            user=user,
            reporter=reporter,
            device=device,
            request_id=request_id,
        )
    except RuleError as problem:
        return form, str(problem)
    messages.success(request, f"Sent: {names[seat - 1]} won the pool at table {table.number}.")
    return redirect(_back(evening, reporter))


def _back(evening: Evening, reporter: Guest | None) -> str:
    if reporter is not None:
        return reverse("guest-page", args=[reporter.key])
    return reverse("host-evening", args=[evening.pk])
