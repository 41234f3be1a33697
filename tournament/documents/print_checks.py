"""The print page's checks kept per evening version: whether each document can print, and why
not, in the host's words; the note beside the pull list and the table cards; the guests whose
names cannot be printed.

Checking every document reads the draw, the seats, the results and the standings (at 500
guests tens of milliseconds), and the answers change only when the evening does, so each
process keeps them under the evening's version (``tournament.evening_parts.evening_part``,
in one snapshot of the database) and the print page drawn again unchanged only builds its links
(the paper size is in the links, not in the checks). House rule: issue 26 item 3 (the print
page at 500 guests within 50 times a bare view; fragments kept by the evening's version).
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.documents.contents import (
    UnprintableGuest,
    document_problem,
    documents_for,
    one_outcome,
    pull_list_note,
    unprintable_guests,
)
from tournament.evening_parts import evening_part
from tournament.kept import Kept
from tournament.models import Evening
from tournament.plugin import DocumentKind
from tournament.services.draws import live_draw

CHECKS_KEPT = 16  # evenings whose print checks a process keeps

TENTS_BEFORE_THE_DRAW = (
    "No draw yet: these are for the tables planned for the guests checked in now; print them again if more arrive"
)


@dataclass(frozen=True)
class DocumentCheck:
    """One document as the print page lists it: its ``kind``, each variant as (value, label,
    why it cannot print or ""), the distinct reasons in order (``problems``) and a ``note``
    ("" for none)."""

    kind: DocumentKind
    variants: tuple[tuple[str, str, str], ...]
    problems: tuple[str, ...]
    note: str


@dataclass(frozen=True)
class PrintChecks:
    """Every document of the evening's format checked (``documents``, in the format's order)
    and the guests whose names cannot be printed (``unprintable``, in name order)."""

    documents: tuple[DocumentCheck, ...]
    unprintable: tuple[UnprintableGuest, ...]


_CHECKS: Kept[PrintChecks] = Kept(CHECKS_KEPT)  # evening token -> its print checks at one version


def print_checks(evening: Evening) -> PrintChecks:
    """The print page's checks of ``evening`` at ``evening.version`` (module docstring),
    computed once per process and version. Read-only. About fifteen queries when computed,
    one (the version) when kept."""
    return evening_part(_CHECKS, evening, _print_checks)


def _print_checks(evening: Evening) -> PrintChecks:
    """``print_checks``'s value, computed: each document's check (``document_problem``; the
    score sheets' other variants checked on their own, the others share the default's), the
    results and the certificates from one reading of the standings (``one_outcome``)."""
    drawn = live_draw(evening) is not None
    documents = []
    with one_outcome():
        for kind in documents_for(evening):
            shared = document_problem(evening=evening, slug=kind.slug)
            variants, problems = [], []
            for value, label in kind.variants:
                problem = shared
                if value != kind.default_variant and kind.slug == "score-sheets":
                    problem = document_problem(evening=evening, slug=kind.slug, variant=value)
                if problem and problem not in problems:
                    problems.append(problem)
                variants.append((value, label, problem))
            note = ""
            if kind.slug == "pull-list" and not problems:
                note = pull_list_note(evening)
            if kind.slug == "table-tents" and not problems and not drawn:
                note = TENTS_BEFORE_THE_DRAW
            documents.append(DocumentCheck(kind, tuple(variants), tuple(problems), note))
    return PrintChecks(tuple(documents), tuple(unprintable_guests(evening)))
