"""A guest's phone: their page at their private link, the captain's report, confirm / dispute,
self check-in, and the public rules page.

Posted forms are read by ``tournament.forms.actions.CaptainFormHeader``,
``tournament.forms.evening.VoteForm`` and ``tournament.forms.evening.ResultForm``: a damaged form (a missing field, "①" for a round, NUL in the
request id) is a message on the guest's page and saves nothing.

The private link carries a random 192-bit key (never an id). An unknown, revoked or reissued key
gets one and the same 404 (same body, same headers) as any other guessed key. Every response
under ``/g/<key>/`` sends ``Referrer-Policy: no-referrer`` and ``X-Robots-Tag: noindex``, and
the pages load nothing from other sites (htmx is served by us). Keys are kept out of Django's
logs by ``tournament.private_logs``.

Live updates (issue 6 item 3), by polling with a conditional GET: the page polls itself every
``POLL_SECONDS`` and at once when the phone wakes, the tab comes back or the network returns.
Its ETag is the evening's version; ``static/live.js`` sends it back as ``If-None-Match`` and an
unchanged page is answered 304 from the cache alone (``tournament.services.links``): no database
query. House rule: a phone keeps polling after the evening has ended and every prize is given
(each poll an unchanged 304, no query), so a correction after the ceremony, which re-opens it
for the prizes it changes, reaches every open phone (issue 22 item 4).
"""

from __future__ import annotations

import uuid
from functools import partial

from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.html import format_html
from django.utils.http import parse_etags
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import condition

from tables.errors import RuleError
from tournament.forms.actions import CaptainFormHeader
from tournament.forms.evening import ResultForm, VoteForm
from tournament.models import Evening, Guest, Round
from tournament.private_doors import not_found, private
from tournament.registry import format_for
from tournament.selectors.board import database_now, too_late_to_play
from tournament.selectors.guest_boards import Shared, shared_board, shared_board_at
from tournament.services import captains, registration, sends
from tournament.services.links import link_lookup, poll_lookup
from tournament.services.naming import error_message
from tournament.services.versions import evening_token, evening_version
from tournament.templatetags.pack_tags import pack_mark
from tournament.views.format_pages import own_page
from tournament.views.guest_csrf import csrf_private
from tournament.views.kept import ALREADY, RECORDED, REFUSED, already_words, form_words, kept_answer
from tournament.views.kept import request_id as kept_request_id
from tournament.views.request_types import HtmxHttpRequest

POLL_SECONDS = 3
STANDINGS_SHOWN = 10


def _guest(key: str) -> Guest | None:
    """The live guest of a private key (one query), or None."""
    found = link_lookup(key)
    if found is None:
        return None
    return Guest.objects.select_related("evening").filter(pk=found[0], key=key, key_revoked=False).first()


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def _etag(token: str, version: int, partial: bool) -> str:
    """The page's ETag: the evening's cache token, its version, full page or partial."""
    return f'"{token}.{version}.{int(partial)}"'


def _token_sent(request: HttpRequest) -> str:
    """The evening token in the first ETag of the If-None-Match the phone sent ("" when none)."""
    sent = parse_etags(request.headers.get("If-None-Match", ""))
    tag = sent[0].removeprefix("W/").strip('"') if sent else ""
    return tag.split(".")[0] if tag.count(".") == 2 else ""


def _lookup(request: HttpRequest, key: str) -> tuple[tuple[int, int, str] | None, int | None]:
    """(the link's entry ``(guest id, evening id, evening token)`` or None, the evening's version
    or None), looked up once per request: a poll naming its evening's token gets both in one
    cache round trip (``poll_lookup``). The page's ETag function and the page share it."""
    cached = getattr(request, "_headtable_link", None)
    if cached is None:
        token = _token_sent(request)
        if token:
            cached = poll_lookup(key, token)
        else:
            found = link_lookup(key)
            cached = (found, evening_version(found[1], found[2]) if found else None)
        request._headtable_link = cached  # type: ignore[attr-defined]
    return cached


