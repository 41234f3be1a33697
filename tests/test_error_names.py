"""Guests by name in the rules' messages (issue 16): a ``RuleError`` says which guests, tables
and rounds it is about; ``str(error)`` reads with ids (logs, the tests of ``tables/``), and
``tournament.services.naming.error_message`` writes the same sentence with the evening's names,
once, where the message leaves for a person. No module rewrites messages with a regex."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tables.errors import GuestIds, RuleError, Subjects
from tables.formats.poker.bell import EveningState, StateError, TableResult
from tables.formats.poker.bell.checks import check_one, check_results
from tables.table_cards import DrawError
from tests.factories import EveningFactory, GuestFactory
from tournament.services.naming import error_message

NAMES = {17: "Ann Smith", 3: "Bob Brown", 4: "Cleo Díaz", 5: "Dan Ek", 6: "Eve Fox"}


def state() -> EveningState:
    return EveningState.start([[3, 4, 5, 6], [17, 7, 8, 9]], stake=50)


def test_a_guest_seated_twice_reads_with_ids_and_with_names():
    with pytest.raises(StateError) as caught:
        EveningState(
            ((17, 2, 3), (4, 5, 17)),
            {g: 50 for g in (17, 2, 3, 4, 5)},
            {g: 0 for g in (17, 2, 3, 4, 5)},
            {g: 1 for g in (17, 2, 3, 4, 5)},
        )
    error = caught.value
    assert str(error) == "Guest 17 is seated twice (at table 1 and again at table 2)."
    assert error.subjects == Subjects(guests=(17,), tables=(1, 2))
    assert error_message(error, names=NAMES) == "Ann Smith is seated twice (at table 1 and again at table 2)."


def test_a_pool_winner_not_at_the_table_names_everyone_there():
    with pytest.raises(RuleError) as caught:
        check_one(state(), TableResult(table=1, pool_winner=17, counters={}))
    error = caught.value
    assert str(error) == (
        "Guest 17 is named as the pool winner but does not sit at table 1, where guests 3, 4, 5 and 6 sit."
    )
    assert error.subjects == Subjects(guests=(17, 3, 4, 5, 6), tables=(1,))
    assert error_message(error, names=NAMES) == (
        "Ann Smith is named as the pool winner but does not sit at "
        "table 1, where Bob Brown, Cleo Díaz, Dan Ek and Eve Fox sit."
    )


def test_a_missing_count_at_the_head_table_names_who_is_missing():
    with pytest.raises(RuleError) as caught:
        check_results(state(), [TableResult(table=1, pool_winner=3, counters={3: 100, 4: 50})])
    assert str(caught.value) == "The head table must report every guest's counters: missing guests 5 and 6."
    assert error_message(caught.value, names=NAMES) == (
        "The head table must report every guest's counters: missing Dan Ek and Eve Fox."
    )


def test_a_guest_id_the_evening_does_not_know_stays_an_id():
    error = DrawError("{guest} has no card recorded in this draw.", guests=(99,))
    assert error_message(error, names=NAMES) == "Guest 99 has no card recorded in this draw."


def test_text_a_person_typed_is_never_read_as_a_template():
    error = RuleError("{guest} cut {rank!r}: not a card rank.", guests=(17,), rank="{guests[9]}")
    assert str(error) == "Guest 17 cut '{guests[9]}': not a card rank."
    assert RuleError("A name like {this} stays as it is.").args == ("A name like {this} stays as it is.",)


def test_lists_and_rounds_in_words():
    error = RuleError(
        "Round {round}: tables {tables} wait for {there}.", rounds=(2,), tables=(3, 4, 5), there=GuestIds((3, 4))
    )
    assert str(error) == "Round 2: tables 3, 4 and 5 wait for guests 3 and 4."
    assert error.subjects == Subjects(guests=(3, 4), tables=(3, 4, 5), rounds=(2,))
    assert error_message(error, names=NAMES) == "Round 2: tables 3, 4 and 5 wait for Bob Brown and Cleo Díaz."


@pytest.mark.django_db
def test_error_message_reads_the_names_of_the_evening():
    evening = EveningFactory()
    ann = GuestFactory(evening=evening, name="Ann Smith")
    other = GuestFactory(evening=EveningFactory(), name="Not Hers")
    error = RuleError("{guests[0]} and {guests[1]} are listed twice.", guests=(ann.pk, other.pk))
    assert error_message(error, evening) == f"Ann Smith and guest {other.pk} are listed twice."


def test_no_module_of_tournament_rewrites_errors_or_prizes_with_a_regex_on_guest_ids():
    """Errors and prize reasons are written from their structured fields. The one regex left on
    guest ids is ``naming.name_guests``, for the bell's entries and warnings stored as text in a
    bell's record (not errors); it is never given an error's or a prize's text."""
    root = Path(__file__).resolve().parent.parent / "tournament"
    regex_on_guests = re.compile(r"""re\.(?:compile|sub|subn|search|match|findall)\(\s*r?["'][^"'\n]*uest""")
    found = sorted(
        str(path.relative_to(root)) for path in root.rglob("*.py") if regex_on_guests.search(path.read_text())
    )
    assert found == ["services/naming.py"]
    sources = "\n".join(path.read_text() for path in root.rglob("*.py"))
    assert "named_error" not in sources and "printed_reason(p.prize.reason" not in sources
    assert not re.search(r"name_guests\((?:str\(|p\.reason|.*error)", sources)
