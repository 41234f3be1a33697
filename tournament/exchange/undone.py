"""An undone bell in an export file, saved back as history (issue 24 deliver 5).

An undone bell changes nothing any more: its round waits for the bell again, and the seats are
those before it. It is not replayed; it is saved as it was exported, marked undone, with its
entries (the moves, stakes and cards cut it said), so the copy's export lists it as the
original's does and the evening's history keeps it (docs/export.md: "undone bells stay in the
export ... so a correction never loses history"). At tables of four its ``record`` (the format's
own, ``tables.formats.records``) is saved with its players renamed; at Progressive Poker the
export has no record, so the saved one holds what the export carries: its kind, entries and
warnings, and the guest leaving or arriving.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournament.exchange.rows import EveningImportError, _all_saved, _checked, _time, where
from tournament.models import Bell, BellEntry, Round

# An undone bell's state after is never read (the evening's state is its live bells'), and the
# export does not carry it: the saved bell says so instead of holding a state that was not.
NOT_A_STATE = {"undone": "not exported: an undone bell's state after is never read"}


def undone_bell_rows(
    *,
    round_row: Round,
    bell: Mapping[str, Any],
    place: list[Any],
    gid: Callable[[int], int],
    record: Mapping[str, Any] | None = None,
) -> tuple[Bell, list[BellEntry]]:
    """The exported undone ``bell`` (a dict of ``rounds[].bells[]``) of ``round_row`` as rows,
    each checked (``rows._checked``) and none written: the ``Bell`` (its kind, cause, time
    undone) and its ``BellEntry`` rows, guest ids renamed by ``gid`` (old id -> new id).
    ``record``: the bell's own record with ids already renamed (tables of four); None makes
    the record from the entries (Progressive Poker). Raises ``EveningImportError`` naming
    ``place`` for a field the models refuse."""
    entries = [dict(e, guest=gid(e["guest"])) for e in bell["entries"]]
    kind = bell.get("kind", Bell.Kind.BELL)
    if record is None:
        mover = next((e["guest"] for e in entries if e["kind"] in ("leave", "arrive")), None)
        record = {"kind": kind, "entries": entries, "warnings": list(bell.get("warnings", ())), "guest": mover}
    undone_at = _time(bell.get("undone_at"), [*place, "undone_at"])
    if undone_at is None:
        raise EveningImportError(f"{where(place)}: an undone bell without its time.")
    stored = _checked(
        Bell(
            round=round_row,
            kind=kind,
            cause=bell["cause"],
            record=dict(record),
            state_after=dict(NOT_A_STATE),
            undone_at=undone_at,
        ),
        place,
    )
    rows = [
        _checked(
            BellEntry(
                bell=stored,
                kind=entry["kind"],
                guest_id=entry["guest"],
                from_table=entry.get("from_table"),
                to_table=entry.get("to_table"),
                amount=entry.get("amount", 0),
                rule=entry.get("rule", "")[:200],
                text=entry.get("text", "")[:300],
            ),
            [*place, "entries", e],
        )
        for e, entry in enumerate(entries)
    ]
    return stored, rows


def save_undone_bell(
    *,
    round_row: Round,
    bell: Mapping[str, Any],
    place: list[Any],
    gid: Callable[[int], int],
    record: Mapping[str, Any] | None = None,
) -> Bell:
    """Save the exported undone ``bell`` of ``round_row`` (``undone_bell_rows``, then the bell
    and its entries in one insert); returns the saved ``Bell``. Raises ``EveningImportError``
    naming ``place`` for a field the models refuse."""
    stored, entries = undone_bell_rows(round_row=round_row, bell=bell, place=place, gid=gid, record=record)
    stored.save()
    _all_saved(entries)
    return stored
