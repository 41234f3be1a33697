"""A Euchre tournament evening through the site (``docs/rules/euchre-tournament.md``): nine
players over three games, one sitting out each game, worked by hand from the schedule.

The draw numbers the players at random, so each test reads the numbers the draw gave (every
player's ``number`` tally) and works the expected seats and totals from the schedule for nine
players (E. H. Moore's whist tournament: ``tables.formats.euchre_tournament.schedule``) and the
reports sent: at every table North–South score 7 and East–West 3 in game 1, North–South 2 and
East–West 6 in game 2, and 5 all, played off by North–South, in game 3.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tables.formats.euchre_tournament.schedule import rotation_schedule
from tests.factories import EveningFactory, GuestFactory
from tournament.formats.partnership.reports import foursome_report
from tournament.models import Evening, Guest
from tournament.registry import format_for
from tournament.services.clock import round_ring, round_start, rounds_planned_refused
from tournament.services.draws import draw_digital

pytestmark = pytest.mark.django_db

REPORTS = (
    {"points": {"NS": 7, "EW": 3}},
    {"points": {"NS": 2, "EW": 6}},
    {"points": {"NS": 5, "EW": 5}, "playoff": "NS"},
)
SIT_OUT = 6


def _tournament(host, games: int = 3) -> Evening:
    evening = EveningFactory(host=host, format="euchre_tournament", rounds_planned=games, round_end="clock")
    for letter in "ABCDEFGHI":
        GuestFactory(evening=evening, name=f"Player {letter}", pack="red" if letter in "ACEGI" else "blue")
    draw_digital(evening=evening, user=host)
    return evening


def _numbers(evening: Evening) -> dict[int, int]:
    """Schedule number -> guest id, as the draw gave them."""
    state = format_for(evening).state(evening)
    return {tallies["number"] - 1: guest for guest, tallies in state.tallies.items() if tallies.get("number")}


def _play(evening: Evening, host, game: int) -> None:
    rnd = round_start(evening=evening, user=host)
    for table in range(1, len(format_for(evening).state(evening).tables) + 1):
        foursome_report(round=rnd, table=table, report=REPORTS[game - 1], user=host)
    evening.refresh_from_db()
    round_ring(evening=evening, user=host)
    evening.refresh_from_db()


def test_the_draw_seats_game_1_by_the_schedule_and_one_sits_out(host):
    evening = _tournament(host)
    schedule, holder = rotation_schedule(9, 3), _numbers(evening)
    assert sorted(holder) == list(range(9))
    state = format_for(evening).state(evening)
    assert state.tables == tuple(tuple(holder[p] for p in table) for table in schedule.games[0].tables)
    assert len(state.tables) == 2 and len(schedule.games[0].sitting_out) == 1


def test_three_games_seat_and_score_as_the_schedule_and_the_reports_say(host):
    evening = _tournament(host)
    schedule, holder = rotation_schedule(9, 3), _numbers(evening)
    points = dict.fromkeys(range(9), 0)
    wins = dict.fromkeys(range(9), 0)
    for game in (1, 2, 3):
        state = format_for(evening).state(evening)
        assert state.tables == tuple(tuple(holder[p] for p in t) for t in schedule.games[game - 1].tables)
        north_south, east_west = {1: (7, 3), 2: (2, 6), 3: (5, 5)}[game]
        for table in schedule.games[game - 1].tables:
            for seat, player in enumerate(table):
                points[player] += north_south if seat % 2 == 0 else east_west
                ns_win = north_south > east_west or game == 3  # game 3: the play-off to North–South
                wins[player] += (seat % 2 == 0) == ns_win
        for player in schedule.games[game - 1].sitting_out:
            points[player] += SIT_OUT
        _play(evening, host, game)
    assert evening.stage == Evening.Stage.ENDED
    state = format_for(evening).state(evening)
    assert {p: state.tallies[holder[p]]["points"] for p in range(9)} == points
    assert {p: state.tallies[holder[p]].get("wins", 0) for p in range(9)} == wins
    assert sum(state.tallies[holder[p]].get("sat_out", 0) for p in range(9)) == 3  # one each game
    prizes = {p.prize.key: p.prize for p in format_for(evening).standings(evening).prizes}
    best = max(points.values())
    assert points[next(n for n, g in holder.items() if g == prizes["highest_total"].winners[0])] == best
    worst = min(points.values())
    assert points[next(n for n, g in holder.items() if g == prizes["booby"].winners[0])] == worst


def test_the_number_of_games_is_fixed_once_the_schedule_is_drawn(host):
    evening = _tournament(host)
    assert "fixed once the schedule is drawn" in rounds_planned_refused(evening, 5)
    assert rounds_planned_refused(evening, 3) is None


def test_too_many_games_for_the_players_is_refused_at_the_draw(host):
    evening = EveningFactory(host=host, format="euchre_tournament", rounds_planned=12)
    for i in range(9):
        GuestFactory(evening=evening, name=f"Player {i}")
    with pytest.raises(RuleError, match="9 players can play 1 to 9 games"):
        draw_digital(evening=evening, user=host)
    assert not evening.draws.exists()


def test_a_leavers_schedule_is_played_by_a_ghost_and_nobody_joins(host):
    evening = _tournament(host)
    schedule, holder = rotation_schedule(9, 3), _numbers(evening)
    _play(evening, host, 1)
    fmt = format_for(evening)
    seated = next(p for p in range(9) if p not in schedule.games[1].sitting_out)
    leaver = Guest.objects.get(pk=holder[seated])
    fmt.seat_change(evening=evening, guest=leaver, leaving=True, user=host, device="")
    Guest.objects.filter(pk=leaver.pk).update(status=Guest.Status.LEFT)
    _play(evening, host, 2)
    state = fmt.state(evening)
    ghost = next(p for t in state.tables for p in t if p < 0) if any(p < 0 for t in state.tables for p in t) else None
    game3 = schedule.games[2]
    if seated in game3.sitting_out:
        assert leaver.pk not in {p for t in state.tables for p in t}
    else:
        table, seat = next((n, t.index(seated)) for n, t in enumerate(game3.tables) if seated in t)
        assert state.tables[table][seat] == ghost and leaver.pk not in {p for t in state.tables for p in t}
    late = GuestFactory(evening=evening, name="Late Player", status=Guest.Status.REGISTERED)
    with pytest.raises(RuleError, match="Late Player cannot join"):
        fmt.seat_change(evening=evening, guest=late, leaving=False, user=host, device="")


def test_a_guest_who_leaves_while_sitting_out_hands_their_schedule_to_a_ghost(host, client):
    """The host marks a sit-out as left from the guests list: a ghost takes their number, plays
    their next games, and the leaver keeps their points and sits nowhere again."""
    evening = _tournament(host)
    schedule, holder = rotation_schedule(9, 3), _numbers(evening)
    _play(evening, host, 1)
    number = schedule.games[1].sitting_out[0]  # sits game 2 out, plays game 3
    leaver = Guest.objects.get(pk=holder[number])
    points = format_for(evening).state(evening).tallies[leaver.pk]["points"]
    client.force_login(host)
    page = client.post(reverse("host-guest-status", args=[evening.pk, leaver.pk]), {"action": "left"}, follow=True)
    assert "a ghost plays the rest of their schedule" in page.content.decode()
    assert Guest.objects.get(pk=leaver.pk).status == Guest.Status.LEFT
    _play(evening, host, 2)
    state = format_for(evening).state(evening)
    table, seat = next((n, t.index(number)) for n, t in enumerate(schedule.games[2].tables) if number in t)
    assert state.tables[table][seat] < 0  # a ghost plays game 3 in the leaver's place
    assert leaver.pk not in {p for t in state.tables for p in t}
    assert state.tallies[leaver.pk]["points"] == points


def test_a_list_of_names_alone_registers_the_players(host):
    """Everyone enters alone: the packs take no part, so a pasted list needs no pack column
    (at Progressive Poker the same list is refused, naming the columns)."""
    from tournament.services.guests import GuestListError, parse_guest_list

    evening = EveningFactory(host=host, format="euchre_tournament", rounds_planned=3)
    rows = parse_guest_list("Ann Archer\nBob Baker\nCy Cole\n", evening=evening)
    assert [(r.name, r.pack) for r in rows] == [("Ann Archer", "red"), ("Bob Baker", "blue"), ("Cy Cole", "red")]
    poker = EveningFactory(host=host, format="poker")
    with pytest.raises(GuestListError, match="expected 2 or 3 columns"):
        parse_guest_list("Ann Archer\nBob Baker\n", evening=poker)


def test_its_tables_have_numbers_only(host, client):
    """No table is the head or the foot table: the board, the phones and the room name tables by
    number (the schedule seats every game; Progressive Euchre's board still has both)."""
    evening = _tournament(host)
    _play(evening, host, 1)  # the board then lists the bell's result at every table
    client.force_login(host)
    board = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    guest = Guest.objects.get(pk=format_for(evening).state(evening).tables[0][0])
    phone = client.get(reverse("guest-page", args=[guest.key])).content.decode()
    room = client.get(reverse("room", args=[evening.public_key])).content.decode()
    for page in (board, phone, room):
        assert "Head table" not in page and "head table ·" not in page.casefold()
        assert "Foot table" not in page and "The foot table" not in page


def test_the_printed_results_name_no_pack(host):
    """Everyone enters alone: the results print no pack beside a name (Bunco's still do)."""
    from tournament.formats.partnership.documents import tally_outcome

    evening = _tournament(host)
    _play(evening, host, 1)
    _, rows, _, _ = tally_outcome(evening)
    assert rows and all(row.pack_label == "" for row in rows)
    # and the printed page has no empty Pack column (found by trying the product)
    from tests.pdf_reading import pdf_text
    from tournament.documents.contents import document

    text = pdf_text(document(evening=evening, slug="results").render())
    assert "Place" in text and "Pack" not in text


def test_a_new_tournament_ends_each_game_when_every_table_has_reported(client, host):
    """The create form's blank round end ("as the format plays it") is saved as the rules say:
    a game ends when every table has reported (``docs/rules/euchre-tournament.md``, "A game"),
    so with every table in the bell rings by itself, whichever table reports last, and not
    before."""
    from tournament.models import Bell

    client.force_login(host)
    page = client.get(reverse("host-evenings")).content.decode()
    assert "Euchre tournament: when every table has reported" in page
    base = {"name": "Cards", "date": "2026-11-30", "minutes_per_round": "20", "red_label": "R", "blue_label": "B"}
    response = client.post(
        reverse("host-evenings"), {**base, "format": "euchre_tournament", "round_end": "", "rounds_planned": "3"}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    evening = Evening.objects.get(name="Cards")
    assert evening.round_end == Evening.RoundEnd.HEAD_POOL
    for letter in "ABCDEFGHI":
        GuestFactory(evening=evening, name=f"Player {letter}", pack="red")
    draw_digital(evening=evening, user=host)
    rnd = round_start(evening=evening, user=host)
    board = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "The last table's report rings the bell" in board.replace("&#x27;", "'")
    assert "The head table's report rings" not in board.replace("&#x27;", "'")
    foursome_report(round=rnd, table=1, report=REPORTS[0], user=host)
    rnd.refresh_from_db()
    assert rnd.state == "running" and not Bell.objects.filter(round=rnd).exists()  # table 1 rings nothing alone
    foursome_report(round=rnd, table=2, report=REPORTS[0], user=host)
    assert Bell.objects.filter(round=rnd, kind="bell", undone_at__isnull=True).exists()


def test_a_late_guest_after_game_1_is_told_they_cannot_play_and_not_offered_a_seat(client, host):
    evening = _tournament(host)
    _play(evening, host, 1)
    client.force_login(host)
    url = reverse("host-guests", args=[evening.pk])
    page = client.post(url, {"one-name": "Dee Late", "one-pack": "red", "one-check_in": "on"}, follow=True)
    text = page.content.decode().replace("&#x27;", "'")
    assert "Dee Late is registered and checked in. They cannot play tonight" in text
    assert "Seat now" not in text and "Here but not seated" not in text
    board = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "Checked in but not seated" not in board


def test_a_player_who_left_after_game_1_takes_no_booby_prize(host):
    """Abe left after game 1 with 3 points (East–West lost 7–3); everyone else plays three
    games. The booby prize goes to the lowest total of those who stayed (house rule)."""
    evening = _tournament(host)
    _play(evening, host, 1)
    state = format_for(evening).state(evening)
    abe = Guest.objects.get(pk=state.tables[0][1])  # East at table 1: 3 points
    format_for(evening).seat_change(evening=evening, guest=abe, leaving=True, user=host, device="")
    _play(evening, host, 2)
    _play(evening, host, 3)
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED
    standings = format_for(evening).standings(evening)
    booby = next(p for p in standings.prizes if p.prize.key == "booby")
    assert booby.winners and abe not in booby.winners
    assert any(line.guest == abe for line in standings.lines)  # he keeps his place
