"""The host's pages for the formats at tables of four (Progressive Euchre, Drive Whist, Bunco):
the evening form's format and options, the draw, the result forms, the bell, standings.

Values are worked by hand from ``docs/rules/``.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import EveningFactory
from tournament.formats.partnership.state import foursome_draw
from tournament.models import Evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


def _settings(**changes) -> dict:
    form = {
        "name": "Euchre night",
        "date": "2026-11-30",
        "minutes_per_round": 20,
        "round_end": "head_pool",
        "red_label": "Ladies",
        "blue_label": "Gentlemen",
    }
    return form | changes


def test_a_host_creates_a_euchre_evening_with_its_options_and_no_poker_settings(logged_in, host):
    page = logged_in.get(reverse("host-evenings")).content.decode()
    assert "Progressive Euchre" in page and "Bunco" in page and "Progressive Poker only" in page
    response = logged_in.post(
        reverse("host-evenings"),
        _settings(
            format="euchre",
            movement="ladder_down",
            partners_change="",
            ties="cut",
            prize_ties="shared",
            prize_by_points="on",
        ),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    evening = Evening.objects.get(host=host)
    assert evening.format == "euchre"
    assert evening.options["format"] == {
        "movement": "ladder_down",
        "ties": "cut",
        "prize_ties": "shared",
        "prize_by_points": True,
    }
    assert (evening.counters_per_stake, evening.counter_value) == (50, None)  # untouched defaults
    page = logged_in.get(reverse("host-evening-edit", args=[evening.pk])).content.decode()
    assert "counters_per_stake" not in page and "Progressive Poker only" not in page
    assert "When the head table&#x27;s game is over" in page or "When the head table's game is over" in page
    assert re.search(r'value="ladder_down"[^>]*checked', page)  # radio buttons: the choices are long


def test_a_poker_evening_is_created_as_before_and_needs_its_stake(logged_in, host):
    response = logged_in.post(
        reverse("host-evenings"), _settings(name="Poker", game="draw_poker", counters_per_stake=40)
    )
    assert response.status_code == 302
    evening = Evening.objects.get(host=host)
    assert (evening.format, evening.counters_per_stake, evening.options) == ("poker", 40, {})
    response = logged_in.post(reverse("host-evenings"), _settings(name="Poker 2", format="poker"))
    assert response.status_code == 200
    assert "Give the counters per stake" in response.content.decode()
    assert Evening.objects.filter(host=host).count() == 1


def test_bunco_keeps_the_poker_fields_out_of_its_settings_page_and_saves_its_options(logged_in, host):
    evening = EveningFactory(host=host, format="bunco", counters_per_stake=30)
    response = logged_in.post(
        reverse("host-evening-edit", args=[evening.pk]),
        _settings(name="Bunco club", counters_per_stake=9999, movement="circle", partners_change="keep"),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    evening.refresh_from_db()
    assert (evening.name, evening.format, evening.counters_per_stake) == ("Bunco club", "bunco", 30)
    assert evening.options["format"]["movement"] == "circle"
    assert evening.options["format"]["partners_change"] is False


def test_changing_the_format_after_the_draw_is_refused_and_nothing_is_saved(logged_in, make_evening):
    evening = make_evening(4, 4, format="euchre")
    foursome_draw(evening=evening)
    response = logged_in.post(
        reverse("host-evening-edit", args=[evening.pk]), _settings(name="Changed", format="bunco")
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "The format cannot change after the draw: this evening plays Progressive Euchre." in text
    before = evening.name
    evening.refresh_from_db()
    assert (evening.name, evening.format) == (before, "euchre")
    # The page no longer offers the format once drawn (found by trying the product: it offered
    # it, and saving refused it); sent without it, the other settings save.
    page = logged_in.get(reverse("host-evening-edit", args=[evening.pk])).content.decode()
    assert 'name="format"' not in page  # shown as text with why (tests/test_settings_after_the_draw.py)
    assert "Format: <strong>Progressive Euchre</strong>" in page and "fixed once the guests have drawn" in page
    saved = logged_in.post(reverse("host-evening-edit", args=[evening.pk]), _settings(name="Changed", format=""))
    evening.refresh_from_db()
    assert saved.status_code == 302 and (evening.name, evening.format) == ("Changed", "euchre")


def test_a_format_that_does_not_exist_or_a_movement_that_does_not_exist_is_refused(logged_in, host):
    for bad in ({"format": "canasta"}, {"format": "euchre", "movement": "spiral"}):
        response = logged_in.post(reverse("host-evenings"), _settings(**bad))
        assert response.status_code == 200
        assert "Select a valid choice" in response.content.decode()
    assert not Evening.objects.filter(host=host).exists()


# The draw, the board, the result forms, the bell, standings.

from tournament.formats.partnership.reports import foursome_report  # noqa: E402
from tournament.formats.partnership.state import foursome_state  # noqa: E402
from tournament.models import Bell, Result  # noqa: E402
from tournament.services.clock import round_start  # noqa: E402


def _names(evening) -> dict[int, str]:
    return dict(evening.guests.values_list("id", "name"))


def _drawn(make_evening, fmt: str, red: int = 4, blue: int = 4, **kw):
    evening = make_evening(red, blue, format=fmt, round_end=Evening.RoundEnd.CLOCK, **kw)
    foursome_draw(evening=evening)
    return evening


def test_the_draw_page_deals_the_partnership_draw_or_starts_the_physical_draw(logged_in, make_evening):
    evening = make_evening(5, 5, format="euchre")
    page = logged_in.get(reverse("host-draw", args=[evening.pk])).content.decode()
    assert "10 guests here make 3 tables of four, with 2 ghosts" in page
    assert "Start a physical draw" in page
    response = logged_in.post(reverse("host-draw", args=[evening.pk]), {"action": "physical"}, follow=True)
    text = response.content.decode()
    assert "Record the cards drawn" in text and "3 N" in text  # the seat cards' page
    assert evening.draws.get().complete is False  # nothing seated until it is finished
    pull = logged_in.get(reverse("host-draw-pull", args=[evening.pk])).content.decode()
    assert "1 N" in pull and "3 tables of four" in pull and "head table 4" not in pull
    logged_in.post(reverse("host-draw-physical-action", args=[evening.pk]), {"action": "cancel"})
    response = logged_in.post(reverse("host-draw", args=[evening.pk]), {"action": "digital"}, follow=True)
    text = response.content.decode()
    assert "every guest here has a table and a seat" in text
    assert "Ghost 1" in text and "Ghost 2" in text and "North" in text and "West" in text
    assert [len(t) for t in foursome_state(evening).tables] == [4, 4, 4]


def test_the_board_shows_each_table_by_seat_with_partners_and_its_report(logged_in, make_evening):
    evening = _drawn(make_evening, "euchre")
    round_start(evening=evening)
    state, names = foursome_state(evening), _names(evening)
    page = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    north, east, south, west = (names[p] for p in state.tables[0])
    assert f'{north}</bdi> <span class="seat-word">(North)</span> and <bdi>{south}</bdi>' in page
    assert f'{east}</bdi> <span class="seat-word">(East)</span> and <bdi>{west}</bdi>' in page
    assert "No report yet from 2 of 2 tables" in page
    response = logged_in.post(
        reverse("host-result", args=[evening.pk, 1]), {"round": 1, "points_NS": 7, "points_EW": 5}
    )
    assert response.status_code == 302
    page = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "Report in" in page and "North–South 7, East–West 5 points" in page
    assert "1 of 2 tables in" in page


def _result(client, evening, table: int, **data):
    return client.post(reverse("host-result", args=[evening.pk, table]), {"round": 1, **data})


def test_euchre_hands_one_at_a_time_and_the_play_off_on_a_tie(logged_in, make_evening):
    evening = _drawn(make_evening, "euchre")
    round_start(evening=evening)
    response = _result(logged_in, evening, 1, hands="NS1 EW2 NS4 EW2 NS1")
    assert response.status_code == 302
    report = Result.objects.get(table=1, superseded_at__isnull=True).report
    assert report["hands"] == [["NS", 1], ["EW", 2], ["NS", 4], ["EW", 2], ["NS", 1]]
    response = _result(logged_in, evening, 2, points_NS=5, points_EW=5)
    assert "The points are equal: name the side that won the play-off." in response.content.decode()
    assert not Result.objects.filter(table=2).exists()
    assert _result(logged_in, evening, 2, points_NS=5, points_EW=5, winner="EW").status_code == 302
    assert Result.objects.get(table=2).report["playoff"] == "EW"


def test_refused_reports_say_why_with_names_and_save_nothing(logged_in, make_evening):
    euchre = _drawn(make_evening, "euchre")
    round_start(evening=euchre)
    text = _result(logged_in, euchre, 1, hands="NS1 EW3").content.decode()
    assert "Hand 2 is worth 3: a hand of euchre scores 1, 2 or 4 points." in text
    text = _result(logged_in, euchre, 1, hands="NS one").content.decode()
    assert "is not a side and points" in text
    assert not Result.objects.filter(round__evening=euchre).exists()


def test_whist_takes_thirteen_tricks_and_refuses_fourteen(logged_in, make_evening):
    evening = _drawn(make_evening, "whist")
    round_start(evening=evening)
    text = _result(logged_in, evening, 1, tricks_NS=8, tricks_EW=6).content.decode()
    assert "A hand of whist has 13 tricks; these add up to 14." in text
    assert not Result.objects.filter(round__evening=evening).exists()
    assert _result(logged_in, evening, 1, tricks_NS=8, tricks_EW=5).status_code == 302
    assert Result.objects.get(table=1).report == {"tricks": {"NS": 8, "EW": 5}}


def _bunco(points_ns, points_ew, **seats):
    data = {"points_NS": points_ns, "points_EW": points_ew}
    for seat in range(4):
        data |= {f"buncos_{seat}": 0, f"minis_{seat}": 0, f"rolls_{seat}": ""}
    return data | seats


def test_bunco_points_buncos_and_the_roll_off_and_its_refusals(logged_in, make_evening):
    evening = _drawn(make_evening, "bunco")
    round_start(evening=evening)
    state, names = foursome_state(evening), _names(evening)
    north = state.tables[0][0]
    text = _result(logged_in, evening, 1, **_bunco(21, 9, rolls_0="1 22")).content.decode()
    assert (
        f"{names[north]}&#x27;s rolls: a roll scores 1 or 2 points (dice showing the target), 5 (a mini bunco) or 21 (a bunco), not 22."
        in text
    )
    text = _result(logged_in, evening, 1, **_bunco(10, 9, buncos_0=1)).content.decode()
    assert "North–South have 10 points, fewer than the 21 their buncos and mini buncos alone make." in text
    text = _result(logged_in, evening, 1, **_bunco(12, 12)).content.decode()
    assert "name the side that won the roll-off" in text
    assert not Result.objects.filter(round__evening=evening).exists()
    assert _result(logged_in, evening, 1, **_bunco(26, 9, buncos_0=1, minis_2=1, winner="")).status_code == 302
    report = Result.objects.get(table=1).report
    assert report["buncos"] == {str(north): 1} and report["minis"] == {str(state.tables[0][2]): 1}


def test_a_form_shown_before_the_seats_changed_names_who_moved_and_saves_nothing(logged_in, make_evening):
    evening = _drawn(make_evening, "bunco")
    round_start(evening=evening)
    state, names = foursome_state(evening), _names(evening)
    stranger = state.tables[1][0]
    seated = " ".join(str(p) for p in (stranger, *state.tables[0][1:]))
    text = _result(logged_in, evening, 1, seated=seated, **_bunco(21, 9, buncos_0=1)).content.decode()
    assert f"{names[stranger]} no longer sits here. Nothing was saved" in text
    assert not Result.objects.filter(round__evening=evening).exists()


def test_the_bell_asks_first_when_reports_are_missing_then_rings_and_undo_takes_it_back(logged_in, make_evening):
    evening = _drawn(make_evening, "euchre")
    round_start(evening=evening)
    _result(logged_in, evening, 1, points_NS=7, points_EW=5)
    response = logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "ring", "round": 1})
    assert response.status_code == 302 and response["Location"].endswith("/round/1/bell/")
    page = logged_in.get(response["Location"]).content.decode()
    assert "No report yet from table 2" in page and "a table with no report cuts for the win and scores nothing" in page
    logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "ring", "round": 1, "confirmed": "1"})
    bell = Bell.objects.get(round__evening=evening, undone_at__isnull=True)
    page = logged_in.get(reverse("host-standings", args=[evening.pk])).content.decode()
    assert "Most stars" in page and "Stars" in page
    page = logged_in.get(reverse("host-corrections", args=[evening.pk])).content.decode()
    assert reverse("host-correction", args=[evening.pk, 1, 2]) in page  # its tables can be corrected
    logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "undo", "bell": bell.pk})
    assert not Bell.objects.filter(round__evening=evening, undone_at__isnull=True).exists()


def test_every_host_page_of_a_foursome_evening_answers_without_an_error(logged_in, make_evening):
    evening = _drawn(make_evening, "bunco", 5, 5)
    round_start(evening=evening)
    for name in (
        "host-evening",
        "host-draw",
        "host-draw-seating",
        "host-standings",
        "host-corrections",
        "host-evening-edit",
        "host-moves",
        "host-guests",
        "host-draw-pull",
        "host-house-rules",
        "host-bell-cuts",
        "host-audit",
        "host-print",
    ):
        response = logged_in.get(reverse(name, args=[evening.pk]))
        assert response.status_code in (200, 302), name
    for table in (1, 2, 3):
        assert logged_in.get(reverse("host-result", args=[evening.pk, table])).status_code == 200
        assert logged_in.get(reverse("host-table", args=[evening.pk, table])).status_code in (200, 302)


def test_the_clock_settings_say_how_a_round_ends_in_the_formats_words(logged_in, make_evening):
    evening = make_evening(4, 4, format="euchre")
    page = logged_in.get(reverse("host-clock-settings", args=[evening.pk])).content.decode()
    assert "When the head table&#x27;s game is over" in page and "table&#x27;s pool" not in page


def test_a_table_page_shows_its_four_by_partnership_and_seat_its_report_and_the_disputes_reason(
    logged_in, make_evening
):
    from tournament.formats.partnership.reports import foursome_captain_report
    from tournament.services.captains import captain_vote

    evening = _drawn(make_evening, "euchre")
    round_start(evening=evening)
    state, names = foursome_state(evening), _names(evening)
    (n1, e1, s1, w1), (n2, e2, s2, w2) = state.tables
    guests = {g.pk: g for g in evening.guests.all()}
    result = foursome_captain_report(guest=guests[n2], round_number=1, table=2, report={"points": {"NS": 7, "EW": 6}})
    captain_vote(guest=guests[e2], result_id=result.pk, verdict="dispute", note="We made it 7 to 6 for us")
    board = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert f"(sent by <bdi>{names[n2]}</bdi>). <bdi>{names[e2]}</bdi> disputes it: “We made it 7 to 6 for us”." in board
    page = logged_in.get(reverse("host-table", args=[evening.pk, 2])).content.decode()
    assert "<h1>Table 2 · Foot table</h1>" in page or "<h1>Table 2 · Booby table</h1>" in page
    rows = page[page.index("<tbody>") : page.index("</tbody>")]
    assert rows.index(names[n2]) < rows.index(names[s2]) < rows.index(names[e2]) < rows.index(names[w2])
    assert '<th scope="rowgroup" rowspan="2">North–South</th><td>North</td>' in rows
    assert f"Report disputed</strong> from <bdi>{names[n2]}</bdi>: North–South 7, East–West 6 points." in page
    assert f"<bdi>{names[e2]}</bdi> disputes it: “We made it 7 to 6 for us”." in page
    page = logged_in.get(reverse("host-table", args=[evening.pk, 1])).content.decode()
    assert "No report yet for round 1." in page and reverse("host-result", args=[evening.pk, 1]) in page
    jumped = logged_in.get(reverse("host-table-jump", args=[evening.pk]) + "?table=2")
    assert jumped["Location"] == reverse("host-table", args=[evening.pk, 2])
    away = logged_in.get(reverse("host-table", args=[evening.pk, 3]), follow=True).content.decode()
    assert "There is no table 3: the tables are 1 to 2." in away


def test_the_moves_tab_says_each_tables_result_and_where_everyone_goes(logged_in, make_evening):
    """Euchre's ladder, two tables (``docs/rules/progressive-euchre.md``): table 1's North–South win 7 to 5
    and stay; its East–West go to the foot table, table 2; table 2's East–West win 8 to 3 and
    move up to the head table; its North–South stay."""
    evening = _drawn(make_evening, "euchre")
    round_start(evening=evening)
    (n1, e1, s1, w1), (n2, e2, s2, w2) = foursome_state(evening).tables
    names = _names(evening)
    assert "No bell has rung yet" in logged_in.get(reverse("host-moves", args=[evening.pk])).content.decode()
    _result(logged_in, evening, 1, points_NS=7, points_EW=5)
    _result(logged_in, evening, 2, points_NS=3, points_EW=8)
    logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "ring", "round": 1})
    page = logged_in.get(reverse("host-moves", args=[evening.pk])).content.decode()
    assert "<h1>The bell of round 1</h1>" in page and "Moves (round 1)" in page
    assert "<strong>Table 1 · Head table:</strong> North–South won, 7 points to 5" in page
    assert "<strong>Table 2 · Foot table:</strong> East–West won, 8 points to 3" in page
    assert "except the head table&#x27;s, who go down to the foot table. Partners change at every bell." in page
    for player, said in (
        (n1, "won at the head table and stays at table 1."),
        (e1, "lost at the head table and moves down to table 2, the foot table."),
        (e2, "won at table 2 and moves up to table 1, the head table."),
        (s2, "lost at table 2 and stays at table 2."),
    ):
        assert f"<bdi>{names[player]}</bdi></strong> {said}" in page
    board = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "<strong>Table 1 · Head table:</strong> North–South won, 7 points to 5" in board
    table = logged_in.get(reverse("host-table", args=[evening.pk, 1])).content.decode()
    assert f"<bdi>{names[e2]}</bdi> won at table 2 and moves up to table 1, the head table." in table


@pytest.mark.parametrize("guests, ghost_note", [(8, False), (7, True)])
def test_the_seating_mentions_ghosts_only_when_one_sits(logged_in, make_evening, guests, ghost_note):
    evening = make_evening(4, guests - 4, format="euchre")
    foursome_draw(evening=evening)
    page = logged_in.get(reverse("host-draw-seating", args=[evening.pk])).content.decode()
    assert "North–South and East–West are partners." in page
    assert ("A ghost holds a seat left empty." in page) is ghost_note


def test_after_the_last_bell_the_host_sees_the_end_not_seats_for_a_round_that_never_comes(logged_in, make_evening):
    """The last bell scores the round like any bell, but the evening is over: the board shows
    the last bell's results and the way to the prizes, not the tables for a next round; the
    moves page and a table's page say nobody moves (house rule, as at Progressive Poker)."""
    evening = _drawn(make_evening, "euchre", rounds_planned=1)
    round_start(evening=evening)
    _result(logged_in, evening, 1, points_NS=7, points_EW=5)
    _result(logged_in, evening, 2, points_NS=3, points_EW=8)
    logged_in.post(reverse("host-round", args=[evening.pk]), {"action": "ring", "round": 1})
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED
    board = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "The evening has ended" in board and "North–South won, 7 points to 5" in board
    assert 'id="tables-h"' not in board and "Start round 2" not in board
    moves = logged_in.get(reverse("host-moves", args=[evening.pk])).content.decode()
    assert "round 1 was the last, so nobody moves" in moves and "Where everyone goes" not in moves
    assert "moves up to table 1" not in moves
    table = logged_in.get(reverse("host-table", args=[evening.pk, 2])).content.decode()
    assert "The evening has ended: round 1 was the last" in table
    assert "moves up" not in table and "Where everyone goes" not in table


