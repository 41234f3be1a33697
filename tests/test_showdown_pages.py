"""The showdown helper page, the rules pages and the host's game page, over HTTP.

The nasty showdowns (A-2-3 and Q-K-A sequence flushes, point ties decided by seat, the
mistigris against natural hands, the Tiger against straights and flushes) go through the page
and are checked against ``tables.formats.poker.showdown``; bad input gets a message naming the card or seat
and never a 500; "Send" records the right table's result and refuses what it must.
"""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tables.formats.poker.showdown import showdown
from tests.factories import HostFactory
from tournament.formats.poker.games import evening_game, evening_game_set
from tournament.formats.poker.showdowns import showdown_report
from tournament.models import AuditEntry, Evening, Result
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state


@pytest.fixture
def playing(make_evening):
    """playing(game, **options) -> (evening, state): 24 guests drawn, round 1 in play."""

    def make(game: str = "draw_poker", **options):
        evening = make_evening(12, 12)
        evening_game_set(evening=evening, game=game, options=options)
        draw_digital(evening=evening)
        round_start(evening=evening)
        return evening, evening_state(evening)

    return make


def _guest(evening: Evening, table: int, seat: int = 1):
    return evening.guests.get(pk=evening_state(evening).tables[table - 1][seat - 1])


def _post(client, url: str, seating, hands, dealer="1", **extra):
    data = {"seating": ",".join(map(str, seating)), "dealer": dealer, "seat": "1", **extra}
    for n, hand in enumerate(hands, start=1):
        data[f"hand-{n}"] = hand
    return client.post(url, data)


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _decide(client, evening, table, hands, dealer="1", **extra):
    guest = _guest(evening, table)
    seating = evening_state(evening).tables[table - 1]
    hands = list(hands) + [""] * (len(seating) - len(hands))
    response = _post(client, reverse("guest-showdown", args=[guest.key]), seating, hands, dealer, **extra)
    assert response.status_code == 200
    return response, hands


def _agrees(response, evening, hands, dealer):
    """The page shows exactly the verdict and reasons of tables.formats.poker.showdown; returns that result."""
    setting = evening_game(evening)
    expected = showdown(setting.game, [h or None for h in hands], dealer_seat=int(dealer), options=setting.options)
    text = _text(response)
    assert expected.verdict in text
    for hand in expected.hands:
        assert hand.reason in text
    assert text.count('class="send-button"') == len(expected.best)  # one "Send" per seat the bell may count as winner
    return expected


# --- the nasty cases through the page ------------------------------------------------------


def test_commerce_q_k_a_and_a_2_3_sequence_flushes(client, playing):
    evening, _ = playing("commerce")
    response, hands = _decide(client, evening, 2, ["AH 2H 3H", "QS KS AS", "KD QD JC", "7C 7D 7S"], dealer="1")
    result = _agrees(response, evening, hands, "1")
    assert result.winners == (4,)  # triplets beat any sequence flush
    response, hands = _decide(client, evening, 2, ["AH 2H 3H", "QS KS AS", "KD QD JC"], dealer="1")
    result = _agrees(response, evening, hands, "1")
    assert result.winners == (2,) and result.hand_at(1).strength > result.hand_at(3).strength


def test_commerce_point_tie_goes_to_the_player_nearest_the_dealers_left(client, playing):
    evening, _ = playing("commerce")
    hands = ["KH QH 2C", "5D 6S 9C", "10S JS 3D", "4H 8D 9S"]
    for dealer, winner in (("2", 3), ("3", 3), ("4", 1), ("1", 1)):
        response, padded = _decide(client, evening, 2, hands, dealer=dealer)
        assert _agrees(response, evening, padded, dealer).winners == (winner,)
        assert "a tie goes to the dealer" in _text(response)


def test_mistigris_against_a_natural_hand(client, playing):
    evening, _ = playing("draw_poker", mistigris=True)
    hands = ["KS QS JS 10S MI", "10H JH QH KH AH"]
    response, padded = _decide(client, evening, 2, hands)
    assert _agrees(response, evening, padded, "1").winners == (1, 2)
    assert "divide the pool" in _text(response)
    evening_game_set(evening=evening, game="draw_poker", options={"mistigris": True, "natural_wins_ties": True})
    response, padded = _decide(client, evening, 2, hands)
    assert _agrees(response, evening, padded, "1").winners == (2,)
    response, padded = _decide(client, evening, 2, ["7S 7H 7D 2C MI", "KS KD KC QH QD"])
    assert "three sevens with mistigris make fours" in _text(response)


