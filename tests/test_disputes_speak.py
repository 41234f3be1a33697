"""Issue 11 deliver 8: disputes and corrections speak.

A guest's dispute carries an optional reason; the host's board, the table's page and the
result form show who disputed and why; the audit log is written in sentences with guests'
names; a correction's message names every guest who now sits elsewhere and where."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EveningFactory
from tests.fixtures_bell import play, seat_by_names
from tournament.formats.poker.house_rules import house_rules_set
from tournament.models import AuditEntry, Guest, ResultVote
from tournament.selectors.audit_sentences import audit_sentence, in_words, seat_moves
from tournament.services.bell import bell_ring, bell_undo
from tournament.services.captains import captain_report
from tournament.services.clock import round_start
from tournament.services.corrections import result_correct
from tournament.services.naming import guest_names
from tournament.services.results import result_record

HEAD, MIDDLE, BOOBY = ["Ann", "Bob", "Cy", "Di"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kim", "Lu"]


@pytest.fixture
def three(host):
    evening = EveningFactory(host=host, name="Dispute evening")
    return evening, seat_by_names(evening, [HEAD, MIDDLE, BOOBY])


def guest(evening, name):
    return Guest.objects.get(evening=evening, name=name)


def sentences(evening) -> list[str]:
    names = guest_names(evening)
    return [
        audit_sentence(e, names)
        for e in AuditEntry.objects.filter(evening=evening).select_related("user", "guest", "helper").order_by("id")
    ]


def test_a_dispute_with_its_reason_reaches_the_board_the_table_and_the_audit_log(client, host, three):
    evening, ids = three
    rnd = round_start(evening=evening)
    captain_report(guest=guest(evening, "Eve"), round_number=1, table=2, pool_winner=ids["Eve"])
    result = evening.rounds.get().results.get()
    vote_url = reverse("guest-vote", args=[guest(evening, "Fay").key])
    page = client.post(
        vote_url, {"result": result.pk, "verdict": "dispute", "note": "  Gus  won   it  "}, follow=True
    ).content.decode()
    assert "Your dispute is sent: the host will decide." in page
    vote = ResultVote.objects.get()
    assert (vote.verdict, vote.note) == ("dispute", "Gus won it")
    client.force_login(host)
    board = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert (
        "<strong>Table 2: disputed</strong> at the table, you decide." in board
        and "(sent by <bdi>Eve</bdi>). <bdi>Fay</bdi> disputes it: “Gus won it”." in board
    )
    table = client.get(reverse("host-table", args=[evening.pk, 2])).content.decode()
    assert "<bdi>Fay</bdi> disputes it: “Gus won it”." in table
    form = client.get(reverse("host-result", args=[evening.pk, 2])).content.decode()
    assert "sent by <bdi>Eve</bdi>; <bdi>Fay</bdi> disputes it: “Gus won it”. Saving replaces it." in form
    audit = client.get(reverse("host-audit", args=[evening.pk])).content.decode()
    assert "<bdi>Fay</bdi> disputed table 2&#x27;s result in round 1: “<bdi>Gus</bdi> won it”" in audit
    assert "<bdi>Eve</bdi> recorded table 2&#x27;s result in round 1: <bdi>Eve</bdi> won the pool." in audit
    assert rnd.results.get().status == "disputed"


def test_a_reason_too_long_or_a_damaged_vote_is_refused_and_nothing_saved(client, three):
    evening, ids = three
    round_start(evening=evening)
    captain_report(guest=guest(evening, "Eve"), round_number=1, table=2, pool_winner=ids["Eve"])
    result = evening.rounds.get().results.get()
    url = reverse("guest-vote", args=[guest(evening, "Fay").key])
    page = client.post(url, {"result": result.pk, "verdict": "dispute", "note": "x" * 201}, follow=True)
    assert page.status_code == 200 and "Say why in 200 characters or fewer." in page.content.decode()
    page = client.post(url, {"result": "not a number", "verdict": "dispute"}, follow=True)
    assert "The form was damaged: look at your page again." in page.content.decode()
    page = client.post(url, {"result": result.pk, "verdict": "shrug"}, follow=True)
    assert "Choose confirm or dispute." in page.content.decode()
    assert not ResultVote.objects.exists()
    client.post(url, {"result": result.pk, "verdict": "confirm", "note": "fine by me"})
    assert ResultVote.objects.get().note == ""  # a confirmation keeps no reason


def test_a_correction_names_everyone_who_sits_elsewhere(client, host, three):
    evening, ids = three
    play(
        evening,
        ids,
        {1: ("Ann", ["Bob"], {"Ann": 80, "Bob": 50, "Cy": 40, "Di": 30}), 2: ("Eve", [], {}), 3: ("Ivy", [], {})},
    )
    client.force_login(host)
    url = reverse("host-correction", args=[evening.pk, 1, 3])
    page = client.post(url, {"pool_winner": str(ids["Jo"])}, follow=True).content.decode()
    assert (
        "Round 1, table 3 corrected; the bell of round 1 was played again. Jo now sits at table 2, Ivy at table 3."
    ) in page
    assert "guest(s)" not in page
    assert sentences(evening)[-1] == (
        "The host corrected table 3's result in round 1: Jo won the pool (not Ivy); "
        "the bell of round 1 was played again. Jo now sits at table 2, Ivy at table 3."
    )
    again = result_correct(
        evening=evening,
        round_number=1,
        table=1,
        pool_winner=ids["Ann"],
        in_call=[ids["Bob"]],
        counters={ids["Ann"]: 80, ids["Bob"]: 50, ids["Cy"]: 30, ids["Di"]: 40},
    )
    # Cy, not Di, had the fewest counters outside the call: they change places.
    names = guest_names(evening)
    assert seat_moves((names[g], t) for g, t in again.moves) == "Di now sits at table 1, Cy at table 3."


def test_the_audit_log_says_the_bell_the_undo_and_the_house_rules_in_words(host, three):
    evening, ids = three
    house_rules_set(evening=evening, bell={"no_result": "lot"}, prizes={"ties": "cut"}, user=host)
    first = play(evening, ids, {1: ("Ann", [], {n: 50 for n in HEAD}), 2: ("Eve", [], {}), 3: ("Ivy", [], {})})
    bell_undo(evening=evening, bell_id=first.pk, user=host)
    result_record(
        round=first.round,
        table=1,
        pool_winner=ids["Ann"],
        user=host,
        count_check=True,
        agreed_off=-5,
        counters={ids["Ann"]: 45, ids["Bob"]: 50, ids["Cy"]: 50, ids["Di"]: 50},
    )
    bell_ring(round_id=first.round_id, cause="host", user=host)
    said = sentences(evening)
    assert said[0] == (
        "The host changed the house rules. A table has no pool winner at the bell: everyone at that "
        "table cuts; whoever cuts the highest card moves up as if they had won. A tie for a prize: the tied guests "
        "cut; whoever cuts the highest card takes it."
    )
    assert "The host undid the bell of round 1: round 1 waits for the host's bell." in said
    assert (
        "The host recorded table 1's result in round 1: Ann won the pool, with the count 5 short as the table agrees."
    ) in said
    rang = [s for s in said if "rang the bell for round 1" in s]
    assert rang[0].startswith("The host rang the bell for round 1: ") and " guests moved" in rang[0]
    for sentence in said:
        assert "{" not in sentence and "=" not in sentence and "was:" not in sentence and "_" not in sentence


def test_an_action_the_log_does_not_know_still_reads_as_a_sentence(host, three):
    evening, _ = three
    entry = AuditEntry.objects.create(evening=evening, action="prizes.recount", user=host, detail={"raw": {"a": 1}})
    assert audit_sentence(entry, {}) == "The host: prizes recount."
    odd = AuditEntry.objects.create(evening=evening, action="bell.ring", detail={"round": "x", "moves": "many"})
    assert "{" not in audit_sentence(odd, {}) and audit_sentence(odd, {}).startswith("The host")


def test_lists_read_as_english():
    assert in_words(["Ann"]) == "Ann" and in_words(["Ann", "Bob"]) == "Ann and Bob"
    assert in_words(["Ann", "Bob", "Cy"]) == "Ann, Bob and Cy" and in_words([]) == ""
    assert in_words([str(i) for i in range(15)], limit=3) == "0, 1, 2 and 12 more"
    assert seat_moves([]) == "" and seat_moves([("Ann", 3)]) == "Ann now sits at table 3."


def test_the_end_of_the_evening_reads_as_sentences_too(host, three):
    evening, ids = three
    made = [
        AuditEntry.objects.create(evening=evening, user=host, action=action, detail=detail)
        for action, detail in (
            ("evening.last_round", {"round": 4}),
            ("evening.end", {"round": 4}),
            ("final.count", {"table": 2, "counters": {str(ids["Eve"]): 1210, str(ids["Fay"]): 40}, "off_by": 10}),
            ("ceremony.reveal", {"step": 1, "shown": "Most yellow counters"}),
        )
    ]
    names = guest_names(evening)
    assert [audit_sentence(e, names) for e in made] == [
        "The host made round 4 the last round of the evening.",
        "The host ended the evening after round 4.",
        "The host took table 2's final count: Eve 1,210 and Fay 40, with the count 10 over as the table agrees.",
        "The host revealed the prize “Most yellow counters” on the room display.",
    ]


def test_ring_the_bell_now_asks_first_when_a_result_is_disputed(client, host, three):
    evening, ids = three
    rnd = round_start(evening=evening)
    captain_report(guest=guest(evening, "Eve"), round_number=1, table=2, pool_winner=ids["Eve"])
    result = rnd.results.get()
    client.post(
        reverse("guest-vote", args=[guest(evening, "Fay").key]),
        {"result": result.pk, "verdict": "dispute", "note": "wrong winner"},
    )
    result_record(round=rnd, table=1, pool_winner=ids["Ann"], counters={ids[n]: 50 for n in HEAD})
    result_record(round=rnd, table=3, pool_winner=ids["Ivy"])
    client.force_login(host)
    board = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "3 of 3 tables in</strong> · disputed: <a" in board
    url = reverse("host-round", args=[evening.pk])
    asked = client.post(url, {"action": "ring", "round": 1})
    assert asked.status_code == 302 and asked.url == reverse("host-bell-confirm", args=[evening.pk, 1])
    assert not rnd.bells.exists()
    page = client.get(asked.url).content.decode()
    assert "Table 2's result is disputed.</strong> If you ring now, it counts as reported" in page
    assert "<bdi>Fay</bdi> disputes it: “wrong winner”" in page
    assert "Ring the bell with the results as reported" in page
    rung = client.post(url, {"action": "ring", "round": 1, "confirmed": "True"}, follow=True)
    assert "The bell of round 1 has rung." in rung.content.decode() and rnd.bells.count() == 1