def test_an_old_showdown_link_at_tables_of_four_leads_to_the_tables_report_and_says_why(logged_in, make_evening):
    evening = _drawn(make_evening, "euchre")
    round_start(evening=evening)
    response = logged_in.get(reverse("host-showdown", args=[evening.pk, 2]), follow=True)
    assert response.redirect_chain == [(reverse("host-result", args=[evening.pk, 2]), 302)]
    assert "Progressive Euchre has no showdown: enter the table&#x27;s report." in response.content.decode()
    guest = evening.guests.get(pk=foursome_state(evening).tables[0][0])
    logged_in.logout()
    response = logged_in.get(reverse("guest-showdown", args=[guest.key]), follow=True)
    assert response.redirect_chain == [(reverse("guest-page", args=[guest.key]), 302)]
    text = response.content.decode()
    assert "Progressive Euchre has no showdown: report your table&#x27;s score." in text and "Draw Poker" not in text


def test_changing_a_bunco_report_starts_from_its_buncos_mini_buncos_and_rolls(logged_in, make_evening):
    evening = _drawn(make_evening, "bunco")
    round_start(evening=evening)
    state = foursome_state(evening)
    north, south = state.tables[0][0], state.tables[0][2]
    report = {"points": {"NS": 29, "EW": 4}, "buncos": {str(north): 1}, "minis": {str(south): 1}}
    foursome_report(round=evening.rounds.get(), table=1, report=report | {"rolls": {str(north): [21, 2, 1]}})
    page = logged_in.get(reverse("host-result", args=[evening.pk, 1])).content.decode()
    assert 'name="buncos_0" value="1"' in page and 'name="minis_2" value="1"' in page
    assert 'name="rolls_0" value="21 2 1"' in page and 'name="buncos_2" value="0"' in page


