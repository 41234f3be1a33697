"""The Euchre tournament's scores (``tables.formats.euchre_tournament.scoring``), worked by hand.

Rules: ``docs/rules/euchre-tournament.md``: hands as in Progressive
Euchre (makers' 3–4 tricks 1, a march 2, a lone march 4, euchred makers give the defenders 2),
the loner option (5 to the lone player, 4 to the partner), a sit-out's score (fixed, default 6,
or the game's average rounded down), prizes for the highest and the lowest total with ties to
more games won, then the cut.
"""

from __future__ import annotations

import pytest

from tables.errors import RuleError
from tables.formats.euchre_tournament.schedule import Game
from tables.formats.euchre_tournament.scoring import (
    GameScores,
    Hand,
    Standing,
    TournamentOptions,
    award,
    game_scores,
    standings,
    table_scores,
)
from tables.formats.foursome import Side
from tables.formats.scoring import ScoreError
from tables.game_options import UnknownOptionError

TABLE = (0, 1, 2, 3)  # North 0, East 1, South 2, West 3: 0–2 and 1–3 partners
HANDS = [
    Hand(Side.NORTH_SOUTH, 3),  # NS 1
    Hand(Side.EAST_WEST, 5),  # EW 2, a march
    Hand(Side.NORTH_SOUTH, 5, alone=0),  # NS 4, North's lone march
    Hand(Side.EAST_WEST, 2),  # EW euchred: NS 2
]


def test_a_tables_points_are_each_partners_score_and_the_higher_side_wins() -> None:
    result = table_scores(TABLE, points={"NS": 7, "EW": 5})
    assert result.scores == {0: 7, 2: 7, 1: 5, 3: 5}
    assert result.won == {0, 2}


def test_hands_add_up_as_progressive_euchre_scores_them() -> None:
    """NS: 1 + 4 + 2 = 7; EW: 2."""
    result = table_scores(TABLE, hands=HANDS)
    assert result.scores == {0: 7, 2: 7, 1: 2, 3: 2}
    assert result.loners == {0: 1}
    assert result.won == {0, 2}


def test_with_the_loner_bonus_the_lone_player_scores_5_for_a_march_and_the_partner_4() -> None:
    result = table_scores(TABLE, hands=HANDS, options=TournamentOptions(loner_bonus=True))
    assert result.scores == {0: 8, 2: 7, 1: 2, 3: 2}


def test_a_lone_hand_euchred_gives_the_defenders_2_and_is_no_loner_made() -> None:
    result = table_scores(
        TABLE, hands=[Hand(Side.NORTH_SOUTH, 2, alone=2)], options=TournamentOptions(loner_bonus=True)
    )
    assert result.scores == {0: 0, 2: 0, 1: 2, 3: 2} and result.loners == {}


def test_a_lone_player_who_is_not_a_maker_is_refused() -> None:
    with pytest.raises(ScoreError, match="Hand 1: guest 1 went alone but is not one of the makers, North–South."):
        table_scores(TABLE, hands=[Hand(Side.NORTH_SOUTH, 5, alone=1)])


def test_a_level_table_has_no_winner() -> None:
    assert table_scores(TABLE, points={"NS": 6, "EW": 6}).won == frozenset()


GAME = Game(1, ((1, 2, 3, 4), (5, 6, 7, 8)), (0,))


def _tables(first: tuple[int, int], second: tuple[int, int]) -> dict[int, GameScores]:
    return {
        1: table_scores(GAME.tables[0], points={"NS": first[0], "EW": first[1]}),
        2: table_scores(GAME.tables[1], points={"NS": second[0], "EW": second[1]}),
    }


def test_a_sit_out_scores_6_by_default() -> None:
    result = game_scores(GAME, _tables((9, 6), (11, 4)))
    assert result.scores[0] == 6
    assert result.scores[1] == 9 and result.scores[2] == 6 and result.scores[8] == 4
    assert result.won == {1, 3, 5, 7}


