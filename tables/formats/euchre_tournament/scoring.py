"""The Euchre tournament's scores: each player's points in a game, a sit-out's, and the prizes.

Rules (``docs/rules/euchre-tournament.md``): a hand scores as in
Progressive Euchre (``tables.formats.scoring.euchre_hand_points``: the makers' 3 or 4 tricks 1,
a march 2, a lone hand's march 4, euchred makers give the defenders 2). A player's score for a
game is their partnership's points at their table, and their evening is the sum. Options:

* ``loner_bonus``: a lone hand's march scores 5 for the player who went alone and 4 for the
  partner (the option of ``docs/rules/euchre-tournament.md``);
* ``sit_out``: what a player sitting a game out scores: ``"fixed"``, ``sit_out_points`` (default
  6), or ``"average"``, the average of that game's scores rounded down (the option of ``docs/rules/euchre-tournament.md``;
  house rule: the average of every seated player's score).

Prizes: the highest total, and the booby for the lowest; ties go to more games won (a player
wins a game when their partnership outscored the other at their table; house rule: a table
level on points has no winner, and a sit-out wins no game), then to the cut, the highest cut
taking the prize (``tables.cuts``). Option ``most_loners``: a prize for the most lone
hands marched. House rule: the booby is never the winner of the highest total, nor a player who
left before the end (their total counts fewer games).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tables.cuts import Cuts, Cutter
from tables.errors import RuleError, id_words
from tables.formats.euchre_tournament.schedule import Game
from tables.formats.foursome import Foursome, Side, pair
from tables.formats.scoring import ScoreError, euchre_hand_points, euchre_score
from tables.game_options import options_from_mapping
from tables.prizes import Prize

RULE = "the Euchre tournament's rules: the highest total wins, the lowest takes the booby"
SIT_OUT_RULES = ("fixed", "average")


@dataclass(frozen=True, slots=True)
class TournamentOptions:
    """The Euchre tournament's house rules (module docstring); an unknown value is refused."""

    loner_bonus: bool = False
    sit_out: str = "fixed"
    sit_out_points: int = 6
    most_loners: bool = False

    def __post_init__(self) -> None:
        if self.sit_out not in SIT_OUT_RULES:
            raise RuleError(f"“{self.sit_out}” is not a sit-out score: use fixed or average.")
        points = self.sit_out_points
        if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 99:
            raise RuleError(f"A sit-out scores 0 to 99 points, not {points!r}.")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> TournamentOptions:
        """Options from a dict; ``RuleError`` for an unknown key or a bad value."""
        return options_from_mapping(cls, data, "the Euchre tournament")


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand at a table: the side that made trump (``makers``), the tricks it took (0–5) and,
    for a lone hand, the player who went alone (one of the makers)."""

    makers: Side
    tricks: int
    alone: int | None = None


@dataclass(frozen=True, slots=True)
class GameScores:
    """One game's result: ``scores``, every player's points (sit-outs included); ``won``, the
    players whose partnership won their table; ``loners``, player -> lone hands marched."""

    scores: Mapping[int, int]
    won: frozenset[int] = frozenset()
    loners: Mapping[int, int] = field(default_factory=dict)


def table_scores(
    table: Foursome,
    *,
    points: Mapping[Side | str, int] | None = None,
    hands: Sequence[Hand] | None = None,
    options: TournamentOptions = TournamentOptions(),
) -> GameScores:
    """One table's game: each side's points, or the ``hands`` played (added up as Progressive
    Euchre scores them, with the loner bonus if on). Returns the four players' points, who won
    and the lone hands marched. Raises ``ScoreError`` for a hand or points the game makes
    impossible (``euchre_score``'s checks) or a lone player who is not among the makers."""
    bonus: dict[int, int] = {}
    loners: dict[int, int] = {}
    scored: list[tuple[Side, int]] | None = None
    if hands is not None:
        scored = []
        for number, hand in enumerate(hands, start=1):
            makers = Side(hand.makers)
            if hand.alone is not None and hand.alone not in pair(table, makers):
                raise ScoreError(
                    f"Hand {number}: {{guest}} went alone but is not one of the makers, {makers.words}.",
                    guests=(hand.alone,),
                )
            who, value = euchre_hand_points(tricks=hand.tricks, alone=hand.alone is not None)
            scored.append((makers if who == "makers" else makers.other, value))
            if hand.alone is not None and hand.tricks == 5:
                loners[hand.alone] = loners.get(hand.alone, 0) + 1
                if options.loner_bonus:
                    bonus[hand.alone] = bonus.get(hand.alone, 0) + 1
    score = euchre_score(table, points=points, hands=scored)
    totals = {player: score.added[player]["points"] + bonus.get(player, 0) for player in table}
    won = frozenset(pair(table, score.winner)) if score.winner is not None else frozenset()
    return GameScores(totals, won, loners)


def game_scores(
    game: Game, tables: Mapping[int, GameScores], *, options: TournamentOptions = TournamentOptions()
) -> GameScores:
    """A whole game: ``tables``, table number (1 = the first) -> its ``table_scores``, one for
    every table of ``game``; each sit-out scores as ``options.sit_out`` says. Raises
    ``RuleError`` for a table missing, or one not in the game."""
    numbers = set(range(1, len(game.tables) + 1))
    missing, strange = sorted(numbers - set(tables)), sorted(set(tables) - numbers)
    if missing or strange:
        what = f"table {missing[0]} has not reported" if missing else f"there is no table {strange[0]}"
        raise RuleError(f"Game {game.number} has tables 1 to {len(game.tables)}: {what}.")
    scores: dict[int, int] = {}
    won: set[int] = set()
    loners: dict[int, int] = {}
    for number, table in enumerate(game.tables, start=1):
        result = tables[number]
        if set(result.scores) != set(table):
            raise RuleError(f"Table {number}'s scores are for other players than its own in game {game.number}.")
        scores |= result.scores
        won |= result.won
        loners |= result.loners
    seated = list(scores.values())
    out_points = sum(seated) // len(seated) if options.sit_out == "average" else options.sit_out_points
    scores |= dict.fromkeys(game.sitting_out, out_points)
    return GameScores(scores, frozenset(won), loners)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's evening: ``points`` (the games' sum), ``wins`` (games won), ``loners``."""

    player: int
    points: int
    wins: int
    loners: int


def standings(players: int, games: Sequence[GameScores]) -> tuple[Standing, ...]:
    """Every player's totals over ``games``, the most points first, then the most games won,
    then by number (players level on both share a place; ``award`` cuts for prizes)."""
    rows = [
        Standing(
            player,
            sum(game.scores.get(player, 0) for game in games),
            sum(player in game.won for game in games),
            sum(game.loners.get(player, 0) for game in games),
        )
        for player in range(players)
    ]
    return tuple(sorted(rows, key=lambda row: (-row.points, -row.wins, row.player)))


def award(
    rows: Sequence[Standing],
    *,
    options: TournamentOptions = TournamentOptions(),
    cuts: Cuts | None = None,
    rng: random.Random | None = None,
    left: Collection[int] = (),
) -> tuple[Prize, ...]:
    """The prizes from ``rows`` (``standings``): the highest total, the booby for the lowest
    (never the same player, nor one of ``left``, the players who left before the end: house
    rule, a leaver's low total counts fewer games, so a guest who left is out of the booby
    prize's running; they keep their points and their place), and with ``options.most_loners`` the most lone hands marched (not
    given when nobody marched one). Ties: more games won, then the cut (the host's ``cuts``,
    else ``rng``; recorded by ``Cutter``). Returns them in that order; none without rows."""
    rows = list(rows)
    if not rows:
        return ()
    cutter = Cutter(cuts, rng)
    prizes = [_prize("highest_total", "Highest total", rows, lambda r: (r.points, r.wins), cutter)]
    others = [row for row in rows if row.player not in prizes[0].winners and row.player not in left]
    if others:
        prizes.append(_prize("booby", "Booby prize: lowest total", others, lambda r: (-r.points, -r.wins), cutter))
    if options.most_loners:
        if max(row.loners for row in rows) == 0:
            prizes.append(Prize("most_loners", "Most loners", (), "Not awarded: nobody marched a lone hand.", RULE))
        else:
            prizes.append(_prize("most_loners", "Most loners", rows, lambda r: (r.loners, r.wins), cutter))
    return tuple(prizes)


def _prize(
    key: str, title: str, rows: Sequence[Standing], order: Callable[[Standing], tuple[int, int]], cutter: Cutter
) -> Prize:
    """The prize ``key`` to the best of ``rows`` by ``order`` (a row -> a tuple, more first);
    rows level on it cut, the highest cut taking it."""
    best = max(order(row) for row in rows)
    tied = tuple(sorted(row.player for row in rows if order(row) == best))
    first = next(row for row in rows if row.player == tied[0])
    count = first.loners if key == "most_loners" else first.points
    noun = "lone hand" if key == "most_loners" else "point"
    why = f"{count} {noun}{'' if count == 1 else 's'}, {first.wins} game{'' if first.wins == 1 else 's'} won."
    if len(tied) == 1:
        return Prize(key, title, tied, why, RULE, why)
    winner = cutter.highest(
        tied, table=0, why=title, rule="the Euchre tournament's rules: a tie goes to more games won, then to the cut"
    )
    prize = Prize(key, title, (winner,), why, RULE, why, tied)
    return replace(prize, reason=prize.reason_for(id_words))