def messages_waiting(request: HttpRequest) -> bool:
    """True when ``request`` is for a full page and brings a message waiting to be shown (the
    messages cookie of ``django.contrib.messages``; a message kept in the session leaves its
    marker there too): such a page is always rendered, never answered 304 from the phone's
    cache, or the message (e.g. "Your dispute is sent", "recorded already" after a phone sent
    a kept form again) would stay unseen. A partial (htmx) shows no messages, so it may still be
    a 304. Reads no database and no session. House rule, issue 24 item 1: a guest always sees
    that the server received what they sent (the host's board renders every full page, for the
    same reason: ``views.host.board_etag``)."""
    return request.META.get("HTTP_HX_REQUEST") != "true" and bool(request.COOKIES.get(CookieStorage.cookie_name))


def _page_etag(request: HtmxHttpRequest, key: str) -> str | None:
    """The ETag of a guest's page (Django's ``condition`` answers 304 when the phone has it):
    None for a key that opens nothing, so the page answers its 404, and for a full page with a
    message waiting (``messages_waiting``), so it is rendered."""
    if messages_waiting(request):
        return None
    found, version = _lookup(request, key)
    if found is None or version is None:
        return None
    return _etag(found[2], version, bool(request.htmx))


def unchanged_poll(request: HttpRequest, key: str) -> HttpResponse | None:
    """The 304 for a poll of the guest's page whose ``If-None-Match`` holds the page's ETag
    now (as ``guest_page`` answers it, with the private headers), or None when the page has
    to answer (no evening token in the ETag sent, a key that opens nothing, a changed page).
    Asks the cache only (``_lookup``, which the page then reuses); called before any other
    middleware by ``tournament.unchanged_polls``. None too for a full page with a message
    waiting (``messages_waiting``). House rule: issue 26 item 1."""
    if not _token_sent(request) or messages_waiting(request):
        return None
    found, version = _lookup(request, key)
    if found is None or version is None:
        return None
    etag = _etag(found[2], version, request.META.get("HTTP_HX_REQUEST") == "true")  # django-htmx's test
    response = get_conditional_response(request, etag=etag)
    if response is None or response.status_code != 304:
        return None
    response.headers.setdefault("ETag", etag)  # as Django's ``condition`` does
    return private(response)


def _clock(rnd: Round | None, now) -> int | None:
    """Seconds left on the round's clock (None when it is not running)."""
    if rnd is None or rnd.deadline is None:
        return None
    return max(0, int((rnd.deadline - now).total_seconds()))


def page_context(request: HtmxHttpRequest, guest: Guest, shared: Shared | None = None) -> dict:
    """Everything the guest's page shows (see ``templates/guest/_page.html``); ``shared`` is
    the evening's board (computed when not given)."""
    shared = shared or shared_board(guest.evening)
    own = format_for(guest.evening).guest_page_context(guest, shared)
    if own is not None:
        return _with_clock(request, guest, shared, own)
    board = shared.board
    evening = board.evening
    table = shared.table_of.get(guest.pk)
    line = next((ln for ln in table.lines if ln.guest.pk == guest.pk), None) if table else None
    standing = shared.standing
    place, my_row = shared.place_of.get(guest.pk, (None, None))
    result = table.result if table else None
    now = database_now()
    left = _clock(board.round, now)
    ended = _ended_context(guest, shared)
    if ended and not ended["finished"]:
        standing = []  # no standings on the phones between the last bell and the final standings
    shown = standing[:STANDINGS_SHOWN]
    in_top = any(g.pk == guest.pk for _, g, _ in shown)
    return {
        **ended,
        "evening": evening,
        "guest": guest,
        "board": board,
        "table": table,
        "line": line,
        "place": place,
        "standing": shown,
        "standing_list": _standing_list(shared, shown, guest.pk if in_top else None) if shown else "",
        "table_list": _table_list(shared, table, guest.pk) if table else "",
        "in_top": in_top,
        "my_row": my_row,
        "entries": shared.entries_of.get(guest.pk, []),
        "names": board.guest_names,  # isolated where words name them (name_tags)
        "server_now": now,
        "seconds_left": left,
        "clock_text": f"{left // 60}:{left % 60:02d}" if left is not None else "",
        "poll_seconds": POLL_SECONDS,
        "wait_url": reverse("guest-wait", args=[guest.key]),  # the push (views.waits, issue 26 item 2)
        "live": True,  # house rule (module docstring): polls go on after the ceremony
        **_result_context(guest, board, result),
        "can_report": board.round is not None
        and table is not None
        and result is None
        and guest.status != Guest.Status.LEFT,
        "too_late": too_late_to_play(guest, seated=table is not None),
        "etag": _etag(evening_token(evening.pk, evening.public_key), evening.version, bool(request.htmx)),
    }


