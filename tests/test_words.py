"""Counted words by one rule (issue 24 item 8, ``tables.words``): "1 round" and "3 rounds",
"table 4" and "tables 3 and 4", a number named twice counted once; the pages and sentences
that wrote "1 rounds", "table(s) 4" and "rounds 2 and 2 were played again"."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse

from tables.words import counted, listed, numbered, plural
from tournament.models import AuditEntry
from tournament.selectors.audit_sentences import audit_sentence


def test_a_count_and_its_word():
    assert [counted(n, "round") for n in (0, 1, 2, -1)] == ["0 rounds", "1 round", "2 rounds", "-1 round"]
    assert counted(2, "person") == "2 people" and counted(1, "person") == "1 person"
    assert counted(3, "box", "boxes") == "3 boxes" and plural(2, "was") == "were" and plural(1, "was") == "was"


def test_numbers_in_words_each_once():
    assert [listed(n) for n in ([], [4], [3, 4], [2, 3, 4], [2, 2])] == ["", "4", "3 and 4", "2, 3 and 4", "2"]
    assert numbered("table", [4]) == "table 4" and numbered("table", [3, 4]) == "tables 3 and 4"
    assert numbered("round", [2, 2]) == "round 2" and numbered("Table", [5, 6, 7]) == "Tables 5, 6 and 7"


def test_the_template_filter_counts_by_the_same_rule():
    page = Template(
        '{% load word_tags %}{{ a|counted:"round" }} · {{ b|counted:"round" }} · {{ c|counted:"person,people" }}'
    )
    assert page.render(Context({"a": 1, "b": 4, "c": 2})) == "1 round · 4 rounds · 2 people"


@pytest.mark.django_db
def test_a_correction_replaying_one_round_twice_names_it_once(make_evening):
    evening = make_evening(4, 4)
    entry = AuditEntry(
        evening=evening,
        action="result.correct",
        detail={"table": 3, "round": 2, "pool_winner": None, "replayed": [2, 2], "report_again": [4]},
    )
    said = audit_sentence(entry, {})
    assert "the bell of round 2 was played again" in said, said
    assert "Table 4 of the round in play must report again." in said, said
    entry.detail = {**entry.detail, "replayed": [2, 3], "report_again": [4, 5]}
    said = audit_sentence(entry, {})
    assert "the bells of rounds 2 and 3 were played again" in said and "Tables 4 and 5 of" in said, said


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["poker", "euchre"])
def test_an_evening_of_one_round_says_1_round(client, host, make_evening, fmt):
    evening = make_evening(4, 4, format=fmt, rounds_planned=1)
    client.force_login(host)
    page = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert "· 1 round" in page and "1 rounds" not in page
