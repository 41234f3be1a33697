"""Every printed document of an evening, as ReportLab renderers over plain frozen values.

One renderer class per PDF, each ``render() -> bytes`` (pretix style, see
``docs/design-notes.md``): seating cards (sheet or folded tent), table tent cards, score
sheets (blank or pre-filled), the pull list for a physical draw, the results with the
settlement sheet, and prize certificates. Inputs are the frozen dataclasses of ``data``; the
Django side builds them from the models. The fonts are Noto fonts installed from PyPI,
registered with ReportLab the first time a document needs them (``fonts``); every name prints
in its own script, shaped by HarfBuzz (``text`` explains the rules).
"""

from tournament.printing.certificates import CertificatesPdf
from tournament.printing.data import (
    PrintError,
    PrizeData,
    PullPackData,
    ScoreEntry,
    ScoreRow,
    ScoreSheetData,
    SeatingCardData,
    SettlementRow,
    StandingRow,
    TableTentData,
    page_size,
)
from tournament.printing.pull_list import PullListPdf
from tournament.printing.results import ResultsPdf
from tournament.printing.score_sheets import ScoreSheetsPdf
from tournament.printing.seating_cards import SeatingCardsPdf
from tournament.printing.table_tents import TableTentsPdf

__all__ = [
    "PrintError",
    "PrizeData",
    "PullPackData",
    "ScoreEntry",
    "ScoreRow",
    "ScoreSheetData",
    "SeatingCardData",
    "SettlementRow",
    "StandingRow",
    "TableTentData",
    "page_size",
    "SeatingCardsPdf",
    "TableTentsPdf",
    "ScoreSheetsPdf",
    "PullListPdf",
    "ResultsPdf",
    "CertificatesPdf",
]