def _result_context(guest: Guest, board, result) -> dict:
    """The table's reported ``result`` as the guest's page tells it (None: nothing reported):
    the result, the votes (each with its guest's name), this guest's own vote, and the names of
    those in the call and the counters reported, by name."""
    if result is None:
        return {"result": None, "told": {}, "votes": [], "my_vote": None}
    votes = list(result.votes.all())
    for vote in votes:
        vote.name = board.guests[vote.guest_id].name if vote.guest_id in board.guests else ""
    told = {
        "call": [board.guests[g].name for g in result.in_call if g in board.guests],
        "counters": [(board.guests[int(g)].name, c) for g, c in result.counters.items() if int(g) in board.guests],
    }
    my_vote = next((v.verdict for v in votes if v.guest_id == guest.pk), None)
    return {"result": result, "told": told, "votes": votes, "my_vote": my_vote}


def _standing_list(shared: Shared, shown: list, me: int | None) -> str:
    """The standings' list as the phones show it (``guest/_standing_list.html``), with the row of
    guest ``me`` marked when they are in it: drawn once per board for every phone whose guest is
    not in it, and once for each guest who is (``Shared.fragment``)."""
    return shared.fragment(
        ("standing-list", len(shown), me),
        lambda: render_to_string("guest/_standing_list.html", {"standing": shown, "me": me}),
    )


def _table_list(shared: Shared, table, me: int) -> SafeString:
    """The players at the guest's ``table`` as the page lists them (each line's ``<li>``: pack
    mark, name, counters; guest ``me``'s marked "(you)"): each other player's line is written
    once per board as the others at the table see it (``Shared.fragment``), so the table's
    phones share the writing; ``me``'s own line is written for this page."""
    evening = shared.board.evening
    return mark_safe(  # noqa: S308 - each line is built by format_html
        "".join(
            _table_line(line, evening, me)
            if line.guest.pk == me
            else shared.fragment(("table-line", line.guest.pk), partial(_table_line, line, evening, None))
            for line in table.lines
        )
    )


def _table_line(line, evening, me: int | None) -> str:
    """One player's ``<li>`` at a table on a guest's page (``_table_list``)."""
    mine = line.guest.pk == me
    return format_html(
        "<li{}>{}<bdi>{}</bdi>{} <small>{}</small></li>",
        mark_safe(' class="me"') if mine else "",  # noqa: S308 - a constant
        pack_mark(line.guest.pack, evening),
        line.guest.name,
        " (you)" if mine else "",
        line.counters,
    )