def test_the_tiger_against_straights_and_flushes(client, playing):
    evening, _ = playing("draw_poker", tiger=True)
    response, padded = _decide(client, evening, 2, ["AC 2D 3H 4S 5C", "10C JD QH KS AD"])
    assert _agrees(response, evening, padded, "1").winners == (1,)
    response, padded = _decide(client, evening, 2, ["AC 2D 3H 4S 5C", "10C JD QH KS AD", "2H 6H 8H 9H JH"])
    assert _agrees(response, evening, padded, "1").winners == (3,)


def test_whiskey_poker_without_money_names_the_worst_hand(client, playing):
    evening, _ = playing("whiskey_poker", with_money=False)
    response, padded = _decide(client, evening, 2, ["2C 5D 9H JS KC", "AS AD 3C 4H 8S"])
    result = _agrees(response, evening, padded, "1")
    assert result.worst == (1,) and "puts one counter in the middle" in _text(response)


# --- bad input: a message naming the card or seat, never a 500 ---------------------------------


@pytest.mark.parametrize(
    "game,options,hands,dealer,words",
    [
        (
            "draw_poker",
            {},
            ["AS KD QH JC 9S", "AS 2D 3H 4C 6S"],
            "1",
            "AS (ace of spades) is shown at seat 1 and seat 2",
        ),
        ("draw_poker", {}, ["AS KD QH JC ZZ"], "1", "“ZZ” is not a card"),
        ("draw_poker", {}, ["AS KD QH JC"], "1", "Seat 1 shows 4 cards"),
        ("draw_poker", {}, ["AS KD QH JC MI"], "1", "Seat 1 shows the mistigris"),
        ("commerce", {}, ["AS KS QS", "2C 3C 4C 5C"], "1", "Seat 2 shows 4 cards"),
        ("commerce", {}, ["AS KS MI"], "1", "Seat 1 shows the mistigris"),
        ("commerce", {}, ["AS KS QS"], "9", "The dealer's seat 9 is not at this table"),
        ("commerce", {}, ["AS KS QS"], "x", "“x” is not a seat number"),
        ("commerce", {}, ["AS KS QS"], "", "Say who dealt"),
        ("commerce", {}, [], "1", "No hand is shown"),
    ],
)
def test_bad_input_is_named(client, playing, game, options, hands, dealer, words):
    evening, _ = playing(game, **options)
    response, _ = _decide(client, evening, 2, hands, dealer=dealer)
    assert words in _text(response)
    assert 'class="send-button"' not in _text(response)


def test_the_grid_adds_cards_and_refuses_one_already_used(client, playing):
    evening, state = playing("commerce")
    guest = _guest(evening, 2)
    url = reverse("guest-showdown", args=[guest.key])
    seating = state.tables[1]
    empty = [""] * len(seating)
    response = _post(client, url, seating, ["AS KS"] + empty[1:], pick="QS")
    assert 'value="AS KS QS"' in _text(response)
    assert 'name="seat" value="2" checked' in _text(response)  # the full hand hands over to seat 2
    assert 'data-card="QS" disabled' in _text(response)
    response = _post(client, url, seating, ["AS KS QS"] + empty[1:], pick="KS", seat="2")
    assert "KS (king of spades) is already in seat 1's hand." in _text(response)
    response = _post(client, url, seating, ["AS KS QS"] + empty[1:], unpick="1")
    assert 'value="AS KS"' in _text(response)


# --- sending the verdict -----------------------------------------------------------------------


def test_send_records_the_pool_winner_for_the_captains_table(client, playing):
    evening, state = playing("commerce")
    guest = _guest(evening, 2, seat=3)
    seating = state.tables[1]
    hands = ["AH 2H 3H", "QS KS AS", "KD QD JC"] + [""] * (len(seating) - 3)
    response = _post(client, reverse("guest-showdown", args=[guest.key]), seating, hands, send="2")
    assert response.status_code == 302 and response["Location"] == reverse("guest-page", args=[guest.key])
    result = Result.objects.get(superseded_at__isnull=True)
    assert (result.table, result.pool_winner_id, result.reported_by_guest_id) == (2, seating[1], guest.pk)
    audit = AuditEntry.objects.get(action="showdown.report")
    assert audit.detail["hands"][:3] == hands[:3] and audit.detail["winners"] == [2]


