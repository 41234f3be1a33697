"""A Euchre tournament night that goes wrong and is mended, through the host's pages (Django's
test client pressing the pages' buttons, ``tests/page_forms``): nine players over six games, one
sitting out each game. A late guest after game 1 is told nobody joins once the schedule is
drawn, and sits nowhere; a player leaves between games 2 and 3 (a ghost plays the rest of their
schedule, their sit-out included); another whom the host tries to mark as left in the middle of
game 3 (refused) is marked after its bell; game 3's bell is undone because table 1's score was
entered the wrong way round, and rung again; then game 2's table 1 is corrected (before either
leaver left, after the late guest came); then games 4 to 6, the last ending the evening.

The right answer is worked in the test from docs/rules/euchre-tournament.md and the schedule
the draw fixed (E. H. Moore's rotation, ``rotation_schedule``; the draw numbers the players at
random, so the test reads each player's number): a player's game is their partnership's points,
a sit-out scores 6 and neither a win nor a loss, a ghost plays a leaver's games (and sits out
their sit-outs) and its points are nobody's; standings by points, then games won, equal players
sharing a place; the highest total and the booby for the lowest, a leaver out of the running for
the booby; ties to more games won.
"""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse

from tables.formats.euchre_tournament.schedule import rotation_schedule
from tests.factories import EveningFactory, GuestFactory
from tests.page_forms import press, said, text_of
from tournament.models import Evening, Guest, Result
from tournament.registry import format_for
from tournament.selectors.board import TOO_LATE_WORDS
from tournament.services.draws import draw_digital

pytestmark = pytest.mark.django_db

PLAYERS, GAMES, SIT_OUT = 9, 6, 6
# (North–South, East–West) at tables 1 and 2 of each game, as finally recorded; no ties
SCORES = {
    1: [(7, 3), (4, 6)],
    2: [(5, 8), (9, 2)],  # table 1 was first entered 5–6, corrected to 5–8
    3: [(3, 8), (6, 5)],  # table 1 was first entered 8–3, undone, entered again 3–8
    4: [(10, 4), (2, 7)],
    5: [(6, 7), (8, 1)],
    6: [(4, 9), (7, 5)],
}


class Desk:
    """The host at the laptop, at a Euchre tournament."""

    def __init__(self, client, evening: Evening) -> None:
        self.client, self.evening = client, evening
        self.board = reverse("host-evening", args=[evening.pk])
        self.guests = reverse("host-guests", args=[evening.pk])

    def start(self, number: int) -> None:
        answer = press(self.client, self.board, f"Start round {number}")
        assert f"Round {number} has started." in said(answer), said(answer)

    def report(self, table: int, ns: int, ew: int) -> None:
        url = reverse("host-result", args=[self.evening.pk, table])
        answer = press(self.client, url, "Save the report", {"points_NS": ns, "points_EW": ew})
        assert answer.redirect_chain, text_of(answer.content.decode())[-1200:]

    def ring(self, number: int) -> None:
        answer = press(self.client, self.board, "Ring the bell now")
        assert f"The bell of round {number} has rung." in said(answer), said(answer)

    def play(self, number: int, scores=None) -> None:
        self.start(number)
        for table, (ns, ew) in enumerate(scores or SCORES[number], 1):
            self.report(table, ns, ew)
        self.ring(number)

    def guest_button(self, guest: int, button: str):
        return press(self.client, self.guests, button, where=f"/guests/{guest}/")


def numbers(evening: Evening) -> dict[int, int]:
    """Schedule number -> guest id, as the draw gave them."""
    state = format_for(evening).state(evening)
    return {t["number"] - 1: g for g, t in state.tallies.items() if t.get("number") and g > 0}


