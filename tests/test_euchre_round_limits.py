"""What a euchre table can report, in one place (``tables.formats.scoring``: ``EUCHRE_MOST_POINTS``,
``euchre_round_check``; ``tables.formats.table_rules.REPORT_LIMITS``), refused alike by the host's
form (which a scorer at tables of four uses too: ``docs/rules/tables-of-four.md``) and a captain's
phone, in Progressive Euchre and the Euchre tournament.

House rule (``docs/rules/progressive-euchre.md``, "Scoring a hand"; ``euchre-tournament.md``,
"A game"): a game is 8 hands, each worth 1, 2 or 4 points to one side, so the two sides' points
add up to 32 at most. 50–0 (one side past 32) and 20–15 (35 together) are refused with the
reason; 16–16 is a tie, played off, and needs the play-off's winner named.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tables.formats import EUCHRE
from tables.formats.records import report_score
from tables.formats.scoring import EUCHRE_MOST_POINTS, ScoreError, euchre_score
from tables.formats.table_rules import REPORT_LIMITS
from tests.factories import EveningFactory, GuestFactory
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Evening, Guest
from tournament.services.clock import round_start

TABLE = (1, 2, 3, 4)
FORMATS = ["euchre", "euchre_tournament"]
TOO_MANY = "is 35 points: a game of 8 hands gives at most 32 in all"


def test_the_limit_is_one_game_of_eight_hands_and_the_forms_read_it():
    assert EUCHRE_MOST_POINTS == 32 == REPORT_LIMITS["euchre"]["points"]


@pytest.mark.parametrize(
    ("points", "words"),
    [
        ({"NS": 50, "EW": 0}, "North–South's points: at most 32 in a round (not 50)."),
        ({"NS": 20, "EW": 15}, "20 to 15 " + TOO_MANY),
    ],
)
def test_a_score_no_game_can_make_is_refused_in_words(points, words):
    with pytest.raises(ScoreError) as refused:
        euchre_score(TABLE, points=points)
    assert words in str(refused.value)


def test_the_most_a_game_can_make_and_a_tie_played_off_are_taken():
    assert euchre_score(TABLE, points={"NS": 32, "EW": 0}).added[1]["points"] == 32
    assert euchre_score(TABLE, points={"NS": 16, "EW": 16}, playoff="EW").winner.value == "EW"
    with pytest.raises(RuleError, match="play-off"):  # a tie names the play-off's winner (ties="playoff")
        report_score(EUCHRE, TABLE, {"points": {"NS": 13, "EW": 13}}, ties="playoff")


def _evening(fmt: str) -> Evening:
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK, rounds_planned=2)
    for n in range(9 if fmt == "euchre_tournament" else 8):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    if fmt == "euchre_tournament":
        from tournament.services.draws import draw_digital

        draw_digital(evening=evening)
    else:
        foursome_draw(evening=evening)
    round_start(evening=evening)
    evening.refresh_from_db()
    return evening


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_hosts_form_is_refused_20_to_15(client, fmt):
    evening = _evening(fmt)
    seats = " ".join(map(str, foursome_state(evening).tables[0]))
    data = {"round": "1", "seated": seats, "points_NS": "20", "points_EW": "15"}
    client.force_login(evening.host)
    page = client.post(reverse("host-result", args=[evening.pk, 1]), data).content.decode()
    assert TOO_MANY in page
    assert not evening.rounds.get().results.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_captains_phone_is_refused_20_to_15(client, fmt):
    from tests.test_foursome_phones import send

    evening = _evening(fmt)
    captain = Guest.objects.get(pk=foursome_state(evening).tables[0][0])
    status, html = send(client, captain, points_ns=20, points_ew=15)
    assert status == 200 and TOO_MANY in html and "Nothing was saved." in html
    assert not evening.rounds.get().results.exists()


@pytest.mark.django_db
def test_the_service_refuses_what_every_form_sends():
    evening = _evening("euchre")
    with pytest.raises(RuleError, match=TOO_MANY):
        foursome_report(round=evening.rounds.get(), table=1, report={"points": {"NS": 20, "EW": 15}})