def test_send_refuses_a_seat_the_verdict_does_not_name(client, playing):
    evening, state = playing("commerce")
    guest = _guest(evening, 2)
    seating = state.tables[1]
    hands = ["AH 2H 3H", "QS KS AS"] + [""] * (len(seating) - 2)
    response = _post(client, reverse("guest-showdown", args=[guest.key]), seating, hands, send="1")
    assert response.status_code == 200 and "Seat 1 does not win this showdown" in _text(response)
    assert not Result.objects.exists()


def test_a_captain_of_another_table_cannot_send(client, playing):
    evening, state = playing("commerce")
    stranger = _guest(evening, 3)
    seating = state.tables[1]
    hands = ["AH 2H 3H", "QS KS AS"] + [""] * (len(seating) - 2)
    response = _post(client, reverse("guest-showdown", args=[stranger.key]), seating, hands, send="2")
    assert response.status_code == 200 and "have changed" in _text(response)
    rnd = evening.rounds.get()
    with pytest.raises(RuleError, match="You sit at table 3 now, not at table 2"):
        showdown_report(round=rnd, table=2, seating=seating, hands=hands, dealer_seat=1, seat=2, reporter=stranger)
    assert not Result.objects.exists()


def test_the_head_table_send_prefills_the_result_form(client, playing):
    evening, state = playing("draw_poker")
    captain = _guest(evening, 1)
    seating = state.tables[0]
    url = reverse("guest-showdown", args=[captain.key])
    hands = ["2C 5D 9H JS KC", "AS AD 3C 4H 8S", "", ""]
    response = _post(client, url, seating, hands, send="2")
    text = _text(response)
    assert response.status_code == 200 and "the bell needs everyone's counters" in text
    assert f'name="pool_winner" value="{seating[1]}"' in text and not Result.objects.exists()
    counters = {f"counters_{g}": "50" for g in seating}
    response = _post(
        client,
        url,
        seating,
        hands,
        action="record",
        sent_seat="2",
        pool_winner=str(seating[1]),
        in_call=[str(seating[0])],
        **counters,
    )
    assert response.status_code == 302
    result = Result.objects.get(superseded_at__isnull=True)
    assert (result.table, result.pool_winner_id, result.in_call) == (1, seating[1], [seating[0]])
    assert result.counters == {str(g): 50 for g in seating}


def test_the_host_helper(client, host, playing):
    evening, state = playing("thirty_one")
    url = reverse("host-showdown", args=[evening.pk, 3])
    assert client.get(url).status_code == 302  # login first
    client.force_login(host)
    assert client.get(url).status_code == 200
    assert client.get(reverse("host-showdown", args=[evening.pk, 99])).status_code == 404
    seating = state.tables[2]
    hands = ["AS KS QS", "7H 7D 7C"] + [""] * (len(seating) - 2)
    response = _post(client, url, seating, hands, send="1")
    assert response.status_code == 302
    result = Result.objects.get(superseded_at__isnull=True)
    assert (result.table, result.pool_winner_id, result.reported_by_user_id) == (3, seating[0], host.pk)
    client.force_login(HostFactory(username="other-host"))
    assert client.get(url).status_code == 404


def test_unknown_private_link_is_404(client, db):
    assert client.get(reverse("guest-showdown", args=["nope"])).status_code == 404


# --- the host's game page and the rules pages --------------------------------------------------


def test_host_sets_the_game_and_options(client, host, make_evening):
    evening = make_evening(4, 4, options={"bell": {"pool_tie": "cut"}})
    client.force_login(host)
    url = reverse("host-game", args=[evening.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "game": "commerce",
            "opt-commerce-flush": "on",
            "opt-commerce-point_is_combination": "on",
            "opt-draw_poker-tiger": "on",
        },
    )
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.game == "commerce" and evening.options == {"bell": {"pool_tie": "cut"}, "game": {"flush": True}}
    response = client.post(url, {"game": "commerce", "opt-commerce-bogus": "on"})
    assert response.status_code == 200 and "“bogus” is not an option of Commerce" in _text(response)
    response = client.post(url, {"game": "bridge"})
    assert response.status_code == 200 and "“bridge” is not a game" in _text(response)
    evening.refresh_from_db()
    assert evening.options["game"] == {"flush": True}
    client.force_login(HostFactory(username="other-host"))
    assert client.get(url).status_code == 404


