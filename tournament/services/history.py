"""What an evening's history refers to, so that nothing it refers to is ever deleted.

The models keep the evening as events (draws, results, bells with their full records), and the
standings, the export, the printed results and every undo or correction are read back from
them. A guest named anywhere in that history (a drawn card, a seat, a result, a vote, a bell's
entry or record, a stake) cannot be removed: the evening would no longer add up ("Guest 17 has
no pack"). House rule (issue 12 item 3): such a guest is marked as left instead; their
counters stay in the standings.

Two guards do the work. The database relations from history to a guest are ``RESTRICT``
(``tournament.models``), so no delete path (the host's pages, the admin, a shell) can remove a
guest that a row refers to, while deleting a whole evening still deletes all of it. And
``guest_history`` also reads the JSON records (a bell's seats, counters and stakes; a result's
call, ties and counts), which no foreign key covers, to say in words why a guest stays.
Rounds, results, bells and their entries are never deleted at all: undo and corrections mark
them undone or superseded (the admin offers no delete for them, ``tournament.admin``).
"""

from __future__ import annotations

from tables.errors import RuleError
from tournament.models import Bell, DrawnCard, Guest, Result, ResultVote, Seat


class GuestHasHistory(RuleError):
    """A guest cannot be removed because the evening's history refers to them; ``reasons``
    says where, in words ("drew a card", "won a pool in round 2")."""

    def __init__(self, guest: Guest, reasons: list[str]):
        self.guest = guest
        self.reasons = reasons
        already_left = guest.status == Guest.Status.LEFT
        super().__init__(
            f"{guest.name} cannot be removed: they {', '.join(reasons)}, and the evening keeps that history. "
            + (
                "They are already marked as left, so they sit nowhere and keep their place in the standings."
                if already_left
                else "Mark them as left instead: they give up their seat and keep their history."
            )
        )


def _in_state(state: dict | None, key: str, guest_id: int) -> bool:
    """Whether an ``EveningState`` as JSON seats or counts the guest (``tables.formats.poker.bell.state``)."""
    if not isinstance(state, dict):
        return False
    if any(guest_id in table for table in state.get("tables", ()) if isinstance(table, list)):
        return True
    return any(isinstance(state.get(name), dict) and key in state[name] for name in ("counters", "yellow", "stakes"))


def _bell_reasons(guest: Guest) -> list[str]:
    key = str(guest.pk)
    reasons = []
    if guest.bell_entries.exists():
        reasons.append("are in a bell's record (a move, a yellow counter or a stake)")
    for record, after in Bell.objects.filter(round__evening_id=guest.evening_id).values_list("record", "state_after"):
        record = record if isinstance(record, dict) else {}
        if (
            _in_state(after, key, guest.pk)
            or _in_state(record.get("before"), key, guest.pk)
            or record.get("guest") == guest.pk
        ):
            reasons.append("hold counters in the standings")
            break
    return reasons


def _result_reasons(guest: Guest) -> list[str]:
    reasons = []
    won = (
        Result.objects.filter(pool_winner=guest)
        .select_related("round")
        .order_by("round__number", "table")
        .values_list("round__number", flat=True)
        .first()
    )
    if won is not None:
        reasons.append(f"won a pool in round {won}")
    if Result.objects.filter(reported_by_guest=guest).exists() or ResultVote.objects.filter(guest=guest).exists():
        reasons.append("reported or confirmed a table's result")
    key = str(guest.pk)
    for in_call, tied, counters in Result.objects.filter(round__evening_id=guest.evening_id).values_list(
        "in_call", "tied", "counters"
    ):
        if guest.pk in (in_call or []) or guest.pk in (tied or []) or (isinstance(counters, dict) and key in counters):
            reasons.append("are named in a table's result")
            break
    return reasons


def guest_history(guest: Guest) -> list[str]:
    """Where the evening's history refers to ``guest``, as short phrases after "they"
    ("drew a card", "have a seat at table 3", "won a pool in round 2"); empty when nothing does
    and the guest may be removed. A handful of queries (the bells' and results' JSON are read
    for the evening)."""
    reasons = []
    if DrawnCard.objects.filter(guest=guest).exists():
        reasons.append("drew a card")
    seat = Seat.objects.filter(guest=guest).values_list("table", flat=True).first()
    if seat is not None:
        reasons.append(f"have a seat at table {seat}")
    reasons += _result_reasons(guest)
    reasons += _bell_reasons(guest)
    return reasons


def guest_history_check(guest: Guest) -> None:
    """Raise ``GuestHasHistory`` (a ``RuleError``, with "mark them as left instead") when the
    evening's history refers to ``guest``; return None when they may be removed."""
    reasons = guest_history(guest)
    if reasons:
        raise GuestHasHistory(guest, reasons)


def guests_with_history(evening_id: int) -> set[int]:
    """The ids of the evening's guests whom history refers to (for a list of *Remove* buttons:
    guests shown with *Left* instead). A few queries whatever the number of guests."""
    ids: set[int] = set()
    ids |= set(DrawnCard.objects.filter(guest__evening_id=evening_id).values_list("guest_id", flat=True))
    ids |= set(Seat.objects.filter(evening_id=evening_id).values_list("guest_id", flat=True))
    ids |= set(ResultVote.objects.filter(guest__evening_id=evening_id).values_list("guest_id", flat=True))
    for winner, reporter, in_call, tied, counters in Result.objects.filter(round__evening_id=evening_id).values_list(
        "pool_winner_id", "reported_by_guest_id", "in_call", "tied", "counters"
    ):
        ids |= {g for g in (winner, reporter) if g is not None}
        ids |= {g for g in (in_call or []) + (tied or []) if isinstance(g, int)}
        ids |= {int(k) for k in (counters or {}) if str(k).isdigit() and str(k).isascii()}
    for after in Bell.objects.filter(round__evening_id=evening_id).values_list("state_after", flat=True):
        if isinstance(after, dict):
            ids |= {g for table in after.get("tables", ()) for g in table if isinstance(g, int)}
            ids |= {int(k) for k in after.get("counters", {}) if str(k).isdigit() and str(k).isascii()}
    ids |= set(Guest.objects.filter(evening_id=evening_id, bell_entries__isnull=False).values_list("pk", flat=True))
    return ids
