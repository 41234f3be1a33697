"""Printed documents built from the models: the glue between an evening and the ReportLab
renderers in ``tournament.printing`` (which take plain frozen values and return PDF bytes).

One builder per document reads the evening and returns its renderer, not yet rendered, so the
print page can ask every document whether it can print (and why not) without drawing a page:

* ``seating_cards``: the draw in force, one card per guest, the QR code of the guest's link;
* ``results`` and ``certificates``: standings, prizes and settlement (``tables.prizes``).

Progressive Poker's own (its score sheets, blank or pre-filled from the live results, its table
tents with the movement each table prints, its pull list of table cards, and which renderer
each of its documents takes) are in its plug-in,
``tournament.formats.poker.documents``.

``document_pdf`` builds and renders any of them by its slug; ``DOCUMENTS`` lists them with
their variants (the print page and ``manage.py print_document`` read it). Everything a host
can fix raises ``tables.errors.RuleError`` (``PrintError`` mostly) with a message saying what
to do; nothing half-printed comes out. Rules: issue 7; ``docs/rules/progressive-poker.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar

from django.db.models import Count, Q

from tables.errors import RuleError
from tables.packs import Pack
from tables.prizes import Prize
from tables.table_cards import TableCard
from tournament.documents.links import guest_url_maker
from tournament.models import Bell, Draw, Evening, Guest, Seat
from tournament.name_keys import name_order
from tournament.plugin import DocumentKind
from tournament.printing import (
    CertificatesPdf,
    PrintError,
    PrizeData,
    ResultsPdf,
    SeatingCardData,
    SeatingCardsPdf,
    SettlementRow,
    StandingRow,
)
from tournament.printing.text import guest_print_name, name_problem
from tournament.registry import format_for, format_named, installed_formats
from tournament.selectors.board import table_kind
from tournament.services.draw_physical import open_physical_draw
from tournament.services.draws import live_draw
from tournament.services.naming import error_message, namer
from tournament.services.prizes import evening_standings

DOCUMENTS: tuple[DocumentKind, ...] = (
    DocumentKind(
        "seating-cards",
        "Seating cards",
        "One per guest: name, table, the card drawn and the QR code of their private link.",
        (("sheet", "8 a page, with cut marks"), ("tent", "Folded in two, 4 a page")),
    ),
    DocumentKind(
        "table-tents",
        "Table cards",
        "One folded tent per table: its number, head or booby table, and how guests move.",
        (("tent", "One table a page"),),
    ),
    DocumentKind(
        "score-sheets",
        "Score sheets",
        "One per table: a row per round, pool winners and counters (the call and yellow counters at the head table).",
        (("blank", "Blank"), ("prefilled", "Pre-filled with the results so far")),
    ),
    DocumentKind(
        "pull-list",
        "Pull list",
        "For a draw from real packs: which cards to take out of each pack.",
        (("list", "Both packs"),),
    ),
    DocumentKind(
        "results",
        "Results",
        "Standings, the prizes and their winners, and the settlement when counters have a money value.",
        (("full", "Standings and prizes"),),
    ),
    DocumentKind("certificates", "Prize certificates", "One page per prize winner.", (("page", "One a page"),)),
)


def all_kinds() -> dict[str, DocumentKind]:
    """Every installed format's documents by slug (``FormatPlugin.document_kinds``); a slug two
    formats share is the first format's, in the settings' order (Progressive Poker's). No query."""
    kinds: dict[str, DocumentKind] = {}
    for fmt in installed_formats().values():
        for kind in fmt.document_kinds():
            kinds.setdefault(kind.slug, kind)
    return kinds


def format_documents(key: str) -> tuple[DocumentKind, ...]:
    """The documents format ``key`` prints, as the format says (``FormatPlugin.document_kinds``:
    Progressive Poker's ``DOCUMENTS``; at tables of four score cards, table cards, results,
    certificates and, for Bunco, tally sheets). Raises ``RuleError`` for a format not installed."""
    return format_named(key).document_kinds()


def documents_for(evening: Evening) -> tuple[DocumentKind, ...]:
    """The documents the evening's format prints (``format_documents``)."""
    return format_documents(evening.format)


def other_format_document(evening: Evening, slug: str) -> tuple[str, str | None]:
    """For a document ``slug`` that the evening's format does not print: the reason in words
    ("Score cards are printed for Progressive Euchre, Drive Whist and Bunco. This evening plays
    Progressive Poker: print its score sheets below.") and the slug of the format's own document
    for the same use (``FormatPlugin.documents_instead``; None when it has none). Raises ``PrintError`` for a slug that
    is no document at all. No query."""
    kind = document_kind(slug)
    formats = [fmt.title for fmt in installed_formats().values() if slug in {k.slug for k in fmt.document_kinds()}]
    printed_for = formats[0] if len(formats) == 1 else f"{', '.join(formats[:-1])} and {formats[-1]}"
    plays = format_for(evening).title
    instead = format_for(evening).documents_instead.get(slug)
    verb = "are" if kind.title.endswith("s") else "is"
    if instead is None:
        ending = f", which has no {kind.title.lower()}: choose one of its documents below."
    else:
        ending = f": print its {all_kinds()[instead].title.lower()} below."
    return f"{kind.title} {verb} printed for {printed_for}. This evening plays {plays}{ending}", instead


def evening_kind(evening: Evening, slug: str) -> DocumentKind:
    """The document ``slug`` as the evening's format prints it; ``PrintError`` naming the
    documents it prints for any other."""
    kinds = {kind.slug: kind for kind in documents_for(evening)}
    if slug not in kinds:
        raise PrintError(f"There is no document “{slug}” for this evening: choose one of {', '.join(kinds)}.")
    return kinds[slug]


def document_kind(slug: str) -> DocumentKind:
    """The ``DocumentKind`` named ``slug``; ``PrintError`` naming the documents for any other."""
    kinds = all_kinds()
    if slug not in kinds:
        raise PrintError(f"There is no document “{slug}”: choose one of {', '.join(kinds)}.")
    return kinds[slug]


def _live_draw(evening: Evening) -> Draw | None:
    """``services.draws.live_draw``, once per evening inside the print page's ``one_outcome()``
    (``remembered``): its documents' checks read the draw in force once."""
    return remembered("live draw", evening, live_draw)


def _labels(evening: Evening) -> dict[Pack, str]:
    return {Pack.RED: evening.red_label, Pack.BLUE: evening.blue_label}


def seating_cards(
    *, evening: Evening, paper: str = "A4", variant: str = "sheet", base_url: str | None = None
) -> SeatingCardsPdf:
    """The seating cards of the draw in force: one per guest who has not left (table, then
    pack, then name order) with name, table, the card drawn and the QR code of their private
    link. Two or three queries.

    Raises ``PrintError`` before any draw ("No draw yet") or while a draw from real packs is
    incomplete, for an unknown paper or variant, and, naming the card, the table and the guest,
    for a revoked private link (house rule: a card whose QR code leads nowhere is worse than
    none; the host reissues the link first). A name that cannot be printed prints as "Guest
    no. N" (``guest_print_name``; the print page lists it, ``unprintable_guests``).
    """
    draw = _live_draw(evening)
    if draw is None and open_physical_draw(evening) is not None:
        raise PrintError(
            "The draw from real packs is not complete: record every guest's card, then print the seating cards."
        )
    if draw is None:
        raise PrintError("No draw yet: run the draw before printing seating cards.")
    labels = _labels(evening)
    tables = len(draw.sizes)
    cards = []
    drawn_cards = sorted(
        draw.cards.exclude(guest__status=Guest.Status.LEFT).values_list(
            "rank", "pack", "guest_id", "guest__name", "guest__pack", "guest__key", "guest__key_revoked"
        ),
        key=lambda card: (card[0], card[1], name_order(card[3]), card[2]),
    )
    link = guest_url_maker(base_url)
    for number, (rank, pack, guest_id, guest_name, guest_pack, key, revoked) in enumerate(drawn_cards, start=1):
        who = f"Seating card {number} (table {rank}, guest no. {guest_id})"
        name = guest_print_name(guest_id, guest_name)
        if revoked:
            raise PrintError(
                f"{who}: {name}'s private link is revoked, so its QR code would lead "
                "nowhere. Reissue the link on the guests' links page, then print again."
            )
        card = TableCard(pack=Pack(pack), rank=rank)
        url = link(key)
        represents = None
        if pack != guest_pack:
            represents = f"draws for the {labels[Pack(pack)]}"
        cards.append(
            SeatingCardData(
                name=name,
                table=rank,
                table_kind=table_kind(rank, tables),
                card_rank=rank,
                card_name=card.name_with(labels),
                pack=pack,
                pack_label=labels[Pack(guest_pack)],
                represents=represents,
                url=url,
                short_url=url.split("://", 1)[-1],
            )
        )
    cards += _arrival_cards(evening, {card[2] for card in drawn_cards}, tables, labels, link)
    return SeatingCardsPdf(evening_name=evening.name, cards=cards, paper=paper, variant=variant)


def _late_seats(evening: Evening, drawn):
    """The seats of the guests here who drew no card of the draw in force (``drawn``: the drawn
    guests' ids, or a query of them): the late arrivals'."""
    return Seat.objects.filter(evening=evening, guest__status=Guest.Status.HERE).exclude(guest_id__in=drawn)


def _arrival_cards(evening: Evening, drawn: set[int], tables: int, labels, link) -> list[SeatingCardData]:
    """A card for every guest seated after the draw (a late arrival: no card drawn), at the
    table they sit at now, table then name order. One query. Raises ``PrintError`` for a
    revoked link, as for a drawn card. House rule: every guest at a table has a seating card,
    whether they drew a card or were seated on arrival."""
    cards = []
    late = sorted(
        _late_seats(evening, drawn).values_list(
            "table", "guest_id", "guest__name", "guest__pack", "guest__key", "guest__key_revoked"
        ),
        key=lambda seat: (seat[0], name_order(seat[2]), seat[1]),
    )
    for table, guest_id, guest_name, guest_pack, key, revoked in late:
        name = guest_print_name(guest_id, guest_name)
        if revoked:
            raise PrintError(
                f"The seating card of {name} (table {table}): the private link is revoked, so its QR code "
                "would lead nowhere. Reissue the link on the guests' links page, then print again."
            )
        url = link(key)
        cards.append(
            SeatingCardData(
                name=name,
                table=table,
                table_kind=table_kind(table, max(tables, table)),
                card_rank=None,
                card_name="Seated on arrival",
                pack=guest_pack,
                pack_label=labels[Pack(guest_pack)],
                represents=None,
                url=url,
                short_url=url.split("://", 1)[-1],
            )
        )
    return cards


def seating_cards_pdf(
    *, evening: Evening, paper: str = "A4", variant: str = "sheet", base_url: str | None = None
) -> bytes:
    """``seating_cards(...).render()``: the PDF bytes (raises as ``seating_cards``)."""
    return seating_cards(evening=evening, paper=paper, variant=variant, base_url=base_url).render()


def _guests_here(evening: Evening) -> tuple[int, int]:
    """(red, blue): the checked-in guests of each pack. One query."""
    packs = list(evening.guests.filter(status=Guest.Status.HERE).values_list("pack", flat=True))
    return packs.count(Pack.RED.value), packs.count(Pack.BLUE.value)


def printed_reason(prize: Prize, names: dict[int, str]) -> str:
    """A prize's reason (``tables.prizes.Prize``) in the words of a printed page: guests by
    name ("Zoë won the cut"), tied guests counted ("3 guests tied": the winners are printed
    beside it), and no "(house rule: ...)" notes."""
    return prize.reason_for(namer(names), printed=True)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The evening's results as printed: ``standings``, ``prizes`` and ``settlement`` (None
    without a counter value), plus whether the evening has ``ended``."""

    standings: tuple[StandingRow, ...]
    prizes: tuple[PrizeData, ...]
    settlement: tuple[SettlementRow, ...] | None
    ended: bool
    did_not_play: tuple[str, ...] = ()
    """The names of the guests who played no rung round (no place), as printed."""


T = TypeVar("T")

#: Within ``one_outcome()``: {(what, evening id): its value, or the RuleError it raised}.
_REMEMBERED: ContextVar[dict[tuple[str, int], object] | None] = ContextVar("remembered", default=None)


@contextmanager
def one_outcome() -> Iterator[None]:
    """Within this block each ``remembered`` reading (the outcome of ``evening_outcome``, a
    format's standings for its documents) is computed once per evening and the same value (or
    the same error) given to every later call: the print page checks the results and the
    certificates from one reading of the standings (issue 26 item 3: standings computed once).
    For pages that only read: leave the block before anything is saved."""
    token = _REMEMBERED.set({})
    try:
        yield
    finally:
        _REMEMBERED.reset(token)


def remembered(what: str, evening: Evening, compute: Callable[[Evening], T]) -> T:
    """``compute(evening)``, once per (``what``, evening) inside ``one_outcome()`` (every call
    outside it computes). Raises the ``RuleError`` ``compute`` raised, each time."""
    memo = _REMEMBERED.get()
    if memo is None:
        return compute(evening)
    key = (what, evening.pk)
    if key not in memo:
        try:
            memo[key] = compute(evening)
        except RuleError as error:
            memo[key] = error
    found = memo[key]
    if isinstance(found, RuleError):
        raise found
    return found  # type: ignore[return-value]


def evening_outcome(evening: Evening) -> Outcome:
    """``_evening_outcome`` (below), once per evening inside ``one_outcome()``."""
    return remembered("outcome", evening, _evening_outcome)


def _evening_outcome(evening: Evening) -> Outcome:
    """The standings, prizes and settlement of ``tournament.services.prizes.evening_standings``
    (the standings page's: places shared by ties, titles with the host's pack labels, prize
    ties cut the same way every time) as the printing values. Prize reasons name guests, count
    tied guests and leave out the "(house rule: ...)" notes (``printed_reason``). Raises
    ``PrintError`` before the draw or the first bell; ``RuleError`` for bad prize options. A
    name that cannot be printed prints as "Guest no. N" (``guest_print_name``). About five
    queries."""
    if _live_draw(evening) is None:
        raise PrintError("No draw yet: run the draw and play a round before printing results.")
    if not Bell.objects.of_evening(evening.pk).live().bells().exists():
        raise PrintError("No bell has rung yet: the results print once the first round's bell has rung.")
    table = evening_standings(evening)
    names = {line.guest.pk: guest_print_name(line.guest.pk, line.guest.name) for line in table.lines}
    standings = tuple(
        StandingRow(
            place=line.place,
            name=names[line.guest.pk],
            pack_label=evening.pack_label(line.row.pack),
            yellow=line.row.yellow,
            counters=line.row.counters,
            stakes=line.row.fresh_stakes,
            counters_won=line.row.counters_won,
            left=line.guest.status == Guest.Status.LEFT,
        )
        for line in table.lines
    )
    prizes = tuple(
        PrizeData(
            title=p.title,
            winners=tuple(guest_print_name(g.pk, g.name) for g in p.winners),
            reason=printed_reason(p.prize, names),
        )
        for p in table.prizes
    )
    settlement = None
    if table.total is not None:
        settlement = tuple(
            SettlementRow(
                name=guest_print_name(s.guest.pk, s.guest.name),
                pack_label=evening.pack_label(s.guest.pack),
                counters_won=s.line.counters_won,
                amount=f"{s.line.amount:+.2f}",
            )
            for s in table.settlement
        )
    did_not_play = tuple(guest_print_name(g.pk, g.name) for g in table.did_not_play)
    return Outcome(standings, prizes, settlement, evening.stage == Evening.Stage.ENDED, did_not_play)


def results_document(*, evening: Evening, paper: str = "A4", variant: str = "full") -> ResultsPdf:
    """The results: prizes, final standings, and the settlement sheet when counters have a
    money value. Raises as ``evening_outcome``, and ``PrintError`` for a bad paper or variant."""
    _check_variant("results", variant)
    outcome = evening_outcome(evening)
    return ResultsPdf(
        evening_name=evening.name,
        standings=outcome.standings,
        prizes=outcome.prizes,
        settlement=outcome.settlement,
        paper=paper,
        did_not_play=outcome.did_not_play,
    )


def certificates_document(*, evening: Evening, paper: str = "A4", variant: str = "page") -> CertificatesPdf:
    """A certificate for every prize winner (tied winners each get one). Raises as
    ``evening_outcome``, and ``PrintError`` for a bad paper or variant, or no prize at all."""
    _check_variant("certificates", variant)
    outcome = evening_outcome(evening)
    return CertificatesPdf(evening_name=evening.name, prizes=outcome.prizes, paper=paper)


def _check_variant(slug: str, variant: str, kind: DocumentKind | None = None) -> None:
    kind = kind or all_kinds()[slug]
    values = [value for value, _ in kind.variants]
    if variant not in values:
        raise PrintError(f"{kind.title} come as {' or '.join(values)}, not “{variant}”.")


def document(
    *,
    evening: Evening,
    slug: str,
    paper: str = "A4",
    variant: str | None = None,
    base_url: str | None = None,
):
    """The renderer of document ``slug`` (see ``DOCUMENTS``) for the evening, not yet rendered:
    call ``.render()`` for the PDF bytes. ``variant`` None means the document's default;
    ``base_url`` is the site address in the seating cards' QR codes (``SITE_URL`` when None).
    Raises ``RuleError``/``PrintError`` with the reason it cannot print."""
    kind = evening_kind(evening, slug)
    variant = variant or kind.default_variant
    _check_variant(slug, variant, kind)
    return format_for(evening).document(evening=evening, slug=slug, paper=paper, variant=variant, base_url=base_url)


def document_check(*, evening: Evening, slug: str, variant: str | None = None) -> None:
    """Whether document ``slug`` (``variant``; None: the default) can print on A4 now, without
    building its rows (``FormatPlugin.document_check``): None where ``document`` would build
    it, else raises what ``document`` raises, in the same words."""
    kind = evening_kind(evening, slug)
    variant = variant or kind.default_variant
    _check_variant(slug, variant, kind)
    format_for(evening).document_check(evening=evening, slug=slug, variant=variant)


def _card_counts(cards) -> tuple[int, int]:
    """(rows, rows whose guest's link is revoked) of a queryset of ``DrawnCard``s or
    ``Seat``s. One query."""
    counts = cards.aggregate(rows=Count("pk"), revoked=Count("pk", filter=Q(guest__key_revoked=True)))
    return counts["rows"], counts["revoked"]


def seating_cards_check(evening: Evening) -> None:
    """Raises what ``seating_cards`` (on A4, as sheets) raises, without building the cards:
    returns once there is a draw in force, at least one card to print and no card with a
    revoked link (the two card queries counted, three queries); otherwise builds the cards,
    which raises the words (before the draw, naming the revoked card, or no card at all)."""
    draw = _live_draw(evening)
    if draw is not None:
        drawn, drawn_revoked = _card_counts(draw.cards.exclude(guest__status=Guest.Status.LEFT))
        late, late_revoked = _card_counts(_late_seats(evening, draw.cards.values("guest_id")))
        if drawn + late and not drawn_revoked + late_revoked:
            return
    seating_cards(evening=evening)


def document_pdf(**kwargs) -> bytes:
    """``document(**kwargs).render()``: the PDF bytes. Raises as ``document``."""
    return document(**kwargs).render()


@dataclass(frozen=True, slots=True)
class UnprintableGuest:
    """A guest whose name cannot be printed: the ``guest`` and the ``reason`` in words."""

    guest: Guest
    reason: str


def unprintable_guests(evening: Evening) -> list[UnprintableGuest]:
    """The evening's guests whose names cannot be printed (``printing.text.name_problem``),
    in name order: they print as "Guest no. N" until the host fixes the name. One query."""
    found = []
    for pk, name in evening.guests.order_by("name_key", "id").values_list("id", "name"):
        reason = name_problem(name)
        if reason:
            found.append(UnprintableGuest(Guest(id=pk, evening_id=evening.pk, name=name), reason))
    return found


def document_problem(*, evening: Evening, slug: str, variant: str | None = None) -> str:
    """Why document ``slug`` (``variant``) cannot print now, in the host's words, or "" when it
    can: ``document_check``, which builds no row where the format can tell without them."""
    try:
        document_check(evening=evening, slug=slug, variant=variant)
    except RuleError as error:
        return error_message(error, evening)
    return ""
