"""Bunco's plug-in: a format of the partnership family (``tournament.formats.partnership``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from tournament.formats.partnership.plugin import PartnershipFormat

if TYPE_CHECKING:
    from tournament.documents.contents import DocumentKind


class BuncoFormat(PartnershipFormat):
    """Bunco (the Bunco clubs' rules): three dice, 21 at the head table ends the round (``docs/rules/bunco.md``)."""

    key: ClassVar[str] = "bunco"
    round_end_words: ClassVar[str] = (
        "When a team at the head table reaches 21 (its points are recorded: the rules' way)"
    )
    documents_instead: ClassVar[Mapping[str, str | None]] = {
        "seating-cards": "score-cards",
        "score-sheets": "tally-sheets",
    }

    def document_kinds(self) -> tuple[DocumentKind, ...]:
        """The family's documents with Bunco's tally sheets (a sheet per table for the rolls)."""
        from tournament.formats.partnership.documents import DOCUMENTS

        return DOCUMENTS