def test_a_sit_out_scores_the_games_average_rounded_down_by_option() -> None:
    """Seated: 9, 9, 6, 6, 11, 11, 4, 4 = 60 points over 8 players, 7.5: 7."""
    result = game_scores(GAME, _tables((9, 6), (11, 4)), options=TournamentOptions(sit_out="average"))
    assert result.scores[0] == 7


def test_a_fixed_sit_out_score_may_be_set() -> None:
    result = game_scores(GAME, _tables((9, 6), (11, 4)), options=TournamentOptions(sit_out_points=5))
    assert result.scores[0] == 5


def test_a_game_missing_a_table_or_with_a_strange_one_is_refused() -> None:
    tables = _tables((9, 6), (11, 4))
    with pytest.raises(RuleError, match="Game 1 has tables 1 to 2: table 2 has not reported."):
        game_scores(GAME, {1: tables[1]})
    with pytest.raises(RuleError, match="there is no table 3"):
        game_scores(GAME, tables | {3: tables[1]})
    with pytest.raises(RuleError, match="Table 2's scores are for other players"):
        game_scores(GAME, {1: tables[1], 2: tables[1]})


def test_standings_add_the_games_and_count_the_wins() -> None:
    one = GameScores({0: 7, 1: 5, 2: 7, 3: 5}, frozenset({0, 2}), {0: 1})
    two = GameScores({0: 3, 1: 8, 2: 6, 3: 6}, frozenset({1}))
    assert standings(4, [one, two]) == (
        Standing(1, 13, 1, 0),  # 5 + 8; level with 2 on points and wins, listed by number
        Standing(2, 13, 1, 0),  # 7 + 6
        Standing(3, 11, 0, 0),  # 5 + 6
        Standing(0, 10, 1, 1),  # 7 + 3, one lone march
    )


ROWS = (
    Standing(1, 20, 3, 0),
    Standing(0, 20, 2, 1),
    Standing(4, 15, 1, 0),
    Standing(5, 15, 1, 0),
    Standing(3, 10, 1, 0),
    Standing(2, 10, 0, 2),
)


def test_a_tie_on_points_goes_to_more_games_won_for_the_top_and_fewer_for_the_booby() -> None:
    prizes = award(ROWS)
    assert [(p.key, p.winners) for p in prizes] == [("highest_total", (1,)), ("booby", (2,))]
    assert prizes[0].reason == "20 points, 3 games won."
    assert prizes[1].reason == "10 points, 0 games won."


def test_a_tie_on_points_and_wins_is_cut_the_highest_cut_taking_it() -> None:
    rows = (Standing(4, 15, 1, 0), Standing(5, 15, 1, 0), Standing(2, 3, 0, 0))
    prizes = award(rows, cuts={4: 3, 5: 11})
    assert prizes[0].winners == (5,) and prizes[0].tied == (4, 5)
    assert (
        prizes[0].reason
        == "15 points, 1 game won. Guests 4 and 5 tied; guest 5 won the cut (house rule: a tie for a prize is cut)."
    )


def test_the_most_loners_prize_is_given_by_option_and_to_no_one_when_nobody_marched_alone() -> None:
    prizes = award(ROWS, options=TournamentOptions(most_loners=True))
    assert prizes[2].key == "most_loners" and prizes[2].winners == (2,)
    nobody = award(ROWS[2:4], options=TournamentOptions(most_loners=True))
    assert nobody[2].winners == () and nobody[2].reason == "Not awarded: nobody marched a lone hand."


def test_bad_options_are_refused() -> None:
    with pytest.raises(RuleError, match="“median” is not a sit-out score: use fixed or average."):
        TournamentOptions(sit_out="median")
    with pytest.raises(RuleError, match="A sit-out scores 0 to 99 points, not -1."):
        TournamentOptions(sit_out_points=-1)
    with pytest.raises(UnknownOptionError, match="“ghosts” is not an option of the Euchre tournament"):
        TournamentOptions.from_mapping({"ghosts": True})
