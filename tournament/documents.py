"""Printed documents built from the models: the glue between an evening and the ReportLab
renderers in ``tournament.printing`` (which take plain frozen values and return PDF bytes)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from tables.draw import TableCard
from tables.errors import RuleError
from tables.packs import Pack
from tournament.models import Evening
from tournament.printing import SeatingCardData, SeatingCardsPdf
from tournament.selectors import table_kind
from tournament.services.draws import live_draw


def guest_url(key: str, *, base_url: str | None = None) -> str:
    """The absolute private link of a guest (``SITE_URL`` unless ``base_url`` is given)."""
    return (base_url or settings.SITE_URL).rstrip("/") + reverse("guest-page", args=[key])


def seating_cards_pdf(*, evening: Evening, paper: str = "A4", variant: str = "sheet", base_url: str | None = None) -> bytes:
    """The seating cards of the evening's draw in force: one per guest with name, table, the card
    drawn and the QR code of their private link. Raises ``RuleError`` before any draw (the
    renderer raises ``PrintError`` for an unknown paper size)."""
    draw = live_draw(evening)
    if draw is None:
        raise RuleError("No draw yet: run the draw before printing seating cards.")
    labels = {Pack.RED: evening.red_label, Pack.BLUE: evening.blue_label}
    tables = len(draw.sizes)
    cards = []
    for drawn in draw.cards.select_related("guest").order_by("rank", "pack", "guest__name_key"):
        guest = drawn.guest
        card = TableCard(pack=Pack(drawn.pack), rank=drawn.rank)
        url = guest_url(guest.key, base_url=base_url)
        represents = None
        if drawn.pack != guest.pack:
            represents = f"draws for the {labels[Pack(drawn.pack)]}"
        cards.append(
            SeatingCardData(
                name=guest.name, table=drawn.rank, table_kind=table_kind(drawn.rank, tables),
                card_rank=drawn.rank, card_name=card.name_with(labels), pack=drawn.pack,
                pack_label=labels[Pack(guest.pack)], represents=represents, url=url,
                short_url=url.split("://", 1)[-1],
            )
        )
    return SeatingCardsPdf(evening_name=evening.name, cards=cards, paper=paper, variant=variant).render()
