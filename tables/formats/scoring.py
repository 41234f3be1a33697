"""What a table of four reports at the bell, per format, and what it adds to each player's card.

Sources (``docs/rules/``, a page per format): Foster's Complete Hoyle (Progressive Euchre, Drive Whist);
Keller, *The Game of Euchre*, ch. VIII; the Bunco clubs' rules. Each format turns a table's
report into a ``TableScore``: the winning side, and what every player at the table adds to each
of their tallies (stars, points, tricks, wins, losses, buncos, mini buncos). Reports are checked
against what the format makes possible; a wrong one raises ``ScoreError`` saying what to fix.

Silent cases, decided here (house rules, also on the rules pages):

* A game unfinished at the bell is decided by the score so far (``docs/rules/tables-of-four.md``: "A table whose
  game is unfinished is decided by the score so far").
* An exact tie is played off (one more hand, one more roll) and the report names the side that
  won the play-off; its points are not added to anyone's tally. With ``ties="cut"`` the two
  sides cut instead (the bell records the cut).
* Ghosts score like players: their points count for their partner (Bunco) and their own buncos,
  wins and losses go on their own card; they win no prize (``tables.formats.prizes``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product

from tables.errors import RuleError
from tables.formats.foursome import Foursome, Side, pair


class ScoreError(RuleError):
    """A table's report that the format makes impossible; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class TableScore:
    """A table's report as the bell uses it.

    ``winner``: the winning side, or ``None`` when an exact tie is left to a cut at the bell;
    ``added``: player id -> tally name -> amount added this round whoever wins (points, tricks,
    buncos; whole numbers, 0 or more); ``for_win`` / ``for_loss``: what each winner / loser adds
    once the winner is known (``{"stars": 1, "wins": 1}``, ``{"losses": 1}``);
    ``words``: the result in plain words ("North–South won, 7 points to 5").
    """

    winner: Side | None
    added: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    for_win: Mapping[str, int] = field(default_factory=dict)
    for_loss: Mapping[str, int] = field(default_factory=dict)
    words: str = ""

    def tallies(self, table: Foursome, winner: Side) -> dict[int, dict[str, int]]:
        """Everything each player at ``table`` adds, with ``winner`` the winning side (the
        report's, or the cut's when the report left a tie). Returns player -> tally -> amount."""
        out = {player: dict(self.added.get(player, {})) for player in table}
        for side, extra in ((winner, self.for_win), (winner.other, self.for_loss)):
            for player in pair(table, side):
                for name, amount in extra.items():
                    out[player][name] = out[player].get(name, 0) + amount
        return out


EUCHRE_HANDS = 8
"""The hands of one game of euchre at a party (``docs/rules/progressive-euchre.md``, "A round":
"usually eight, each player dealing twice"; ``euchre-tournament.md``, "A game": 8 by default)."""

EUCHRE_MOST_POINTS = 4 * EUCHRE_HANDS
"""House rule: the most points one round of euchre can give, both sides together (32): the
game's 8 hands, each worth 4 points at most, to one side (a lone hand's march). So a side
scores at most 32, and 50–0 or 20–15 are refused as no game of 8 hands can make them."""

BUNCO_MOST_POINTS = 999
"""House rule: the most points a team can score in one round of Bunco (the head table stops at
21; the others finish the roll in hand, and a run of buncos adds 21 a roll)."""


def _side_points(points: Mapping[Side | str, int], what: str, most: int | None = None) -> dict[Side, int]:
    try:
        values = {Side(side): points[side] for side in points}
    except ValueError:
        raise ScoreError(f"The {what} are given for North–South (NS) and East–West (EW) only.") from None
    if set(values) != set(Side):
        raise ScoreError(f"Give the {what} of both sides, North–South and East–West.")
    for side, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ScoreError(f"{side.words}'s {what} must be a whole number, 0 or more (not {value!r}).")
        if most is not None and value > most:
            raise ScoreError(f"{side.words}'s {what}: at most {most} in a round (not {value}).")
    return values


