"""Progressive Poker's own printed documents (``PokerFormat.document``): its table tents with
each table's movement rule, the pull list of table cards for a physical draw (and the print
page's note of who draws from the other pack), and which renderer each of its documents takes
(``DOCUMENTS`` in ``tournament.documents.contents``: the seating cards, score sheets, results
and certificates, which every format's documents share, are built there).

Rules: ``docs/rules/progressive-poker.md`` ("The seating draw": a card of each rank per player
of that table, the packs split between the two packs' guests; "The bell": the movement each
tent card prints).
"""

from __future__ import annotations

from tables.formats.poker.draw import draws_from_other_pack, pull_list, split_packs
from tables.formats.poker.plan import TablePlan, plan_tables
from tables.packs import Pack
from tables.table_cards import rank_name
from tournament.documents.contents import (
    _check_variant,
    _guests_here,
    _live_draw,
    certificates_document,
    results_document,
    seating_cards,
    seating_cards_check,
)
from tournament.formats.poker.physical_draw import drawn_packs
from tournament.formats.poker.score_sheets import score_sheets_check, score_sheets_document
from tournament.models import Draw, Evening
from tournament.printing import PullListPdf, PullPackData, TableTentData, TableTentsPdf
from tournament.selectors.board import table_kind
from tournament.services.draw_physical import open_physical_draw


def _plan(evening: Evening, draw: Draw | None, here: int) -> TablePlan:
    """The plan in force: the draw's (done, or from real packs being recorded) when it seats
    the guests here, else the plan for them
    (``tables.formats.poker.plan.plan_tables``; raises ``PlanError`` for fewer than 8, or 9 to 11)."""
    if draw is not None and sum(draw.sizes) == here:
        return TablePlan(tuple(draw.sizes), relaxed=draw.relaxed or None)
    return plan_tables(here)


def movement_line(number: int, tables: int) -> str:
    """A table's movement rule in one line, for its tent card. Source: ``docs/rules/progressive-poker.md``, 'The bell'
    (winners move up; the head table's yellow counter; the fewest counters not in the call go
    down to the booby table)."""
    if number == 1:
        return (
            "The winner of the pool takes a yellow counter; the fewest counters not in the call "
            "go down to the booby table"
        )
    if number == tables:
        return (
            f"The winner of the pool moves up to table {number - 1}; the head table sends one player down to this table"
        )
    return f"The winner of the pool moves up to table {number - 1}"


def table_tents(*, evening: Evening, paper: str = "A4", variant: str = "tent") -> TableTentsPdf:
    """One tent card per table of the draw in force (or the draw from real packs being
    recorded), or, before any draw, of the plan for the guests checked in now. Raises ``PlanError`` (a ``RuleError``) when they cannot be seated
    yet, ``PrintError`` for an unknown paper or variant."""
    _check_variant("table-tents", variant)
    draw = _live_draw(evening) or open_physical_draw(evening)
    tables = len(draw.sizes) if draw is not None else _plan(evening, None, sum(_guests_here(evening))).tables
    tents = [
        TableTentData(number=n, kind=table_kind(n, tables), movement=movement_line(n, tables))
        for n in range(1, tables + 1)
    ]
    return TableTentsPdf(evening_name=evening.name, tables=tents, paper=paper)


def _pull_plan(evening: Evening) -> tuple[TablePlan, int, int]:
    """The pull list's plan and the guests of each pack it splits (red, blue): once play has
    begun, the draw in force's (``physical_draw.drawn_packs``: the guests here now cannot be
    drawn again), else the plan in force for the guests checked in now (``_plan``). Raises
    ``PlanError`` as ``_plan``."""
    drawn = drawn_packs(evening)
    if drawn is not None:
        draw, red, blue = drawn
        return TablePlan(tuple(draw.sizes), relaxed=draw.relaxed or None), red, blue
    red, blue = _guests_here(evening)
    return _plan(evening, _live_draw(evening) or open_physical_draw(evening), red + blue), red, blue


def pull_list_note(evening: Evening) -> str:
    """One line for the print page: who draws from the other pack under the pull list's split,
    or "" when nobody does. Raises as ``pull_list_document``."""
    plan, red, blue = _pull_plan(evening)
    other = draws_from_other_pack(split_packs(plan, red=red, blue=blue), red=red, blue=blue)
    words = [
        f"{n} of the {evening.pack_label(p)} {'draws' if n == 1 else 'draw'} from the other pack"
        for p, n in other.items()
        if n
    ]
    return "; ".join(words)


def pull_list_document(*, evening: Evening, paper: str = "A4", variant: str = "list") -> PullListPdf:
    """The cards to pull from each real pack for a physical draw of the guests checked in now
    (the draw's plan when it seats them all; once play has begun, the draw in force's whoever
    came or left since), with the host's pack labels. Raises ``PlanError``
    when the guests here cannot be seated, ``PrintError`` for an unknown paper or variant.
    Source: ``docs/rules/progressive-poker.md``, 'The seating draw', via ``tables.formats.poker.draw.split_packs``/``pull_list``."""
    _check_variant("pull-list", variant)
    plan, red, blue = _pull_plan(evening)
    pull = pull_list(split_packs(plan, red=red, blue=blue))
    packs = [
        PullPackData(
            label=evening.pack_label(pack),
            colour=pack.value,
            cards=tuple((rank_name(rank).capitalize(), count) for rank, count in pull[pack]),
        )
        for pack in (Pack.RED, Pack.BLUE)
    ]
    return PullListPdf(evening_name=evening.name, packs=packs, paper=paper)


def poker_document(*, evening: Evening, slug: str, paper: str, variant: str, base_url: str | None):
    """The renderer of one of Progressive Poker's documents (``DOCUMENTS``), the variant checked
    by ``document``."""
    if slug == "seating-cards":
        return seating_cards(evening=evening, paper=paper, variant=variant, base_url=base_url)
    builders = {
        "table-tents": table_tents,
        "score-sheets": score_sheets_document,
        "pull-list": pull_list_document,
        "results": results_document,
        "certificates": certificates_document,
    }
    return builders[slug](evening=evening, paper=paper, variant=variant)


def poker_document_check(*, evening: Evening, slug: str, variant: str) -> None:
    """``FormatPlugin.document_check`` for Progressive Poker's documents: the seating cards and
    the score sheets are checked without their rows (``seating_cards_check``,
    ``score_sheets_check``); the others have no row per guest and are built (the results and
    the certificates from one reading of the standings inside ``one_outcome``)."""
    if slug == "seating-cards":
        seating_cards_check(evening)
    elif slug == "score-sheets":
        score_sheets_check(evening, prefilled=variant == "prefilled")
    else:
        poker_document(evening=evening, slug=slug, paper="A4", variant=variant, base_url=None)