def test_a_report_still_disputed_when_the_bell_rang_is_named_on_the_board_after_it(logged_in, make_evening):
    """The stranger's Bunco night: table 2's report was disputed when the head table's report
    rang the bell, and after it "Needs you" said "Nothing right now". The bell does not wait for
    a dispute (the host decides), so the board names the table until the next round starts."""
    from tournament.models import Guest
    from tournament.services.captains import captain_vote

    evening = _drawn(make_evening, "euchre")
    rnd = round_start(evening=evening)
    _, (n2, e2, s2, w2) = foursome_state(evening).tables
    _result(logged_in, evening, 1, points_NS=7, points_EW=5)
    _result(logged_in, evening, 2, points_NS=3, points_EW=8)
    result = rnd.results.get(table=2, superseded_at__isnull=True)
    captain_vote(guest=Guest.objects.get(pk=n2), result_id=result.pk, verdict="dispute", note="We won it")
    ring = {"action": "ring", "round": 1, "confirmed": "1"}  # the host rings past the dispute
    assert logged_in.post(reverse("host-round", args=[evening.pk]), ring).status_code == 302
    assert Bell.objects.filter(round=rnd, undone_at__isnull=True).exists()
    board = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "Table 2's report was disputed when round 1's bell rang." in board.replace("&#x27;", "'")
    assert "Nothing right now" not in board
    round_start(evening=evening)
    board = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "disputed when round 1" not in board.replace("&#x27;", "'")