def _winner(
    points: Mapping[Side, int], playoff: Side | str | None, what: str, tiebreak: str = "play-off"
) -> Side | None:
    ns, ew = points[Side.NORTH_SOUTH], points[Side.EAST_WEST]
    if ns != ew:
        if playoff is not None:
            raise ScoreError(f"There is no tie at {ns} {what} to {ew}: leave the {tiebreak} out.")
        return Side.NORTH_SOUTH if ns > ew else Side.EAST_WEST
    return Side(playoff) if playoff is not None else None


def _words(points: Mapping[Side, int], winner: Side | None, what: str, tiebreak: str = "play-off") -> str:
    if winner is None:
        return f"a tie at {points[Side.NORTH_SOUTH]} {what} each, to be cut at the bell"
    tied = points[winner] == points[winner.other]
    score = f"{points[winner]} {what} to {points[winner.other]}"
    return f"{winner.words} won, {score}" + (f" and the {tiebreak}" if tied else "")


def _share(table: Foursome, side: Side, amounts: Mapping[str, int]) -> dict[int, dict[str, int]]:
    return {player: dict(amounts) for player in pair(table, side)}


# --- Progressive Euchre -------------------------------------------------------------------------

EUCHRE_HAND_POINTS = (1, 2, 4)


def euchre_hand_points(*, tricks: int, alone: bool = False) -> tuple[str, int]:
    """Points for one hand of euchre from the makers' tricks (Foster): 3 or 4 tricks 1 to the
    makers, all 5 (a march) 2, a lone hand's march 4; fewer than 3 (euchred) 2 to the defenders.
    Returns ("makers" or "defenders", points). Raises ``ScoreError`` for tricks outside 0–5."""
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 5:
        raise ScoreError(f"A hand of euchre has five tricks: the makers took 0 to 5, not {tricks!r}.")
    if tricks < 3:
        return "defenders", 2
    if tricks == 5:
        return "makers", 4 if alone else 2
    return "makers", 1


def euchre_score(
    table: Foursome,
    *,
    points: Mapping[Side | str, int] | None = None,
    hands: Sequence[tuple[Side | str, int]] | None = None,
    playoff: Side | str | None = None,
) -> TableScore:
    """A Progressive Euchre table's game: each side's points (or the hands, each as (side that
    scored, 1, 2 or 4 points), which are added up), and the play-off winner when the points are
    equal. The winners each get a star (Foster); every player adds their side's points.
    Raises ``ScoreError`` for a hand worth anything but 1, 2 or 4, points that do not match the
    hands, or a play-off named where there is no tie."""
    if hands is not None:
        totals = {Side.NORTH_SOUTH: 0, Side.EAST_WEST: 0}
        for number, (side, value) in enumerate(hands, start=1):
            if type(value) is not int or value not in EUCHRE_HAND_POINTS:  # not True, not 2.0
                raise ScoreError(f"Hand {number} is worth {value!r}: a hand of euchre scores 1, 2 or 4 points.")
            try:
                totals[Side(side)] += value
            except ValueError:
                raise ScoreError(f"Hand {number} names no side: NS or EW.") from None
        if points is not None and _side_points(points, "points") != totals:
            raise ScoreError("The points do not add up to the hands entered: check both.")
        for side, total in totals.items():
            if total > EUCHRE_MOST_POINTS:
                raise ScoreError(f"{side.words}'s points: at most {EUCHRE_MOST_POINTS} in a round (not {total}).")
        values = totals
    elif points is None:
        raise ScoreError("Give each side's points (or the hands).")
    else:
        values = _side_points(points, "points", EUCHRE_MOST_POINTS)
    euchre_round_check(values)
    winner = _winner(values, playoff, "points")
    added: dict[int, dict[str, int]] = {}
    for side in Side:
        added |= _share(table, side, {"points": values[side]})
    return TableScore(winner, added, {"stars": 1, "wins": 1}, {"losses": 1}, _words(values, winner, "points"))


