"""Sample data for every printed document: guests with names in many scripts.

Used by the tests, the benchmark (``bench/bench_print.py``) and for looking at the documents
(``python -m tournament.printing.samples OUTDIR`` writes every document, A4, a guest per name).
Not real people. The table plan here is a simple stand-in (4 at the head and booby tables,
6 between), not the draw's rules, which live in ``tables/``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Protocol

from tournament.printing.data import (
    PrizeData,
    PullPackData,
    ScoreEntry,
    ScoreRow,
    ScoreSheetData,
    SeatingCardData,
    SettlementRow,
    StandingRow,
    TableTentData,
)

#: One guest name per script a guest list may hold (issue 13), for the tests and the look.
SCRIPT_NAMES = {
    "Latin": "Amélie Dubois-Lefèvre",
    "Greek": "Σοφία Παπαδοπούλου",
    "Cyrillic": "Дмитрий Смирнов",
    "Arabic": "محمد العلي",
    "Hebrew": "יוסי כהן",
    "Devanagari": "अनुराग शर्मा",
    "Bengali": "সৌমিত্র চট্টোপাধ্যায়",
    "Tamil": "கார்த்திகேயன் சுப்பிரமணியம்",
    "Telugu": "శ్రీనివాస్ రెడ్డి",
    "Gujarati": "ધ્રુવ પટેલ",
    "Gurmukhi": "ਹਰਪ੍ਰੀਤ ਸਿੰਘ",
    "Kannada": "ಶ್ರೀನಿಧಿ ಕೃಷ್ಣ",
    "Malayalam": "ശ്രീക്കുട്ടൻ നായർ",
    "Thai": "สมชาย ใจดี",
    "Lao": "ສົມພອນ ແກ້ວມະນີ",
    "Khmer": "សុខ សុភាព",
    "Myanmar": "အောင်ဆန်း စုကြည်",
    "Sinhala": "ශ්‍රියානි පෙරේරා",
    "Georgian": "ნინო ბერიძე",
    "Armenian": "Արամ Խաչատրյան",
    "Ethiopic": "ዳዊት በቀለ",
    "Chinese": "王秀英",
    "Japanese": "さくら 佐藤",
    "Hangul": "김민수",
}

NAMES: tuple[str, ...] = (
    "Amélie Dubois-Lefèvre",
    "Σοφία Παπαδοπούλου",
    "Дмитрий Иванович Смирнов",
    "محمد العلي",
    "נועה כהן",
    "王秀英",
    "山田 花子",
    "Søren Kierkegård",
    "José María Núñez",
    "Zoë O'Brien",
    "Łukasz Wróblewski",
    "Ngozi Okonjo",
    "فاطمة الزهراء",
    "Αλέξανδρος Νικολάου",
    "Ольга Петрова",
    "李小龍",
    "さくら 佐藤",
    "יוסף לוי",
    "Björn Ängström",
    "Chloé Nguyễn",
    "Dawit Bekele",
    "Ana Lucía Pérez",
    "Ιωάννης Γεωργίου",
    "Анна Кузнецова",
    "علي حسن",
    "陈静",
    "鈴木 一郎",
    "Miriam Schäfer",
    "Oğuz Çelik",
    "Mary-Jane Smith",
    "Pieter van den Berg",
    "Camille Rousseau",
    "Jürgen Müller",
    "Zuzana Dvořáková",
    "Hélène Gagné",
    "Maria Papadopoulou-Konstantinidou",
    "Leila Ahmadi بنت",
    "Tomás Ó Súilleabháin",
    "Ekaterina Alexandrovna Romanova-Dolgorukova",
    "Kim 김민수",
)
NAMES += tuple(name for name in SCRIPT_NAMES.values() if name not in NAMES)

RANK_WORDS = (
    "ace",
    "deuce",
    "trey",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)


class _Document(Protocol):
    """A document of tournament.printing (``SeatingCardsPdf``, ``ResultsPdf``...): it renders its PDF."""

    def render(self) -> bytes: ...


def sample_names(count: int) -> list[str]:
    """``count`` guest names in many scripts (repeats numbered past the list's length)."""
    return [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f" {i // len(NAMES) + 1}") for i in range(count)]


