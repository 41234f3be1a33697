"""The end of the evening through the host's pages, the room display and a guest's phone
(issue 11 deliver 4): *End the evening* with its confirmation, the final count form per table
(pre-filled, refusing a count that does not add up unless agreed), "Reveal next prize", and
every bad input refused with a message, nothing changed and never a 500."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.test_ending import count_every_table, first_round, last_round
from tournament.models import Evening, FinalCount, Guest
from tournament.services import ending
from tournament.services.clock import round_start
from tournament.services.prizes import evening_standings


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


@pytest.fixture
def ended(make_evening):
    evening = make_evening(0, 0, name="The Ending")
    ids = first_round(evening)
    last_round(evening, ids)
    return evening, ids


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_board_says_which_round_is_the_last_and_end_the_evening_asks_first(logged_in, make_evening):
    evening = make_evening(0, 0)
    first_round(evening)
    round_start(evening=evening)
    board = text(logged_in.get(reverse("host-evening", args=[evening.pk])))
    assert "End the evening: make round 2 the last" in board
    confirm = logged_in.get(reverse("host-end", args=[evening.pk]))
    assert confirm.status_code == 200 and "Round 2 becomes the last round" in text(confirm)
    refused = logged_in.post(reverse("host-end", args=[evening.pk]), {"round": "2"})
    assert refused.status_code == 400 and "Tick “Yes, end the evening” to confirm" in text(refused)
    evening.refresh_from_db()
    assert evening.rounds_planned is None
    done = logged_in.post(reverse("host-end", args=[evening.pk]), {"round": "2", "confirm": "on"}, follow=True)
    assert "Round 2 is now the last round" in text(done)
    assert "Round 2 of 2 — the last round" in text(done)
    again = logged_in.post(reverse("host-end", args=[evening.pk]), {"round": "2", "confirm": "on"}, follow=True)
    assert "Round 2 is the last round already" in text(again)


def test_a_stale_end_the_evening_tab_changes_nothing(logged_in, make_evening):
    evening = make_evening(0, 0)
    first_round(evening)
    round_start(evening=evening)
    page = logged_in.post(reverse("host-end", args=[evening.pk]), {"round": "1", "confirm": "on"}, follow=True)
    assert "That page was out of date: round 2" in text(page)
    evening.refresh_from_db()
    assert evening.rounds_planned is None and evening.stage == Evening.Stage.PLAYING


def test_after_the_last_bell_the_board_leads_to_the_final_count(logged_in, ended):
    evening, ids = ended
    board = text(logged_in.get(reverse("host-evening", args=[evening.pk])))
    assert "The evening has ended" in board and "Take the final count" in board
    page = logged_in.get(reverse("host-finish", args=[evening.pk]))
    body = text(page)
    assert "0 of 3 tables counted" in body
    assert reverse("host-print-results", args=[evening.pk]) in page.content.decode()
    assert reverse("host-print-certificates", args=[evening.pk]) in page.content.decode()


def test_the_final_count_form_is_prefilled_and_refuses_a_count_that_is_off(logged_in, ended):
    evening, ids = ended
    table = ending.final_count_tables(evening)[1]
    url = reverse("host-final-count", args=[evening.pk, 2])
    form = logged_in.get(url).content.decode()
    for guest in table.guests:
        assert re.search(rf'name="counters_{guest}" value="{table.last[guest]}"', form)
    posted = {f"counters_{g}": str(c) for g, c in table.last.items()}
    first = table.guests[0]
    posted[f"counters_{first}"] = str(table.last[first] - 10)
    refused = logged_in.post(url, posted)
    total = sum(table.last.values())
    assert refused.status_code == 400
    assert f"add up to {total - 10}, 10 short of the {total}" in text(refused)
    assert "The table agrees the count is off by 10 (short)" in text(refused)
    assert not FinalCount.objects.exists()
    saved = logged_in.post(url, {**posted, "agree": "on", "agreed_off": "-10"}, follow=True)
    assert "Final count saved for table 2" in text(saved) and "off by 10 short" in text(saved)
    assert FinalCount.objects.get(evening=evening, table=2).off_by == -10


def test_a_final_count_for_a_table_or_guest_not_there_is_refused(logged_in, ended):
    evening, ids = ended
    missing = logged_in.get(reverse("host-final-count", args=[evening.pk, 9]), follow=True)
    assert "There is no table 9: the tables are 1 to 3" in text(missing)
    table = ending.final_count_tables(evening)[0]
    stranger = ending.final_count_tables(evening)[2].guests[0]
    name = next(n for n, pk in ids.items() if pk == stranger)
    posted = {f"counters_{g}": str(c) for g, c in table.last.items()}
    refused = logged_in.post(
        reverse("host-final-count", args=[evening.pk, 1]), {**posted, f"counters_{stranger}": "50"}
    )
    assert refused.status_code == 400 and f"{name} is not at table 1" in text(refused)
    junk = logged_in.post(
        reverse("host-final-count", args=[evening.pk, 1]), {**posted, f"counters_{table.guests[0]}": "lots"}
    )
    assert junk.status_code == 400 and "a whole number" in text(junk)
    assert not FinalCount.objects.exists()


def test_the_ceremony_taps_reveal_each_prize_on_the_room_and_the_phones(logged_in, client, ended):
    evening, ids = ended
    reveal = reverse("host-reveal", args=[evening.pk])
    waiting = logged_in.post(reveal, {"step": "0"}, follow=True)
    assert "tables 1, 2, 3 still to count" in text(waiting)
    count_every_table(evening)
    evening.refresh_from_db()
    room = reverse("room", args=[evening.public_key])
    assert "The host is taking the final count" in text(client.get(room))
    prizes = [p for p in ending.reveal_order(evening_standings(evening).prizes) if p.winners]  # the won ones
    steps = len(prizes) + 1  # a prize nobody won has no reveal of its own
    booby = prizes[0]
    page = logged_in.post(reveal, {"step": "0"}, follow=True)
    assert f"The room display shows: Booby prize, {booby.winners[0].name}" in text(page)
    shown = text(client.get(room))
    assert f"Prize 1 of {len(prizes)}" in shown and "Booby prize" in shown and booby.winners[0].name in shown
    winner = booby.winners[0]
    phone = text(client.get(reverse("guest-page", args=[winner.key])))
    assert "You won a prize" in phone and "Booby prize" in phone and "Go to" not in phone
    stale = logged_in.post(reveal, {"step": "0"}, follow=True)
    assert f"That page was out of date: 1 of {steps} steps" in text(stale)
    board = text(logged_in.get(reverse("host-evening", args=[evening.pk])))
    assert "The prize ceremony is under way" in board and "the prize ceremony is over" not in board
    for step in range(1, steps):
        logged_in.post(reveal, {"step": str(step)})
    evening.refresh_from_db()
    assert evening.ceremony_step == steps
    board = text(logged_in.get(reverse("host-evening", args=[evening.pk])))  # not "under way" once it is over
    assert "Every prize has been given" in board and "under way" not in board
    final = text(client.get(room))
    assert "Final standings" in final and "The prizes" in final
    top = evening_standings(evening).lines[0]
    phone = text(client.get(reverse("guest-page", args=[top.guest.key])))
    assert "Your final place 1" in phone and "Most yellow counters" in phone
    past = logged_in.post(reveal, {"step": str(steps)}, follow=True)
    assert "nothing more to reveal" in text(past)
    junk = logged_in.post(reveal, {"step": "soon"}, follow=True)
    assert junk.status_code == 200 and "Reload the page and tap again" in text(junk)
    assert Evening.objects.get(pk=evening.pk).ceremony_step == steps


def test_the_end_pages_of_an_evening_still_playing_send_the_host_back(logged_in, make_evening):
    evening = make_evening(0, 0)
    first_round(evening)
    page = logged_in.get(reverse("host-finish", args=[evening.pk]), follow=True)
    assert "The evening has not ended yet" in text(page)
    count = logged_in.post(reverse("host-final-count", args=[evening.pk, 1]), {}, follow=True)
    assert "the final count comes after the last bell" in text(count)
    reveal = logged_in.post(reverse("host-reveal", args=[evening.pk]), {"step": "0"}, follow=True)
    assert "The evening has not ended yet" in text(reveal)


def test_another_hosts_end_pages_are_not_found(client, ended, django_user_model):
    evening, ids = ended
    other = django_user_model.objects.create_user("other", password="pass-word-123")
    client.force_login(other)
    for name, args in (
        ("host-end", [evening.pk]),
        ("host-finish", [evening.pk]),
        ("host-final-count", [evening.pk, 1]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 404
    assert client.post(reverse("host-reveal", args=[evening.pk]), {"step": "0"}).status_code == 404


def test_the_results_pdf_prints_the_final_count(logged_in, ended):
    from tests.test_printing_documents import all_text
    from tournament.models import Guest

    evening, ids = ended
    third = ending.final_count_tables(evening)[2]
    counts = dict(third.prefill)
    gainer, loser = third.guests[0], third.guests[1]
    counts[gainer] += 33
    counts[loser] -= 33
    ending.final_count_record(evening=evening, table=3, counters=counts)
    response = logged_in.get(reverse("host-print-results", args=[evening.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    printed = all_text(response.content)
    for pk in (gainer, loser):
        guest = Guest.objects.get(pk=pk)
        row = next(line.row for line in evening_standings(evening).lines if line.guest.pk == pk)
        assert row.counters == counts[pk]
        assert (
            f"{guest.name} {evening.pack_label(guest.pack)} {row.yellow} {counts[pk]} {row.fresh_stakes} "
            f"{row.counters_won:+d}"
        ) in printed


def test_the_ceremony_message_ends_with_one_full_stop_after_a_name_that_ends_with_one(logged_in, ended):
    evening, ids = ended
    count_every_table(evening)
    booby = ending.reveal_order(evening_standings(evening).prizes)[0]
    Guest.objects.filter(pk=booby.winners[0].pk).update(name="Liam, Jr.")
    page = logged_in.post(reverse("host-reveal", args=[evening.pk]), {"step": "0"}, follow=True)
    assert "The room display shows: Booby prize, Liam, Jr. " in text(page) and "Jr.." not in text(page)


def test_a_pack_prize_nobody_won_says_not_awarded_on_every_end_page(logged_in, client, host):
    # The final count leaves every blue guest with exactly the stakes they took: nobody in the
    # blue pack won a counter, so its prize goes to no one (docs/rules/progressive-poker.md,
    # 'Prizes'); the ceremony, the room, the phones and the printed pages say so, never a 500.
    from tests.fixtures_ending import ended_evening, ending_pages, reveal

    evening = ended_evening(host, 8)
    stake = evening.counters_per_stake
    stakes = {line.guest.pk: line.row.stakes for line in evening_standings(evening).lines}
    blue = {g.pk for g in evening.guests.filter(pack="blue")}
    for table in ending.final_count_tables(evening):
        counts = {g: stake * stakes[g] for g in table.guests if g in blue}
        reds = [g for g in table.guests if g not in blue]
        left = sum(table.last.values()) - sum(counts.values())
        for i, g in enumerate(reds):
            counts[g] = left // len(reds) + (left % len(reds) if i == 0 else 0)
        ending.final_count_record(evening=evening, table=table.number, counters=counts, agreed_off=0)
    prizes = {p.prize.key: p for p in evening_standings(evening).prizes}
    assert prizes["blue_pack"].winners == ()
    evening = reveal(evening, ending.ceremony(evening).steps)
    for page in ending_pages(evening):
        answer = (client if page.audience != "host" else logged_in).get(page.url)
        assert answer.status_code == 200, page.url
    assert "Not awarded" in text(logged_in.get(reverse("host-finish", args=[evening.pk])))
    assert "Not awarded" in text(client.get(reverse("room", args=[evening.public_key])))
    for name in ("host-print-results", "host-print-certificates"):
        assert logged_in.get(reverse(name, args=[evening.pk])).status_code == 200, name
