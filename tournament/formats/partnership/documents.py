"""Printed documents of the formats at tables of four, built from the models: the players' score
cards, the table cards, Bunco's tally sheets, the results and the prize certificates.

Each builder reads the evening in a constant number of queries and returns its renderer (from
``tournament.printing``), not yet rendered. Rules: the formats' pages of ``docs/rules/`` (what each score card
counts: Euchre's points and stars, Whist's tricks, Bunco's wins, losses, buncos and mini buncos;
the movement; the seats and partners) through ``tables.formats``; issue 15 item 4.

House rules: a score card has ``Evening.rounds_planned`` rows, else the format's
``card_rounds`` (12; Bunco: 24, four sets of six), never fewer than the rounds rung; the rounds
already rung are written in (table, partner, the tallies the bell added as the format's
``card_columns`` write them, a filled star for a round won), the round in play has its table
and partner; once the evening has ended, a card has the rounds played and no more (no round is to
come); a guest who left gets
no card (as for the seating cards); a ghost has none (it has no link).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tables.errors import RuleError
from tables.formats import CardColumn, FoursomeFormat
from tables.formats.foursome import Movement, ghost_name, is_ghost
from tables.formats.records import bell_from_json
from tables.packs import Pack
from tournament.documents.contents import remembered
from tournament.documents.links import guest_url_maker
from tournament.formats.partnership.bell import foursome_movement
from tournament.formats.partnership.standings import foursome_standings
from tournament.formats.partnership.state import foursome_rules, foursome_state, seat_words
from tournament.models import Bell, Evening, Guest
from tournament.plugin import DocumentKind
from tournament.printing import PrintError, PrizeData
from tournament.printing.certificates import CertificatesPdf
from tournament.printing.seat_tables import BuncoSheetsPdf, SeatTablesPdf
from tournament.printing.tally_cards import TallyCardsPdf
from tournament.printing.tally_data import STAR, BuncoSheetData, SeatTableData, TallyCardData, TallyStandingRow
from tournament.printing.tally_results import TallyResultsPdf
from tournament.printing.text import guest_print_name
from tournament.registry import format_for
from tournament.services.naming import namer

Sitting = tuple[int, int, int]  # (table, seat 0..3, partner)


def kind_words(number: int, tables: int) -> str:
    """ "Head table" for table 1, "Foot table" for the last (docs/rules/tables-of-four.md: the foot, or booby,
    table), "" between; one table is the head table."""
    if number == 1:
        return "Head table"
    return "Foot table" if number == tables else ""


def rounds_on_card(evening: Evening, fmt: FoursomeFormat, rung: int) -> int:
    """How many rows a score card or tally sheet has (module docstring's house rule)."""
    planned = evening.rounds_planned or fmt.card_rounds
    return min(max(planned, rung, 1), 60)


def movement_words(movement: Movement, partners_change: bool, number: int, tables: int) -> str:
    """How players move from table ``number`` at the bell, in one line for its table card.
    Sources: Foster (Progressive Euchre's ladder, Drive Whist's circle), the Bunco clubs."""
    up = f"The winners move up to table {number - 1}" if number > 1 else "The winners stay"
    if movement == Movement.CIRCLE:
        up = f"The winners move to table {number - 1}" if number > 1 else f"The winners go round to table {tables}"
        down = "the losers stay"
    elif movement == Movement.LADDER_DOWN and number < tables:
        down = f"the losers go down to table {number + 1}"
    elif movement == Movement.LADDER and number == 1 and tables > 1:
        down = f"the losers go down to the foot table (table {tables})"
    else:
        down = "the losers stay"
    partners = "partners change every round" if partners_change else "partners stay together"
    return f"{up}; {down}; {partners}."


def history(evening: Evening) -> list[tuple[tuple[tuple[int, ...], ...], Mapping[int, Mapping[str, int]]]]:
    """Each rung round's tables (as played) and the tallies its bell added (player id -> tally
    -> amount), in round order, as score cards write them in. One query."""
    records = (
        Bell.objects.filter(round__evening=evening, undone_at__isnull=True, kind=Bell.Kind.BELL)
        .order_by("round__number", "id")
        .values_list("record", flat=True)
    )
    return [(bell.before, bell.added) for bell in map(bell_from_json, records)]


def _sitting(tables: Sequence[Sequence[int]], player: int) -> Sitting | None:
    for number, ids in enumerate(tables, start=1):
        if player in ids:
            seat = list(ids).index(player)
            return number, seat, ids[(seat + 2) % 4]
    return None


def _tally_marks(count: int) -> str:
    """Tally marks in fives ("|||| |" for 6): how buncos are kept on a club tally sheet."""
    return " ".join("||||" if n + 5 <= count else "|" * (count - n) for n in range(0, count, 5))


def columns(fmt: FoursomeFormat) -> tuple[str, ...]:
    """A score card's headings: the format's ``card_round`` ("Round", Drive Whist's "Hand"),
    "Table", "Partner" and its ``card_columns``' ("Points", "Star")."""
    return (fmt.card_round, "Table", "Partner", *(c.heading for c in fmt.card_columns))


def _cell(column: CardColumn, amount: int) -> str:
    """A rung round's cell of ``column`` for ``amount`` added (``CardColumn.shows``)."""
    if column.shows == "star":
        return STAR if amount else ""
    if column.shows == "letter":
        return column.heading[:1] if amount else ""
    if column.shows == "marks":
        return _tally_marks(amount)
    return str(amount)


def _cells(
    fmt: FoursomeFormat, number: int, sitting: Sitting | None, added: Mapping[str, int] | None, name
) -> tuple[str, ...]:
    """One round's cells of a player's card (``added`` None: not rung yet; ``sitting`` None: a
    round they did not play, before they came, left blank as one to come, never scored 0:
    house rule, a card tells the rounds as they were played), as the format's ``card_columns``
    write them."""
    table = str(sitting[0]) if sitting else ""
    partner = name(sitting[2]) if sitting else ""
    if added is None or sitting is None:
        return (str(number), table, partner, *("" for _ in fmt.card_columns))
    return (str(number), table, partner, *(_cell(c, added.get(c.tally, 0)) for c in fmt.card_columns))


def _totals(fmt: FoursomeFormat, tallies: Mapping[str, int]) -> tuple[str, ...]:
    """The totals row from a player's tallies so far: every column's total."""
    return ("Total", "", "", *(str(tallies.get(c.tally, 0)) for c in fmt.card_columns))


def _seat_line(tables: Sequence[Sequence[int]], player: int, *, played: int, ended: bool, name) -> str:
    """The line under a score card's name: "Starts at table 2, East; partner: Bob" before the
    first bell, "Now at table 1, North; partner: Hank" during play, and once the evening has
    ended (no round to come) "The evening has ended: 6 rounds played." """
    if ended:
        return f"The evening has ended: {played} round{'s' if played != 1 else ''} played."
    table, seat, partner = _sitting(tables, player) or (0, 0, 0)
    where = "Starts at" if not played else "Now at"
    return f"{where} table {table}, {seat_words(seat)}; partner: {name(partner)}"


def _card_rounds(evening: Evening, fmt: FoursomeFormat, rung: int) -> int:
    """How many rows every score card has, ``rung`` rounds rung: the rounds played once the
    evening has ended (no round to come), else ``rounds_on_card`` with the round in play."""
    if evening.stage == Evening.Stage.ENDED:
        return max(rung, 1)
    return rounds_on_card(evening, fmt, rung + 1)


def score_cards_check(evening: Evening) -> None:
    """Raises what ``score_cards`` (on A4) raises, without building the cards: returns once
    there is a draw, at least one seated guest who has not left, none of them with a revoked
    link, and a card of 1 to 60 rows (``TallyCardData``'s bounds; three queries); otherwise
    builds the cards, which raises the words."""
    fmt, _ = foursome_rules(evening)
    try:
        state = _state(evening)
    except RuleError:
        state = None
    if state is not None:
        here = dict(evening.guests.exclude(status=Guest.Status.LEFT).values_list("pk", "key_revoked"))
        seated = [here[p] for table in state.tables for p in table if p in here]
        rung = Bell.objects.filter(round__evening=evening, undone_at__isnull=True, kind=Bell.Kind.BELL).count()
        if seated and not any(seated) and 1 <= _card_rounds(evening, fmt, rung) <= 60:
            return
    score_cards(evening=evening)


def _state(evening: Evening):
    """``foursome_state``, once per evening inside the print page's ``one_outcome()``
    (``tournament.documents.contents.remembered``): the documents' checks share it."""
    return remembered("foursome state", evening, foursome_state)


def score_cards(
    *, evening: Evening, paper: str = "A4", variant: str = "card", base_url: str | None = None
) -> TallyCardsPdf:
    """Every seated guest's score card (table, then seat order): name, where they sit, the QR
    code of their link, a row per round with the rounds rung written in. Four queries.

    Raises ``PrintError`` before the draw, for a revoked link (naming the guest: a QR code that
    leads nowhere is worse than none; reissue it first) or an unknown paper.
    """
    fmt, _ = foursome_rules(evening)
    try:
        state = _state(evening)
    except RuleError as error:
        raise PrintError("No draw yet: run the draw before printing score cards.") from error
    everyone = {g.pk: g for g in evening.guests.all()}  # a partner who left is still named on the rounds they played
    guests = {pk: g for pk, g in everyone.items() if g.status != Guest.Status.LEFT}
    names = {pk: guest_print_name(pk, g.name) for pk, g in everyone.items()}

    def name(player: int) -> str:
        return ghost_name(player) if is_ghost(player) else names.get(player, "a guest")

    rung = history(evening)
    ended = evening.stage == Evening.Stage.ENDED  # no round to come: no "Now at", no row in play
    rounds = _card_rounds(evening, fmt, len(rung))
    cards = []
    link = guest_url_maker(base_url)
    for player in (p for table in state.tables for p in table if p in guests):
        guest = guests[player]
        if guest.key_revoked:
            raise PrintError(
                f"{names[player]}'s private link is revoked, so the QR code on their score card "
                "would lead nowhere. Reissue the link on the guests' links page, then print again."
            )
        rows = [
            _cells(fmt, n, _sitting(before, player), added.get(player, {}), name)
            for n, (before, added) in enumerate(rung, start=1)
        ]
        if not ended:
            rows.append(_cells(fmt, len(rows) + 1, _sitting(state.tables, player), None, name))
        rows += [_cells(fmt, n, None, None, name) for n in range(len(rows) + 1, rounds + 1)]
        url = link(guest.key)
        cards.append(
            TallyCardData(
                name=names[player],
                url=url,
                short_url=url.split("://", 1)[-1],
                seat=_seat_line(state.tables, player, played=len(rung), ended=ended, name=name),
                columns=columns(fmt),
                rows=tuple(rows[:rounds]),
                totals=_totals(fmt, state.tallies.get(player, {})),
            )
        )
    return TallyCardsPdf(evening_name=evening.name, title=fmt.title, cards=cards, paper=paper)


def seat_tables(*, evening: Evening, paper: str = "A4", variant: str = "tent") -> SeatTablesPdf:
    """A folded table card per table of the draw in force: number, head or foot table, the four
    seats, how players move (the host's movement and partners option). Two queries. Raises
    ``PrintError`` before the draw."""
    try:
        tables = len(_state(evening).tables)
    except RuleError as error:
        raise PrintError("No draw yet: run the draw before printing table cards.") from error
    movement, partners = foursome_movement(evening)
    return SeatTablesPdf(
        evening_name=evening.name,
        paper=paper,
        tables=[
            SeatTableData(
                number=n, kind_words=kind_words(n, tables), movement=movement_words(movement, partners, n, tables)
            )
            for n in range(1, tables + 1)
        ],
    )


def bunco_sheets(*, evening: Evening, paper: str = "A4", variant: str = "table") -> BuncoSheetsPdf:
    """Bunco's tally sheet for every table (a row per round, the target number, room to tally
    each team's points). Raises ``PrintError`` for another format or before the draw."""
    fmt, _ = foursome_rules(evening)
    if "tally-sheets" not in {kind.slug for kind in format_for(evening).document_kinds()}:
        raise PrintError(f"Tally sheets are for Bunco; this evening plays {fmt.title}.")
    try:
        tables = len(_state(evening).tables)
    except RuleError as error:
        raise PrintError("No draw yet: run the draw before printing tally sheets.") from error
    rounds = rounds_on_card(evening, fmt, evening.rounds.count())
    return BuncoSheetsPdf(
        evening_name=evening.name,
        paper=paper,
        round_end="a team at the head table reaching 21 ends the round"
        if evening.round_end == Evening.RoundEnd.HEAD_POOL
        else "the round ends when the clock runs out",
        sheets=[BuncoSheetData(table=n, kind_words=kind_words(n, tables), rounds=rounds) for n in range(1, tables + 1)],
    )


def tally_outcome(
    evening: Evening,
) -> tuple[tuple[str, ...], tuple[TallyStandingRow, ...], tuple[PrizeData, ...], tuple[str, ...]]:
    """``_tally_outcome`` (below), once per evening inside the print page's ``one_outcome()``
    (``tournament.documents.contents.remembered``): the results and the certificates share it."""
    return remembered("tally", evening, _tally_outcome)


def _tally_outcome(
    evening: Evening,
) -> tuple[tuple[str, ...], tuple[TallyStandingRow, ...], tuple[PrizeData, ...], tuple[str, ...]]:
    """The results as printed: the tallies' words, the standings (ghosts too, as the standings
    page shows them), the prizes with their winners and the names of the guests who did not
    play (names printable: ``guest_print_name``). Raises ``PrintError`` before the first bell. About five queries."""
    if not Bell.objects.of_evening(evening.pk).live().bells().exists():
        raise PrintError("No bell has rung yet: the results print once the first round's bell has rung.")
    try:
        state = _state(evening)  # the seats the score cards' check read: read and parsed once
    except RuleError:
        state = None
    table = foursome_standings(evening, state=state)
    keys = tuple(key for key, _ in table.tallies)
    packs = format_for(evening).plays_packs  # everyone alone: no pack to print
    rows = tuple(
        TallyStandingRow(
            place=line.place,
            name=guest_print_name(line.player, line.name) if line.guest else line.name,
            pack_label=evening.pack_label(Pack(line.guest.pack)) if line.guest and packs else "",
            values=tuple(line.tallies.get(k, 0) for k in keys),
            left=line.guest is not None and line.guest.status == Guest.Status.LEFT,
        )
        for line in table.lines
    )
    names = {line.player: row.name for line, row in zip(table.lines, rows, strict=True)}
    prizes = tuple(
        PrizeData(
            title=p.title,
            winners=tuple(names.get(g.pk, guest_print_name(g.pk, g.name)) for g in p.winners),
            reason=p.prize.reason_for(namer(names), printed=True),
        )
        for p in table.prizes
    )
    did_not_play = tuple(guest_print_name(g.pk, g.name) for g in table.did_not_play)
    return tuple(words for _, words in table.tallies), rows, prizes, did_not_play


def tally_results(*, evening: Evening, paper: str = "A4", variant: str = "full") -> TallyResultsPdf:
    """The results at tables of four: prizes and standings with the format's tallies. Raises as
    ``tally_outcome``."""
    columns, rows, prizes, did_not_play = tally_outcome(evening)
    return TallyResultsPdf(
        evening_name=evening.name,
        columns=columns,
        standings=rows,
        prizes=prizes,
        paper=paper,
        did_not_play=did_not_play,
    )


def tally_certificates(*, evening: Evening, paper: str = "A4", variant: str = "page") -> CertificatesPdf:
    """A certificate for every winner of the format's prizes (a ghost wins none). Raises as
    ``tally_outcome``, and ``PrintError`` when no prize has a winner."""
    _, _, prizes, _ = tally_outcome(evening)
    return CertificatesPdf(evening_name=evening.name, prizes=prizes, paper=paper)


DOCUMENTS: tuple[DocumentKind, ...] = (
    DocumentKind(
        "score-cards",
        "Score cards",
        "One per player: name, table, seat and partner, the QR code of their private link, and a row "
        "per round (the rounds played so far written in).",
        (("card", "2 a page, with cut marks"),),
    ),
    DocumentKind(
        "table-tents",
        "Table cards",
        "One folded card per table: its number, head or foot table, the seats North, East, South "
        "and West, and how players move.",
        (("tent", "One table a page"),),
    ),
    DocumentKind(
        "tally-sheets",
        "Tally sheets",
        "Bunco: one per table, a row per round with room to tally each team's points and buncos.",
        (("table", "One table a page"),),
    ),
    DocumentKind(
        "results",
        "Results",
        "Standings with the format's tallies, and the prizes and their winners.",
        (("full", "Standings and prizes"),),
    ),
    DocumentKind("certificates", "Prize certificates", "One page per prize winner.", (("page", "One a page"),)),
)
"""What the formats at tables of four print, in the order the print page lists them (Bunco's
tally sheets only where the format keeps them: ``FormatPlugin.document_kinds``)."""
BUILDERS: dict[str, Callable[..., Any]] = {
    "score-cards": score_cards,
    "table-tents": seat_tables,
    "tally-sheets": bunco_sheets,
    "results": tally_results,
    "certificates": tally_certificates,
}


def document_check(*, evening: Evening, slug: str, variant: str) -> None:
    """``FormatPlugin.document_check`` for the family's documents: the score cards checked
    without their rows (``score_cards_check``); the others have a row per table or per prize,
    not per guest, and are built (the results and the certificates from one reading of the
    standings inside ``one_outcome``)."""
    if slug == "score-cards":
        score_cards_check(evening)
    else:
        document(evening=evening, slug=slug, paper="A4", variant=variant, base_url=None)


def document(*, evening: Evening, slug: str, paper: str, variant: str, base_url: str | None):
    """The renderer of one of the family's documents (``DOCUMENTS``), the variant checked by
    ``documents.contents.document``; not yet rendered."""
    if slug == "score-cards":
        return score_cards(evening=evening, paper=paper, variant=variant, base_url=base_url)
    return BUILDERS[slug](evening=evening, paper=paper, variant=variant)
