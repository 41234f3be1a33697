"""A club's kitty (issue 25 item 3): an evening's fee and payouts, its settlement saved once, the
season's dues and ledger; bad input refused in words with nothing changed; the sheet and the
ledger read in constant queries (2 and 6 evenings)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs import kitty, services
from clubs.ledger import season_ledger, settlement_sheet
from clubs.models import KittyEntry
from tables.errors import RuleError
from tables.kitty import Payout
from tests.db_snapshot import db_snapshot as snapshot
from tests.fixtures_clubs import bunco_club, club_evening, play
from tournament.registry import installed_formats

D = datetime.date
PAYOUTS = "Most buncos, 40 %\nMost wins, 30 %\nThe last bunco, 10.00\nBooby, 10 %"


def _kitty(evening, fee=500, text=PAYOUTS):
    prizes = kitty.format_for(evening).kitty_prizes(evening)
    return kitty.kitty_set(evening=evening, fee=fee, payouts=kitty.parse_payouts(text, prizes))


@pytest.fixture
def night(db, host):
    """A Bunco club's evening of its twelve members played to its end (three rounds, the
    format's example results)."""
    club = bunco_club(host)
    return club, play(club_evening(club, host, D(2026, 3, 5)), host, rounds=3)


def _by_hand(evening) -> tuple[dict[str, int], int]:
    """What each guest receives by the kitty's rules worked out apart from ``tables.kitty``: 12 x
    5.00 = 60.00; most buncos 40 % = 24.00 and most wins 30 % = 18.00, each halved between the
    two packs' prizes (12.00, 9.00; whole to one pack's when the other's is not awarded) and
    split between the tied; the last bunco 10.00 split between those who rolled it; the booby
    10 % = 6.00. Returns (name -> cents, remainder)."""
    got: dict[str, int] = {}
    remainder = 0
    for key, cents in (("most_buncos", 2400), ("most_wins", 1800), ("last_bunco", 1000), ("booby", 600)):
        mine, rest = _split_by_hand(evening, key, cents)
        remainder += rest
        for name, each in mine.items():
            got[name] = got.get(name, 0) + each
    return got, remainder


def test_an_evening_settled_by_hand(night):
    club, evening = night
    _kitty(evening)
    received, remainder = _by_hand(evening)
    sheet = kitty.evening_settle(evening=evening)
    paid_out = sum(received.values())
    assert paid_out + remainder + 200 == 6000 - 0  # the rest of the pot: 60 - 58 = 2.00
    assert (sheet.pot, sheet.collected, sheet.paid_out, sheet.carried) == (6000, 6000, paid_out, 200 + remainder)
    page = settlement_sheet(evening)
    assert {line.name: line.received for line in page.lines if line.received} == received
    assert all(line.paid == 500 for line in page.lines) and len(page.lines) == 12
    assert page.settled and (page.collected, page.paid_out, page.carried) == (6000, paid_out, 200 + remainder)
    assert page.carried_lines[-1] == ("the rest of the pot, to the season pot", 200)
    assert sum(c for _, c in page.carried_lines) == 200 + remainder
    shared = [p for p in kitty.format_for(evening).standings(evening).prizes if len(p.winners) > 1]
    for prize in shared:
        line = next(x for x in page.lines if x.name == prize.winners[0].name)
        assert f"shared by {len(prize.winners)}" in line.words


def _split_by_hand(evening, key: str, cents: int) -> tuple[dict[str, int], int]:
    """``cents`` for the prize ``key`` split by hand: shared equally between its prizes won (one
    per pack), each share split between its tied winners; not awarded: all of it the remainder's
    to carry, returned as (name -> cents, remainder)."""
    won = [
        p
        for p in kitty.format_for(evening).standings(evening).prizes
        if (p.prize.key == key or p.prize.key.startswith(key + "_")) and p.winners
    ]
    if not won:
        return {}, cents
    each_prize, remainder = divmod(cents, len(won))
    got: dict[str, int] = {}
    for prize in won:
        each, rest = divmod(each_prize, len(prize.winners))
        remainder += rest
        for guest in prize.winners:
            got[guest.name] = got.get(guest.name, 0) + each
    return got, remainder


