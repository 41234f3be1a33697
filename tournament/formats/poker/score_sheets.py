"""Progressive Poker's score sheets, from the models: who sat at each table in each round, and what the table reported.

A sheet per table of the draw in force. The seat headers carry the names drawn to that table;
the blank version stops there. The pre-filled version writes a row per round played so far:
the guests at the table that round in seat order (the order the bell keeps), a tick for the
pool winner, at the head table a tick for each guest in the call, the counters the table
reported, and, once the round's bell has rung, each head-table guest's yellow counters after
it. Rows come from the live ``Result`` rows (superseded ones left out) and the live bells'
records (``Bell.record["before"]`` is the seating the round was played in; ``state_after``
the yellow counters). A round whose bell was undone is still in play and is written from the
seating now. Rules: issue 7 item 3; ``docs/rules/progressive-poker.md``, 'A round' (the call, yellow counters).

House rules: the sheet has ``Evening.rounds_planned`` rows, or 12 when the evening ends by the
clock, and never fewer than the rounds started; counters not reported stay blank.
"""

from __future__ import annotations

from tables.formats.poker.bell import EveningState
from tournament.documents.contents import _check_variant, _live_draw
from tournament.models import Bell, DrawnCard, Evening, Result
from tournament.printing import (
    PrintError,
    ScoreEntry,
    ScoreRow,
    ScoreSheetData,
    ScoreSheetsPdf,
)
from tournament.printing.text import guest_print_name
from tournament.selectors.board import table_kind
from tournament.services.draws import live_draw
from tournament.services.state import OPEN_STATES, evening_state

ROUNDS_WHEN_OPEN_ENDED = 12


def _rows(evening: Evening, names: dict[int, str], tables: int) -> dict[int, list[ScoreRow]]:
    """Table number -> the rounds played there so far, as ``ScoreRow``s. Four or five queries.

    Raises ``PrintError`` when no table has reported a result yet.
    """
    results = {
        (r.round_id, r.table): r for r in Result.objects.filter(round__evening=evening, superseded_at__isnull=True)
    }
    if not results:
        raise PrintError(
            "No results yet: the pre-filled score sheets would be blank, so print the "
            "blank ones, or print these after the first results are in."
        )
    bells = {b.round_id: b for b in Bell.objects.of_evening(evening.pk).live().bells()}  # the seats it was played at
    now: EveningState | None = None
    rows: dict[int, list[ScoreRow]] = {n: [] for n in range(1, tables + 1)}
    for rnd in evening.rounds.order_by("number"):
        bell = bells.get(rnd.pk)
        if bell is not None:
            seating, after = EveningState.from_json(bell.record["before"]), EveningState.from_json(bell.state_after)
        elif rnd.state in OPEN_STATES:
            now = now or evening_state(evening)
            seating, after = now, None
        else:
            continue
        for number, ids in enumerate(seating.tables, start=1):
            if number not in rows:
                continue
            result = results.get((rnd.pk, number))
            head = number == 1
            entries = []
            for guest in ids:
                counters = None
                if result is not None and str(guest) in result.counters:
                    counters = int(result.counters[str(guest)])
                entries.append(
                    ScoreEntry(
                        name=names.get(guest, f"guest {guest}"),
                        won_pool=result is not None and result.pool_winner_id == guest,
                        in_call=head and result is not None and guest in {int(g) for g in result.in_call},
                        counters=counters,
                        yellow=after.yellow.get(guest, 0) if head and after is not None else None,
                    )
                )
            rows[number].append(ScoreRow(round=rnd.number, entries=tuple(entries)))
    return rows


def score_sheets(*, evening: Evening, paper: str = "A4", prefilled: bool = False) -> ScoreSheetsPdf:
    """The score sheets of the draw in force, blank or ``prefilled`` with the rounds so far;
    the renderer, not yet rendered. Constant queries (about eight), whatever the size.

    Raises ``PrintError`` before any draw, for pre-filled sheets before any result, and for an
    unknown paper size.
    """
    draw = live_draw(evening)
    if draw is None:
        raise PrintError("No draw yet: run the draw before printing score sheets.")
    tables = len(draw.sizes)
    start: list[list[int]] = [[] for _ in range(tables)]
    for guest, rank in draw.cards.order_by(*DrawnCard.SEATING_ORDER).values_list("guest_id", "rank"):
        start[rank - 1].append(guest)
    names = {pk: guest_print_name(pk, name) for pk, name in evening.guests.values_list("id", "name")}
    played = evening.rounds.count()
    rounds = max(evening.rounds_planned or ROUNDS_WHEN_OPEN_ENDED, played, 1)
    rows = _rows(evening, names, tables) if prefilled else {}
    sheets = []
    for number, ids in enumerate(start, start=1):
        table_rows = tuple(rows.get(number, ()))
        seats = max([len(ids)] + [len(row.entries) for row in table_rows])
        headers = tuple(names.get(g, "") for g in ids) + ("",) * (seats - len(ids))
        sheets.append(
            ScoreSheetData(
                table=number, kind=table_kind(number, tables), seats=headers, rounds=min(rounds, 200), rows=table_rows
            )
        )
    return ScoreSheetsPdf(evening_name=evening.name, sheets=sheets, paper=paper, prefilled=prefilled)


def score_sheets_document(*, evening: Evening, paper: str = "A4", variant: str = "blank"):
    """Score sheets, ``variant`` "blank" or "prefilled" (above)."""
    _check_variant("score-sheets", variant)
    return score_sheets(evening=evening, paper=paper, prefilled=variant == "prefilled")


def score_sheets_check(evening: Evening, *, prefilled: bool) -> None:
    """Raises what ``score_sheets_document`` (on A4) raises, without building the sheets:
    returns once there is a draw in force with tables and, for ``prefilled`` sheets, a result
    reported (two queries); otherwise builds them, which raises the words."""
    draw = _live_draw(evening)
    reported = Result.objects.filter(round__evening=evening, superseded_at__isnull=True)
    if draw is not None and draw.sizes and (not prefilled or reported.exists()):
        return
    score_sheets(evening=evening, prefilled=prefilled)