def worked(holder: dict[int, int], left_after: dict[int, int]) -> dict[int, tuple[int, int, int]]:
    """Guest id -> (points, wins, losses) from the schedule and ``SCORES`` (module docstring);
    ``left_after``: a leaver's number -> the last game they played (a ghost plays the rest)."""
    schedule = rotation_schedule(PLAYERS, GAMES)
    points = {g: [0, 0, 0] for g in holder.values()}
    for game in range(1, GAMES + 1):
        here = {n: g for n, g in holder.items() if left_after.get(n, GAMES) >= game}
        for table, seats in enumerate(schedule.games[game - 1].tables):
            ns, ew = SCORES[game][table]
            for seat, number in enumerate(seats):
                if number in here:
                    mine, theirs = (ns, ew) if seat % 2 == 0 else (ew, ns)
                    points[here[number]][0] += mine
                    points[here[number]][1 if mine > theirs else 2] += 1
        for number in schedule.games[game - 1].sitting_out:
            if number in here:
                points[here[number]][0] += SIT_OUT
    return {g: (p, w, lost) for g, (p, w, lost) in points.items()}


def mended_tournament(client, host) -> tuple[Evening, dict[int, int], dict[int, int]]:
    """The night of the module docstring; returns the evening, the schedule's numbers (number ->
    guest id) and the leavers (number -> the last game they played)."""
    client.force_login(host)
    evening = EveningFactory(
        host=host, name="Mended tournament", format="euchre_tournament", rounds_planned=GAMES, round_end="clock"
    )
    for letter in "ABCDEFGHI":
        GuestFactory(evening=evening, name=f"Player {letter}", pack="red" if letter in "ACEGI" else "blue")
    draw_digital(evening=evening, user=host)
    holder = numbers(evening)
    schedule = rotation_schedule(PLAYERS, GAMES)
    desk = Desk(client, evening)
    desk.play(1)

    # a late guest: registered, and told that nobody joins once the schedule is drawn
    answer = press(client, desk.guests, "Add the guest", {"one-name": "Late Lou", "one-check_in": "on"})
    page = text_of(answer.content.decode())
    late = Guest.objects.get(evening=evening, name="Late Lou")
    assert not Guest.objects.filter(pk=late.pk, seat__isnull=False).exists()
    assert said(answer) == [
        "Late Lou is registered and checked in. They cannot play tonight: this format's schedule was fixed at "
        "the draw and play has begun (house rule), so they get no seat."
    ]
    assert "Late Lou" in page
    phone = text_of(client.get(reverse("guest-page", args=[late.key])).content.decode())
    assert f"No seat tonight {TOO_LATE_WORDS}" in phone  # the phone says what the host was told
    assert "as soon as you have one" not in phone

    desk.play(2, [(5, 6), SCORES[2][1]])  # table 1's count wrong, corrected after game 3
    # the first leaver plays game 3 and sits out a later game: the ghost sits it out for them
    first = next(
        n
        for n in range(PLAYERS)
        if n not in schedule.games[2].sitting_out and any(n in g.sitting_out for g in schedule.games[3:])
    )
    answer = desk.guest_button(holder[first], "Left")
    leaver = Guest.objects.get(pk=holder[first]).name
    assert any(m.startswith(f"{leaver} has left; Ghost 1 takes their seat") for m in said(answer)), said(answer)

    desk.start(3)
    second = next(n for n in range(PLAYERS) if n != first and n not in schedule.games[2].sitting_out)
    name = Guest.objects.get(pk=holder[second]).name
    answer = desk.guest_button(holder[second], "Left")
    assert said(answer) == [f"A round is in play: ring its bell first, then mark {name} as left."]
    assert Guest.objects.get(pk=holder[second]).status == Guest.Status.HERE
    desk.report(1, 8, 3)  # the wrong way round
    desk.report(2, *SCORES[3][1])
    desk.ring(3)
    answer = press(client, desk.board, "Undo", where="in")
    assert any("The bell of round 3 is undone" in m for m in said(answer)), said(answer)
    desk.report(1, *SCORES[3][0])
    desk.ring(3)
    answer = desk.guest_button(holder[second], "Left")
    assert any(name in m for m in said(answer)), said(answer)

    url = reverse("host-correction", args=[evening.pk, 2, 1])
    answer = press(client, url, "Save the correction", {"points_NS": 5, "points_EW": 8})
    assert answer.redirect_chain, text_of(answer.content.decode())[-1500:]

    for game in (4, 5, 6):
        desk.play(game)
    return Evening.objects.get(pk=evening.pk), holder, {first: 2, second: 3}