def _format_settings(page: str) -> str:
    """The text of the settings page's format groups (the fieldsets after the general fields)."""
    return " ".join(re.findall(r'<fieldset class="stack format-group".*?</fieldset>', page, flags=re.S))


@pytest.mark.parametrize("key", ["poker", "euchre", "whist", "bunco", "euchre_tournament"])
def test_an_evenings_settings_page_names_no_other_format_and_asks_only_its_own(logged_in, host, key):
    """Found by a new host: a Bunco evening's settings showed "Progressive Euchre, Drive Whist
    and Bunco only", Euchre's prizes by points and Euchre's hands; a Drive Whist evening was
    asked how a tie at a table is settled, which 13 tricks never make."""
    from tournament.forms.evening import _format_fields
    from tournament.registry import format_named, installed_formats

    evening = EveningFactory(host=host, format=key)
    page = logged_in.get(reverse("host-evening-edit", args=[evening.pk])).content.decode()
    groups = _format_settings(page)
    own = format_named(key)
    for other in installed_formats().values():
        if other.key != key and other.title not in own.title:
            assert other.title.split()[-1] not in groups, (key, other.title)
    for name in _format_fields():
        assert (f'name="{name}"' in page) == (name in own.evening_fields), (key, name)
    if own.evening_fields:
        assert f"<legend>{own.title}: {own.fields_legend}</legend>" in groups


def test_a_new_evenings_form_marks_each_setting_with_the_formats_that_ask_it(logged_in):
    page = logged_in.get(reverse("host-evenings")).content.decode()
    assert re.search(
        r'data-format-group="euchre bunco"><legend>Progressive Euchre and Bunco only</legend>\s*'
        r'<fieldset class="choice-group"><legend>A tie at a table</legend>',
        page,
    )
    assert re.search(
        r'data-format-group="euchre"><legend>Progressive Euchre only</legend>\s*<div><label for="id_prize_by_points"',
        page,
    )


def test_a_drive_whist_evening_keeps_its_stored_tie_rule_when_its_settings_are_saved(logged_in, make_evening):
    """The page no longer asks a whist evening about ties; saving it after the draw must not
    change the stored option (which would be refused as a change of play)."""
    evening = make_evening(4, 4, format="whist", options={"format": {"ties": "cut"}})
    foursome_draw(evening=evening)
    response = logged_in.post(reverse("host-evening-edit", args=[evening.pk]), _settings(name="Whist drive"))
    assert response.status_code == 302, response.content.decode()[:3000]
    evening.refresh_from_db()
    assert evening.name == "Whist drive" and evening.options["format"]["ties"] == "cut"
