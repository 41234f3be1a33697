"""The Euchre tournament's pages for a player who sits a game out (docs/rules/euchre-tournament.md,
"On this site"): 13 players at 3 tables, one out each game."""

from __future__ import annotations

import re

from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tournament.models import Evening, Guest
from tournament.registry import format_for
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital


def _drawn_13(host) -> Evening:
    evening = EveningFactory(host=host, format="euchre_tournament", rounds_planned=4)
    for i in range(13):
        GuestFactory(evening=evening, name=f"Player {chr(65 + i)}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    return evening


def _sitting_out(evening: Evening) -> Guest:
    state = format_for(evening).state(evening)
    seated = {p for table in state.tables for p in table}
    (out,) = [p for p in state.tallies if p not in seated]
    return Guest.objects.get(pk=out)


def test_the_sit_outs_phone_says_so_once_in_place_of_not_seated_yet(db, host, client):
    evening = _drawn_13(host)
    guest = _sitting_out(evening)
    url = reverse("guest-page", args=[guest.key])
    page = client.get(url).content.decode()
    assert page.count("You sit out this game") == 1
    assert "Not seated yet" not in page
    # the poll's part replaces #guest-live: the words are inside it, so a poll never adds a copy
    part = client.get(url, HTTP_HX_REQUEST="true").content.decode().strip()
    assert re.match(r'<div id="guest-live"', part) and part.count("You sit out this game") == 1


def test_a_seated_players_phone_says_nothing_of_sitting_out(db, host, client):
    evening = _drawn_13(host)
    out = _sitting_out(evening)
    guest = evening.guests.exclude(pk=out.pk).first()
    page = client.get(reverse("guest-page", args=[guest.key])).content.decode()
    assert "You sit out" not in page and "Go to" in page


def test_the_hosts_board_says_who_sits_out_and_that_a_late_guest_cannot_join(db, host, client):
    evening = _drawn_13(host)
    round_start(evening=evening, user=host)
    out = _sitting_out(evening)
    GuestFactory(evening=evening, name="Late Comer")
    client.force_login(host)
    page = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert f"Sitting out this round by the schedule: <bdi>{out.name}</bdi>." in page
    # nothing the host can do seats them, so the board does not ask (they were told on adding them)
    assert "Checked in but not seated" not in page and "Late Comer" not in page
    assert "in a ghost's place" not in page


def test_the_guests_list_offers_no_seat_to_the_sit_out_and_says_a_late_guest_cannot_join(db, host, client):
    evening = _drawn_13(host)
    round_start(evening=evening, user=host)
    out = _sitting_out(evening)
    late = GuestFactory(evening=evening, name="Late Comer")
    client.force_login(host)
    page = client.get(reverse("host-guests", args=[evening.pk])).content.decode()
    row = re.search(rf'<tr id="guest-{out.pk}".*?</tr>', page, re.S).group(0)
    assert "Seat now" not in row and "Sits this round out (the schedule)" in row
    late_row = re.search(rf'<tr id="guest-{late.pk}".*?</tr>', page, re.S).group(0)
    assert "Seat now" not in late_row and "Here but not seated" not in page
    assert "press <strong>Seat now</strong>" not in page


def _before_the_draw(host, players: int, games: int) -> Evening:
    evening = EveningFactory(host=host, format="euchre_tournament", rounds_planned=games)
    for i in range(players):
        GuestFactory(evening=evening, name=f"Player {chr(65 + i)}")
    return evening


def test_the_draw_page_says_13_players_make_3_tables_and_1_sits_out_no_ghost(db, host, client):
    client.force_login(host)
    page = client.get(reverse("host-draw", args=[_before_the_draw(host, 13, 4).pk])).content.decode()
    assert "13 guests here make 3 tables of four; 1 sits out each round, in turn by the schedule." in page
    assert "ghost" not in page


def test_the_draw_page_says_why_the_planned_games_cannot_be_scheduled(db, host, client):
    client.force_login(host)
    page = client.get(reverse("host-draw", args=[_before_the_draw(host, 12, 14).pk])).content.decode()
    assert "12 guests here: 12 players can play 1 to 11 games" in page
    assert "make 3 tables" not in page


def test_the_settings_of_a_euchre_tournament_offer_none_of_the_ladders_options(db, host, client):
    """The schedule seats every game: no movement, partners or prizes by stars to choose."""
    evening = _before_the_draw(host, 13, 4)
    client.force_login(host)
    page = client.get(reverse("host-evening-edit", args=[evening.pk])).content.decode()
    for words in ("Movement at the bell", "Partners are kept", "instead of stars", "Drive Whist and Bunco only"):
        assert words not in page
    # a new evening's form still offers them, for the formats that ask them
    assert "Movement at the bell" in client.get(reverse("host-evenings")).content.decode()


def test_the_moves_after_a_bell_say_the_schedule_seats_the_next_game_not_the_ladder(db, host, client):
    from tests.test_capabilities import _play

    evening = _drawn_13(host)
    first_out = _sitting_out(evening)
    _play(evening, host)
    next_out = _sitting_out(evening)
    table = format_for(evening).table_of(evening, first_out.pk)
    client.force_login(host)
    page = client.get(reverse("host-moves", args=[evening.pk])).content.decode()
    assert f"sat the game out and plays at table {table} next, by the schedule." in page
    assert page.count("next, by the schedule.") == 12  # every player at the 3 tables of game 2
    for ladder in ("moves up", "moves down", "stays at", "the foot table, table"):
        assert ladder not in page
    # the phone of a player at a table says the same to them
    seated = evening.guests.exclude(pk__in=[first_out.pk, next_out.pk]).first()
    phone = client.get(reverse("guest-page", args=[seated.key])).content.decode()
    assert "next, by the schedule." in phone and "move up" not in phone


def test_a_score_card_printed_after_game_1_has_game_1s_points_in_its_box_and_the_total(db, host):
    """The card's boxes for the games played hold their points (a sit-out's 6), as the total does."""
    from tests.test_capabilities import _play
    from tournament.formats.euchre_tournament.documents import score_cards

    evening = _drawn_13(host)
    out = _sitting_out(evening)
    _play(evening, host)
    cards = {card.name: card for card in score_cards(evening=evening).cards}
    tallies = format_for(evening).state(evening).tallies
    for guest in evening.guests.all():
        card = cards[guest.name]
        game_1 = card.rows[0]
        assert game_1[4] == str(tallies[guest.pk]["points"]) == card.totals[4]
        assert all(row[4] == "" for row in card.rows[1:])  # games not played yet: blank
    assert cards[out.name].rows[0][1:5] == ("sits out", "", "", "6")


def test_a_change_of_the_games_is_refused_and_a_draw_again_offered_only_before_game_1(db, host):
    evening = _drawn_13(host)
    fmt = format_for(evening)
    before = fmt.rounds_change_refused(evening, 6)
    assert before.endswith("Nothing was saved. To play another number of games, draw again before game 1.")
    round_start(evening=evening, user=host)
    assert fmt.rounds_change_refused(evening, 6) == (
        "The number of games is fixed once the schedule is drawn: this evening plays 4. Nothing was saved."
    )


def test_the_rooms_find_your_name_lists_the_sit_out(db, host, client):
    evening = _drawn_13(host)
    out = _sitting_out(evening)
    page = client.get(reverse("room", args=[evening.public_key])).content.decode()
    assert f'<bdi class="name">{out.name}</bdi> <span class="at out">sits out</span>' in page
    assert page.count('<li class="item seat">') == 13


def test_the_board_of_an_ended_tournament_says_nobody_sits_out(db, host, client):
    """Found by trying the product: "Sitting out this round by the schedule: Bea." stayed on the
    board after the last game."""
    from tests.test_capabilities import _play

    evening = _drawn_13(host)
    _play(evening, host, rounds=4)
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED
    client.force_login(host)
    page = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "Sitting out this round" not in page


def _round_line(page: str) -> str:
    """The page's round line (``<p class="round">``), its clock's time now and seconds left out (they tick)."""
    found = re.search(r'<p class="round">.*?</p>', page, re.S)
    assert found, "no round line on the page"
    return re.sub(r'data-now="[^"]*"|aria-label="\d+ seconds left">[^<]*<', "", found.group(0))


def test_the_sit_outs_phone_shows_the_round_its_clock_and_where_they_play_next(db, host, client):
    """A sit-out's phone shows the round and its clock as every seated guest's does, their tally,
    and the table, seat and partner the schedule gives them next; the bell then seats them there."""
    from tables.formats.euchre_tournament.play import NUMBER
    from tournament.services.clock import round_ring

    evening = _drawn_13(host)
    evening.round_end = Evening.RoundEnd.CLOCK
    evening.save(update_fields=["round_end"])
    round_start(evening=evening, user=host)
    out = _sitting_out(evening)
    seated = evening.guests.exclude(pk=out.pk).first()
    phone = client.get(reverse("guest-page", args=[out.key])).content.decode()
    other = client.get(reverse("guest-page", args=[seated.key])).content.decode()
    assert 'class="clock"' in _round_line(phone) and "Round 1" in _round_line(phone)
    assert _round_line(phone) == _round_line(other)
    assert "Your tally" in phone and "You sit out this game" in phone
    # the schedule read on its own: where the sit-out's number plays game 2
    state = format_for(evening).state(evening)
    place = format_for(evening).rules_of(evening).schedule(13).place(state.tallies[out.pk][NUMBER] - 1, 2)
    found = re.search(r"Next you play game 2 at table (\d+), sitting (\w+); your partner: <bdi>([^<]+)</bdi>\.", phone)
    assert found, phone
    assert (int(found.group(1)), found.group(2)) == (place.table, place.seat.word)
    # the bell seats them where their phone said, with that partner
    fmt, rnd = format_for(evening), evening.rounds.get()
    for number in range(1, len(state.tables) + 1):
        fmt.example_result(evening=evening, rnd=rnd, table=number, user=host)
    evening.refresh_from_db()
    if evening.rounds.get().state != "closed":
        round_ring(evening=evening, user=host)
    after = format_for(evening).state(evening)
    (table,) = [t for t in after.tables if out.pk in t]
    assert after.tables.index(table) + 1 == int(found.group(1))
    partner = table[(table.index(out.pk) + 2) % 4]
    assert Guest.objects.get(pk=partner).name == found.group(3)


def test_the_rules_page_says_the_standings_go_by_points_then_games_won_not_stars(db, client):
    """The tables of four's rules text words the standings' order from the format's own ranks
    (issue 23): the tournament places by points, then games won (``TOURNAMENT.standing``), where
    the page once said Progressive Euchre's "stars, then points"; no prizes by points either; a
    table with no report scores no win, no loss, no points (it said "no star": none are counted)."""
    text = re.sub(r"\s+", " ", client.get(reverse("rules-game", args=["euchre_tournament"])).content.decode())
    assert "Guests are placed by points, then games won;" in text
    assert "placed by stars" not in text and "when the host gives the prizes by points" not in text
    assert "scores anything for the round: no win, no loss, no points." in text  # no star: none are counted
    euchre = re.sub(r"\s+", " ", client.get(reverse("rules-game", args=["euchre"])).content.decode())
    assert (
        "Guests are placed by stars, then points (points, then stars when the host gives the prizes by points);"
        in euchre
    )
