"""The corrections page's history kept per evening version: every round whose bell has rung,
with each table's players and result (``services.corrections.correction_rounds``), and the
page's list of them written once per time zone.

The history changes only when the evening does (a bell, a correction, an undo, a guest's name),
so each process keeps it under the evening's version (``tournament.evening_parts.evening_part``,
in one snapshot of the database); the corrections page drawn again unchanged reads only the
version. House rule: issue 26 item 3 (fragments kept by the evening's version where a page is
re-drawn unchanged).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournament.evening_parts import evening_part
from tournament.kept import Kept
from tournament.models import Evening
from tournament.services.corrections import RoundHistory, correction_rounds

HISTORIES_KEPT = 16  # evenings whose corrections history a process keeps


@dataclass(frozen=True)
class KeptHistory:
    """``correction_rounds`` of an evening at one version (``rounds``, read-only) and the page's
    list of them as HTML, by the time zone the bells' times were written in (``html``, filled
    by the page)."""

    rounds: tuple[RoundHistory, ...]
    html: dict[str, str] = field(default_factory=dict, compare=False, repr=False)


_HISTORIES: Kept[KeptHistory] = Kept(HISTORIES_KEPT)  # evening token -> its history at one version


def kept_correction_rounds(evening: Evening) -> KeptHistory:
    """``evening``'s corrections history at ``evening.version``, computed once per process and
    version (three queries then; one, the version, when kept). For pages that only read."""
    return evening_part(_HISTORIES, evening, lambda now: KeptHistory(tuple(correction_rounds(now))))