def test_a_split_with_a_remainder_is_carried_and_stated(db, host):
    # Most buncos pays 10.01, halved between the red and the blue pack's prizes: 5.00 each and
    # 0.01 left, which goes to the season pot and the sheet says so.
    club = bunco_club(host)
    for day in range(1, 21):
        evening = play(club_evening(club, host, D(2026, 3, day)), host, rounds=3)
        got, remainder = _split_by_hand(evening, "most_buncos", 1001)
        if got and remainder:
            break
    else:
        raise AssertionError("no evening left a remainder: the test proved nothing")
    kitty.kitty_set(evening=evening, fee=500, payouts=(Payout("most_buncos", "Most buncos", cents=1001),))
    sheet = settlement_sheet(evening)
    assert not sheet.settled and sheet.problem == ""
    words = f"Most buncos: USD 0.{remainder:02d} left by the split"
    assert (words, remainder) in sheet.carried_lines
    kitty.evening_settle(evening=evening)
    settled = settlement_sheet(evening)
    assert {line.name: line.received for line in settled.lines if line.received} == got
    assert settled.carried == 6000 - 1001 + remainder


def test_settled_once_and_the_kitty_then_stays(night):
    club, evening = night
    _kitty(evening)
    kitty.evening_settle(evening=evening)
    before = snapshot()
    with pytest.raises(RuleError, match="settled already"):
        kitty.evening_settle(evening=evening)
    with pytest.raises(RuleError, match="settled already"):
        _kitty(evening, fee=100)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("fee", "text", "words"),
    [
        (-100, "", "The entry fee cannot be negative"),
        (500, "Most buncos, 60 %\nMost wins, 50 %", "The shares add up to 110 % of the pot"),
        (500, "Most buncos, 50.00\nMost wins, 20.00", "The payouts add up to 70.00, more than the pot of 60.00"),
    ],
)
def test_bad_kitties_are_refused_and_nothing_changes(night, fee, text, words):
    club, evening = night
    before = snapshot()
    with pytest.raises(RuleError, match=words):
        _kitty(evening, fee=fee, text=text)
    assert snapshot() == before


def test_bad_payout_lines_are_named(night):
    club, evening = night
    prizes = kitty.format_for(evening).kitty_prizes(evening)
    with pytest.raises(RuleError) as error:
        kitty.parse_payouts("Most buncos, -5\nThe raffle, 10 %\nBooby, 120 %", prizes)
    words = str(error.value)
    assert "Line 1: the amount cannot be negative (got -5)." in words
    assert "Line 2: “The raffle” is not one of tonight's prizes" in words
    assert "Line 3: the share is 120 % of the pot: a share is 100 % at most." in words


def test_an_evening_not_ended_is_not_settled(db, host):
    club = bunco_club(host)
    evening = play(club_evening(club, host, D(2026, 3, 5)), host, rounds=1)
    before = snapshot()
    with pytest.raises(RuleError, match="has not ended"):
        kitty.evening_settle(evening=evening)
    assert snapshot() == before


def test_season_dues_once_per_member_and_the_ledger(db, host):
    club = bunco_club(host)
    season = services.season_open(club=club, name="Spring", starts_on=D(2026, 3, 1))
    kitty.season_dues_set(season=season, dues=2000)
    members = list(club.members.all())
    first = play(club_evening(club, host, D(2026, 3, 5)), host, rounds=3)
    second = play(
        club_evening(club, host, D(2026, 4, 2), members=members[:8], subs="Sub One, red\nSub Two, blue"), host, rounds=3
    )
    for evening in (first, second):
        kitty.kitty_set(evening=evening, fee=500, payouts=(Payout("booby", "Booby prize: most losses", share=5000),))
        kitty.evening_settle(evening=evening)
    assert KittyEntry.objects.filter(kind="dues").count() == 12  # the first evening: each member once
    ledger = season_ledger(season)
    # Collected: 12 x (5 + 20) + 10 x 5 = 350.00; paid out: the booby's half of each pot, 30 + 25.
    assert (ledger.collected, ledger.paid_out, ledger.carried) == (35000, 5500, 29500)
    by_name = {p.name: p for p in ledger.people}
    assert (by_name["Member A"].paid, by_name["Member A"].evenings) == (3000, 2)
    assert (by_name["Sub One"].sub, by_name["Sub One"].paid) == (True, 500)
    assert sum(p.paid for p in ledger.people) == ledger.collected
    assert sum(p.received for p in ledger.people) == ledger.paid_out
    before = snapshot()
    with pytest.raises(RuleError, match="is settled: its dues stay"):
        kitty.season_dues_set(season=season, dues=100)
    with pytest.raises(RuleError, match="its currency stays"):
        kitty.club_money_set(club=club, currency="EUR")
    with pytest.raises(RuleError, match="is not a currency"):
        kitty.club_money_set(club=club, currency="E1")
    assert snapshot() == before


