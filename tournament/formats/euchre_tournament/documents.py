"""What the Euchre tournament prints: every player's score card listing their whole schedule
(game, table, seat, partner, a box for the points and one for an opponent's initials), the
results and the certificates (``docs/rules/euchre-tournament.md``, "Printing")."""

from __future__ import annotations

from tables.errors import RuleError
from tables.formats.euchre_tournament.play import NUMBER, TournamentRules
from tables.formats.foursome import Seat, ghost_name, is_ghost
from tables.formats.records import bell_from_json
from tournament.documents.links import guest_url
from tournament.formats.partnership.documents import DOCUMENTS as FAMILY
from tournament.formats.partnership.documents import document as family_document
from tournament.formats.partnership.documents import document_check as family_check
from tournament.models import Bell, Evening
from tournament.plugin import DocumentKind
from tournament.printing import PrintError
from tournament.printing.seat_tables import SeatTablesPdf
from tournament.printing.tally_cards import TallyCardsPdf
from tournament.printing.tally_data import SeatTableData, TallyCardData
from tournament.printing.text import guest_print_name
from tournament.registry import format_for

COLUMNS = ("Game", "Table", "Seat", "Partner", "Points", "Opponent's initials")

DOCUMENTS: tuple[DocumentKind, ...] = (
    DocumentKind(
        "score-cards",
        "Score cards",
        "One per player: their number, the QR code of their private link, and their whole schedule: "
        "each game's table, seat and partner, with a box for the points and one for an opponent's initials.",
        (("card", "2 a page, with cut marks"),),
    ),
    DocumentKind(
        "table-tents",
        "Table cards",
        "One folded card per table: its number and the seats North, East, South and West; the players "
        "find their table for each game on their score card.",
        (("tent", "One table a page"),),
    ),
    *(kind for kind in FAMILY if kind.slug in ("results", "certificates")),
)


def games_rung(evening: Evening) -> dict[int, tuple[tuple[tuple[int, ...], ...], dict[int, int]]]:
    """Game number -> (the tables as that game was played: its bell's "before", player ids at
    North, East, South and West, ghosts negative; player id -> the points its bell scored them,
    a sit-out's too), for every game rung and not undone. One query."""
    bells = Bell.objects.filter(round__evening=evening, undone_at__isnull=True, kind=Bell.Kind.BELL)
    rung = {}
    for bell in bells.select_related("round").order_by("round__number", "id"):
        record = bell_from_json(bell.record)
        points = {p: t["points"] for p, t in record.added.items() if "points" in t}
        rung[bell.round.number] = (tuple(tuple(t) for t in bell.record["before"]), points)
    return rung


def _played_row(game: int, tables: tuple[tuple[int, ...], ...], player: int, box: str, name) -> tuple[str, ...]:
    """A score card's row for a game rung, from the seats it was played at (``tables``), not
    from the schedule's numbers as held now: a partner who left later is named, not the ghost
    that took their number (house rule: a card tells the games as they were played)."""
    for number, ids in enumerate(tables, start=1):
        if player in ids:
            seat = ids.index(player)
            return (str(game), str(number), Seat(seat).word, name(ids[(seat + 2) % 4]), box, "")
    return (str(game), "sits out", "", "", box, "")


def _card_row(place, holder: dict[int, int], player: int, rung, name) -> tuple[str, ...]:
    """A score card's row for ``player``'s ``place`` in the schedule: a game rung as it was
    played (``_played_row``), a game to come by the schedule's numbers as held now (``holder``:
    number -> player, a ghost for a leaver's number)."""
    played, scored = rung.get(place.game, ((), {}))
    box = "" if scored.get(player) is None else str(scored[player])
    if played:
        return _played_row(place.game, played, player, box, name)
    if place.sits_out:
        return (str(place.game), "sits out", "", "", box, "")
    partner = name(holder[place.partner]) if place.partner is not None else ""
    return (str(place.game), str(place.table), Seat(place.seat or 0).word, partner, box, "")