def euchre_round_check(points: Mapping[Side, int]) -> None:
    """Refuse a round of euchre whose two sides' ``points`` add up to more than one game can
    give: ``EUCHRE_MOST_POINTS`` (32: 8 hands, 4 points at most a hand, each hand to one side;
    house rule, ``docs/rules/progressive-euchre.md``, "Scoring a hand"). Raises ``ScoreError``
    in words; returns None otherwise."""
    together = points[Side.NORTH_SOUTH] + points[Side.EAST_WEST]
    if together > EUCHRE_MOST_POINTS:
        raise ScoreError(
            f"{points[Side.NORTH_SOUTH]} to {points[Side.EAST_WEST]} is {together} points: a game of "
            f"{EUCHRE_HANDS} hands gives at most {EUCHRE_MOST_POINTS} in all (4 a hand at most, to one side)."
        )


# --- Drive Whist --------------------------------------------------------------------------------


def whist_score(table: Foursome, *, tricks: Mapping[Side | str, int]) -> TableScore:
    """A Drive Whist table's hand: the tricks each side took (13 in all; every hand is played
    out, so a table cannot tie: Foster). The side with seven or more wins; every player adds
    their side's tricks. Raises ``ScoreError`` when the tricks are not 13 in all."""
    values = _side_points(tricks, "tricks")
    if sum(values.values()) != 13:
        raise ScoreError(f"A hand of whist has 13 tricks; these add up to {sum(values.values())}.")
    winner = _winner(values, None, "tricks")
    added: dict[int, dict[str, int]] = {}
    for side in Side:
        added |= _share(table, side, {"tricks": values[side]})
    return TableScore(winner, added, {"wins": 1}, {"losses": 1}, _words(values, winner, "tricks"))


# --- Bunco --------------------------------------------------------------------------------------

BUNCO_POINTS = 21
MINI_BUNCO_POINTS = 5


def bunco_roll(dice: Sequence[int], target: int) -> tuple[int, str]:
    """One roll of three dice in round ``target`` (1–6): one point a die showing the target,
    21 for three of the target (a bunco), 5 for three of another number (a mini bunco).
    Returns (points, "bunco" / "mini bunco" / ""). Raises ``ScoreError`` for anything but three
    dice of 1–6 or a target outside 1–6."""
    if not 1 <= target <= 6 or len(dice) != 3 or any(isinstance(d, bool) or d not in range(1, 7) for d in dice):
        raise ScoreError("A roll is three dice of 1 to 6, in a round whose target is 1 to 6.")
    if len(set(dice)) == 1:
        return (BUNCO_POINTS, "bunco") if dice[0] == target else (MINI_BUNCO_POINTS, "mini bunco")
    return sum(1 for d in dice if d == target), ""


def bunco_target(round_number: int) -> int:
    """The number a Bunco round's dice aim at, 1 to 6: round n's is ((n - 1) mod 6) + 1, six
    rounds making a set (club rules; ``docs/rules/bunco.md``: "Six rounds make a set (round n's
    target is n)"), so round 7's is 1 again. Raises ``ScoreError`` for a round below 1."""
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise ScoreError(f"Rounds are numbered from 1, not {round_number!r}.")
    return (round_number - 1) % 6 + 1


ROLL_POINTS = tuple(sorted({bunco_roll(dice, 1)[0] for dice in product(range(1, 7), repeat=3)} - {0}))
"""What one scoring roll can be worth, worked out from ``bunco_roll`` over every throw of three
dice: (1, 2, 5, 21), 1 or 2 dice showing the target, a mini bunco or a bunco. Three dice
showing the target are a bunco, so no roll scores 3; a roll worth 0 scores nothing and is not
kept; 3, 4, 6 to 20 and 22 or more no three dice make."""

