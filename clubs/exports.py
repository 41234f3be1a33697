"""A club's exports (issue 25 item 6): a season's standings and ledger as CSV and PDF, an
evening's settlement sheet as PDF, and the season as JSON with its evenings.

The JSON document (schema ``SCHEMA``, ``docs/export.md``, "A club's season") holds the club,
the season, the roster, the standings, the ledger and every evening of the season as
``tournament.exchange.export.evening_export`` writes it (tournament never imports clubs: this
module calls it), with the evening's kitty and which guest is which member. Money is in whole
cents beside its currency. Private link keys are never exported (``evening_export``'s rule).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from clubs.ledger import SeasonLedger, SettlementSheet, season_ledger
from clubs.models import ClubEvening, ClubGuest, KittyEntry, Member, Season
from clubs.printing import PrintedTable, TablesPdf
from clubs.selectors import SeasonStandings, season_standings
from clubs.versions import season_version
from tables.kitty import money_words
from tournament.exchange.export import evening_export

SCHEMA = "head-table/club-season/1"


def _csv(head: list[str], rows: list[list[Any]]) -> str:
    """``rows`` under ``head`` as CSV text (commas, quoted where needed, CRLF lines as RFC 4180)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(head)
    writer.writerows(rows)
    return out.getvalue()


def _who(name: str, sub: bool) -> str:
    """A person as the sheets write them: their name, "(sub)" after a sub's."""
    return f"{name} (sub)" if sub else name


def standings_csv(s: SeasonStandings) -> str:
    """The season's standings as CSV: place, name, member or sub, nights played, each tally's
    total (the page's columns), then each evening's tallies ("—" where not there)."""
    head = ["Place", "Name", "Member or sub", "Nights played", *(c.capitalize() for c in s.columns)]
    for evening in s.evenings:
        head += [f"{evening.date:%d %b %Y} {c}" for c in s.columns]
    rows = []
    for row in s.rows:
        nights = [str(v) for night in row.nights for v in (night or ("—",) * len(s.columns))]
        kind = "sub" if row.person.sub else "member"
        rows.append([row.line.place, row.person.name, kind, row.line.nights, *row.totals, *nights])
    return _csv(head, rows)


def ledger_csv(ledger: SeasonLedger) -> str:
    """The season's ledger as CSV: one row per person (paid, received, net, in the currency's
    units with two decimals), then one per evening (collected, paid out, carried), then the
    season's totals."""
    cur = ledger.club.currency
    rows: list[list[Any]] = []
    for p in ledger.people:
        rows.append(["person", _who(p.name, p.sub), p.evenings, *(money_words(c) for c in (p.paid, p.received, p.net))])
    for e in ledger.evenings:
        state = "settled" if e.settled else "not settled"
        amounts = (money_words(c) for c in (e.collected, e.paid_out, e.carried))
        rows.append(["evening", f"{e.evening.name} ({e.evening.date:%d %b %Y}, {state})", "", *amounts])
    rows.append(
        [
            "season",
            ledger.season.name,
            "",
            *(money_words(c) for c in (ledger.collected, ledger.paid_out, ledger.carried)),
        ]
    )
    head = [
        "Line",
        "Who or what",
        "Evenings",
        f"Paid or collected ({cur})",
        f"Received or paid out ({cur})",
        f"Net or carried ({cur})",
    ]
    return _csv(head, rows)


def standings_pdf(s: SeasonStandings, paper: str = "A4") -> bytes:
    """The season's standings and prizes as a PDF."""
    table = PrintedTable(
        "Standings",
        ("Place", "Name", "Nights", *(c.capitalize() for c in s.columns)),
        tuple(
            (str(r.line.place), _who(r.person.name, r.person.sub), str(r.line.nights), *map(str, r.totals))
            for r in s.rows
        ),
        2,
        _widths(3 + len(s.columns)),
    )
    prizes = PrintedTable(
        "Season prizes",
        ("Prize", "Won by", "Why"),
        tuple((p.award.title, ", ".join(p.names), p.reason) for p in s.prizes),
        99,
        (0.3, 0.35, 0.35),
    )
    title = f"{s.season.club.name} · {s.season.name}"
    return TablesPdf(
        title="Season standings",
        subtitle=title,
        tables=(table, prizes),
        note=f"Ranked by {s.order_words.lower()}.",
        paper=paper,
    ).render()


def _widths(columns: int) -> tuple[float, ...]:
    """Column shares: the name column wide, the rest even."""
    rest = 0.6 / (columns - 1)
    return (rest, 0.4, *([rest] * (columns - 2)))


def ledger_pdf(ledger: SeasonLedger, paper: str = "A4") -> bytes:
    """The season's ledger as a PDF: per person, per evening, the season's totals."""
    m = ledger.money
    people = PrintedTable(
        "Per member",
        ("Name", "Evenings", "Paid", "Received", "Net"),
        tuple((_who(p.name, p.sub), str(p.evenings), m(p.paid), m(p.received), m(p.net)) for p in ledger.people),
        1,
        (0.4, 0.12, 0.16, 0.16, 0.16),
    )
    evenings = PrintedTable(
        "Per evening",
        ("Evening", "Collected", "Paid out", "Carried"),
        tuple(
            (
                f"{e.evening.name}, {e.evening.date:%d %b %Y}{'' if e.settled else ' (not settled)'}",
                m(e.collected),
                m(e.paid_out),
                m(e.carried),
            )
            for e in ledger.evenings
        ),
        1,
        (0.46, 0.18, 0.18, 0.18),
    )
    note = (
        f"The season: collected {m(ledger.collected)}, paid out {m(ledger.paid_out)}, "
        f"carried to the season pot {m(ledger.carried)}."
    )
    subtitle = f"{ledger.club.name} · {ledger.season.name}"
    return TablesPdf(
        title="Season ledger", subtitle=subtitle, tables=(people, evenings), note=note, paper=paper
    ).render()