@pytest.fixture
def night(client, host):
    return mended_tournament(client, host)


def test_the_mended_tournament_ends_where_the_schedule_and_the_rules_put_it(night):
    evening, holder, left = night
    assert evening.stage == Evening.Stage.ENDED
    expected = worked(holder, left)
    state = format_for(evening).state(evening)
    tallies = {g: (state.tally(g, "points"), state.tally(g, "wins"), state.tally(g, "losses")) for g in expected}
    assert tallies == expected
    standings = format_for(evening).standings(evening)
    order = sorted(expected, key=lambda g: (-expected[g][0], -expected[g][1]))
    places = {}
    for i, g in enumerate(order):
        same = i and expected[order[i - 1]][:2] == expected[g][:2]
        places[g] = places[order[i - 1]] if same else i + 1
    assert {line.guest.pk: line.place for line in standings.lines if line.guest} == places
    prizes = {p.prize.key: set(p.winners) for p in standings.prizes}
    best = max(expected.values())[:2]
    assert {g.pk for g in prizes["highest_total"]} <= {g for g in expected if expected[g][:2] == best}
    stayed = {g: v for g, v in expected.items() if g not in {holder[n] for n in left}}
    worst = min((v[0], v[1]) for v in stayed.values())
    assert {g.pk for g in prizes["booby"]} <= {g for g, v in stayed.items() if v[:2] == worst}
    assert {g.name for g in evening.guests.filter(status=Guest.Status.LEFT)} == {
        Guest.objects.get(pk=holder[n]).name for n in left
    }
    kept = Result.objects.filter(round__evening=evening, round__number=2, table=1).order_by("pk")
    assert [(r.report["points"], r.superseded_at is not None) for r in kept] == [
        ({"NS": 5, "EW": 6}, True),
        ({"NS": 5, "EW": 8}, False),
    ]