ROLL_WORDS = "1 or 2 points (dice showing the target), 5 (a mini bunco) or 21 (a bunco)"
"""What a scoring roll can be worth, in words (``ROLL_POINTS``)."""


def check_at_table(table: Foursome, named: Mapping[str, Iterable[int]]) -> None:
    """Refuse a count given for someone not at ``table``. ``named``: what is counted ("buncos",
    "mini buncos", "rolls", "points") -> the players it is given for, in the report's order.
    Raises ``ScoreError`` naming the first of them not at the table ("Buncos are given for
    {guest}, who is not at this table."; a ghost elsewhere or a made-up id alike). Rule:
    ``docs/rules/bunco.md``, each player records their own buncos and mini buncos at their own table."""
    for what, players in named.items():
        strangers = [p for p in players if p not in table]
        if strangers:
            raise ScoreError(
                f"{what.capitalize()} are given for {{guest}}, who is not at this table.", guests=(strangers[0],)
            )


def bunco_score(
    table: Foursome,
    *,
    points: Mapping[Side | str, int],
    buncos: Mapping[int, int] | None = None,
    minis: Mapping[int, int] | None = None,
    rolls: Mapping[int, Sequence[int]] | None = None,
    rolloff: Side | str | None = None,
) -> TableScore:
    """A Bunco table's round: each team's points, each player's buncos and mini buncos, and the
    roll-off winner when the points are equal. Optionally ``rolls``: player -> the points of
    each of their scoring rolls (each 1, 2, 5 or 21: ``ROLL_POINTS``), checked against the buncos and minis.
    Each player records a win or a loss and their buncos and minis (club rules); every player
    adds their team's points. Raises ``ScoreError`` for a player not at the table, a count below
    0, a roll worth what no roll can be (22 points in one roll), or team points below what its
    buncos and minis alone make."""
    values = _side_points(points, "points", BUNCO_MOST_POINTS)
    buncos, minis = dict(buncos or {}), dict(minis or {})
    check_at_table(table, {"buncos": sorted(buncos), "mini buncos": sorted(minis), "rolls": sorted(rolls or {})})
    for name, counts in (("buncos", buncos), ("mini buncos", minis)):
        for player, count in counts.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ScoreError(
                    f"{{guest}}'s {name} must be a whole number, 0 or more (not {count!r}).", guests=(player,)
                )
    for player, scored in (rolls or {}).items():
        bad = [r for r in scored if type(r) is not int or r not in ROLL_POINTS]  # not True, not 21.0
        if bad:
            raise ScoreError(f"A roll scores {ROLL_WORDS}, not {bad[0]!r}.")
        if scored.count(BUNCO_POINTS) != buncos.get(player, 0) or scored.count(MINI_BUNCO_POINTS) != minis.get(
            player, 0
        ):
            raise ScoreError("{guest}'s rolls do not match their buncos and mini buncos.", guests=(player,))
    for side in Side:
        least = sum(BUNCO_POINTS * buncos.get(p, 0) + MINI_BUNCO_POINTS * minis.get(p, 0) for p in pair(table, side))
        rolled = sum(sum((rolls or {}).get(p, ())) for p in pair(table, side))
        if values[side] < max(least, rolled):
            made = "their rolls" if rolled > least else "their buncos and mini buncos alone"
            raise ScoreError(
                f"{side.words} have {values[side]} points, fewer than the {max(least, rolled)} {made} make."
            )
    winner = _winner(values, rolloff, "points", "roll-off")
    added: dict[int, dict[str, int]] = {}
    for side in Side:
        for player in pair(table, side):
            added[player] = {"points": values[side], "buncos": buncos.get(player, 0), "minis": minis.get(player, 0)}
    return TableScore(winner, added, {"wins": 1}, {"losses": 1}, _words(values, winner, "points", "roll-off"))