def score_cards(*, evening: Evening, paper: str = "A4", base_url: str | None = None) -> TallyCardsPdf:
    """Every player's score card, by their number: the schedule's every game for them (a game
    they sit out says so), the points written in for the games played. Raises ``PrintError``
    before the draw or for a revoked link (naming the guest)."""
    fmt = format_for(evening)
    try:
        state = fmt.state(evening)
    except RuleError as error:
        raise PrintError("No draw yet: run the draw before printing score cards.") from error
    numbers = {p: t[NUMBER] - 1 for p, t in state.tallies.items() if t.get(NUMBER)}
    schedule = TournamentRules(games=evening.rounds_planned).schedule(len(numbers))
    holder = {n: p for p, n in numbers.items()}
    guests = {g.pk: g for g in evening.guests.filter(pk__in=[p for p in numbers if p > 0])}
    # every guest, a partner who left since included: the games rung name who played them
    names = {pk: guest_print_name(pk, n) for pk, n in evening.guests.values_list("pk", "name")}

    def name(player: int) -> str:
        return ghost_name(player) if is_ghost(player) else names.get(player, "a guest")

    rung = games_rung(evening)
    cards = []
    for number in sorted(holder):
        guest = guests.get(holder[number])
        if guest is None:
            continue
        if guest.key_revoked:
            raise PrintError(
                f"{names[guest.pk]}'s private link is revoked, so the QR code on their score card would lead "
                "nowhere. Reissue the link on the guests' links page, then print again."
            )
        rows = [_card_row(place, holder, guest.pk, rung, name) for place in schedule.card(number)]
        url = guest_url(guest.key, base_url=base_url)
        cards.append(
            TallyCardData(
                name=names[guest.pk],
                url=url,
                short_url=url.split("://", 1)[-1],
                seat=f"Player {number + 1} · {len(schedule.games)} games",
                columns=COLUMNS,
                rows=tuple(rows),
                totals=(
                    "Total",
                    "",
                    "",
                    "",
                    str(state.tallies.get(guest.pk, {}).get("points", "")) if evening.rounds.exists() else "",
                    "",
                ),
            )
        )
    return TallyCardsPdf(evening_name=evening.name, title=fmt.title, cards=cards, paper=paper)


def score_cards_check(evening: Evening) -> None:
    """Raises what ``score_cards`` (on A4) raises, without building the cards: returns once
    there is a draw, the schedule can be made, at least one numbered player is a guest, none
    with a revoked link, and a card has 1 to 60 games (``TallyCardData``'s bounds; two
    queries); otherwise builds the cards, which raises the words."""
    fmt = format_for(evening)
    try:
        state = fmt.state(evening)
    except RuleError:
        state = None
    if state is not None:
        numbers = [p for p, t in state.tallies.items() if t.get(NUMBER)]
        schedule = TournamentRules(games=evening.rounds_planned).schedule(len(numbers))
        revoked = dict(evening.guests.filter(pk__in=[p for p in numbers if p > 0]).values_list("pk", "key_revoked"))
        if revoked and not any(revoked.values()) and 1 <= len(schedule.games) <= 60:
            return
    score_cards(evening=evening)


def table_cards(*, evening: Evening, paper: str = "A4") -> SeatTablesPdf:
    """A folded card per table of the schedule (every game has as many): its number and seats.
    Raises ``PrintError`` before the draw."""
    try:
        tables = len(format_for(evening).state(evening).tables)
    except RuleError as error:
        raise PrintError("No draw yet: run the draw before printing table cards.") from error
    words = "Seats by the schedule: your score card gives your table and seat for every game."
    return SeatTablesPdf(
        evening_name=evening.name, tables=[SeatTableData(n, "", words) for n in range(1, tables + 1)], paper=paper
    )


def document_check(*, evening: Evening, slug: str, variant: str) -> None:
    """``FormatPlugin.document_check`` for the tournament's documents: the score cards checked
    without their rows (``score_cards_check``), the others built (no row per guest)."""
    if slug == "score-cards":
        score_cards_check(evening)
    elif slug == "table-tents":
        table_cards(evening=evening)
    else:
        family_check(evening=evening, slug=slug, variant=variant)


def document(*, evening: Evening, slug: str, paper: str, variant: str, base_url: str | None):
    """The renderer of one of the tournament's documents (``DOCUMENTS``), not yet rendered."""
    if slug == "score-cards":
        return score_cards(evening=evening, paper=paper, base_url=base_url)
    if slug == "table-tents":
        return table_cards(evening=evening, paper=paper)
    return family_document(evening=evening, slug=slug, paper=paper, variant=variant, base_url=base_url)
