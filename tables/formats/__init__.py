"""The progressive formats played at tables of four: Progressive Euchre, Drive Whist and Bunco.

Progressive Poker (the seeds) is one member of a family (``docs/rules/tables-of-four.md``). The formats
here share its two-pack draw, the head table's bell, movement between tables and prizes, and
differ in what each ``FoursomeFormat`` names: what a table reports at the bell and who wins it
(``score``, in ``tables.formats.scoring``; ``report_keys``, ``limits``), who moves where
(``movement``), whether partners change (``partners_change``), what is counted for the prizes
and how the standings are ordered (``tallies``, ``prizes``, ``standing``: the most or the fewest
first), the score card and the words of the rules text. The family asks the value, never which
game it is, so a new game of partners (one whose lowest score wins, say) is a new value.
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
from typing import Any, Literal

from tables.errors import RuleError
from tables.formats.foursome import Movement
from tables.formats.prizes import PrizeRule, Rank
from tables.formats.scoring import TableScore, bunco_score, bunco_target, euchre_score, whist_score
from tables.formats.table_rules import BUNCO_LIMITS, EUCHRE_LIMITS, WHIST_LIMITS, bunco_head_table_report_check


@dataclass(frozen=True, slots=True)
class CardColumn:
    """One column of a player's printed score card after the round, table and partner:
    its ``heading`` ("Points"), the ``tally`` it writes, and what a rung round's cell ``shows``:
    "count" (the amount the round added, "0" for none), "star" (a filled star when the round
    added any: Euchre's star for a round won), "letter" (the heading's first letter when it
    added any: Bunco's W and L) or "marks" (tally marks in fives: Bunco's buncos). The totals
    row gives every column's total as a number."""

    heading: str
    tally: str
    shows: Literal["count", "star", "letter", "marks"] = "count"


@dataclass(frozen=True, slots=True)
class LastPrize:
    """A prize read from the bells' history, not from the totals: who last added ``tally`` (the
    players who added some in the latest round that had any; Bunco's last bunco of the night,
    club rules). ``key`` and ``title`` as a ``PrizeRule``'s; ``won``: the reason when someone
    has it ("A bunco in the latest round that had one."); ``nobody``: the reason when nobody
    does ("Not awarded: nobody has rolled a bunco.")."""

    key: str
    title: str
    tally: str
    won: str
    nobody: str


@dataclass(frozen=True, slots=True)
class RulesWords:
    """The words a format puts in the family's rules text (the rules page's "Where the old rules
    are silent", ``partnership/rules_common.html``), where the formats differ. Each is plain
    text, shown as written. Defaults: a game played in hands, which an exact tie plays off.

    ``ghost``: what follows "A ghost sits, moves and scores like a player" ("" or ": someone at
    the table rolls for it, ..."); ``ghost_moves``: what follows "At the bell it goes where its
    side's result sends it"; ``unfinished``: a game unfinished at the bell; ``tie``: a tie at a
    table; ``unscored``: what a table with no report scores none of ("star, no points");
    ``zero_prize``: what follows "A prize for the most of something goes to no one when the
    best count is zero" ("" or a note in brackets, with its leading space)."""

    ghost: str = ""
    ghost_moves: str = ""
    unfinished: str = "A table whose game is not finished when the bell rings is decided by the score so far."
    tie: str = (
        "An exact tie is played off (one more hand); the play-off decides the win only, and its points are not "
        "added to anyone's tally. If the host prefers, the two sides cut cards instead: the higher cut wins, and "
        "the win is scored as if played off."
    )
    unscored: str = "win, no loss, no points"
    zero_prize: str = ""