def settlement_pdf(sheet: SettlementSheet, paper: str = "A4") -> bytes:
    """The evening's settlement sheet as a PDF: who paid, who receives what, what is carried."""
    m = sheet.money
    people = PrintedTable(
        "Who pays, who receives",
        ("Name", "For", "Pays", "Receives"),
        tuple(
            (_who(x.name, x.sub), x.words, m(x.paid) if x.paid else "", m(x.received) if x.received else "")
            for x in sheet.lines
        ),
        2,
        (0.3, 0.4, 0.15, 0.15),
    )
    carried = PrintedTable(
        "Carried to the season pot", ("What", "Amount"), tuple((w, m(c)) for w, c in sheet.carried_lines), 1, (0.8, 0.2)
    )
    state = "" if sheet.settled else " Not settled yet: this is the sheet as it would be settled now."
    if sheet.problem:
        state += f" It cannot be settled as it is: {sheet.problem}"
    note = f"Collected {m(sheet.collected)}, paid out {m(sheet.paid_out)}, carried {m(sheet.carried)}.{state}"
    subtitle = f"{sheet.club.name} · {sheet.evening.name}, {sheet.evening.date:%d %b %Y}"
    return TablesPdf(title="Settlement", subtitle=subtitle, tables=(people, carried), note=note, paper=paper).render()


def _kitty_fields(link, entries: list[KittyEntry], members: dict[int, int]) -> dict[str, Any]:
    """An evening's kitty as the JSON export writes it."""
    return {
        "fee_cents": link.fee_cents,
        "payouts": link.payouts,
        "settled_at": link.settled_at.isoformat() if link.settled_at else None,
        "entries": [
            {
                "guest": e.guest_id,
                "member": e.member_id,
                "name": e.name,
                "kind": e.kind,
                "words": e.words,
                "cents": e.cents,
                "paid_in": e.paid_in,
            }
            for e in entries
        ],
        "members": {str(g): m for g, m in members.items()},
    }


def _season_lines(season: Season, standings: SeasonStandings, ledger: SeasonLedger) -> dict[str, Any]:
    """The roster, the standings, the season's prizes and the ledger, as the JSON export writes them."""
    return {
        "members": [
            {
                "id": m.pk,
                "name": m.name,
                "pack": m.pack,
                "contact": m.contact,
                "left_on": m.left_on.isoformat() if m.left_on else None,
            }
            for m in Member.objects.filter(club_id=season.club_id)
        ],
        "standings": [
            {
                "place": r.line.place,
                "name": r.person.name,
                "sub": r.person.sub,
                "nights": r.line.nights,
                "totals": dict(r.line.totals),
            }
            for r in standings.rows
        ],
        "prizes": [
            {"key": p.award.key, "title": p.award.title, "winners": list(p.names), "figure": p.award.figure}
            for p in standings.prizes
        ],
        "ledger": {
            "collected_cents": ledger.collected,
            "paid_out_cents": ledger.paid_out,
            "carried_cents": ledger.carried,
            "people": [
                {
                    "name": p.name,
                    "sub": p.sub,
                    "evenings": p.evenings,
                    "paid_cents": p.paid,
                    "received_cents": p.received,
                }
                for p in ledger.people
            ],
        },
    }


def season_json(season: Season) -> dict[str, Any]:
    """The season as a JSON-able dict (schema ``SCHEMA``, module docstring)."""
    club = season.club
    version = season_version(season)
    standings = season_standings(season, version)
    ledger = season_ledger(season, version)
    evenings = list(standings.evenings)
    links = {link.evening_id: link for link in ClubEvening.objects.filter(evening__in=evenings)}
    entries: dict[int, list[KittyEntry]] = {}
    for entry in KittyEntry.objects.filter(club_evening__evening__in=evenings):
        entries.setdefault(entry.club_evening_id, []).append(entry)
    members: dict[int, dict[int, int]] = {}
    for guest, evening, member in ClubGuest.objects.filter(
        guest__evening__in=evenings, member__isnull=False
    ).values_list("guest_id", "guest__evening_id", "member_id"):
        members.setdefault(evening, {})[guest] = member
    return {
        "schema": SCHEMA,
        "club": {"name": club.name, "format": club.format, "currency": club.currency},
        "season": {
            "name": season.name,
            "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat() if season.ends_on else None,
            "dues_cents": season.dues_cents,
        },
        **_season_lines(season, standings, ledger),
        "evenings": [
            {
                "kitty": _kitty_fields(links[e.pk], entries.get(links[e.pk].pk, []), members.get(e.pk, {})),
                "calendar": {
                    "starts_at": links[e.pk].starts_at.strftime("%H:%M"),
                    "place": links[e.pk].place,
                    "host_member": links[e.pk].host_member_id,
                },
                "evening": evening_export(e),
            }
            for e in evenings
        ],
    }
