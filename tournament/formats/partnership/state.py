"""The formats at tables of four (Progressive Euchre, Drive Whist, Bunco): the evening's rules,
its state now, the partnership draw and the seats.

Rules: ``docs/rules/tables-of-four.md`` through ``tables.formats`` (the draw: ``draw_foursomes``; seats
North, East, South, West, North–South and East–West partners; ghosts for empty seats). An
evening of these formats stores the draw's tables in ``Draw.layout`` (ids at North, East, South
and West, ghosts negative), each guest's seat in ``Seat.table`` and ``Seat.position`` (0 North
to 3 West) and, after every bell, the whole state (tables and tallies) in ``Bell.state_after``
(``tables.formats.records``). Progressive Poker's draw and state are ``services.draws`` and
``services.state``; pages ask ``evening_format`` which applies.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, cast

from tables.errors import RuleError
from tables.formats import FoursomeFormat, FoursomeOptions
from tables.formats.bell import FoursomeState
from tables.formats.engine import FormatEntry
from tables.formats.foursome import Seat as SeatName
from tables.formats.foursome import ghost_name, is_ghost
from tables.formats.records import state_from_json
from tournament.models import Draw, Evening, Seat
from tournament.plain_inserts import update_plain
from tournament.registry import format_for
from tournament.services.draws import draw_digital, live_draw, seats_replace
from tournament.services.state import last_state_after

if TYPE_CHECKING:
    from tournament.formats.partnership.plugin import PartnershipFormat


def evening_format(evening: Evening) -> FormatEntry:
    """The evening's format's entry (``FormatPlugin.entry``: title, tallies, the rules at
    tables of four). No query."""
    return format_for(evening).entry


def family_format(evening: Evening) -> PartnershipFormat:
    """The evening's format's plug-in as the family's (``PartnershipFormat``: its report forms);
    the caller has checked that it plays at tables of four (``foursome_rules``). No query."""
    return cast("PartnershipFormat", format_for(evening))


def foursome_rules(evening: Evening) -> tuple[FoursomeFormat, FoursomeOptions]:
    """The evening's format at tables of four and the host's options for it
    (``evening.options["format"]``; defaults: the format's own). Raises ``RuleError`` for a
    Progressive Poker evening or a stored option the rules do not know."""
    fmt = evening_format(evening).foursome
    if fmt is None:
        raise RuleError("This evening plays Progressive Poker, not a game at tables of four.")
    return fmt, FoursomeOptions.from_mapping(dict((evening.options or {}).get("format", {})))


def player_names(evening: Evening) -> dict[int, str]:
    """Every guest's name by id; ghosts are named by ``ghost_name`` where they are shown. One
    query."""
    return dict(evening.guests.values_list("id", "name"))


def player_name(player: int, names: Mapping[int, str]) -> str:
    """A seated player's name: the guest's, or "Ghost 1"."""
    return ghost_name(player) if is_ghost(player) else names.get(player, "A guest")


def foursome_state(evening: Evening) -> FoursomeState:
    """Where everyone sits now and their tallies: the last live bell's state after, or the
    draw's tables with every tally at 0. Raises ``RuleError`` before the draw. One or two
    queries."""
    after = last_state_after(evening)
    if after is not None:
        return state_from_json(after)
    return draw_state(evening)


def draw_state(evening: Evening) -> FoursomeState:
    """The seats of the draw in force with every tally at 0: where everyone sits before the
    first step (``foursome_state``). Raises ``RuleError`` before the draw. One query."""
    draw = live_draw(evening)
    if draw is None or not draw.layout:
        raise RuleError("There is no draw yet: run the draw first.")
    return format_for(evening).state_at_draw(draw)  # type: ignore[attr-defined]


def foursome_seats_replace(*, evening: Evening, tables: Sequence[Sequence[int]]) -> None:
    """Store where every guest sits: ``tables`` are ids at North, East, South and West, table 1
    first (ghosts, negative, have no ``Seat`` row). Two queries (``services.draws.seats_replace``)."""
    seats_replace(evening=evening, tables=tables, by_seat=True)


def foursome_seats_follow(*, evening: Evening, before: Sequence[Sequence[int]], after: Sequence[Sequence[int]]) -> int:
    """Update the ``Seat`` rows of the guests whose table or seat changed from ``before`` to
    ``after`` (ids at North, East, South, West, table 1 first), in one UPDATE whatever the
    number of tables (``plain_inserts.update_plain``, as ``formats.poker.bell.seats_follow``
    does for Progressive Poker). When the guests seated differ
    (someone left or arrived) every seat is rewritten (``foursome_seats_replace``, two queries).
    Returns how many guests' seats changed."""
    old = {p: (n, s) for n, ids in enumerate(before, 1) for s, p in enumerate(ids) if not is_ghost(p)}
    new = {p: (n, s) for n, ids in enumerate(after, 1) for s, p in enumerate(ids) if not is_ghost(p)}
    if set(old) != set(new):
        foursome_seats_replace(evening=evening, tables=after)
        return len(new)
    changed = [(guest, place) for guest, place in new.items() if old[guest] != place]
    update_plain(
        Seat,
        [(guest, n, seat) for guest, (n, seat) in changed],
        key="guest_id",
        columns=("table", "position"),
        where={"evening_id": evening.pk},
    )
    return len(changed)


def foursome_draw(*, evening: Evening, representing: Collection[int] = (), user=None, device: str = "") -> Draw:
    """Deal the partnership draw to every checked-in guest and seat them; returns the ``Draw``.

    Every guest draws a card of their pack naming a table and a seat (red: North and East;
    blue: South and West; house rule in ``tables.formats.foursome``); ghosts take the seats
    left empty. ``representing``: guests the host picks to draw from the other pack (else the
    fewest needed, at random). Raises ``RuleError`` for a Progressive Poker evening, fewer than
    four guests, a wrong pick, or after round 1 started; nothing is saved then. The one draw of
    every format (``services.draws.draw_digital``), after checking the evening's format.
    """
    foursome_rules(evening)
    return draw_digital(evening=evening, representing=representing, user=user, device=device)


def seat_words(position: int) -> str:
    """A seat in words: "North" for 0."""
    return SeatName(position).word