@dataclass(frozen=True, slots=True)
class FoursomeFormat:
    """One format played at tables of four: everything the family's bell, standings, prizes,
    forms, pages and printing ask of it, so a game of partners is added as a value of its own
    (``docs/architecture.md``, "Add a format"); nothing in the family asks which game it is.

    ``key``: what is stored ("euchre"); ``title``: "Progressive Euchre"; ``movement`` and
    ``partners_change``: the defaults the host may change; ``tallies``: (tally name, words) in
    the order the standings show them; ``prizes``: the format's prizes; ``score``: the function
    that turns a table's report into a ``TableScore`` (it decides who wins a table: the higher
    score at Euchre, Whist and Bunco); ``source``: where the rules come from; ``standing``: the
    standings' order, each ``Rank`` a tally and whether its most or its fewest ranks first,
    the first deciding, the next breaking a tie (house rule: the main prize's tally first).

    ``prizes_by_points`` and ``standing_by_points``: the prizes and the standings' order when
    the host gives the prizes by points (``FoursomeOptions.prize_by_points``; Euchre's option:
    points instead of stars); () where the option changes nothing. ``report_keys``: the keys a
    stored report may hold (``tables.formats.records``); ``limits``: (count, the most it may
    be) for each count of a report, as every report form reads them (``table_rules``);
    ``tiebreak``: a tie's play-off in words ("play-off", Bunco's "roll-off"); ``head_table_check``:
    a check of the head table's report when its result ends the round (``(report, *,
    ended_by_report)``, raising ``ScoreError``; Bunco's 21), or None; ``round_target``: the
    number a round aims at (Bunco's dice: ``scoring.bunco_target``), or None; ``last_prize``:
    a prize read from the bells' history (Bunco's last bunco), or None; ``card_round``: the
    first heading of a score card's rows ("Round", Drive Whist's "Hand"); ``card_columns``: its
    other columns; ``card_rounds``: its rows when no rounds are planned (house rule: 12; Bunco
    24, four sets of six); ``words``: its words in the family's rules text (``RulesWords``).
    """

    key: str
    title: str
    movement: Movement
    partners_change: bool
    tallies: tuple[tuple[str, str], ...]
    prizes: tuple[PrizeRule, ...]
    score: Callable[..., TableScore]
    source: str
    standing: tuple[Rank, ...]
    report_keys: frozenset[str]
    limits: tuple[tuple[str, int], ...]
    card_columns: tuple[CardColumn, ...]
    prizes_by_points: tuple[PrizeRule, ...] = ()
    standing_by_points: tuple[Rank, ...] = ()
    tiebreak: str = "play-off"
    head_table_check: Callable[..., None] | None = None
    round_target: Callable[[int], int] | None = None
    last_prize: LastPrize | None = None
    card_round: str = "Round"
    card_rounds: int = 12
    words: RulesWords = RulesWords()

    def __post_init__(self) -> None:
        """Refuse a format with no standings' order (``RuleError``): a value set up wrongly."""
        if not self.standing:
            raise RuleError(f"{self.title} names no standings' order: give its ranks, the main prize's tally first.")

    def limit(self, count: str) -> int:
        """The most a report's ``count`` ("points", "tricks", "buncos") may be (``limits``).
        Raises ``KeyError`` for a count the format does not report (a form built for another)."""
        return dict(self.limits)[count]

    def tally_words(self, tally: str) -> str:
        """A tally's words as the standings show them ("mini buncos" for "minis"); the tally's
        own name for one the format does not list."""
        return dict(self.tallies).get(tally, tally)

    def ranks(self, *, prize_by_points: bool = False) -> tuple[Rank, ...]:
        """The standings' order: ``standing``, or ``standing_by_points`` when the host gives the
        prizes by points and the format has that order (Euchre: points, then stars)."""
        return self.standing_by_points if prize_by_points and self.standing_by_points else self.standing

    def standing_words(self) -> str:
        """How the standings are ordered, in words for the rules page: "stars, then points
        (points, then stars when the host gives the prizes by points)"; a tally whose fewest
        rank first says so ("points (the fewest first)")."""

        def said(ranks: tuple[Rank, ...]) -> str:
            return ", then ".join(self.tally_words(r.tally) + ("" if r.most else " (the fewest first)") for r in ranks)

        words = said(self.standing)
        if self.standing_by_points:
            words += f" ({said(self.standing_by_points)} when the host gives the prizes by points)"
        return words

    def booby_words(self) -> str:
        """The rules page's sentence on a booby prize for the fewest: "The booby prize goes to the
        guest with the fewest, even if that is none." ("" when the booby prize counts the most
        of something, as Bunco's most losses, or there is none)."""
        booby = [p for p in self.prizes if p.booby and not p.most]
        return "The booby prize goes to the guest with the fewest, even if that is none." if booby else ""


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
    standing=(Rank("stars"), Rank("points")),
    prizes_by_points=(
        PrizeRule("most_points", "Most points", "points"),
        PrizeRule("booby", "Booby prize: fewest points", "points", most=False, per_pack=False),
    ),
    standing_by_points=(Rank("points"), Rank("stars")),
    report_keys=frozenset({"points", "hands", "playoff"}),
    limits=tuple(EUCHRE_LIMITS.items()),
    card_columns=(CardColumn("Points", "points"), CardColumn("Star", "stars", "star")),
    words=RulesWords(unscored="star, no points"),
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
    standing=(Rank("tricks"), Rank("wins")),
    report_keys=frozenset({"tricks"}),
    limits=tuple(WHIST_LIMITS.items()),
    card_round="Hand",
    card_columns=(CardColumn("Tricks", "tricks"),),
    words=RulesWords(
        unfinished="Every hand of Drive Whist is played out, so the thirteen tricks decide it.",
        tie="Thirteen tricks cannot be shared equally, so a table of Drive Whist cannot tie.",
        unscored="tricks",
    ),
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
        PrizeRule("most_minis", "Most mini buncos", "minis", words="mini buncos"),
        PrizeRule("booby", "Booby prize: most losses", "losses", per_pack=False),
    ),
    score=bunco_score,
    source="the Bunco clubs' common rules (three dice, six rounds a set, 21 at the head table ends the round)",
    standing=(Rank("wins"), Rank("buncos"), Rank("points")),
    report_keys=frozenset({"points", "buncos", "minis", "rolloff", "rolls"}),
    limits=tuple(BUNCO_LIMITS.items()),
    tiebreak="roll-off",
    head_table_check=bunco_head_table_report_check,
    round_target=bunco_target,
    last_prize=LastPrize(
        "last_bunco",
        "The last bunco of the night",
        "buncos",
        won="A bunco in the latest round that had one.",
        nobody="Not awarded: nobody has rolled a bunco.",
    ),
    card_columns=(
        CardColumn("Win", "wins", "letter"),
        CardColumn("Loss", "losses", "letter"),
        CardColumn("Buncos", "buncos", "marks"),
        CardColumn("Mini buncos", "minis", "marks"),
    ),
    card_rounds=24,
    words=RulesWords(
        ghost=": someone at the table rolls for it, its points count for its team, and its own buncos, wins and "
        "losses go on its own card",
        ghost_moves=", as the Bunco clubs move it from chair to chair: a guest whose partner is the ghost takes it "
        "along when they win",
        tie="An exact tie is rolled off (one more turn of the dice); the play-off decides the win only, and its "
        "points are not added to anyone's tally. If the host prefers, the two sides cut cards instead: the higher "
        "cut wins, and the win is scored as if played off.",
        zero_prize=" (when no guest of a pack rolled a mini bunco, that pack has no prize for the most mini buncos)",
    ),
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
            raise RuleError(f"“{self.movement}” is not a movement: choose “ladder”, “ladder_down” or “circle”.")
        if self.ties not in ("playoff", "cut"):
            raise RuleError("A tie at a table is played off or cut: choose “playoff” or “cut”.")
        if self.prize_ties not in ("cut", "shared"):
            raise RuleError("Tied prizes are cut or shared: choose “cut” or “shared”.")

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
    """The format's prizes as the host's options make them: ``fmt.prizes``, or with the prizes by
    points (``options.prize_by_points``) the format's ``prizes_by_points`` where it has them
    (Euchre: most points and fewest points instead of stars; a format without them ignores the
    option)."""
    if options.prize_by_points and fmt.prizes_by_points:
        return fmt.prizes_by_points
    return fmt.prizes
