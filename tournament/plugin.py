"""What a format plugs into Head Table: ``FormatPlugin``, the one interface every format implements.

An evening plays one format (``Evening.format`` stores its key). Everything the format decides
is asked of its plug-in, found through the registry (``tournament.registry.format_for``); the
rest of the product never asks which format it has (pretix's payment providers and Django's
database backends are the pattern: one documented base class, a package per plug-in, a setting
that lists them). A format's package holds its plug-in class and what only it has: Progressive
Poker is ``tournament.formats.poker``; the formats at tables of four share the partnership
family ``tournament.formats.partnership`` (Progressive Euchre, Drive Whist, Bunco each a small
package over it). Each extension point below says what it takes and returns; the rules
themselves are plain Python in ``tables/`` (``FormatPlugin.rules``), as ``docs/rules/`` says
them.

The interface is generic over the format's state (where everyone sits and their tallies, after
the last bell), ``StateT``, and its standings (each guest's line and the prizes), ``StandingsT``.
This module imports only the models and the rules, so every layer may use the type; the
plug-ins' own modules import the services, selectors and pages they are made of.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, TypeVar

from django.utils.module_loading import import_string

from tables.errors import RuleError
from tables.formats.engine import DrawnSeat, FormatEntry, FormatRules, Plan, Seating, rules_for
from tables.packs import Pack
from tables.seasons import SeasonRules
from tables.seats import SeatChange, TableLimits

if TYPE_CHECKING:
    from django import forms
    from django.http import HttpRequest, HttpResponse

    from tournament.models import Bell, Draw, Evening, Guest, HelperLink, Result, Round


@dataclass(frozen=True, slots=True)
class DocumentKind:
    """A printable document: its ``slug`` (URL and command name), ``title``, one line of
    ``what`` it is for, and its ``variants`` as (value, label) pairs, the default first.

    A value the interface names (``FormatPlugin.document_kinds``), so it lives here, below the
    documents that print it (``tournament.documents.contents`` lists the product's own)."""

    slug: str
    title: str
    what: str
    variants: tuple[tuple[str, str], ...]

    @property
    def default_variant(self) -> str:
        """The first variant's value."""
        return self.variants[0][0]


@dataclass(frozen=True, slots=True)
class DrawGuest:
    """A guest here, as the physical draw needs them (``services.draw_physical``): id, name, pack ("red"/"blue") and the name
    folded for look-ups (lighter than a ``Guest`` row: a draw of 500 loads 500 of them)."""

    pk: int
    name: str
    pack: str
    name_key: str


@dataclass
class PullPack:
    """One pack's part of the pull list (``FormatPlugin.pull_list``): its label, (rank, count,
    words) rows and the total. A value the interface names, so it lives here."""

    pack: Pack
    label: str
    rows: list[tuple[int, int, str]]
    words: str

    @property
    def total(self) -> int:
        """The number of cards to pull from this pack."""
        return sum(count for _, count, _ in self.rows)


@dataclass
class PhysicalView:
    """A physical draw's progress: the pull list, cards and guests left, the cards recorded
    (newest first, as (guest, card name)), and whether every card is recorded. ``problem`` holds
    the reason when the draw no longer fits the guests here (the host must restart it). What
    ``FormatPlugin.physical_draw_progress`` fills, so it lives here (``selectors.draw.physical_view``
    makes it)."""

    draw: Draw
    plan: Plan
    pull: list[PullPack] = field(default_factory=list)
    left: list[PullPack] = field(default_factory=list)
    guests_left: list[DrawGuest] = field(default_factory=list)
    taken: list[tuple[DrawGuest, str]] = field(default_factory=list)
    complete: bool = False
    problem: str = ""
    seat_cards: bool = False
    """Whether the cards name table and seat ("3 N": tables of four) rather than a table."""
    cards: int = 0
    """How many cards the draw has (at tables of four: one per guest, none for a ghost's seat)."""


class PhoneBoard(Protocol):
    """Every phone's shared board as the interface names it (``selectors.guest_boards.Shared``,
    which a format's ``guest_page_context`` may cast to): the board's ``version``, the format's
    own board (``family``, from ``FormatPlugin.family_board``) and the ``ceremony`` once the
    evening has ended (None before)."""

    @property
    def version(self) -> int: ...

    @property
    def family(self) -> object | None: ...

    @property
    def ceremony(self) -> object | None: ...


class RoomBoard(Protocol):
    """The evening's board as the interface names it for the room display
    (``selectors.board.EveningBoard``, which a format's ``room_context`` may cast to): the
    ``evening`` it shows, its current ``round`` (None before the first) and ``last_bell``."""

    @property
    def evening(self) -> Evening: ...

    @property
    def round(self) -> Round | None: ...

    @property
    def last_bell(self) -> Bell | None: ...


class HasTables(Protocol):
    """A format's state as generic code reads it: the tables, table 1 (the head) first, each a
    tuple of player ids (ghosts negative)."""

    @property
    def tables(self) -> Sequence[Sequence[int]]: ...


class HasPrizes(Protocol):
    """A format's standings as generic code reads them: the prizes (each with its ``prize``,
    a ``tables.prizes.Prize``), in the order awarded."""

    @property
    def prizes(self) -> Sequence[object]: ...


StateT = TypeVar("StateT", bound=HasTables)
"""The format's state: its tables (``HasTables``) and whatever else its bell keeps."""
StandingsT = TypeVar("StandingsT", bound=HasPrizes)
"""The format's standings: its prizes (``HasPrizes``) and its own lines."""
ReportT = TypeVar("ReportT")
"""What one table reports for a round as the format's bell takes it (Progressive Poker's
``TableResult``; at tables of four, the stored report's mapping)."""
RecordT = TypeVar("RecordT")
"""The format's record of a step (a bell, a departure, an arrival, a seat change), as stored."""
ReportT_contra = TypeVar("ReportT_contra", contravariant=True)
ReportT_co = TypeVar("ReportT_co", covariant=True)


class StepReplay(Protocol[StateT, ReportT_contra, RecordT]):
    """How a format plays the evening's steps again when an earlier round's result is corrected
    (``services.corrections.correction_save``, which does everything else: the lock, the checks
    every format shares, the old steps marked undone, the ceremony, the audit). ``state`` is the
    format's state (``StateT``); ``result`` the format's corrected report, as its correction form
    gives it (``CorrectionForm.correction``); a step is a ``Bell`` row. House rule
    (``docs/rules/``, the format's page, "Correcting an earlier round"): every later step is played
    again in order, with the results and options it was taken with; a tie once cut stays cut."""

    def before(self, first: Bell) -> StateT:
        """The state the round of ``first`` (its live bell) was played at, tallies included."""
        ...

    def after(self, step: Bell) -> StateT:
        """The state stored after ``step`` (``Bell.state_after``)."""
        ...

    def check(self, state: StateT, table: int, result: ReportT_contra) -> None:
        """Raise ``RuleError`` (guests named) when ``result`` is not one table ``table`` could
        have reported when seated as in ``state``."""
        ...

    def same(self, row: Result, result: ReportT_contra) -> bool:
        """Whether the stored ``row`` says what ``result`` says (nothing to correct)."""
        ...

    def store_result(self, *, rnd: Round, table: int, result: ReportT_contra, user) -> Result:
        """Create the corrected ``Result`` row (confirmed, by the host ``user``)."""
        ...

    def bell(self, state: StateT, step: Bell, results: Sequence[Result]) -> tuple[RecordT, StateT]:
        """Ring round ``step.round``'s bell again on ``state`` with its live ``results``: (the new
        record, the state after). Raises ``RuleError`` when a result no longer fits the seats."""
        ...

    def as_played(self, record: RecordT, state: StateT, step: Bell) -> tuple[RecordT, StateT]:
        """The corrected round's bell (``step``, rung again: ``record``, ``state`` after it) once
        a later round has been played in the seats the guests took after it: (record, state)
        with those seats (``self.after(step)``'s) when the format keeps them, the tallies the
        corrected bell's; ``record`` and ``state`` unchanged when the format seats the guests
        where the corrected bell sends them (the format's rules page, "Corrections")."""
        ...

    def leave(self, state: StateT, step: Bell) -> tuple[RecordT, StateT]:
        """A guest's departure (``step``) taken again on ``state``: (record, state after)."""
        ...

    def arrive(self, state: StateT, step: Bell) -> tuple[RecordT, StateT]:
        """A guest's arrival (``step``) taken again on ``state``: (record, state after)."""
        ...

    def seat(self, state: StateT, step: Bell) -> tuple[RecordT, StateT]:
        """The host's seat change (``step``, kind "seat") made again on ``state``: the same two
        guests swap, or the same guest moves to the same table (and seat);
        ``tables.seats.change_again``. Raises ``RuleError`` when it no longer fits."""
        ...

    def store(self, step: Bell, record: RecordT, after: StateT, names: Mapping[int, str]) -> Bell:
        """Store the step played again in place of ``step`` (same round, kind and cause)."""
        ...

    def seats(self, before: StateT, after: StateT) -> int:
        """Rewrite the ``Seat`` rows from ``before`` to ``after``; how many guests changed seats."""
        ...

    def fits(self, state: StateT, row: Result) -> bool:
        """Whether the round in play's live ``row`` still fits the seats of ``state``."""
        ...

    def warnings(self, record: RecordT) -> tuple[str, ...]:
        """A replayed bell's warnings (counts that do not add up), guests as ids in braces."""
        ...


class CorrectionForm(Protocol[ReportT_co]):
    """A format's correction form (``FormatPlugin.correction_form``): a Django form whose
    ``correction()``, once valid, gives the corrected result as ``StepReplay`` takes it."""

    def is_valid(self) -> bool: ...

    def add_error(self, field: str | None, error: forms.ValidationError | str) -> None: ...

    def correction(self) -> ReportT_co: ...


@dataclass(frozen=True)
class BellPreview:
    """What the bell would do now (a dry run, nothing saved; ``FormatPlugin.bell_preview``):
    the format's record of it, or the ``waiting`` reason it would wait (guests named); and who
    would cut, as (what for, guest ids) in order. A value the interface names, so it lives here."""

    record: object | None
    waiting: str
    cutters: tuple[tuple[str, tuple[int, ...]], ...]


class FormatPlugin(Generic[StateT, StandingsT, ReportT, RecordT]):
    """One format of the family, as the product asks it (module docstring).

    A plug-in is a class with these class attributes, made once by the registry:

    * ``key``: what ``Evening.format`` stores ("poker", "euchre", ...); one word, lower case;
    * ``evening_fields``: the names of the evening form's fields that belong to this format
      (the form shows them and no other format's); on the format's own evening's page they
      stand under the format's title and ``fields_legend``, what they set ("Bunco: movement,
      partners, ties and prizes"), on a new evening's form under the titles of the formats
      asking them ("Progressive Poker only");
    * ``round_end_words``: the round-end choice "when the head table finishes" in the format's
      words;
    * ``seats_named``: whether a table's seats are North, East, South and West (stored with
      each seat), rather than any chair at the table;
    * ``counters``: whether the format plays for counters: a table reports its pool and every
      player's counters, and the bell's state holds counters, stakes and yellow counters (the
      services for those results and their corrections serve only such a format);
    * ``final_count``: whether the evening ends with a count of every table's counters before
      the prizes (Progressive Poker: Foster's settlement; formats whose tallies are complete
      at the last bell: False);
    * ``showdown``: whether a table's hands may be shown to the showdown helper (the seed games
      of Progressive Poker; no other format has one);
    * ``table_games``: the table games a host may choose for the evening (``Evening.game``).

    and the methods below. A method a format does not override raises ``NotImplementedError``:
    the capability matrix in the tests (``tests/test_capabilities.py``) calls every one for
    every registered format.
    """

    key: ClassVar[str]
    evening_fields: ClassVar[tuple[str, ...]] = ()
    fields_legend: ClassVar[str] = ""
    fixed_at_draw: ClassVar[tuple[str, ...]] = ()
    """The evening's settings (form field names) the format fixes once the guests have drawn,
    besides the format itself (fixed for every format): the settings and clock pages show them
    as fixed text, not as a choice they would refuse on saving. Default: none."""
    round_end_words: ClassVar[str] = "When the head table's result is recorded (the rules' way)"
    head_table_rang: ClassVar[str] = "when the head table's game was over"
    """How a bell rung by the head table's result came, in the format's words, after "rung"."""
    counters: ClassVar[bool] = False
    final_count: ClassVar[bool] = False
    default_round_end: ClassVar[str] = "clock"
    """How a new evening of the format ends its rounds unless the host chooses another
    (``Evening.RoundEnd``: "clock", or "head_pool" when the head table's result ends it)."""
    showdown: ClassVar[bool] = False
    seats_named: ClassVar[bool] = False
    table_games: ClassVar[tuple[tuple[str, str], ...]] = ()
    """The table games the format offers for ``Evening.game`` (stored value, the host's name),
    the default first; a format whose tables play one game of its own offers none."""

    # -- what the format is ---------------------------------------------------------------------

    @property
    def rules(self) -> FormatRules:
        """The format's rules (``tables.formats.engine``): plan, draw, bell, prizes."""
        return rules_for(self.key)

    def rules_of(self, evening: Evening) -> FormatRules:
        """The format's rules as ``evening`` plays them (default: ``rules``; a format whose rules
        depend on the evening, as a rotation schedule on its planned games, makes them here)."""
        return self.rules

    def rounds_change_refused(self, evening: Evening, planned: int | None) -> str | None:
        """Why ``evening`` may not plan ``planned`` rounds now, as the format sees it (the product
        refuses fewer than were played for every format), or None. Default: None."""
        return None

    @property
    def entry(self) -> FormatEntry:
        """The format's entry: title, seating in words, tallies, source."""
        return self.rules.entry

    @property
    def title(self) -> str:
        """The format's name for a host: "Progressive Poker", "Bunco"."""
        return self.entry.title

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key!r}>"

    # -- the host's options ---------------------------------------------------------------------

    def evening_form_fields(self, *, shared: bool = False) -> dict[str, forms.Field]:
        """The evening form's fields for the format's own options that are not the evening's
        own columns (they are stored in ``Evening.options``), by name, only those the format
        asks (``evening_fields``). ``shared`` False: in the format's own words, naming no other
        format (its saved evening's page); True: in words that fit every format asking a field
        of the same name (a new evening's form, where one field serves them all). Default: none."""
        return {}

    def evening_form_initial(self, options: Mapping[str, object] | None) -> dict[str, object]:
        """Those fields' initial values from the evening's stored ``options`` (None: defaults)."""
        return {}

    def evening_form_clean(self, data: dict, instance: Evening) -> dict[str, str]:
        """Check the evening form's cleaned ``data`` for this format (it may fill a field left
        blank with ``instance``'s value): the problems by field name, {} when there are none."""
        return {}

    def evening_form_options(self, data: Mapping[str, object]) -> dict | None:
        """The format's options to store from the form's cleaned ``data`` (None: the format keeps
        none). Raises ``forms.ValidationError`` with the rules' words for a value they refuse."""
        return None

    def options_change_refused(self, evening: Evening, chosen: Mapping[str, object]) -> str | None:
        """Why ``evening`` may not take the format's options ``chosen`` now (the form's values),
        or None when it may. Default: a format with no options of its own refuses nothing."""
        return None

    def options_stored(self, stored: Mapping[str, object], chosen: Mapping[str, object] | None) -> dict | None:
        """The evening's ``options`` mapping with the format's ``chosen`` options put in, or None
        when the format keeps none (``chosen`` None: nothing chosen on this page)."""
        return None

    def stored_option_checks(self, evening: Mapping[str, object]) -> Mapping[str, Callable[[dict], object]]:
        """The groups of ``Evening.options`` this format keeps, each with the check of a stored
        group's values (returns the options read; raises ``RuleError`` in the rules' words), for
        an import's check of a file's ``evening`` (its ``game`` and ``options``). A group keeps
        its owner's check on an evening of another format (a host who changed the format before
        the draw kept the old one's options). Default: none."""
        return {}

    def options_differ(self, stored: Mapping[str, object], chosen: Mapping[str, object]) -> bool:
        """Whether ``chosen`` changes the format's options stored in ``stored``."""
        return False

    # -- the evening now ------------------------------------------------------------------------

    def state(self, evening: Evening) -> StateT:
        """Where everyone sits now and their tallies (the last live bell's state after, else the
        draw's). Raises ``RuleError`` before the draw. One or two queries."""
        raise NotImplementedError

    def table_of(self, evening: Evening, guest: int) -> int | None:
        """The table ``guest`` (id) sits at now; None before the draw or when not seated."""
        try:
            tables = self.state(evening).tables
        except RuleError:
            return None
        return next((n for n, ids in enumerate(tables, 1) if guest in ids), None)

    def standings(self, evening: Evening, *, guests: Mapping[int, Guest] | None = None) -> StandingsT:
        """Every guest's standing and the prizes. ``guests``: guest id -> guest, every guest of the
        evening, when the caller has read them (one query fewer). Raises ``RuleError`` as the
        prize rules do."""
        raise NotImplementedError

    # -- a club's season (``docs/clubs.md``) -----------------------------------------------------

    season_rules: ClassVar[SeasonRules | None] = None
    """What the format says about a club's season (``tables.seasons.SeasonRules``): the tallies
    the season's standings show, the orders it ranks by (the default first; Progressive Euchre's
    club chooses stars or points), its own season prizes (Bunco: most buncos). None: the format
    keeps no season."""

    def season_tallies(self, evenings: Sequence[Evening]) -> dict[int, dict[int, dict[str, int]]]:
        """Each of ``evenings``' (all of this format) tallies as a season adds them up: evening id
        -> guest id -> tally name (``season_rules.columns``) -> whole number, for every guest who
        played it; an evening before its first bell is left out (nothing played yet; house rule,
        ``docs/clubs.md``). A constant number of queries whatever the number of evenings."""
        raise NotImplementedError

    # -- a club's kitty (``docs/clubs.md``, "The kitty") --------------------------------------------

    def kitty_prizes(self, evening: Evening) -> tuple[tuple[str, str], ...]:
        """The prizes ``evening`` gives that a club's kitty may pay: (key, title) each, a prize
        given once per pack under one key (its awards' keys are the key and a pack: the kitty
        splits a payout between them). The keys are ``tables.prizes.Prize.key``'s. Raises
        ``RuleError`` for bad stored options."""
        raise NotImplementedError

    table_money_words: ClassVar[tuple[str, str]] = ("won at the tables", "lost at the tables")
    """How a settlement sheet says what ``table_money`` gives: (won, lost), in the format's words."""

    def table_money(self, evening: Evening) -> dict[int, int]:
        """What each guest won (positive) or lost (negative) at the tables, in cents, when the
        evening's counters have a money value; empty otherwise (the default: nothing changes
        hands at the tables). Progressive Poker's is its settlement sheet, fresh stakes charged
        (``docs/rules/progressive-poker.md``, 'The settlement')."""
        return {}

    # -- the bell -------------------------------------------------------------------------------

    def bell_apply(
        self,
        *,
        rnd: Round,
        evening: Evening,
        cause: str,
        user,
        device: str,
        cuts: Mapping | None = None,
        state: StateT | None = None,
    ) -> Bell | None:
        """Ring ``rnd``'s bell (the evening locked by the caller): score the round, move the
        players, store the record; ``cuts``: cards the host cut for ties at this bell, where the format
        cuts (``services.bell.bell_ring``); ``state``: the evening's state now (``state``), when
        the caller has built it in the same transaction (one state per request, issue 23).
        Returns the bell, or None when it waits. Raises ``RuleError``."""
        raise NotImplementedError

    def bell_undone(self, *, evening: Evening, bell: Bell) -> None:
        """After ``bell`` was marked undone: the seats go back to before it."""
        raise NotImplementedError

    def bell_cause_words(self, cause: str) -> str:
        """How a stored bell came (``Bell.cause``), after "rung": "by the host", "when the clock
        ran out", or the head table's way in the format's words (``head_table_rang``)."""
        if cause == "head_pool":
            return self.head_table_rang
        return "when the clock ran out" if cause == "clock" else "by the host"

    def seat_change(self, *, evening: Evening, guest: Guest, leaving: bool, user, device: str) -> str:
        """After the draw: ``guest`` leaves (``leaving``) or arrives late, and the tables change
        as the format's rules say: between rounds after round 1 (a step of the history), or
        before round 1 (the draw changes: at tables of four a ghost takes a leaver's seat and a
        late guest a ghost's; at poker the host confirms the re-plan on the draw page). The
        guests page's *Left* and *Check in* buttons call it once a draw is made (issue 22).
        Sets the guest's status. Returns what happened in words for the host. Raises
        ``RuleError`` when the rules refuse (during a round, a guest not seated, ...)."""
        raise NotImplementedError

    # -- the host changes seats (``services.seat_changes``) ------------------------------------

    def table_limits(self) -> TableLimits:
        """What the format allows of a table after the host changes seats (``tables.seats``): how
        few and how many players, and whether its seats are fixed places (a move names the seat,
        a ghost's seat is taken by moving a guest to it). Source: each format's rulebook page,
        "Changing seats"."""
        raise NotImplementedError

    def place_words(self, table: int, seat: int) -> str:
        """A place at the tables in words for the host and the phones: "table 3" (default), or
        with the seat where seats are named ("table 3, North"); ``seat`` 0-based."""
        return f"table {table}"

    def seats_changed(
        self,
        *,
        evening: Evening,
        last: Round,
        change: SeatChange,
        before: Sequence[Sequence[int]],
        after: Sequence[Sequence[int]],
        words: str,
        names: Mapping[int, str],
    ) -> Bell:
        """Store a seat change made after round 1 started (``services.seat_changes.seats_change``,
        the evening locked, inside its transaction): a ``Bell`` of kind "seat" attached to ``last``
        (the newest round) with the tables ``before`` and ``after`` in its record, the state after,
        an entry for each guest who sits elsewhere (``words``: the host's sentence; ``names``:
        guest id -> name), and the ``Seat`` rows rewritten. Returns the step. Undo of it is the
        format's ``bell_undone``."""
        raise NotImplementedError

    def example_result(self, *, evening: Evening, rnd: Round, table: int, user=None, reporter: Guest | None = None):
        """Record a result for ``table`` in round ``rnd`` as a table might really report one (its
        first side or player winning), through the format's own service: from the host
        (``user``) or from a guest's phone (``reporter``, seated at that table). Returns the
        ``Result``. What ``manage.py load_demo --played`` plays a demo evening forward with, and
        the capability matrix reports with (``tests/test_capabilities.py``). Raises ``RuleError``
        as that service does."""
        raise NotImplementedError

    # -- corrections (``services.corrections``) --------------------------------------------------

    def played_guests(self, evening: Evening, bells: Sequence[Bell], state: object = None) -> frozenset[int] | None:
        """The guests who took part in a round whose bell has rung: at a table when it was
        played (``played_seats`` of each of ``bells``, the evening's live bells, which
        ``services.prizes.played_guests`` reads); None before the first bell (nobody has played
        yet, so nobody is told apart). A guest not among them (checked in but never seated for
        a round, or registered and absent) gets no place in the standings, the ceremony or the
        documents and is listed apart as "did not play" (house rule: a place is for a guest who
        played; every format). ``state``: the evening's state now, when the caller has it (a
        format that reads it, as the Euchre tournament for its sit-outs). No query."""
        if not bells:
            return None
        return frozenset(g for bell in bells for table in self.played_seats(bell) for g in table if g > 0)

    def played_seats(self, bell: Bell) -> Sequence[Sequence[int]]:
        """The tables round ``bell.round`` was played at (the "before" of its live bell, not the
        seats after later steps): player ids, table 1 first (ghosts negative)."""
        raise NotImplementedError

    def step_replay(self, evening: Evening) -> StepReplay[StateT, ReportT, RecordT]:
        """How the format plays ``evening``'s steps again for a correction (``StepReplay``)."""
        raise NotImplementedError

    def correction_form(
        self, evening: Evening, *, rnd: Round, table: int, players: Sequence[Guest | int], result: Result | None, data
    ) -> CorrectionForm[ReportT]:
        """The format's report form for ``table`` in round ``rnd`` (its ``players`` as seated
        then: guests, or ghosts' negative ids), pre-filled with ``result`` (the live one, or
        None) and bound to ``data`` (the POST, or None)."""
        raise NotImplementedError

    def correction_context(self, evening: Evening, *, rnd: Round, form: CorrectionForm[ReportT]) -> dict:
        """What the correction page needs to draw the form's fields: ``fields`` (a template)
        and whatever that template reads, and ``correction_note``: what saving does to the later
        rounds, in a sentence for the host (the format's rules page, "Corrections")."""
        raise NotImplementedError

    def result_words(self, result: Result, names: Mapping[int, str]) -> str:
        """A table's stored ``result`` in words for the host's pages ("Ann won the pool",
        "North–South 7 points, East–West 3"), guests by ``names`` (id -> name)."""
        raise NotImplementedError

    def example_correction(self, evening: Evening, *, rnd: Round, table: int) -> ReportT:
        """A result for ``table`` in the rung round ``rnd`` that differs from the one on record
        (its other side or player winning), as ``StepReplay`` takes it: what the capability
        matrix corrects with (``tests/test_capabilities.py``)."""
        raise NotImplementedError

    # -- the room and the phones ----------------------------------------------------------------

    def family_board(self, evening: Evening, guests: Mapping[int, Guest] | None = None) -> object | None:
        """The format's own board, computed once per version with every phone's shared board
        (``selectors.guest_boards.Shared.family``) for the format's own pages, in place of
        Progressive Poker's tables and standings; None for a format whose shared board
        (``selectors.board.evening_board``) says all. ``guests``: guest id -> guest, every guest
        of the evening, when the caller has read them (the shared board has)."""
        return None

    def guest_page_context(self, guest: Guest, shared: PhoneBoard) -> dict | None:
        """What a guest's phone shows, drawn by the format (its own template parts), without the
        clock and polling every phone shares; None: the product's page serves the format."""
        return None

    def room_context(self, evening: Evening, board: RoomBoard, *, mode: str, asked: str, etag: str) -> dict | None:
        """What the room display shows during the evening, drawn by the format; None: the
        product's display serves it (``views.room``)."""
        return None

    def room_ceremony(self, evening: Evening, *, finished: bool) -> dict:
        """The prize ceremony's parts the format shows its own way on the room display (the
        final count, the final standings, their size); {}: the product's."""
        return {}

    def rules_page(self, request: HttpRequest, evening: Evening | None) -> HttpResponse | None:
        """The format's own rules page (with ``evening``'s options when it plays this format), or
        None when the product's page of the evening's table game says its rules."""
        return None

    # -- the draw before round 1 (``services.draws``, ``draw_physical``, ``draw_changes``;
    #    ``selectors.draw``) -----------------------------------------------------------------------

    def free_seats(self, plan: Plan) -> tuple[int, ...]:
        """The tables of the draw's ``plan`` that may seat one more guest before round 1 (a
        latecomer), table 1 first; () when none may. Source: the format's rulebook page, "Late
        and early" (Progressive Poker: a table between head and booby below seven)."""
        raise NotImplementedError

    def plan_with_latecomer(self, plan: Plan, table: int) -> Plan:
        """The draw's ``plan`` with one more guest at ``table`` (1 = head). Raises ``RuleError``
        saying what the host can do instead when that table may not grow."""
        raise NotImplementedError

    def plan_without_guest(self, plan: Plan, table: int) -> Plan:
        """The draw's ``plan`` with one guest fewer at ``table`` (1 = head). Raises ``RuleError``
        saying what the host can do instead when that table may not shrink."""
        raise NotImplementedError

    def from_other_pack(self, plan: Plan, *, red: int, blue: int) -> dict[Pack, int]:
        """How many guests of each pack must draw a card of the other pack when ``red`` and
        ``blue`` guests are dealt ``plan``'s cards (0 for the pack with cards enough): the host's
        choice of who represents the other pack on the draw page. Source: Foster, "Progressive
        Poker" ("some of the men must represent women or vice versa")."""
        raise NotImplementedError

    def physical_draw_plan(self, evening: Evening, here: Sequence[tuple[int, str]], *, accept_relaxed: bool) -> Plan:
        """The plan of a physical draw started now for the guests ``here`` (id, pack value; in id
        order), their packs checked as the digital draw checks them. Raises ``RuleError`` as the
        format's plan and draw do (too few guests; Progressive Poker's 9 to 11 without
        ``accept_relaxed``)."""
        raise NotImplementedError

    def physical_card(self, draw: Draw, *, guest_id: int, card: str) -> DrawnSeat:
        """The card guest ``guest_id`` drew in the physical draw ``draw`` (not complete; its
        evening locked by the caller), as the host typed it ("3 red", "trey" at Progressive
        Poker; "3 N" at tables of four), checked against the cards recorded so far: its pack,
        table (the rank), seat (None where seats are not named) and whether it is of the other
        pack. Raises ``RuleError`` (nothing to save) for a card that cannot be read or is not
        left, a guest not here or who drew already, or guests here that no longer fit the draw."""
        raise NotImplementedError

    def physical_draw_seating(self, draw: Draw) -> Seating:
        """The seating the physical draw ``draw`` gives once every card is recorded: the tables
        (at tables of four in seat order, ghosts negative) and every guest's card. Raises
        ``RuleError`` naming who has not drawn yet, or when the guests here no longer fit it."""
        raise NotImplementedError

    def physical_draw_progress(self, draw: Draw, view: PhysicalView) -> PhysicalView:
        """``view`` (``selectors.draw.PhysicalView`` of the open physical ``draw``) filled in: the
        pull list, the cards and guests left, the cards recorded, whether it is complete; its
        ``problem`` says why the draw no longer fits the guests here. Three queries or so."""
        raise NotImplementedError

    def pull_list(self, evening: Evening, open_draw: Draw | None) -> tuple[Plan, list[PullPack]]:
        """The cards to take out of each real pack for a physical draw (``selectors.draw.PullPack``,
        one per pack with the host's labels), for ``open_draw`` (the physical draw being
        recorded) or else for the guests here now; and the plan they make. Raises ``RuleError``
        when the guests here cannot be seated."""
        raise NotImplementedError

    # -- the table games and the rules pages (``views.rules``) ---------------------------------

    def game_rules_page(self, request: HttpRequest, game: str, evening: Evening | None) -> HttpResponse | None:
        """The rules page of the table game ``game`` (as ``/rules/<game>/`` names it) when the
        format's tables play such a game (Progressive Poker's seed games: "draw_poker",
        "commerce", ...), with ``evening``'s options when it plays that game; None when the
        format has no game of that name (the default: a format with no table game of its own)."""
        return None

    def evening_rules_page(self, request: HttpRequest, evening: Evening) -> HttpResponse | None:
        """The rules page headed by what ``evening`` (of this format) plays, with its options in
        force (``/e/<public key>/rules/``). Default: the format's own rules page
        (``rules_page``); None leads to the product's whole rules page."""
        return self.rules_page(request, evening)

    # -- the evening as JSON (``docs/export.md``) ------------------------------------------------

    def export_standings(self, evening: Evening, guests: list) -> tuple[list[dict], list[dict], list[dict]]:
        """The export's ``tables``, ``standings`` and ``prizes`` as the evening stands now
        (``guests``: the evening's guests, in id order); empty lists before the draw."""
        raise NotImplementedError

    def card_ranks(self, tables: int) -> int:
        """The highest rank a card of this format's draw of ``tables`` tables holds (a card's rank
        is its table; a format whose draw also deals a card for sitting out, one more)."""
        return tables

    def sitting_out(self, evening: Evening) -> frozenset[int]:
        """The guests (ids) who hold a place in the evening but sit the round in play (or the
        next) out by the format's rules, not for want of a seat: the host's pages say so instead
        of asking to seat them. Default: nobody; empty before the draw and once the evening
        has ended (no round to sit out)."""
        return frozenset()

    ranked_tables: ClassVar[bool] = True
    """Whether table 1 is the head table and the last the foot (booby) table, as pages name
    them; a format seated by a schedule has tables by number only."""

    plays_packs: ClassVar[bool] = True
    """Whether the guests' packs (red and blue, or the host's labels) take part in the draw; a
    format where everyone enters alone takes a guest list of names alone."""

    joins_after_the_draw: ClassVar[bool] = True
    """Whether a guest who arrives after the draw can be given a seat (``seat_change``): every
    format but one whose seats are a schedule fixed before play."""

    def import_references(self, data: dict) -> list[tuple[list, int]]:
        """The guest ids the format's own parts of an export name (reports, records, layouts),
        each with its place in the file (``["rounds", 0, "results", 1, "report", "buncos"]``),
        for the import's check that every one is in the guest list. Default: none."""
        return []

    def import_check_draw(self, data: dict, row: dict) -> None:
        """Check that the file's live draw ``row`` is one this format deals (an evening whose
        format was changed after its draw is refused). Raises ``EveningImportError``."""
        raise NotImplementedError

    def import_play(self, *, data: dict, evening: Evening, draw: Draw, row: dict, gid, host) -> None:
        """Save the play of an imported evening after its draw (``draw``, from the file's ``row``):
        rounds, results and bells replayed by the rules, the seats after the last bell, the audit
        entry. ``gid`` maps the file's guest ids to the new ones. Raises
        ``exchange.rows.EveningImportError`` naming the place in the file."""
        raise NotImplementedError

    # -- printing -------------------------------------------------------------------------------

    documents_instead: ClassVar[Mapping[str, str | None]] = {}
    """For another format's document slug, the slug of this format's document for the same use
    at the tables (house rule: an old link leads to the print page at that document); a slug
    not named has no counterpart."""

    def document_kinds(self) -> tuple[DocumentKind, ...]:
        """The documents the format prints (``DocumentKind``), in the order
        the print page lists them."""
        raise NotImplementedError

    def document(self, *, evening: Evening, slug: str, paper: str, variant: str, base_url: str | None):
        """The renderer of document ``slug`` (one of ``document_kinds``; ``variant`` checked),
        not yet rendered: ``.render()`` gives the PDF bytes. Raises ``RuleError``/``PrintError``."""
        raise NotImplementedError

    def document_check(self, *, evening: Evening, slug: str, variant: str) -> None:
        """Whether document ``slug`` (one of ``document_kinds``; ``variant`` checked) can print
        on A4 now, for the print page's list: returns None where ``document`` would build it,
        raises what ``document`` raises where it would not, the same error in the same words
        (issue 26 item 3: the page checks every document without building its rows). A format
        answers its own more cheaply where a document has a row per guest, in its package: it
        returns only once it knows the document builds, and otherwise builds it to raise the
        words. This default builds the document (``document``)."""
        self.document(evening=evening, slug=slug, paper="A4", variant=variant, base_url=None)

    # -- pages the format draws itself ----------------------------------------------------------

    def document_note(self, *, evening: Evening, slug: str) -> str:
        """A line the print page shows beside document ``slug`` when it can print (Progressive
        Poker's pull list: "1 of the Gentlemen draws from the other pack"), or "" (the default).
        Raises what the document raises."""
        return ""

    def template(self, name: str) -> str:
        """The format's own template ``name`` (in its package's ``templates/<key>/``): e.g.
        "host_report" -> "bunco/host_report.html", the fields of a table's report on the host's
        form; "phone_report", the same on a captain's phone. A format built on another (a
        subclass of its plug-in) uses the other's where it has none of its own. Raises Django's
        ``TemplateDoesNotExist`` when neither has one."""
        from django.template.loader import select_template

        keys = [vars(cls)["key"] for cls in type(self).__mro__ if "key" in vars(cls)]
        return select_template([f"{key}/{name}.html" for key in keys]).template.name

    pages: ClassVar[Mapping[str, str]] = {}
    """The format's own views for the product's pages: page name ("board", "draw", ...) ->
    dotted path of a view taking ``(request, evening_or_guest, *args)``, as ``urls.py`` names
    views. A page not named here is the product's page, which serves this format as it is.
    A scorer's pages (``views.helpers``: "scorer", the round's tables; "scorer_result", a
    table's result form) take the ``HelperLink`` in place of the evening."""

    def page(self, name: str) -> PageOverride | None:
        """The format's own view for the product's page ``name``, or None (``pages``)."""
        path = self.pages.get(name)
        return None if path is None else import_string(path)

    # -- counters: a table's pool and counts, its house rules (``counters`` formats) ------------
    # Progressive Poker's pieces the product's services ask for, in its package
    # (``tournament.formats.poker``); a format that plays for no counters refuses them in words.

    def counted_state(self, evening: Evening, *, final: bool = True) -> StateT:
        """The evening's state now with its counters (``services.state.evening_state``): once the
        evening has ended and ``final``, the final count's counters in place of the last bell's.
        A format without a final count gives ``state``. Raises ``RuleError`` before the draw."""
        raise NotImplementedError

    def pool_result(
        self,
        *,
        table: int,
        pool_winner: int | None,
        in_call: Iterable[int] = (),
        tied: Iterable[int] = (),
        counters: Mapping[int, int] | None = None,
    ) -> ReportT:
        """A table's pool result as the format's bell takes it (``services.results``,
        ``services.corrections.result_correct``): the winner, the callers, those who split the
        pool (guest ids) and each player's counters after the deal. Raises ``RuleError`` for a
        format whose tables report no pool."""
        raise NotImplementedError

    def result_check(self, state: StateT, result: ReportT) -> None:
        """Raise ``RuleError`` (guests named) when ``result`` (``pool_result``'s) is not one its
        table could report, seated as in ``state``: a winner or caller not there, negative
        counters, counters for someone not there."""
        raise NotImplementedError

    def count_off(self, state: StateT, table: int, counters: Mapping[int, int]) -> int | None:
        """How far ``counters`` (guest id -> counters after the deal) at ``table`` are off what
        its players held before it (``state``), in counters, after minus before; None when a
        player's count is missing. Raises ``RuleError`` for a format without counters."""
        raise NotImplementedError

    def ring_options(self, evening: Evening) -> object:
        """The options the format's rules ring ``evening``'s bell with (``FormatRules.ring``'s
        ``options``): Progressive Poker's house rules, the last bell never waiting for counts;
        the tables of four's options of play. Raises ``RuleError`` for a bad stored option."""
        raise NotImplementedError

    def house_rule(self, evening: Evening, name: str) -> str:
        """The evening's choice for the bell's house rule ``name`` ("no_result",
        "last_round_counts", ...; ``forms.bell.BELL_HELP`` names them). Raises ``RuleError`` for
        a house rule the format does not keep, or a bad stored option."""
        raise NotImplementedError

    def bell_preview(self, rnd: Round) -> BellPreview:
        """What ringing ``rnd``'s bell now would do (``BellPreview``), with its live results and
        random cuts, so that the host sees who may have to cut. Saves nothing."""
        raise NotImplementedError

    def seat_change_record(self, state: StateT, change: SeatChange | None) -> RecordT:
        """The format's record of the host's seat ``change`` made on ``state`` (None: a swap at
        one table, which moves nobody), as a replayed step stores it (an imported evening's
        seat change, ``services.seat_changes.seat_change_again``). Raises ``RuleError`` as
        ``tables.seats.change_seats`` does."""
        raise NotImplementedError

    def sizes_relaxed(self, sizes: Sequence[int]) -> str | None:
        """What table sizes ``sizes`` (table 1 first) relax of the format's table plan, in words
        for the draw page ("the head table starts with 5 players instead of 4"), or None: what a
        draw changed by hand records (``services.seat_changes``)."""
        raise NotImplementedError

    def standing_rows(
        self, evening: Evening, state: StateT, guests: Mapping[int, Guest]
    ) -> tuple[tuple[int, int, object], ...]:
        """The board's standings (``selectors.board.evening_board``): (place, guest id, the
        format's row) for every guest of ``state`` among ``guests`` (id -> guest), in order,
        guests level sharing a place ("1, 1, 3"); empty for a format whose own board shows them
        (``family_board``)."""
        raise NotImplementedError


class PageOverride(Protocol):
    """A format's own view for one of the product's pages: called as the page's view would be,
    with the evening (or the guest, or the helper's link for a helper's page) already found."""

    def __call__(
        self, request: HttpRequest, subject: Evening | Guest | HelperLink, /, *args, **kwargs
    ) -> HttpResponse: ...