def _season_of(host, evenings: int):
    club = bunco_club(host, name=f"Club of {evenings}")
    season = services.season_open(club=club, name="Year", starts_on=D(2026, 1, 1))
    for day in range(evenings):
        evening = play(club_evening(club, host, D(2026, 1, 1) + datetime.timedelta(days=7 * day)), host, rounds=3)
        kitty.kitty_set(evening=evening, fee=300, payouts=(Payout("booby", "Booby", cents=500),))
        kitty.evening_settle(evening=evening)
    return season, evening


def _queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


def test_the_ledger_and_a_settled_sheet_read_in_constant_queries(db, host):
    small, small_evening = _season_of(host, 2)
    large, large_evening = _season_of(host, 6)
    small.refresh_from_db()
    large.refresh_from_db()
    counts = [_queries(lambda s=s: season_ledger(s)) for s in (small, large)]
    assert counts[0] == counts[1] <= 4, counts  # the season and club, its version, its evenings, their entries
    again = [_queries(lambda s=s: season_ledger(s)) for s in (small, large)]
    assert again[0] == again[1] == 2, again  # unchanged: the season and club, its version (the ledger kept)
    sheets = [_queries(lambda e=e: settlement_sheet(e)) for e in (small_evening, large_evening)]
    assert sheets[0] == sheets[1] <= 2, sheets
    assert len(season_ledger(large).evenings) == 6 and season_ledger(large).collected == 6 * 12 * 300


def test_a_poker_evening_with_a_money_value_settles_the_tables_through_the_kitty(db, host):
    # Progressive Poker with a counter worth 0.05: each guest pays or receives counters won
    # (fresh stakes charged, ``tables.prizes.standings``) times 0.05, beside the fee and prizes.
    from decimal import Decimal

    from tournament.models import Evening
    from tournament.services.prizes import evening_standings

    club = bunco_club(host, name="Poker club", format="poker")
    evening = club_evening(club, host, D(2026, 3, 5))
    Evening.objects.filter(pk=evening.pk).update(counter_value=Decimal("0.05"))
    evening = play(Evening.objects.get(pk=evening.pk), host, rounds=3)
    won = {line.guest.name: line.row.counters_won * 5 for line in evening_standings(evening).lines}
    assert any(won.values()), "the example evening moved no counter: the test proves nothing"
    kitty.kitty_set(evening=evening, fee=200, payouts=(Payout("head_table", "Most yellow counters", share=5000),))
    sheet = kitty.evening_settle(evening=evening)
    page = settlement_sheet(evening)
    head = next(p for p in kitty.format_for(evening).standings(evening).prizes if p.prize.key == "head_table")
    for line in page.lines:
        prize = 1200 if line.name in {g.name for g in head.winners} and len(head.winners) == 1 else None
        table = won[line.name]
        assert line.paid == 200 + max(-table, 0), line
        if prize is not None:
            assert line.received == prize + max(table, 0), line
    words = " ".join(line.words for line in page.lines)
    assert "counters won, fresh stakes charged" in words and "counters lost, fresh stakes charged" in words
    lost = sum(-c for c in won.values() if c < 0)
    assert sheet.collected == 12 * 200 + lost
    assert sheet.paid_out + sheet.carried == sheet.collected


def test_the_ledger_and_settlement_pages_read_in_constant_queries(db, host, client):
    from django.urls import reverse

    client.force_login(host)
    pages = []
    for evenings in (2, 6):
        season, evening = _season_of(host, evenings)
        club = season.club_id
        pages.append(
            (
                _queries(lambda s=season, c=club: client.get(reverse("club-ledger", args=[c, s.pk]))),
                _queries(lambda e=evening, c=club: client.get(reverse("club-kitty", args=[c, e.pk]))),
                _queries(lambda s=season, c=club: client.get(reverse("club-ledger-csv", args=[c, s.pk]))),
            )
        )
    assert pages[0] == pages[1], pages


@pytest.mark.parametrize("key", sorted(installed_formats()))
def test_every_format_says_its_prizes_and_its_money_at_the_tables(db, key):
    from tests.factories import EveningFactory

    evening = EveningFactory(format=key)
    prizes = kitty.format_for(evening).kitty_prizes(evening)
    assert prizes and all(k and title for k, title in prizes), prizes
    assert kitty.format_for(evening).table_money(evening) == {}  # nothing played, no money value
