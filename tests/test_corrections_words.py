"""Progressive Poker's corrections in words (a stranger's report): the count warnings of the
bells played again name their round; the refusal's way out names the round that really blocks
it (worked below); names and words are listed "A, B and C" by one rule (``tables.words.joined``)
everywhere; a warning repeated word for word is said once (``tables.words.once``)."""

from __future__ import annotations

import pytest

from tables.errors import RuleError, and_list
from tables.formats.poker.hands import listed as hand_listed
from tables.words import joined, listed, once
from tests.fixtures_bell import play, seat_by_names
from tests.test_corrections import BOOBY, HEAD, MIDDLE, four_rounds
from tournament.selectors.audit_sentences import in_words
from tournament.services.clock import round_start
from tournament.services.corrections import result_correct
from tournament.services.naming import error_message


def test_one_rule_lists_words_a_b_and_c():
    assert [joined(w) for w in ([], ["A"], ["A", "B"], ["A", "B", "C"])] == ["", "A", "A and B", "A, B and C"]
    assert joined(["seven", "seven", "two"]) == "seven, seven and two"  # every word kept
    assert listed([3, 4, 3]) == "3 and 4"  # names and numbers each once
    # the copies the rules and pages kept are the one rule now
    for join in (and_list, hand_listed, in_words):
        assert join(["Ann", "Bob", "Cy"]) == "Ann, Bob and Cy"


def test_a_line_repeated_word_for_word_is_said_once_in_the_order_first_said():
    assert once(["b", "a", "b", "c", "a"]) == ("b", "a", "c")


def _two_rounds(make_evening):
    evening = make_evening(0, 0)
    ids = seat_by_names(evening, [HEAD, MIDDLE, BOOBY])
    play(
        evening,
        ids,
        {
            1: ("H1", [], {"H1": 65, "H2": 50, "H3": 45, "H4": 40}),
            2: ("M1", [], {}),
            3: ("B1", [], {"B1": 60, "B2": 40, "B3": 50, "B4": 50}),
        },
    )
    play(
        evening,
        ids,
        {1: ("H2", ["H3"], {"H1": 55, "H2": 70, "H3": 45, "M1": 40}), 2: ("M2", [], {}), 3: ("B3", [], {})},
    )
    return evening, ids


FIX = {"round_number": 1, "table": 1, "pool_winner": "H2", "counters": {"H1": 35, "H2": 70, "H3": 55, "H4": 40}}


def _fix(ids):
    return {
        **FIX,
        "pool_winner": ids[FIX["pool_winner"]],
        "counters": {ids[name]: c for name, c in FIX["counters"].items()},
    }


def test_the_way_out_when_the_next_round_has_started_names_that_round_not_a_bell(make_evening):
    # Worked: rounds 1 and 2 rung, round 3 started. Round 1's head table corrected to H2's win sends
    # H1 (35) down instead of H4, so round 2, played with H1 at the head table, no longer fits.
    # Round 2's bell is the last bell, but round 3 has started: no bell has rung since round 2's.
    evening, ids = _two_rounds(make_evening)
    round_start(evening=evening)
    with pytest.raises(RuleError) as refused:
        result_correct(evening=evening, **_fix(ids))
    words = error_message(refused.value, evening)
    assert words.endswith(
        "A different winner cannot be saved now: round 3 has started, and a bell can be undone only before "
        "the next round starts, so round 1's winner stays as recorded."
    ), words
    assert "have rung since" not in words


def test_the_way_out_with_later_bells_names_those_bells(make_evening):
    # Worked: four rounds rung; round 2 no longer fits; the bells of rounds 3 and 4 rang after round 2's,
    # so round 2's bell is not the last and cannot be undone.
    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    with pytest.raises(RuleError) as refused:
        result_correct(evening=evening, **_fix(ids))
    assert "the bells of rounds 3 and 4 have rung since round 2's, and only the last bell can be undone" in (
        error_message(refused.value, evening)
    )


def test_the_count_warnings_of_the_bells_played_again_name_their_round(make_evening):
    evening = make_evening(0, 0)
    ids = four_rounds(evening)
    # Round 1's head table recounted, short by 10 (H4 still fewest, so who moved stays the same).
    done = result_correct(
        evening=evening,
        round_number=1,
        table=1,
        pool_winner=ids["H1"],
        counters={ids["H1"]: 65, ids["H2"]: 45, ids["H3"]: 50, ids["H4"]: 30},
    )
    assert "Round 1: Counters at table 1 add up to 190, 10 short of 200." in done.warnings
    assert all(w.startswith("Round ") for w in done.warnings)
    assert len(done.warnings) == len(set(done.warnings))


def test_guests_named_in_a_line_of_ids_are_listed_by_the_one_rule():
    from tournament.services.naming import name_guests

    names = {3: "Bob", 4: "Carl", 5: "Dee"}
    assert name_guests("missing guests 3, 4 and 5.", names) == "missing Bob, Carl and Dee."
    assert name_guests("(guests there: 3, 4)", names) == "(guests there: Bob and Carl)"
    assert name_guests("Guest 5 won", names) == "Dee won"


def test_a_bells_warning_stored_twice_is_shown_once_on_the_corrections_page_and_the_board(make_evening):
    from tournament.models import Bell
    from tournament.selectors.board import board_basics
    from tournament.services.corrections import correction_rounds

    evening, ids = _two_rounds(make_evening)
    bell = Bell.objects.live().bells().of_evening(evening.pk).newest_first().first()
    line = (
        f"Guest {ids['H4']} lost all counters at table 2, but nobody at the booby table can change seats with "
        "them: they keep their seat."
    )
    bell.record = {**bell.record, "warnings": [line, line]}
    bell.save(update_fields=["record"])
    said = "H4 lost all counters at table 2, but nobody at the booby table can change seats with them"
    warnings = correction_rounds(evening)[0].warnings
    assert len(warnings) == 1 and said in warnings[0]
    board = board_basics(evening)
    assert len(board.last_warnings) == 1 and said in board.last_warnings[0]