def test_stored_options_that_do_not_fit_the_game_fall_back_with_a_warning(make_evening):
    evening = make_evening(4, 4, game="my_ship_sails", options={"game": {"tiger": True}})
    setting = evening_game(evening)
    assert setting.options.__class__.__name__ == "ShipOptions" and "do not fit My Ship Sails" in setting.problem


@pytest.mark.parametrize("game", ["draw_poker", "whiskey_poker", "commerce", "thirty_one", "my_ship_sails"])
def test_every_game_has_a_rules_page(client, db, game):
    response = client.get(reverse("rules-game", args=[game]))
    assert response.status_code == 200 and f'id="rules-{game.replace("_", "-")}"' in _text(response)


def test_rules_pages_show_the_evenings_options(client, make_evening):
    assert client.get(reverse("rules-game", args=["bridge"])).status_code == 404
    evening = make_evening(4, 4)
    evening_game_set(evening=evening, game="draw_poker", options={"mistigris": True, "tiger": True})
    text = _text(client.get(reverse("rules-game", args=["draw_poker"]) + f"?evening={evening.public_key}"))
    assert f"The options {evening.name} plays" in text and "yes <small>(default no)" in text
    text = _text(client.get(reverse("rules-evening", args=[evening.public_key])))
    assert f"{evening.name} plays Draw Poker" in text and "Mistigris · The Tiger" in text
    assert "Natural hand wins ties" in text and 'id="rules-commerce"' in text
    text = _text(client.get(reverse("rules-game", args=["commerce"]) + f"?evening={evening.public_key}"))
    assert "plays another game; these are the defaults" in text and "The point counts for the dealer" in text
    assert client.get(reverse("rules-evening", args=["nope"])).status_code == 404


def test_a_double_tap_on_send_saves_once_and_the_first_report_stands(client, playing):
    evening, state = playing("commerce")
    seating = state.tables[1]
    hands = ["AH 2H 3H", "QS KS AS"] + [""] * (len(seating) - 2)
    first = _guest(evening, 2, seat=1)
    url = reverse("guest-showdown", args=[first.key])
    for _ in range(2):
        assert _post(client, url, seating, hands, send="2", request_id="tap-1").status_code == 302
    assert Result.objects.count() == 1
    other = _guest(evening, 2, seat=3)
    response = _post(client, reverse("guest-showdown", args=[other.key]), seating, hands, send="2", request_id="tap-2")
    assert response.status_code == 200 and "The first report stands" in _text(response)
    assert Result.objects.count() == 1


def test_the_host_at_the_head_table_fills_in_the_counters(client, host, playing):
    evening, state = playing("draw_poker")
    client.force_login(host)
    seating = state.tables[0]
    url = reverse("host-showdown", args=[evening.pk, 1])
    hands = ["2C 5D 9H JS KC", "AS AD 3C 4H 8S", "", ""]
    response = _post(client, url, seating, hands, send="2")
    assert "Send the head table's result" in _text(response) and not Result.objects.exists()
    response = _post(client, url, seating, hands, action="record", sent_seat="2", pool_winner=str(seating[1]))
    assert response.status_code == 200 and "counters (0 if none)." in _text(response)
    counters = {f"counters_{g}": str(n) for g, n in zip(seating, (30, 70, 50, 50), strict=True)}
    response = _post(
        client, url, seating, hands, action="record", sent_seat="2", pool_winner=str(seating[1]), **counters
    )
    assert response.status_code == 302 and response["Location"] == reverse("host-evening", args=[evening.pk])
    result = Result.objects.get(superseded_at__isnull=True)
    assert (result.pool_winner_id, result.reported_by_user_id, result.counters[str(seating[0])]) == (
        seating[1],
        host.pk,
        30,
    )


