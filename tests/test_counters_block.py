"""The plug-in's counters questions (``FormatPlugin``'s block after ``page``): what the generic
bell, state, result, correction, final-count, seat-change and board services ask a format that
plays for counters, answered by Progressive Poker's package (``tournament/formats/poker/``) and
refused in words by every format at tables of four (issue 23: generic modules hold no piece of
a format). Every registered format is asked, from the registry, so a format added there is too.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.module_loading import import_string

from tables.errors import RuleError
from tables.formats.poker.bell import EveningState, TableResult
from tables.formats.poker.bell.checks import count_off
from tables.formats.poker.plan import relaxations
from tests.factories import EveningFactory, GuestFactory
from tournament.formats.poker.house_rules import house_rules_set
from tournament.models import Evening
from tournament.registry import format_for
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state, ring_options

PLUGINS = [import_string(path)() for path in settings.HEAD_TABLE_FORMATS]
AT_TABLES_OF_FOUR = [p.key for p in PLUGINS if not p.counters]
WITH_COUNTERS = [p.key for p in PLUGINS if p.counters]


def _drawn(host, key: str, guests: int = 12) -> Evening:
    evening = EveningFactory(host=host, format=key, rounds_planned=3, round_end=Evening.RoundEnd.CLOCK)
    for i in range(guests):
        GuestFactory(evening=evening, name=f"Guest {chr(65 + i)}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening)
    evening.refresh_from_db()
    return evening


def test_every_format_says_whether_it_plays_for_counters():
    assert WITH_COUNTERS == ["poker"] and AT_TABLES_OF_FOUR  # the block is asked of both kinds


@pytest.mark.parametrize("key", AT_TABLES_OF_FOUR)
def test_a_format_at_tables_of_four_refuses_every_counters_question_in_words(db, host, key):
    evening = _drawn(host, key)
    fmt = format_for(evening)
    state = fmt.state(evening)
    asked = [
        lambda: fmt.pool_result(table=1, pool_winner=state.tables[0][0], counters={}),
        lambda: fmt.result_check(state, object()),
        lambda: fmt.count_off(state, 1, {}),
        lambda: fmt.house_rule(evening, "no_result"),
        lambda: fmt.seat_change_record(state, None),
    ]
    for question in asked:
        with pytest.raises(RuleError) as refused:
            question()
        assert fmt.title in str(refused.value)  # words for the host, naming the format
    with pytest.raises(RuleError, match="tables of four"):
        evening_state(evening)  # the generic read refuses before asking


@pytest.mark.parametrize("key", AT_TABLES_OF_FOUR)
def test_a_format_at_tables_of_four_answers_what_it_has_its_own_way(db, host, key):
    evening = _drawn(host, key)
    fmt = format_for(evening)
    state = fmt.state(evening)
    assert fmt.counted_state(evening) == state  # no final count: the state now
    assert fmt.ring_options(evening) == fmt.options(evening.options)  # its options of play
    assert fmt.sizes_relaxed((4,) * len(state.tables)) is None  # a ghost fills a seat: nothing relaxed
    assert fmt.standing_rows(evening, state, {}) == ()  # its own board shows them
    rnd = round_start(evening=evening)
    preview = fmt.bell_preview(rnd)
    assert (preview.record, preview.waiting, preview.cutters) == (None, "", ())


def test_progressive_poker_answers_with_its_rules(db, host):
    evening = _drawn(host, "poker")
    fmt = format_for(evening)
    state = fmt.state(evening)
    assert isinstance(state, EveningState) and fmt.counted_state(evening, final=False) == state
    head = list(state.tables[0])
    counters = {g: state.counters[g] for g in head}
    counters[head[0]] += 7
    counters[head[1]] -= 4
    assert fmt.count_off(state, 1, counters) == count_off(state, 1, counters) == 3
    result = fmt.pool_result(table=1, pool_winner=head[0], in_call=[head[1]], counters=counters)
    assert result == TableResult(table=1, pool_winner=head[0], in_call=frozenset({head[1]}), counters=counters)
    fmt.result_check(state, result)  # a result the head table could report
    with pytest.raises(RuleError):
        fmt.result_check(state, fmt.pool_result(table=1, pool_winner=state.tables[1][0]))  # not at that table
    assert fmt.sizes_relaxed((5, 4, 3)) == relaxations((5, 4, 3)) is not None
    places = [place for place, _, _ in fmt.standing_rows(evening, state, {g.pk: g for g in evening.guests.all()})]
    assert places == sorted(places) and places[0] == 1 and len(places) == evening.guests.count()


def test_progressive_poker_reads_the_house_rules_the_host_chose(db, host):
    evening = _drawn(host, "poker")
    fmt = format_for(evening)
    assert fmt.house_rule(evening, "no_result") == "stay"  # the rules' default
    house_rules_set(evening=evening, bell={"no_result": "hold", "last_round_counts": "optional"}, prizes={})
    evening.refresh_from_db()
    assert fmt.house_rule(evening, "no_result") == "hold"
    assert fmt.house_rule(evening, "last_round_counts") == "optional"
    assert ring_options(evening).no_result == "hold"  # the bell rings with the host's choice
    with pytest.raises(RuleError, match="no house rule called yellow"):
        fmt.house_rule(evening, "yellow")


def test_the_house_rules_page_is_progressive_pokers_own(db, host, client):
    """The product's address serves the format's own page (``PokerFormat.pages``)."""
    evening = _drawn(host, "poker")
    client.force_login(host)
    page = client.get(reverse("host-house-rules", args=[evening.pk]))
    assert page.status_code == 200
    assert "A table has no pool winner at the bell" in page.content.decode()