def _with_clock(request: HtmxHttpRequest, guest: Guest, shared: Shared, context: dict) -> dict:
    """The page of a guest whose format draws it (``FormatPlugin.guest_page_context``: the
    format's ``context``), with the clock, the live polling and the ETag as on every guest's page."""
    board = shared.board
    evening = board.evening
    now = database_now()
    left = _clock(board.round, now)
    seated = context.get("table") is not None or bool(context.get("sitting_out"))
    return {
        **context,
        "evening": evening,
        "guest": guest,
        "board": board,
        "too_late": too_late_to_play(guest, seated=seated),
        "server_now": now,
        "seconds_left": left,
        "clock_text": f"{left // 60}:{left % 60:02d}" if left is not None else "",
        "poll_seconds": POLL_SECONDS,
        "wait_url": reverse("guest-wait", args=[guest.key]),  # the push (views.waits, issue 26 item 2)
        "live": True,  # house rule (module docstring): polls go on after the ceremony
        "etag": _etag(evening_token(evening.pk, evening.public_key), evening.version, bool(request.htmx)),
    }


def _ended_context(guest: Guest, shared: Shared) -> dict:
    """Once the evening has ended, what the guest's phone shows instead of a table: the
    ceremony's stage, the prizes revealed so far that this guest won (title, reason as printed,
    the others sharing it) and, once the final standings are on the room display, their final
    place (ties share a place), out of how many, and how many others share it. {} before the end."""
    ceremony = shared.ceremony
    if ceremony is None:
        return {}
    from tournament.documents.contents import printed_reason

    names = {pk: g.name for pk, g in shared.board.guests.items()}
    prizes = [
        (p.title, printed_reason(p.prize, names), [g.name for g in p.winners if g.pk != guest.pk])
        for p in ceremony.revealed
        if any(g.pk == guest.pk for g in p.winners)
    ]
    place = next((i for i, g, _ in shared.standing if g.pk == guest.pk), None) if ceremony.finished else None
    return {
        "ceremony": ceremony,
        "finished": ceremony.finished,
        "my_prizes": prizes,
        "final_place": place,
        "final_of": len(shared.standing),
        "final_shared": sum(1 for i, g, _ in shared.standing if i == place and g.pk != guest.pk) if place else 0,
    }