def test_the_guest_page_links_to_the_helper_and_the_evenings_rules(client, playing):
    evening, _ = playing("commerce")
    guest = _guest(evening, 2)
    text = _text(client.get(reverse("guest-page", args=[guest.key])))
    assert reverse("guest-showdown", args=[guest.key]) in text
    assert reverse("rules-evening", args=[evening.public_key]) in text
    page = client.get(reverse("guest-showdown", args=[guest.key]))
    assert page["Referrer-Policy"] == "no-referrer" and "noindex" in page["X-Robots-Tag"]


def test_sending_needs_the_csrf_token(playing):
    from django.test import Client

    evening, state = playing("commerce")
    guest = _guest(evening, 2)
    seating = state.tables[1]
    hands = ["AH 2H 3H", "QS KS AS"] + [""] * (len(seating) - 2)
    strict = Client(enforce_csrf_checks=True)
    response = _post(strict, reverse("guest-showdown", args=[guest.key]), seating, hands, send="2")
    assert response.status_code == 403 and not Result.objects.exists()


# --- the other readings through the page ---------------------------------------------------------


def test_my_ship_sails_during_play_through_the_page(client, playing):
    evening, _ = playing("my_ship_sails")
    two_card = ["AS KS 9D", "QD JD AH", "2C 5H 8S"]
    response, _ = _decide(client, evening, 2, two_card, dealer="3", during_play="1")
    text = _text(response)
    assert "No winner yet: no one holds a flush of three cards" in text
    assert text.count('class="send-button"') == 0 and "No winner to send yet" in text
    response, _ = _decide(client, evening, 2, two_card, dealer="3")  # the exchanges are over
    assert "Seat 1 wins the pool with a two-card flush of spades, 21 pips" in _text(response)
    response, _ = _decide(client, evening, 2, ["AS KS 9D", "2H 3H 5H", "2C 5C 8S"], dealer="3", during_play="1")
    assert "My ship sails: seat 2 wins the pool" in _text(response)


def test_the_new_readings_through_the_page(client, playing):
    evening, _ = playing("thirty_one", higher_card_wins_ties=True)
    response, _ = _decide(client, evening, 2, ["AC JC 10C", "AD KD QD"], dealer="2")
    assert "the king beats the jack (the higher card wins ties)" in _text(response)
    evening_game_set(evening=evening, game="commerce", options={"pair": True, "odd_card_decides_pairs": True})
    response, _ = _decide(client, evening, 2, ["9C 9D 3S", "9H 9S 10C"], dealer="1")
    assert "Seat 2 wins the pool with a pair of nines with a ten" in _text(response)
    evening_game_set(evening=evening, game="draw_poker", options={"mistigris": True, "mistigris_wins_ties": True})
    response, padded = _decide(client, evening, 2, ["MI QD JD 10D 9D", "KC QC JC 10C 9C"])
    assert _agrees(response, evening, padded, "1").winners == (1,)


def test_conflicting_readings_are_refused_on_the_game_page(client, playing):
    evening, _ = playing("commerce")
    with pytest.raises(RuleError, match="turn on the pair too"):
        evening_game_set(evening=evening, game="commerce", options={"odd_card_decides_pairs": True})
    with pytest.raises(RuleError, match="Choose one reading"):
        evening_game_set(
            evening=evening,
            game="draw_poker",
            options={"mistigris": True, "natural_wins_ties": True, "mistigris_wins_ties": True},
        )
    assert evening_game(evening).game.value == "commerce"


def test_host_game_page_refuses_the_odd_card_without_the_pair(client, host, make_evening):
    evening = make_evening(4, 4)
    client.force_login(host)
    url = reverse("host-game", args=[evening.pk])
    response = client.post(
        url,
        {"game": "commerce", "opt-commerce-odd_card_decides_pairs": "on", "opt-commerce-point_is_combination": "on"},
    )
    assert response.status_code == 200 and "turn on the pair too" in _text(response)
    evening.refresh_from_db()
    assert evening.game == "draw_poker"
    response = client.post(url, {"game": "thirty_one", "opt-thirty_one-higher_card_wins_ties": "on"})
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.options["game"] == {"higher_card_wins_ties": True}
    assert "Higher card wins ties" in _text(client.get(reverse("rules-evening", args=[evening.public_key])))