def _page(client, name: str, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200, (name, response.status_code)
    return text_of(response.content.decode())


def test_every_page_tells_the_same_story_of_the_mended_tournament(night, client):
    """The standings page lists the worked totals; the corrections history names who sat at
    each table of each game (the ghost in the leaver's place); the audit log has the arrival
    refused a seat, both departures, the undo and the correction; the late guest's phone says
    they had no seat tonight, not "thank you for playing" with a tally of nothing; a leaver's
    phone keeps their points."""
    evening, holder, left = night
    e = evening.pk
    expected = worked(holder, left)
    names = dict(evening.guests.values_list("pk", "name"))
    standings = _page(client, "host-standings", e)
    listed = re.findall(
        r"(\d+) (Player [A-I])(?: \(left\))? (\d+) (\d+) (\d+) (\d+) (\d|—)", standings.split("Table now", 1)[1]
    )
    assert sorted(re.findall(r"(Player [A-I]) \(left\)", standings)) == sorted(names[holder[n]] for n in left)
    assert {n: (int(p), int(w), int(lost)) for _, n, p, w, lost, _, _ in listed} == {
        names[g]: v for g, v in expected.items()
    }
    placed, apart = standings.split("Did not play", 1)
    assert "Late Lou" not in placed and "Late Lou" in apart  # no place: listed apart, as never played
    pull = _page(client, "host-draw-pull", e)  # the draw's cards, the late guest's none
    assert "Play has begun: this is the pull list of the draw in force" in pull

    guests = _page(client, "host-guests", e)
    assert "Late Lou Red pack Checked in" in guests
    assert "Sits this round out" not in guests  # the evening has ended: no round to sit out
    corrections = _page(client, "host-corrections", e)
    schedule = rotation_schedule(PLAYERS, GAMES)
    for game in range(1, GAMES + 1):
        for table, seats in enumerate(schedule.games[game - 1].tables, 1):
            who = []
            for number in seats:
                gone = left.get(number, GAMES) < game
                who.append("Ghost" if gone else names[holder[number]])
            ns, ew = SCORES[game][table - 1]
            found = re.search(rf"Round {game} · .*?(?=Round {game - 1} · |$)", corrections).group(0)
            row = re.search(rf"(?:Result|Correct) {table} ([^N]+?) North–South {ns}, East–West {ew} points", found)
            assert row, (game, table)
            sat = [w.strip() for w in row.group(1).split(" , ")]
            assert [("Ghost" if w.startswith("Ghost") else w) for w in sat] == who, (game, table)
    audit = _page(client, "host-audit", e)
    for number in left:
        assert audit.count(f"The host marked {names[holder[number]]} as left.") == 1
    assert "The host undid the bell of round 3" in audit and "corrected table 1's result in round 2" in audit
    lou = Guest.objects.get(evening=evening, name="Late Lou")
    phone = _page(client, "guest-page", lou.key)
    assert TOO_LATE_WORDS in phone and "Thank you for playing" not in phone and "Your tally" not in phone
    first = min(left, key=left.get)
    gone = _page(client, "guest-page", Guest.objects.get(pk=holder[first]).key)
    assert f"{expected[holder[first]][0]} points" in gone


def test_the_mended_tournament_exported_and_imported_back_tells_the_same_story(night, client, host):
    """The board's Export (JSON), then the host's import page: the copy's tallies, places,
    prizes, steps and reports (the replaced ones kept) equal the original's."""
    from tests.test_mending_night_euchre import _story

    evening, _, _ = night
    export = client.get(reverse("host-export", args=[evening.pk]))
    assert export.status_code == 200
    upload = io.BytesIO(export.content)
    upload.name = "mended-tournament.json"
    answer = client.post(reverse("host-evening-import"), {"file": upload}, follow=True)
    assert any("every bell replayed" in m for m in said(answer)), text_of(answer.content.decode())[-2000:]
    copy = Evening.objects.exclude(pk=evening.pk).get(host=host)
    assert copy.format == "euchre_tournament"
    assert _story(copy) == _story(evening)


def test_the_printed_score_cards_name_who_played_each_game(night, client):
    """Every player's score card: the games rung name the partner who really sat opposite (a
    leaver, for the games they played before they left; their ghost only after), the points
    written in; a leaver and the late guest get no card."""
    from tests.pdf_reading import page_texts

    evening, holder, left = night
    names = dict(evening.guests.values_list("pk", "name"))
    expected = worked(holder, left)
    pdf = client.get(reverse("host-print-cards", args=[evening.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = " | ".join(" | ".join(page.split("\n")) for page in page_texts(pdf.content))
    cards = {c.split(" | ", 1)[0]: c for c in text.split("score card | ")[1:]}
    here = {names[holder[n]]: n for n in holder if n not in left}
    assert set(cards) == set(here)  # the leavers (a ghost holds their number) and Late Lou: none
    schedule = rotation_schedule(PLAYERS, GAMES)
    for name, number in here.items():
        card = cards[name]
        for place in schedule.card(number):
            if place.sits_out:
                assert f"| {place.game} | sits out | {SIT_OUT} |" in card, (name, place.game)
                continue
            there = left.get(place.partner, GAMES) >= place.game
            row = re.search(rf"\| {place.game} \| {place.table} \| {place.seat.word} \| ([^|]+?) \| (\d+) \|", card)
            assert row, (name, place.game, card)
            partner, points = row.groups()
            assert partner == names[holder[place.partner]] if there else partner.startswith("Ghost"), (name, place)
        assert card.split("| Total | ", 1)[1].startswith(f"{expected[holder[number]][0]}"), name