@condition(etag_func=_page_etag)
def guest_page(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """The guest's page: their table now (large), its kind, who sits there, the clock, what the
    last bell did to them and why, their counters and yellow counters, the table's reported
    result (confirm / dispute), the standings. 304 when unchanged (``condition``, by the
    evening's version, with no database query), the end of the evening included."""
    found, version = _lookup(request, key)
    if found is None:
        return not_found()
    if request.method not in ("GET", "HEAD"):
        return private(HttpResponseNotAllowed(["GET", "HEAD"]))
    partial = bool(request.htmx)
    guest, shared = None, shared_board_at(found[2], version)
    if shared is not None:  # this process has the board at this version: no query for the guest
        known = shared.board.guests.get(found[0])
        if known is not None and known.key == key and not known.key_revoked:
            guest = known
    if guest is None:
        guest = _guest(key)
        if guest is None:
            return not_found()
        shared = None
    context = page_context(request, guest, shared)
    template = "guest/page.html"
    if partial:
        template = context.get("format_page", "guest/_page.html")  # the format's own part, if it draws one
    response = render(request, template, context)
    response["ETag"] = context["etag"]
    return private(response)


def _back(request: HttpRequest, guest: Guest) -> HttpResponse:
    return private(redirect("guest-page", guest.key))


@csrf_private
def captain_report(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """The captain's form: report the result of the guest's table for the round in play.

    The form carries the round number, the table and a one-time request id; a form sent after
    the bell, after the guest moved, twice, or with counters that do not add up gets a clear
    message and saves nothing (or, for a repeat, nothing new)."""
    guest = _guest(key)
    if guest is None:
        return not_found()
    if (own := own_page("captain", request, guest)) is not None:
        return own
    if request.method != "POST":
        return _report_blank(request, guest, page_context(request, guest))
    # The phone's input is checked before any board is built (issue 23 item 3): the header, a
    # resend, whether the guest may report, then the form against the table's seats read from
    # the evening's state; the board is built only to show the form again with its errors.
    # What the captain saw when they filled the form decides what they report for.
    header = CaptainFormHeader(request.POST)
    if not header.is_valid():
        return _said(request, _back(request, guest), REFUSED, "The form was damaged: open it again.")
    data = header.cleaned_data
    seen = sends.send_seen(evening=guest.evening, request_id=data["request_id"])
    if seen is not None:  # a resend of a report that reached the server (issue 24)
        return _said(request, _back(request, guest), ALREADY, already_words(seen))
    refused = _report_refused(request, guest, data)
    if refused is not None:
        return refused
    form = ResultForm(
        request.POST, guests=_seats_at(guest.evening, data["table"]), counters_required=data["table"] == 1
    )
    if form.is_valid() and _report_sent(request, guest, form, data):
        return kept_answer(request, _back(request, guest), RECORDED)
    context = page_context(request, guest)
    page = _report_page(request, context, form, data["round"], data["table"], data["request_id"])
    return kept_answer(request, page, REFUSED, form_words(form))


def _seats_at(evening: Evening, table: int) -> list[Guest]:
    """The guests seated at ``table`` (number) now, in seat order, read from the evening's
    state (``FormatPlugin.state``: two or three queries, no board); empty for a table that
    does not exist (the form then refuses every guest named)."""
    tables = format_for(evening).state(evening).tables
    ids = list(tables[table - 1]) if 1 <= table <= len(tables) else []
    guests = Guest.objects.in_bulk([g for g in ids if g > 0])
    return [guests[g] for g in ids if g in guests]


def _said(request: HttpRequest, response: HttpResponse, outcome: str, words: str) -> HttpResponse:
    """``response`` (a redirect to the guest's page) with ``words`` as the page's message (an
    error for a refusal) and, to a phone's kept form, the ``outcome`` (``views.kept``)."""
    (messages.error if outcome == REFUSED else messages.success)(request, words)
    return kept_answer(request, response, outcome, words)


def _report_blank(request: HttpRequest, guest: Guest, context: dict) -> HttpResponse:
    """The captain's empty form for the round in play, with a fresh one-time request id; back
    to the guest's page with a note when no round is in play or the result is already in."""
    table, rnd = context["table"], context["board"].round
    if rnd is None or table is None:
        messages.info(request, "No round is in play, so there is no result to report now.")
        return _back(request, guest)
    if table.result is not None:
        messages.info(request, f"Table {table.number}'s result is already in: confirm or dispute it below.")
        return _back(request, guest)
    form = ResultForm(guests=[ln.guest for ln in table.lines], counters_required=table.number == 1)
    return _report_page(request, context, form, rnd.number, table.number, uuid.uuid4().hex)


def _report_page(
    request: HttpRequest, context: dict, form: ResultForm, round_number: int, table_number: int, request_id: str
) -> HttpResponse:
    """The captain's report page with ``form`` for that round and table (private, never cached)."""
    context.update({"form": form, "round_number": round_number, "table_number": table_number, "request_id": request_id})
    return private(render(request, "guest/report.html", context))


def _report_refused(request: HttpRequest, guest: Guest, data: dict) -> HttpResponse | None:
    """Whether ``guest`` may report for the form's round and table (``data``, the cleaned
    ``CaptainFormHeader``): None when they may; otherwise back to their page with the reason,
    or with "saved" when this very form was saved already (a retry after the bell it rang).
    Rule: ``captains.captain_may_report`` (issue 6 item 4)."""
    try:
        captains.captain_may_report(guest=guest, round_number=data["round"], table=data["table"])
    except RuleError as error:
        if captains.captain_report_saved(guest=guest, round_number=data["round"], request_id=data["request_id"]):
            return _said(request, _back(request, guest), ALREADY, f"Table {data['table']}'s result was saved.")
        return _said(request, _back(request, guest), REFUSED, error_message(error, guest.evening))
    return None


def _report_sent(request: HttpRequest, guest: Guest, form: ResultForm, data: dict) -> bool:
    """Send the valid result ``form`` for the form's round and table (``data``) through
    ``captains.captain_report``; True when saved (a message says so), False with the reason
    added to the form (nothing saved)."""
    winner, in_call, counters = form.result()
    try:
        sends.send_once(
            evening=guest.evening,
            request_id=data["request_id"],
            action="result.report",
            record=lambda: captains.captain_report(
                guest=guest,
                round_number=data["round"],
                table=data["table"],
                pool_winner=winner,
                in_call=in_call,
                counters=counters,
                request_id=data["request_id"],
                device=_device(request),
            ),
            words=lambda result: f"table {result.table}'s result for round {data['round']}",
        )
    except RuleError as error:
        form.add_error(None, error_message(error, guest.evening))
        return False
    messages.success(
        request, f"Table {data['table']}'s result is sent. The others at the table can confirm or dispute it."
    )
    winner_ticked = form.winner_ticked_in_call()
    if winner_ticked:  # issue 24 item 8: the tick is not dropped silently
        messages.info(
            request,
            f"{winner_ticked} won the pool, so is in the call anyway: only the others ticked are listed in the call.",
        )
    return True


@csrf_private
def captain_vote(request: HttpRequest, key: str) -> HttpResponse:
    """Confirm or dispute the result reported for the guest's table (a plain form post)."""
    guest = _guest(key)
    if guest is None:
        return not_found()
    if request.method != "POST":
        return _back(request, guest)
    form = VoteForm(request.POST)
    if not form.is_valid():
        return _said(request, _back(request, guest), REFUSED, str(next(iter(form.errors.values()))[0]))
    verdict = form.cleaned_data["verdict"]
    try:
        sent = sends.send_once(
            evening=guest.evening,
            request_id=kept_request_id(request),
            action=f"result.{verdict}",
            record=lambda: captains.captain_vote(
                guest=guest,
                result_id=form.cleaned_data["result"],
                verdict=verdict,
                note=form.cleaned_data["note"] if verdict == "dispute" else "",
                device=_device(request),
            ),
            words=lambda vote: f"your {'dispute' if verdict == 'dispute' else 'confirmation'} of the result",
            guest=lambda vote: guest,
        )
    except RuleError as error:
        return _said(request, _back(request, guest), REFUSED, error_message(error, guest.evening))
    if sent.first is not None:
        return _said(request, _back(request, guest), ALREADY, already_words(sent.first))
    if verdict == "dispute":
        messages.warning(request, "Your dispute is sent: the host will decide.")
    else:
        messages.success(request, "Thank you: you confirmed the result.")
    return kept_answer(request, _back(request, guest), RECORDED)


@csrf_private
def check_in(request: HttpRequest, key: str) -> HttpResponse:
    """The guest checks themself in on arrival ("I am here"), by a POST."""
    guest = _guest(key)
    if guest is None:
        return not_found()
    if request.method != "POST":
        return _back(request, guest)
    try:
        sent = sends.send_once(
            evening=guest.evening,
            request_id=kept_request_id(request),
            action="guest.check_in",
            record=lambda: registration.self_check_in(guest=guest, device=_device(request)),
            words=lambda checked: "your check-in",
            guest=lambda checked: checked,
        )
    except RuleError as error:
        return _said(request, _back(request, guest), REFUSED, error_message(error, guest.evening))
    if sent.first is not None:
        return _said(request, _back(request, guest), ALREADY, already_words(sent.first))
    started = guest.evening.rounds.exists()
    messages.success(
        request,
        "You are checked in. "
        + (
            "The host gives you a seat between rounds; your table shows here then."
            if started
            else "Your table shows here once the host makes the draw."
        ),
    )
    return kept_answer(request, _back(request, guest), RECORDED)


def rules_page(request: HttpRequest) -> HttpResponse:
    """The rules: Progressive Poker, the seating draw, and each seed game, with every house rule."""
    return render(request, "rules.html")
