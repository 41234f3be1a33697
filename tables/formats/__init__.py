"""The progressive formats played at tables of four: Progressive Euchre, Drive Whist and Bunco.

Progressive Poker (the seeds) is one member of a family (``docs/rules/tables-of-four.md``). The formats
here share its two-pack draw, the head table's bell, movement between tables and prizes, and
differ in four things, which each ``FoursomeFormat`` names: what a table reports at the bell
(``score``, in ``tables.formats.scoring``), who moves where (``movement``), whether partners
change (``partners_change``), and what is counted for the prizes (``tallies``, ``prizes``).
Start with ``tables.formats.foursome`` (seats, ghosts, the draw and the movement), then
``tables.formats.bell`` (the bell) and ``tables.formats.prizes``.

Sources, named in words on the rules pages: R. F. Foster, *Foster's Complete Hoyle* (1897; rev.
1909), "Progressive Euchre" and "Drive Whist"; J. W. Keller, *The Game of Euchre* (1887), ch.
VIII; for Bunco the common club rules (three dice, six rounds a set, 21 at the head table ends
the round).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tables.errors import RuleError
from tables.formats.foursome import Movement
from tables.formats.prizes import PrizeRule
from tables.formats.scoring import TableScore, bunco_score, euchre_score, whist_score


@dataclass(frozen=True, slots=True)
class FoursomeFormat:
    """One format played at tables of four.

    ``key``: what is stored ("euchre"); ``title``: "Progressive Euchre"; ``movement`` and
    ``partners_change``: the defaults the host may change; ``tallies``: (tally name, words) in
    the order the standings show them; ``prizes``: the format's prizes; ``score``: the function
    that turns a table's report into a ``TableScore``; ``source``: where the rules come from;
    ``game``: the game played at each table ("euchre", "whist", "bunco"), which decides what a
    table reports and what a score card's rows hold (default: ``key``; a format built on
    another's game, as the Euchre tournament on euchre, names it); ``standing``: the tallies
    the standings are ordered by, most first (default: ``prizes.STANDING_ORDER`` for ``game``).
    """

    key: str
    title: str
    movement: Movement
    partners_change: bool
    tallies: tuple[tuple[str, str], ...]
    prizes: tuple[PrizeRule, ...]
    score: Callable[..., TableScore]
    source: str
    game: str = ""
    standing: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        from tables.formats.prizes import STANDING_ORDER

        if not self.game:
            object.__setattr__(self, "game", self.key)
        if not self.standing:
            object.__setattr__(self, "standing", STANDING_ORDER[self.game])


EUCHRE = FoursomeFormat(
    key="euchre",
    title="Progressive Euchre",
    movement=Movement.LADDER,
    partners_change=True,
    tallies=(("stars", "stars"), ("points", "points"), ("wins", "wins"), ("losses", "losses")),
    prizes=(
        PrizeRule("most_stars", "Most stars", "stars"),
        PrizeRule("booby", "Booby prize: fewest stars", "stars", most=False, per_pack=False),
    ),
    score=euchre_score,
    source="Foster's Complete Hoyle, “Progressive Euchre”; Keller, The Game of Euchre (1887), chapter VIII",
)
WHIST = FoursomeFormat(
    key="whist",
    title="Drive Whist",
    movement=Movement.CIRCLE,
    partners_change=False,
    tallies=(("tricks", "tricks"), ("wins", "wins"), ("losses", "losses")),
    prizes=(
        PrizeRule("most_tricks", "Most tricks", "tricks"),
        PrizeRule("booby", "Booby prize: fewest tricks", "tricks", most=False, per_pack=False),
    ),
    score=whist_score,
    source="Foster's Complete Hoyle, “Drive Whist”",
)
BUNCO = FoursomeFormat(
    key="bunco",
    title="Bunco",
    movement=Movement.LADDER,
    partners_change=True,
    tallies=(
        ("wins", "wins"),
        ("losses", "losses"),
        ("buncos", "buncos"),
        ("minis", "mini buncos"),
        ("points", "points"),
    ),
    prizes=(
        PrizeRule("most_buncos", "Most buncos", "buncos"),
        PrizeRule("most_wins", "Most wins", "wins"),
        PrizeRule("most_minis", "Most mini buncos", "minis"),
        PrizeRule("booby", "Booby prize: most losses", "losses", per_pack=False),
    ),
    score=bunco_score,
    source="the Bunco clubs' common rules (three dice, six rounds a set, 21 at the head table ends the round)",
)
FORMATS: dict[str, FoursomeFormat] = {f.key: f for f in (EUCHRE, WHIST, BUNCO)}


@dataclass(frozen=True, slots=True)
class FoursomeOptions:
    """The host's choices for a format (defaults: the format's own).

    ``movement``: "ladder", "ladder_down" or "circle" (None: the format's); ``partners_change``:
    True/False (None: the format's; Drive Whist's winners keep or split their partnership, as
    the host decides: Foster gives both); ``ties``: "playoff" (a tie at a table is played off
    and the report names the winner: the books' way) or "cut"; ``prize_ties``: "cut" or
    "shared"; ``prize_by_points`` (Euchre): the prizes count points instead of stars.
    """

    movement: str | None = None
    partners_change: bool | None = None
    ties: str = "playoff"
    prize_ties: str = "cut"
    prize_by_points: bool = False

    def __post_init__(self) -> None:
        if self.movement is not None and self.movement not in set(Movement):
            raise RuleError(f"“{self.movement}” is not a movement: choose ladder, ladder_down or circle.")
        if self.ties not in ("playoff", "cut"):
            raise RuleError("A tie at a table is played off or cut: choose playoff or cut.")
        if self.prize_ties not in ("cut", "shared"):
            raise RuleError("Tied prizes are cut or shared: choose cut or shared.")

    def movement_for(self, fmt: FoursomeFormat) -> tuple[Movement, bool]:
        """The movement and whether partners change at ``fmt``'s bells: the host's choices,
        else the format's own (Euchre and Bunco: the ladder, partners changing; Drive Whist: the
        circle, partners kept)."""
        movement = Movement(self.movement) if self.movement else fmt.movement
        partners = self.partners_change if self.partners_change is not None else fmt.partners_change
        return movement, partners

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> FoursomeOptions:
        """Options from a mapping; raises ``RuleError`` for an unknown name or a bad value."""
        from tables.game_options import options_from_mapping

        return options_from_mapping(cls, values, "the format")


def format_for(key: str) -> FoursomeFormat:
    """The format stored as ``key`` ("euchre", "whist", "bunco"); ``RuleError`` otherwise."""
    try:
        return FORMATS[key]
    except KeyError:
        raise RuleError(f"“{key}” is not a format: choose {', '.join(FORMATS)}.") from None


def play_changes(fmt: FoursomeFormat, before: FoursomeOptions, after: FoursomeOptions) -> tuple[str, ...]:
    """What ``after`` changes in how ``fmt`` is played, compared with ``before``, in words: "the
    movement", "whether partners change", "how a tie at a table is settled"; () when every bell
    goes the same (a choice equal to the format's own is no change; the prizes' options change
    no bell). House rule: these are fixed once the seats are drawn (``docs/rules/tables-of-four.md``: the winners
    keep their partnership or split up "as the host decides before play")."""
    (moves, partners), (new_moves, new_partners) = before.movement_for(fmt), after.movement_for(fmt)
    changed = (
        ("the movement", moves != new_moves),
        ("whether partners change", partners != new_partners),
        ("how a tie at a table is settled", before.ties != after.ties),
    )
    return tuple(words for words, differs in changed if differs)


def prize_rules(fmt: FoursomeFormat, options: FoursomeOptions) -> tuple[PrizeRule, ...]:
    """The format's prizes as the host's options make them (Euchre by points: most points and
    fewest points instead of stars)."""
    if fmt is EUCHRE and options.prize_by_points:
        return (
            PrizeRule("most_points", "Most points", "points"),
            PrizeRule("booby", "Booby prize: fewest points", "points", most=False, per_pack=False),
        )
    return fmt.prizes
