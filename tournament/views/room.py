"""The room display: a projector or TV page at the evening's public link, ``/e/<public_key>/room/``.

No login, read-only. Built for a hall of 8 to 500 guests on a 1920×1080 or 1280×720 screen,
read from the back of the room: nothing scrolls, names are at least 28 px at 1080p (sizes are
in viewport units, so 720p keeps the proportions), and what does not fit one screen is paged;
a small evening writes bigger, over the whole screen (``room_size``).

It shows *slides*, one at a time, under a header with the evening's name, the round and a small
clock:

* after a bell (the minute after it, or ``?mode=moves``): **where to go**, the moves grouped by
  destination table (the table number in big type, the guests going there), then who won a
  yellow counter and who takes a fresh stake;
* between bells (``?mode=full`` keeps this): the **clock** in big type, the **seating** ("find
  your name": every seated guest alphabetically with their table, in columns) and the **top of
  the standings**;
* once the evening has ended: **the prize ceremony** (``room/_ceremony.html``): "Thank you"
  during the final count, then each prize as the host reveals it (one tap on the host's end
  page bumps the evening's version; the poll picks it up), then the prizes and the **final
  standings**, paged.

The server renders every slide whole; ``static/room.js`` measures in the browser how many items
fit the screen, splits each slide into pages ("page 2 of 5") and turns the slides and pages on
a timer (the clock slide comes back and stays while the warning runs). It also plays the bell
sound (after the usual first tap to unlock audio) and asks the screen to stay awake.

Each display mode is one partial template holding its slides (``room/_moves.html``,
``room/_between.html``); a new mode (say the prize ceremony) adds its own partial and one line
in ``room/_live.html``.

Live: htmx polls the same URL every few seconds and as soon as the clock passes its deadline;
the ETag is the evening's version plus the display mode, so an unchanged display costs two
small queries and a 304.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.http import require_safe

from tournament.forms.actions import RoomQuery
from tournament.models import Bell, BellEntry, Evening, Guest, Round
from tournament.name_keys import name_order
from tournament.registry import format_for
from tournament.selectors.board import EveningBoard, database_now
from tournament.selectors.guest_boards import shared_board
from tournament.services.clock import next_round_due_at
from tournament.services.ending import Ceremony
from tournament.views.request_types import HtmxHttpRequest

POLL_SECONDS = 3
MOVES_ONLY_SECONDS = 60  # house rule: the minute after a bell is for the moves
LEADERS_SHOWN = 40  # the top of the standings: at most this many rows (the display shows what fits one page)


@dataclass
class MoveGroup:
    """The guests a bell sends to one table: ``table`` (its number), ``kind`` ("head", "booby",
    "intermediate") and ``guests`` (alphabetical)."""

    table: int
    kind: str
    guests: list[Guest] = field(default_factory=list)
    notes: dict[int, str] = field(default_factory=dict)  # guest id -> what sent them (tables of four)


def _display_mode(evening: Evening, asked: str) -> tuple[str, Bell | None]:
    """("moves" | "full", the last live bell) for this request: "moves" for the minute after a
    bell (a round's bell: a guest's arrival or departure after it is no bell) unless the URL
    asks for a mode. One query."""
    last = Bell.objects.of_evening(evening.pk).live().bells().newest_first().only("id", "rung_at").first()
    if evening.stage == Evening.Stage.ENDED and asked != "moves":
        return "ceremony", last
    if asked in ("full", "moves"):
        return asked, last
    recent = last is not None and database_now() - last.rung_at < timedelta(seconds=MOVES_ONLY_SECONDS)
    return ("moves" if recent else "full"), last


@require_safe
def room_display(request: HtmxHttpRequest, public_key: str) -> HttpResponse:
    """The room display (full page, or its live part for htmx). 404 for an unknown key."""
    evening = Evening.objects.filter(public_key=public_key).first()
    if evening is None:
        raise Http404("No such evening.")
    query = RoomQuery(request.GET)
    asked = (query.cleaned_data["mode"] or "auto") if query.is_valid() else "auto"
    mode, last = _display_mode(evening, asked)
    etag = f'"room-{evening.version}-{mode}-{int(bool(request.htmx))}"'
    response = get_conditional_response(request, etag=etag)  # Django's If-None-Match: 304 when it has it
    if response is None:
        context = _room_context(evening, mode=mode, asked=asked, etag=etag)
        response = render(request, "room/_live.html" if request.htmx else "room/page.html", context)
    response["ETag"] = etag
    response["X-Robots-Tag"] = "noindex, nofollow"
    patch_cache_control(response, no_cache=True)
    return response


def move_groups(board: EveningBoard) -> list[MoveGroup]:
    """The last bell's moves grouped by destination table, in table order; each guest once, at
    the table their last move of that bell sends them to (a swap after a move counts). Guests
    whose table did not change are left out. Where the board knows the tables now (poker
    tables), a guest is listed at the table they sit at now: a guest's arrival or departure
    after the bell that moved them again (a table filled) sends them there, and a mover who
    has left since is not sent anywhere (issue 22). No query."""
    now = {line.guest.pk: table.number for table in board.tables for line in table.lines}
    final: dict[int, tuple[int, BellEntry]] = {}  # guest id -> (table, their last move)
    for entry in board.last_entries:
        if entry.to_table and entry.from_table != entry.to_table:
            final[entry.guest_id] = (entry.to_table, entry)
    if now:
        final = {g: (now[g], entry) for g, (_, entry) in final.items() if g in now}
    kinds = {t.number: t.kind for t in board.tables}
    groups: dict[int, MoveGroup] = {}
    for table, entry in final.values():
        group = groups.setdefault(table, MoveGroup(table, kinds.get(table, "intermediate")))
        group.guests.append(entry.guest)
    for group in groups.values():
        group.guests.sort(key=lambda g: (name_order(g.name), g.pk))
    return [groups[number] for number in sorted(groups)]


def seated_since_bell(board: EveningBoard, places: Mapping[int, tuple[int, str]]) -> list[tuple[Guest, int, str]]:
    """Every guest an arrival or a seat change (a swap, a move to an empty or a ghost's seat)
    has seated since the last bell, as (guest, table number, seat word or ""), alphabetical
    (``name_order``). ``places``: guest id -> (table, seat word) where they sit now, drawn by
    the format (its seat words where seats are named); a guest not in it (who has left since)
    is left out. [] before the first bell. Two queries, whatever the number of guests. Raises
    nothing. House rule of the display (``docs/board-and-room.md``): a late guest finds their
    name on "where to go" as the bell's movers do."""
    bell = board.last_bell
    if bell is None:
        return []
    since = Bell.objects.of_evening(board.evening.pk).live().guest_steps().filter(pk__gt=bell.pk)
    arrived = since.filter(kind=Bell.Kind.ARRIVE).values_list("record__guest", flat=True)
    moved = BellEntry.objects.filter(bell__in=since.filter(kind=Bell.Kind.SEAT), kind="seat")
    ids = {int(g) for g in arrived if g is not None} | set(moved.values_list("guest_id", flat=True))
    rows = [(board.guests[g], *places[g]) for g in ids if g in places and g in board.guests]
    return sorted(rows, key=lambda row: (name_order(row[0].name), row[0].pk))


def with_seated(
    groups: list[MoveGroup], seated: list[tuple[Guest, int, str]], kinds: Mapping[int, str]
) -> list[MoveGroup]:
    """The moves slide's groups with every guest seated since the bell (``seated_since_bell``)
    listed at the table they sit at now, noted "seated since the bell" (with their seat where
    seats are named), and taken out of any other table's group (a swap after the bell's move);
    each group alphabetical, in table order. ``kinds``: table number -> "head", "booby",
    "intermediate". No query. House rule of the display (``docs/board-and-room.md``)."""
    if not seated:
        return groups
    moved = {guest.pk for guest, _, _ in seated}
    by_table = {g.table: g for g in groups}
    for group in groups:
        group.guests = [g for g in group.guests if g.pk not in moved]
    for guest, table, seat in seated:
        group = by_table.setdefault(table, MoveGroup(table, kinds.get(table, "intermediate")))
        group.guests.append(guest)
        group.notes[guest.pk] = f"seated since the bell, {seat} seat" if seat else "seated since the bell"
    for group in by_table.values():
        group.guests.sort(key=lambda g: (name_order(g.name), g.pk))
    return [by_table[n] for n in sorted(by_table) if by_table[n].guests]


def _named(board: EveningBoard, kind: str) -> list[Guest]:
    """Guests the last bell gave an entry of this kind ("yellow", "stake"), alphabetical, once each."""
    seen = {e.guest_id: e.guest for e in board.last_entries if e.kind == kind}
    return sorted(seen.values(), key=lambda g: (name_order(g.name), g.pk))


def seating(board: EveningBoard) -> list[tuple[Guest, int]]:
    """Every seated guest with their table number, alphabetical by name ("find your name")."""
    rows = [(line.guest, table.number) for table in board.tables for line in table.lines]
    return sorted(rows, key=lambda row: (name_order(row[0].name), row[0].pk))


def _room_context(evening: Evening, *, mode: str, asked: str, etag: str) -> dict:
    """What the display shows: the board, the last bell's moves by destination table, who won
    a yellow counter or took a fresh stake at it, the seating, the top of the standings, the
    next round's start (auto-advance), the paused time, and ``bell_key``: the number of the last
    round whose bell has rung (room.js plays the bell when it grows). The board is the one every
    phone shares, computed once per process and version (``selectors.guest_boards.shared_board``)."""
    shared = shared_board(evening)
    board = shared.board
    if mode == "ceremony":
        return _ceremony_context(evening, board, asked=asked, etag=etag, now=shared.ceremony)
    own = format_for(evening).room_context(evening, board, mode=mode, asked=asked, etag=etag)
    if own is not None:
        return own
    rnd = board.round
    rung = rnd.number if rnd is not None and rnd.state == Round.State.RUNG else 0
    places = {line.guest.pk: (table.number, "") for table in board.tables for line in table.lines}
    groups = with_seated(move_groups(board), seated_since_bell(board, places), {t.number: t.kind for t in board.tables})
    yellow, stakes = _named(board, "yellow"), _named(board, "stake")
    seated = seating(board)
    return {
        "evening": evening,
        "board": board,
        "mode": mode,
        "asked": asked,
        "etag": etag,
        "move_groups": groups,
        "yellow_won": yellow,
        "fresh_stakes": stakes,
        "has_moves": bool(groups or yellow or stakes),
        "seating": seated,
        "room_size": room_size(len(seated)),
        "table_digits": table_digits([t.number for t in board.tables] + [g.table for g in groups]),
        "leaders": board.standing_lines()[:LEADERS_SHOWN],
        "next_round": next_round_due_at(evening=evening),
        "server_now": database_now(),
        "poll_seconds": POLL_SECONDS,
        "last_round": bool(rnd and Round.is_last_number(rnd.number, evening=evening)),
        "paused_left": int(rnd.paused_seconds_left or 0) if rnd is not None and rnd.state == Round.State.PAUSED else 0,
        "bell_key": rung or (board.last_bell.round.number if board.last_bell is not None else 0),
    }


def room_size(seats: int) -> str:
    """How big the room display writes, for evenings of every table game (the ``size-few`` and
    ``size-some`` rules in ``static/headtable.css``), so that a small evening fills the screen
    instead of one narrow column: ``seats`` is the number of places at the evening's tables (the
    seated guests at poker tables, four a table at tables of four, ghosts' seats included).
    Returns "few" up to 16 seats (4 tables of four, 2 to 4 poker tables: names at 5 % of the
    screen's height, two columns), "some" up to 32 (8 tables of four, 6 poker tables: 3.8 %,
    three columns; poker's standings and where to go keep two), "" beyond (2.9 %, the
    display's usual size). Raises nothing. House rule of the display
    (``docs/board-and-room.md``), as the prize ceremony sizes a prize's winners by how many
    there are."""
    if seats <= 16:
        return "few"
    return "some" if seats <= 32 else ""


def table_digits(numbers: list[int]) -> int:
    """How many digits the largest of the table ``numbers`` has (1 when there are none): the
    room display's ``digits-N`` class, which makes the box of a table's number in big type (where
    to go, the tables at tables of four) as wide as that many digits, so that "10" never breaks
    into "1" over "0", "125" never spills onto the names, and every box of a slide lines up
    (``static/headtable.css``; 84 poker tables or 125 tables of four at 500 guests). Raises
    nothing. House rule of the display (``docs/board-and-room.md``)."""
    return len(str(max(numbers, default=1)))


def _ceremony_context(
    evening: Evening, board: EveningBoard, *, asked: str, etag: str, now: Ceremony | None = None
) -> dict:
    """What the display shows once the evening has ended (``room/_ceremony.html``): the
    ceremony (``tournament.services.ending.ceremony``: the prizes revealed so far, whether the
    final standings are shown), each prize's reason as printed (no house-rule notes), and every
    guest's final place (all of them: the display pages them), written as big as the evening's
    size allows (``room_size``, by the guests in the final standings). ``now``: the ceremony
    the shared board holds (``selectors.guest_boards.Shared.ceremony``), else read here."""
    from tournament.documents.contents import printed_reason
    from tournament.services.ending import ceremony

    now = now or ceremony(evening)
    names = {pk: g.name for pk, g in board.guests.items()}
    listed = (*now.prizes, *now.not_awarded)  # the summary lists every prize, those nobody won once
    reasons = {p.prize.key: printed_reason(p.prize, names) for p in listed}
    latest = now.revealed[-1] if now.revealed and not now.finished else None
    lines = board.standing_lines()
    context = {
        "prize_size": _prize_size([g.name for g in latest.winners]) if latest else "",
        "evening": evening,
        "board": board,
        "mode": "ceremony",
        "asked": asked,
        "etag": etag,
        "ceremony": now,
        "counting": format_for(evening).final_count,
        "latest": latest,
        "latest_reason": reasons.get(latest.prize.key, "") if latest else "",
        "prize_lines": [(p, reasons[p.prize.key]) for p in listed],
        "final_standings": lines if now.finished else [],
        "room_size": room_size(len(lines)),
        "server_now": database_now(),
        "poll_seconds": POLL_SECONDS,
        "last_round": False,
        "next_round": None,
        "bell_key": board.last_bell.round.number if board.last_bell is not None else 0,
    }
    return {**context, **format_for(evening).room_ceremony(evening, finished=now.finished)}


def _prize_size(names: list[str]) -> str:
    """How big the winners' names of the prize on screen are, so that they fit one screen: "huge"
    (10 % of the screen's height) for one short name, "big" (6 %) for two names up to 50
    characters, "many" (4 %) for up to four, "list" (names at 2.9 %, paged) beyond. House rule
    of the display: a name is never cut."""
    longest = max((len(name) for name in names), default=0)
    if len(names) == 1 and longest <= 30:
        return "huge"
    if len(names) <= 2 and longest <= 50:
        return "big"
    return "many" if len(names) <= 4 else "list"