def table_sizes(count: int) -> list[int]:
    """A stand-in table plan for ``count`` guests (count >= 8): 4, then 6s, then 4, with the
    remainder spread one each over the middle tables (a sample, not the draw's rules)."""
    middle_guests = count - 8
    middle = max(1, round(middle_guests / 6)) if middle_guests else 0
    sizes = [4] + [middle_guests // middle if middle else 0] * middle + [4]
    for i in range(middle_guests - sum(sizes[1:-1])):
        sizes[1 + i % middle] += 1
    return [s for s in sizes if s]


def table_kind(number: int, tables: int) -> str:
    """ "head" for table 1, "booby" for the last table, else "intermediate"."""
    return "head" if number == 1 else "booby" if number == tables else "intermediate"


def sample_cards(count: int, base_url: str = "https://headtable.example/g/") -> list[SeatingCardData]:
    """Seating cards for ``count`` sample guests, seated by ``table_sizes``."""
    names = sample_names(count)
    sizes = table_sizes(count)
    cards: list[SeatingCardData] = []
    i = 0
    for number, size in enumerate(sizes, start=1):
        for seat in range(size):
            pack = "red" if seat % 2 == 0 else "blue"
            own = pack if i % 9 else ("blue" if pack == "red" else "red")
            key = f"k{i:03d}x{(i * 7919) % 100000:05d}Qz".ljust(43, "7")  # as long as a real key
            cards.append(
                SeatingCardData(
                    name=names[i],
                    table=number,
                    table_kind=table_kind(number, len(sizes)),
                    card_rank=(number - 1) % 13 + 1,
                    card_name=f"{RANK_WORDS[(number - 1) % 13]} of the {pack} pack",
                    pack=pack,
                    pack_label=f"{own.capitalize()} pack",
                    represents=None if own == pack else f"draws for the {pack.capitalize()} pack",
                    url=base_url + key + "/",
                    short_url=f"headtable.example/g/{key}/",
                )
            )
            i += 1
    return cards


def sample_tents(count: int) -> list[TableTentData]:
    """Tent cards for the tables of ``count`` guests."""
    tables = len(table_sizes(count))
    return [
        TableTentData(
            number=n,
            kind=table_kind(n, tables),
            movement=(
                "The winner of the pool stays; fewest counters not in the call goes to the booby table"
                if n == 1
                else f"The winner of the pool moves up to table {n - 1}"
            ),
        )
        for n in range(1, tables + 1)
    ]


def sample_sheets(count: int, played: int = 3) -> list[ScoreSheetData]:
    """Score sheets for ``count`` guests: 12 rounds, ``played`` of them filled in."""
    names = sample_names(count)
    sizes = table_sizes(count)
    sheets, i = [], 0
    for n, size in enumerate(sizes, start=1):
        seats = tuple(names[i : i + size])
        i += size
        rows = tuple(
            ScoreRow(
                round=r,
                entries=tuple(
                    ScoreEntry(
                        name=seats[(s + r - 1) % size],
                        won_pool=s == r % size,
                        in_call=n == 1 and s in (r % size, (r + 1) % size),
                        counters=50 + 7 * ((s * 3 + r) % 5) - 14,
                        yellow=(r + s) % 3 if n == 1 else None,
                    )
                    for s in range(size)
                ),
            )
            for r in range(1, played + 1)
        )
        sheets.append(ScoreSheetData(n, table_kind(n, len(sizes)), seats, 12, rows))
    return sheets


def sample_pull(count: int) -> list[PullPackData]:
    """The pull list for ``count`` guests: half of each table's seats from each pack."""
    sizes = table_sizes(count)
    red = tuple((RANK_WORDS[n % 13].capitalize(), (s + 1) // 2) for n, s in enumerate(sizes))
    blue = tuple((RANK_WORDS[n % 13].capitalize(), s // 2) for n, s in enumerate(sizes))
    return [PullPackData("Red pack", "red", red), PullPackData("Blue pack", "blue", blue)]


def sample_results(count: int) -> tuple[list[StandingRow], list[PrizeData], list[SettlementRow]]:
    """Standings, prizes and settlement rows for ``count`` sample guests."""
    names = sample_names(count)
    rows = [
        StandingRow(
            place=i + 1,
            name=name,
            pack_label="Red pack" if i % 2 == 0 else "Blue pack",
            yellow=max(0, 6 - i // 3),
            counters=120 - i * 3,
            stakes=i % 4 // 3,
            counters_won=70 - i * 3 - 50 * (i % 4 // 3),
        )
        for i, name in enumerate(names)
    ]
    prizes = [
        PrizeData("Head table prize", (names[0],), "most yellow counters: 6"),
        PrizeData("Red pack prize", (names[2], names[4]), "tied: most counters won, 64"),
        PrizeData("Blue pack prize", (names[1],), "most counters won in the blue pack: 67"),
        PrizeData("Booby prize", (names[-1],), "fewest counters won"),
    ]
    settle = [SettlementRow(r.name, r.pack_label, r.counters_won, f"{r.counters_won * 2:+d}p") for r in rows]
    return rows, prizes, settle


def write_all(outdir: Path, count: int = len(NAMES), paper: str = "A4") -> list[Path]:
    """Write every document for ``count`` sample guests into ``outdir``; returns the paths."""
    from tournament.printing import (
        CertificatesPdf,
        PullListPdf,
        ResultsPdf,
        ScoreSheetsPdf,
        SeatingCardsPdf,
        TableTentsPdf,
    )

    evening = "Spring Progressive Poker · Ελλάδα · 春"
    standings, prizes, settle = sample_results(count)
    docs: dict[str, _Document] = {
        "seating_cards": SeatingCardsPdf(evening_name=evening, cards=sample_cards(count), paper=paper),
        "seating_tents": SeatingCardsPdf(evening_name=evening, cards=sample_cards(count), paper=paper, variant="tent"),
        "table_tents": TableTentsPdf(evening_name=evening, tables=sample_tents(count), paper=paper),
        "score_blank": ScoreSheetsPdf(evening_name=evening, sheets=sample_sheets(count), paper=paper, prefilled=False),
        "score_filled": ScoreSheetsPdf(evening_name=evening, sheets=sample_sheets(count), paper=paper, prefilled=True),
        "pull_list": PullListPdf(evening_name=evening, packs=sample_pull(count), paper=paper),
        "results": ResultsPdf(evening_name=evening, standings=standings, prizes=prizes, settlement=settle, paper=paper),
        "certificates": CertificatesPdf(evening_name=evening, prizes=prizes, paper=paper),
    }
    outdir.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, doc in docs.items():
        path = outdir / f"{stem}.pdf"
        path.write_bytes(doc.render())
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "var/print-samples")):
        print(written)
