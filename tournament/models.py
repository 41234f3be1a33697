"""What happened at an evening, as rows: guests, draws, rounds, results, bells and their entries.

The models record events, not just the latest state: every draw, every reported result and
every bell (with the full record ``tables.formats.poker.bell`` produced) is kept, and a correction marks the
old rows superseded instead of deleting them, so any standing can be recomputed and any bell
undone. ``Seat`` and ``Bell.state_after`` are derived caches of that history, kept in step by
the services in ``tournament.services``.

Every stored time comes from the database's clock: the ``created_at``/``rung_at``/``at``
fields default to the database's ``Now()`` (set by the INSERT, not by the process that
saves), and the services set ``superseded_at``/``undone_at``, deadlines and start times with
``Now()`` too, so the web servers' and the workers' clocks never enter what is stored. On
SQLite the database's clock is the clock of whichever process writes, so there the web server
and the worker must run on one machine (docs/deployment.md, "Clocks").

Nothing history refers to is deleted (issue 12 item 3): every relation from a history row to a
guest is ``RESTRICT``, so deleting such a guest raises ``RestrictedError`` from any path, while
deleting a whole evening (every row cascading from it) still works. See
``tournament.services.history`` for the checks in words.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length, Lower, Now
from django.db.models.lookups import Exact, GreaterThanOrEqual, LessThanOrEqual

from tables.errors import RuleError
from tables.packs import Pack
from tournament.format_setting import default_format, default_game, format_choices, game_choices, installed_named
from tournament.name_keys import fold_name, normal_name
from tournament.names import clean_name, validate_printable_name

COUNTERS_MAX = 1_000_000  # house rule: the most counters a guest can be reported holding (forms and commands)

PACK_LABELS_SAME = "The two packs need different labels, e.g. “Ladies” and “Gentlemen”."
"""Why an evening whose two pack labels read alike is refused (house rule: a guest told "Ladies"
could not tell which pack is theirs). The one rule's words: ``Evening.clean`` (the evening form,
the admin, the import) and the database's ``evening_pack_labels_differ``."""

CHANGEOVER_WORDS = "A change-over lasts 0 to 60 minutes."
WARNING_WORDS = "Warn 0 to 600 seconds (10 minutes) before the bell."


def length_within(field: str, low: int, high: int) -> Q:
    """A CHECK condition: ``field`` holds ``low`` to ``high`` characters (``Length``, so SQLite,
    which ignores ``max_length``, refuses longer text too)."""
    return Q(GreaterThanOrEqual(Length(field), low)) & Q(LessThanOrEqual(Length(field), high))


def one_of(field: str, choices: type[models.Choices] | list[str]) -> Q:
    """A CHECK condition: ``field`` is one of the choices' values."""
    values = choices.values if isinstance(choices, type) else choices
    return Q(**{f"{field}__in": list(values)})


def within(field: str, low: int, high: int | None = None) -> Q:
    """A CHECK condition: ``low`` <= ``field`` (<= ``high``); NULL passes, as the field allows it."""
    condition = Q(**{f"{field}__gte": low})
    return condition & Q(**{f"{field}__lte": high}) if high is not None else condition


CHECK_WORDS = "This value cannot be kept here: it is out of range, too long, or not one of the choices."
"""What a broken CHECK constraint says (house rule: Django's own "Constraint “guest_pack_known” is
violated." names the code); the field's own check, which runs first, usually says it better."""


def checks(model: str, **conditions: Q) -> list[models.BaseConstraint]:
    """Named CHECK constraints ``<model>_<name>`` from keyword conditions, each refusing in
    ``CHECK_WORDS``."""
    return [
        models.CheckConstraint(condition=q, name=f"{model}_{name}", violation_error_message=CHECK_WORDS)
        for name, q in conditions.items()
    ]


def new_private_key() -> str:
    """A fresh private URL key: 24 random bytes (192 bits) as 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


class PackChoice(models.TextChoices):
    """The two packs of the seating draw (values match ``tables.packs.Pack``)."""

    RED = Pack.RED.value, "Red pack"
    BLUE = Pack.BLUE.value, "Blue pack"


class EveningStage(models.TextChoices):
    """The choices of ``Evening.Stage``."""

    REGISTRATION = "registration", "Registration"
    SEATED = "seated", "Seated (draw made)"
    PLAYING = "playing", "Playing"
    ENDED = "ended", "Ended"


class RoundEnd(models.TextChoices):
    """The choices of ``Evening.RoundEnd``."""

    HEAD_POOL = "head_pool", "When the head table's pool is recorded (the rules' way)"
    CLOCK = "clock", "When the clock runs out"


class Evening(models.Model):
    """One progressive card party, run by one host.

    ``version`` grows by one with every change a guest or the room may see; pages use it as
    their ETag so an unchanged page costs no query.
    """

    Stage = EveningStage
    RoundEnd = RoundEnd

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="evenings")
    name = models.CharField(max_length=120, error_messages={"blank": "Give the evening a name."})
    date = models.DateField()
    format = models.CharField(
        max_length=20,
        choices=format_choices,  # the installed formats (settings.HEAD_TABLE_FORMATS), asked when used
        default=default_format,
        help_text="The format the evening plays, one of the formats installed; fixed once the seats are drawn.",
    )
    game = models.CharField(
        max_length=20,
        blank=True,
        choices=game_choices,  # the installed formats' table games (FormatPlugin.table_games)
        default=default_game,
        help_text="The table game played at every table, where the format offers a choice.",
    )
    options = models.JSONField(default=dict, blank=True, help_text="Rule options (house rules), by name.")
    counters_per_stake = models.PositiveIntegerField(
        default=50,
        validators=[
            MinValueValidator(1, "A stake is 1 counter or more."),
            MaxValueValidator(10_000, "A stake is at most 10,000 counters."),
        ],
    )
    minutes_per_round = models.PositiveSmallIntegerField(
        default=10,
        validators=[
            MinValueValidator(1, "A round lasts 1 minute or more."),
            MaxValueValidator(180, "A round lasts at most 180 minutes."),
        ],
    )
    rounds_planned = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[
            MinValueValidator(1, "Plan 1 round or more, or leave it empty."),
            MaxValueValidator(100, "Plan at most 100 rounds."),
        ],
    )
    round_end = models.CharField(max_length=10, choices=RoundEnd.choices, default=RoundEnd.CLOCK)
    red_label = models.CharField(
        max_length=40, default="Red pack", error_messages={"blank": "Give the red pack a label (“Red pack”, “Ladies”)."}
    )
    blue_label = models.CharField(
        max_length=40,
        default="Blue pack",
        error_messages={"blank": "Give the blue pack a label (“Blue pack”, “Gentlemen”)."},
    )
    counter_value = models.DecimalField(
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0, "A counter's money value cannot be negative; leave it empty for none.")],
    )
    self_registration = models.BooleanField(default=False)
    auto_advance = models.BooleanField(default=False, help_text="Start the next round by itself after the change-over.")
    changeover_minutes = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(0, CHANGEOVER_WORDS), MaxValueValidator(60, CHANGEOVER_WORDS)]
    )
    warning_seconds = models.PositiveSmallIntegerField(
        default=60,
        help_text="Warn phones and the room this long before the bell.",
        validators=[MinValueValidator(0, WARNING_WORDS), MaxValueValidator(600, WARNING_WORDS)],
    )
    ends_at = models.DateTimeField(null=True, blank=True, help_text="The round in play at this time is the last.")
    public_key = models.CharField(max_length=43, unique=True, default=new_private_key, editable=False)
    prize_seed = models.CharField(
        max_length=64,
        blank=True,
        default="",
        editable=False,
        help_text="What the cuts for tied prizes are drawn from (empty: from the public key); an imported evening "
        "keeps its original's, so its prizes go to the same guests.",
    )
    stage = models.CharField(max_length=12, choices=Stage.choices, default=Stage.REGISTRATION)
    ended_at = models.DateTimeField(null=True, blank=True, help_text="When the last bell rang (the end of play).")
    ceremony_step = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The prize ceremony: empty before it; then how many prizes the room shows (the prizes "
        "and one more step for the final standings).",
    )
    version = models.PositiveBigIntegerField(default=1)
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        ordering = ["-date", "-id"]
        constraints = checks(
            "evening",
            name_length=length_within("name", 1, 120),
            format_length=length_within("format", 1, 20),  # a key; which formats: the registry's
            game_length=length_within("game", 0, 20),  # which games: the formats' (table_games)
            stake_in_range=within("counters_per_stake", 1, 10_000),
            minutes_in_range=within("minutes_per_round", 1, 180),
            rounds_in_range=within("rounds_planned", 1, 100),
            round_end_known=one_of("round_end", RoundEnd),
            red_label_length=length_within("red_label", 1, 40),
            blue_label_length=length_within("blue_label", 1, 40),
            counter_value_not_negative=within("counter_value", 0),
            stage_known=one_of("stage", EveningStage),
            changeover_in_range=within("changeover_minutes", 0, 60),
            warning_in_range=within("warning_seconds", 0, 600),
        ) + [
            models.CheckConstraint(
                condition=Q(ceremony_step__isnull=True) | Q(stage=EveningStage.ENDED),
                name="evening_ceremony_after_the_end",
                violation_error_message="The prize ceremony comes after the end: an evening not ended has none yet.",
            ),
            models.CheckConstraint(  # the labels as stored are stripped (the form, the import)
                condition=~Q(Exact(Lower("red_label"), Lower("blue_label"))),
                name="evening_pack_labels_differ",
                violation_error_message=PACK_LABELS_SAME,
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d %b %Y})"

    def clean_fields(self, exclude=None) -> None:
        """Django's field checks, then the evening's rules across its fields (``field_problems``)
        for each field not in ``exclude``, so every way an evening comes in refuses alike: the
        evening form (a ``ModelForm``; the clock's form, which holds no label, is not asked about
        labels), the admin and the JSON import (``full_clean``). Returns None; raises
        ``ValidationError`` by field."""
        errors: dict[str, list] = {}
        try:
            super().clean_fields(exclude=exclude)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        for name, message in self.field_problems().items():
            if name not in (exclude or ()) and name not in errors:
                errors[name] = [ValidationError(message, code="rule")]
        if errors:
            raise ValidationError(errors)

    def field_problems(self) -> dict[str, str]:
        """The evening's rules across its fields, by the field refused (empty when they hold):
        the two pack labels differ once stripped and case folded (``PACK_LABELS_SAME``, house
        rule; the database's ``evening_pack_labels_differ`` holds it as its SQL can), and a
        format that offers table games plays one of its own (``FormatPlugin.table_games``:
        Progressive Poker's Draw Poker and seed games; house rule: the evening form offers only
        those). No query."""
        errors: dict[str, str] = {}
        red, blue = (self.red_label or "").strip(), (self.blue_label or "").strip()
        if red and blue and red.casefold() == blue.casefold():
            errors["blue_label"] = PACK_LABELS_SAME
        try:
            plugin = installed_named(self.format)
        except ValueError:  # not a format this site plays: the field's own check says so
            return errors
        games = dict(plugin.table_games)
        if games and self.game not in games:
            errors["game"] = f"{plugin.title} plays one of these games: {', '.join(games.values())}."
        return errors

    @property
    def plays_table_game(self) -> bool:
        """Whether the evening's format plays one of the table games (``game``: Draw Poker and
        the seed games, as Progressive Poker does). No query."""
        return "game" in installed_named(self.format).evening_fields

    @staticmethod
    def round_end_for(format: str) -> str:
        """The round end a new evening of ``format`` takes unless the host chooses another: the
        format's (``FormatPlugin.default_round_end``: at Bunco the head table's 21,
        ``docs/rules/bunco.md``; at the others when the clock runs out, house rule)."""
        return installed_named(format).default_round_end

    def pack_label(self, pack: str | Pack) -> str:
        """The host's label for a pack ("Red pack" by default)."""
        return self.red_label if Pack(pack) is Pack.RED else self.blue_label


class GuestStatus(models.TextChoices):
    """The choices of ``Guest.Status``."""

    REGISTERED = "registered", "Registered"
    HERE = "here", "Checked in"
    LEFT = "left", "Left"


class Guest(models.Model):
    """A person registered for an evening, in one of the two packs.

    ``key`` is the private link's secret (192 random bits); reissuing it kills the old link.
    ``name_key`` is the name folded for duplicate checks ("Anne  Smith" = "anne smith"); the
    name is stored in NFC (``tournament.name_keys``).
    """

    Status = GuestStatus

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="guests")
    name = models.CharField(
        max_length=120,
        validators=[validate_printable_name],
        error_messages={"blank": "The name is empty: write the guest's name."},
    )
    name_key = models.CharField(max_length=120, editable=False)
    pack = models.CharField(max_length=4, choices=PackChoice.choices)
    contact = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REGISTERED)
    key = models.CharField(max_length=43, unique=True, default=new_private_key, editable=False)
    key_revoked = models.BooleanField(default=False)
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        ordering = ["name_key", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "name_key"],
                name="guest_name_unique_per_evening",
                violation_error_message="Another guest of this evening has this name already.",
            ),
            *checks(
                "guest",
                name_length=length_within("name", 1, 120),
                name_key_length=length_within("name_key", 1, 120),
                pack_known=one_of("pack", PackChoice),
                status_known=one_of("status", GuestStatus),
                contact_length=length_within("contact", 0, 200),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name = normal_name(self.name)
        self.name_key = self.fold_name(self.name)
        super().save(*args, **kwargs)

    def clean_fields(self, exclude=None) -> None:
        """Django's field checks, then the one name rule (``tournament.names.clean_name``, as
        the guest forms, the pasted list and self-registration apply it) for the admin and the
        import, which call ``full_clean``: the name is kept cleaned (control characters out,
        spaces collapsed, NFC). A name the field's own checks refused, or an excluded one, is
        left to them. Returns None; raises ``ValidationError`` by field, the name's in
        ``clean_name``'s words."""
        errors: dict[str, list] = {}
        try:
            super().clean_fields(exclude=exclude)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        if "name" not in errors and "name" not in (exclude or ()):
            try:
                self.name = clean_name(self.name)
                self.name_key = self.fold_name(self.name)
            except RuleError as error:
                errors["name"] = [ValidationError(str(error), code="name")]
        if errors:
            raise ValidationError(errors)

    @staticmethod
    def fold_name(name: str) -> str:
        """The name as compared for duplicates: in NFC, spaces collapsed, case folded
        (``tournament.name_keys.fold_name``: "Zoë" composed or not is one name)."""
        return fold_name(name)


class DrawKind(models.TextChoices):
    """The choices of ``Draw.Kind``."""

    DIGITAL = "digital", "Digital (dealt by the app)"
    PHYSICAL = "physical", "Physical (real packs)"


class Draw(models.Model):
    """One seating draw: the table plan and, through ``cards``, the card each guest drew.

    A redraw before round 1 supersedes the earlier draw (kept, with ``superseded_at`` set).
    A physical draw is recorded card by card and is ``complete`` when every guest has a card.
    """

    Kind = DrawKind

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="draws")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.DIGITAL)
    sizes = models.JSONField(help_text="Players per table, table 1 (head) first.")
    relaxed = models.TextField(blank=True, help_text="What the plan relaxes, when the rules cannot seat this count.")
    layout = models.JSONField(
        default=list,
        blank=True,
        help_text="Tables of four only: the ids at North, East, South and West of each table (ghosts negative).",
    )
    complete = models.BooleanField(default=False)
    created_at = models.DateTimeField(db_default=Now())
    superseded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["evening", "-id"]
        constraints = checks("draw", kind_known=one_of("kind", DrawKind))

    def __str__(self) -> str:
        return f"The {self.kind} draw of {self.evening.name}" + (" (superseded)" if self.superseded_at else "")


class DrawnCard(models.Model):
    """The table card a guest drew: pack and rank (rank = table number: ace = 1, the head table)."""

    draw = models.ForeignKey(Draw, on_delete=models.CASCADE, related_name="cards")
    guest = models.ForeignKey(Guest, on_delete=models.RESTRICT, related_name="drawn_cards")
    pack = models.CharField(max_length=4, choices=PackChoice.choices)
    rank = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Tables of four only: 0 North, 1 East, 2 South, 3 West."
    )
    recorded_at = models.DateTimeField(db_default=Now())

    # The order a draw seats its tables in: by rank (the table), then in the order the cards were
    # recorded. The evening's state, the score sheets, the seat changes and the export all read the
    # cards in this order, so an exported draw imports to the same seats (issue 24 deliver 5).
    SEATING_ORDER = ("rank", "id")

    class Meta:
        ordering = ["draw", "rank", "pack", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["draw", "guest"],
                name="one_card_per_guest_per_draw",
                violation_error_message="This guest holds a card of this draw already: one card each.",
            ),
            *checks(
                "drawncard",
                pack_known=one_of("pack", PackChoice),
                rank_positive=within("rank", 1),
                seat_known=within("seat", 0, 3),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.guest.name} drew table {self.rank}'s card of the {self.get_pack_display().lower()}"


class Seat(models.Model):
    """Where a guest sits now (derived: the draw, then every live bell's moves)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="seats")
    guest = models.OneToOneField(Guest, on_delete=models.RESTRICT, related_name="seat")
    table = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Tables of four only: 0 North, 1 East, 2 South, 3 West."
    )

    class Meta:
        ordering = ["evening", "table", "position", "id"]
        indexes = [models.Index(fields=["evening", "table"])]
        constraints = checks("seat", table_positive=within("table", 1), position_known=within("position", 0, 3))

    def __str__(self) -> str:
        return f"{self.guest.name} sits at table {self.table}"


class RoundState(models.TextChoices):
    """The choices of ``Round.State``."""

    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"
    RUNG = "rung", "Bell rung"
    CLOSED = "closed", "Closed"


class RoundReopened(models.TextChoices):
    """The choices of ``Round.Reopened``: what rings a round's bell again after an undo."""

    NO = "", "Not reopened"
    HOST = "host", "Reopened: the host rings the bell"
    HEAD_POOL = "head_pool", "Reopened: the head table's pool rings the bell"


class Round(models.Model):
    """One deal at every table, with its clock.

    ``deadline`` is in UTC and compared with the database's clock. ``clock_version`` grows on
    every pause, resume or change of minutes, so a timed task scheduled for an older clock
    does nothing. ``reopened`` is set when the round's bell was undone: the round then waits
    for the host ("host": corrected results never ring it; only the host's bell does) or, if
    the host chose so on an evening that ends rounds at the head table's pool, for the head
    table's next result ("head_pool"). Cleared when the bell rings again.
    """

    State = RoundState
    Reopened = RoundReopened

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.RUNNING)
    started_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)
    paused_seconds_left = models.FloatField(null=True, blank=True)
    clock_version = models.PositiveIntegerField(default=1)
    waiting_for = models.CharField(
        max_length=300, blank=True, help_text="Why a rung bell waits (e.g. the head table's result is missing)."
    )
    reopened = models.CharField(
        max_length=9,
        blank=True,
        choices=RoundReopened.choices,
        help_text="After an undone bell: what rings it again (house rule, issue 11 deliver 3).",
    )

    class Meta:
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "number"],
                name="round_number_unique",
                violation_error_message="There is a round with this number already.",
            ),
            *checks(
                "round",
                state_known=one_of("state", RoundState),
                number_positive=within("number", 1),
                waiting_for_length=length_within("waiting_for", 0, 300),
                reopened_known=one_of("reopened", RoundReopened),
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"

    @property
    def state_words(self) -> str:
        """The round's state as every page says it: "Reopened" after an undone bell (the round
        waits for its bell again), else the state's label ("Running", "Paused", "Bell rung",
        "Closed"). House rule: one page never says "Bell rung" where another says "Reopened"."""
        return "Reopened" if self.reopened else self.get_state_display()

    @property
    def is_last(self) -> bool:
        """True when this is the evening's last round: its number has reached
        ``Evening.rounds_planned``. See ``is_last_number``; reads ``self.evening`` (a query
        unless it is loaded already)."""
        return Round.is_last_number(self.number, evening=self.evening)

    @staticmethod
    def is_last_number(number: int, *, evening: Evening) -> bool:
        """True when round ``number`` is ``evening``'s last round: the evening has a number of
        rounds (``rounds_planned``, 1 or more) and ``number`` has reached it. False when the
        evening plays until the host ends it. Ending the evening early (the host's "End the
        evening", or the end time passing) sets ``rounds_planned`` to the round in play, which
        then is the last. The one home of this rule (house rule: the evening's number of rounds,
        ``docs/host.md``); no query."""
        planned = evening.rounds_planned
        return planned is not None and planned >= 1 and number >= planned


class ResultStatus(models.TextChoices):
    """The choices of ``Result.Status``."""

    REPORTED = "reported", "Reported"
    CONFIRMED = "confirmed", "Confirmed"
    DISPUTED = "disputed", "Disputed (the host decides)"


class Result(models.Model):
    """A table's result for a round, as reported by a captain or entered by the host.

    ``in_call`` lists the guest ids who called the winner; ``counters`` maps guest id (as a
    string) to that guest's counters after the deal. A correction sets ``superseded_at`` on the
    old row and adds a new one. ``request_id`` makes a captain's report idempotent (a double
    tap or a retry saves once); ``status`` follows the other guests' confirmations and disputes.
    ``count_off`` is non-zero only when the host recorded counters that do not add up because
    the table agreed the count is off by that many (house rule, issue 11 deliver 2): the board
    flags the table until the bell. Who sent it: ``reported_by_guest`` (a captain's phone),
    ``reported_by_helper`` (a scorer's link) or neither (the host); ``sender`` names them.
    """

    Status = ResultStatus

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    table = models.PositiveSmallIntegerField()
    pool_winner = models.ForeignKey(Guest, on_delete=models.RESTRICT, related_name="pools_won", null=True, blank=True)
    in_call = models.JSONField(default=list, blank=True)
    tied = models.JSONField(default=list, blank=True, help_text="Guest ids who split the pool with the winner.")
    counters = models.JSONField(default=dict, blank=True)
    report = models.JSONField(
        default=dict,
        blank=True,
        help_text="Tables of four only: the table's report as tables.formats.records reads it (points, tricks, buncos).",
    )
    reported_by_guest = models.ForeignKey(
        Guest, on_delete=models.RESTRICT, null=True, blank=True, related_name="results_reported"
    )
    reported_by_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    reported_by_helper = models.ForeignKey(
        "HelperLink",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="results_reported",
        help_text="The scorer's link the result was sent from (issue 23), else none.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REPORTED)
    request_id = models.CharField(max_length=64, blank=True)
    count_off = models.IntegerField(
        default=0,
        help_text="Counters the table agreed its count is off by (after minus before the deal; 0: it adds up).",
    )
    created_at = models.DateTimeField(db_default=Now())
    superseded_at = models.DateTimeField(null=True, blank=True)
    disputes: list[ResultVote]  # not a column: the disputing votes, set by tournament.selectors.board for the board

    class Meta:
        ordering = ["round", "table", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(superseded_at__isnull=True),
                name="one_live_result_per_table",
                violation_error_message="This table has a result for this round already (one live result each).",
            ),
            *checks(
                "result",
                table_positive=within("table", 1),
                status_known=one_of("status", ResultStatus),
                request_id_length=length_within("request_id", 0, 64),
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table}'s result in round {self.round.number} of {self.round.evening.name}"

    @property
    def count_off_size(self) -> int:
        """How many counters the agreed count is off by, without its sign."""
        return abs(self.count_off)

    def sender(self, host: str = "the host") -> tuple[str, str]:
        """Who sent this result, as the phones and the host's pages name them: (the words, the
        name in them that a page isolates, "" for none), the words ending with the name. A
        captain: ("Ann", "Ann"); a scorer's link: ``HelperLink.as_sender`` ("the scorer Britt",
        "Britt"); the host: (``host``, "") -- "the host" where a guest reads it, "" on the host's
        own pages, which say nothing of their own entries. Reads ``reported_by_guest`` and
        ``reported_by_helper`` (load them with the result: a page of many results selects them).
        Raises nothing. House rule, issue 23: a scorer's report is never credited to the host."""
        if self.reported_by_guest_id is not None and self.reported_by_guest is not None:
            return self.reported_by_guest.name, self.reported_by_guest.name
        if self.reported_by_helper_id is not None and self.reported_by_helper is not None:
            return self.reported_by_helper.as_sender()
        return host, ""

    def sender_words(self, host: str = "the host") -> str:
        """Who sent this result in plain words (``sender``'s words): "Ann", "the scorer Britt",
        or ``host``."""
        return self.sender(host)[0]


class Verdict(models.TextChoices):
    """The choices of ``ResultVote.Verdict``."""

    CONFIRM = "confirm", "Confirm"
    DISPUTE = "dispute", "Dispute"


class ResultVote(models.Model):
    """Another guest at the table confirms or disputes a reported result."""

    Verdict = Verdict

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="votes")
    guest = models.ForeignKey(Guest, on_delete=models.RESTRICT, related_name="result_votes")
    verdict = models.CharField(max_length=8, choices=Verdict.choices)
    note = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(db_default=Now())
    name: str  # not a column: the voter's name, set by the guest's page (tournament.views.guest)

    class Meta:
        ordering = ["result", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["result", "guest"],
                name="one_vote_per_guest_per_result",
                violation_error_message="This guest has confirmed or disputed this result already.",
            ),
            *checks("resultvote", verdict_known=one_of("verdict", Verdict), note_length=length_within("note", 0, 300)),
        ]

    def __str__(self) -> str:
        verb = "confirms" if self.verdict == Verdict.CONFIRM else "disputes"
        return f"{self.guest.name} {verb} table {self.result.table}'s result"


class BellKind(models.TextChoices):
    """The choices of ``Bell.Kind``."""

    BELL = "bell", "The bell"
    LEAVE = "leave", "A guest left"
    ARRIVE = "arrive", "A guest arrived"
    SEAT = "seat", "Seats changed"


class BellCause(models.TextChoices):
    """The choices of ``Bell.Cause``."""

    CLOCK = "clock", "The clock ran out"
    HEAD_POOL = "head_pool", "The head table's pool was decided"
    HOST = "host", "The host rang it"


class StepQuerySet(models.QuerySet):
    """The evening's history of steps (``Bell`` rows), read by what a reader means: ``bells()``
    only the bells that ended rounds (the room's and phones' "at the last bell", "where to go",
    the seats a round was played at), ``guest_steps()`` only arrivals and departures, ``live()``
    only steps not undone, ``newest_first()`` for undo (the last step, whatever its kind)."""

    def live(self) -> StepQuerySet:
        """The steps not undone."""
        return self.filter(undone_at__isnull=True)

    def bells(self) -> StepQuerySet:
        """Only bells that ended a round (kind "bell"): no arrival, departure or seat change."""
        return self.filter(kind=BellKind.BELL)

    def guest_steps(self) -> StepQuerySet:
        """Only the steps that are not a round's bell (a guest arriving or leaving, a seat change)."""
        return self.exclude(kind=BellKind.BELL)

    def of_evening(self, evening_id: int) -> StepQuerySet:
        """The steps of the evening with id ``evening_id``."""
        return self.filter(round__evening_id=evening_id)

    def in_order(self) -> StepQuerySet:
        """Oldest first: by round, then in the order they were taken."""
        return self.order_by("round__number", "id")

    def newest_first(self) -> StepQuerySet:
        """Newest first: the step ``undo`` takes back first."""
        return self.order_by("-round__number", "-id")


class Bell(models.Model):
    """A step of the evening's history: a bell that was rung, with the full record of what it
    did (``tables.formats.poker.bell.BellRecord.to_json``; a Progressive Poker step stored since
    8 December 2026 keeps its state after only in ``state_after``: read it back with
    ``formats.poker.bell.stored_record``), or a guest's arrival or departure (``kind``). Read
    it through ``Bell.objects`` (``StepQuerySet``): ``.bells()`` when a page means "the last
    bell" or "the seats round N was played at", the whole history when it means "the last step".

    At most one live (not undone) bell per round, enforced by the database: two bells rung at
    once for the same round apply once. A guest leaving or arriving after round 1 is stored the
    same way (``kind`` "leave" / "arrive", attached to the last round played), so that seats,
    undo and corrections treat it like any other step of the evening; so is a seat change the
    host makes after round 1 has started (``kind`` "seat", ``services.seat_changes``).
    """

    Kind = BellKind
    Cause = BellCause

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="bells")
    kind = models.CharField(max_length=6, choices=Kind.choices, default=Kind.BELL)
    cause = models.CharField(max_length=10, choices=Cause.choices)
    rung_at = models.DateTimeField(db_default=Now())
    record = models.JSONField()
    state_after = models.JSONField(help_text="Seats, counters, yellow counters and stakes after this bell.")
    undone_at = models.DateTimeField(null=True, blank=True)

    objects = StepQuerySet.as_manager()

    class Meta:
        ordering = ["round", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round"],
                condition=Q(undone_at__isnull=True, kind="bell"),
                name="one_live_bell_per_round",
                violation_error_message="This round's bell has rung already (one bell a round, unless undone).",
            ),
            *checks("bell", kind_known=one_of("kind", BellKind), cause_known=one_of("cause", BellCause)),
        ]

    def __str__(self) -> str:
        undone = " (undone)" if self.undone_at else ""
        return f"{self.get_kind_display()} in round {self.round.number} of {self.round.evening.name}{undone}"


class BellEntry(models.Model):
    """One line of a bell's record: a yellow counter, a move, a fresh stake, a swap or a cut.

    ``text`` is said to the guest, on their own phone ("You won the pool at table 2: go to ...");
    ``about`` says it of them, by name, for the host's board, the room and the audit log
    ("Mårten won the pool at table 2: goes to ..."). Both with guests' names, not ids."""

    bell = models.ForeignKey(Bell, on_delete=models.CASCADE, related_name="entries")
    kind = models.CharField(max_length=12)
    guest = models.ForeignKey(Guest, on_delete=models.RESTRICT, related_name="bell_entries")
    from_table = models.PositiveSmallIntegerField(null=True, blank=True)
    to_table = models.PositiveSmallIntegerField(null=True, blank=True)
    amount = models.IntegerField(default=0)
    rule = models.CharField(max_length=200, blank=True)
    text = models.CharField(max_length=300, blank=True)
    about = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["bell", "id"]
        constraints = checks(
            "bellentry",
            amount_not_negative=within("amount", 0),
            rule_length=length_within("rule", 0, 200),
            text_length=length_within("text", 0, 300),
        )

    def __str__(self) -> str:
        return self.about or f"A {self.kind} for {self.guest.name}"


class FinalCount(models.Model):
    """One table's final count, taken after the last bell (issue 11 deliver 4): ``counters``
    maps guest id (as a string) to the counters they hold at the end, for everyone at the table.
    ``off_by`` is the difference from the last count (final total minus the total those guests
    held after the last bell) that the host recorded as agreed by the table; 0 when it adds up.
    A new count for the table marks the old one superseded (kept). The standings, prizes and
    documents read the live counts over the state after the last bell
    (``tournament.services.state.evening_state``)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="final_counts")
    table = models.PositiveSmallIntegerField()
    counters = models.JSONField(default=dict)
    off_by = models.IntegerField(default=0)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(db_default=Now())
    superseded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["evening", "table", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "table"],
                condition=Q(superseded_at__isnull=True),
                name="one_live_final_count_per_table",
                violation_error_message="This table has a final count already (one live count each).",
            ),
            *checks("finalcount", table_positive=within("table", 1)),
        ]

    def __str__(self) -> str:
        superseded = " (superseded)" if self.superseded_at else ""
        return f"The final count at table {self.table} of {self.evening.name}{superseded}"

    @property
    def off_words(self) -> str:
        """The agreed difference in words: "10 short", "5 over" ("" when the count adds up)."""
        if not self.off_by:
            return ""
        return f"{abs(self.off_by)} {'short' if self.off_by < 0 else 'over'}"


class HelperLink(models.Model):
    """A volunteer's revocable link (``/h/<key>/``), so that they can help on their phone without
    the host's password: a **door** link checks guests in and registers them; a **scorer** link
    enters table results for the round in play. ``number`` counts the evening's links from 1
    ("the door helper (link 2)" in the audit log). ``key`` is 192 random bits like a guest's
    private link; a revoked link answers the guest pages' one 404 and never comes back (the
    host creates a new one). House rule, issue 11 deliver 7.
    """

    class Role(models.TextChoices):
        DOOR = "door", "The door (check-in and registration)"
        SCORER = "scorer", "The scores (table results)"

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="helper_links")
    number = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=6, choices=Role.choices)
    label = models.CharField(max_length=60, blank=True, help_text="For whom, e.g. “Britt at the door”.")
    key = models.CharField(max_length=43, unique=True, default=new_private_key, editable=False)
    created_at = models.DateTimeField(db_default=Now())
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["evening", "number"]
        constraints = [models.UniqueConstraint(fields=["evening", "number"], name="helper_link_number_unique")]

    def __str__(self) -> str:
        return self.who

    @property
    def who(self) -> str:
        """The helper as the audit log names them: "the door helper (link 2)"."""
        role = "door" if self.role == self.Role.DOOR else "scorer"
        return f"the {role} helper (link {self.number}" + (f", {self.label})" if self.label else ")")

    def as_sender(self) -> tuple[str, str]:
        """The link's holder as the sender of a table's result, for the phones and the host's
        pages ("Sent by the scorer Britt"): (the words, the label in them that a page isolates,
        "" for none). Wording (issue 23): "the scorer" says which job the link does, which a
        guest at the table knows by sight, then the label the host gave the link, which is the
        holder's name ("Britt" or "Britt at the scores"), as the host wrote it; a link without a
        label is named by its number, as the audit log names it: "the scorer (link 3)". A door
        link, which cannot send a result, would be "the door helper ...". Raises nothing."""
        job = "the scorer" if self.role == self.Role.SCORER else "the door helper"
        if self.label:
            return f"{job} {self.label}", self.label
        return f"{job} (link {self.number})", ""


class AuditEntry(models.Model):
    """Who did what to an evening, when, and from which device or private link (a host login, a
    guest's private link, or a helper's link)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="audit")
    at = models.DateTimeField(db_default=Now())
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    guest = models.ForeignKey(Guest, on_delete=models.SET_NULL, null=True, blank=True)
    helper = models.ForeignKey(HelperLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit")
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)
    device = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = checks(
            "auditentry", action_length=length_within("action", 1, 40), device_length=length_within("device", 0, 200)
        )

    def __str__(self) -> str:
        return f"An entry in the audit log of {self.evening.name}"


class PhoneSend(models.Model):
    """A form from a guest's or helper's phone that the server has recorded, under the one-time
    ``request_id`` the phone sent with it (``static/keep.js`` keeps a form on the phone until the
    server confirms it, and sends it again when the connection returns). A resend with the same
    id is answered "recorded already" and records nothing twice (``services.sends``). ``action``
    says what was recorded ("result.report", "result.vote", "guest.check_in", "guest.register");
    ``words`` what the phone was told the first time; ``guest`` the guest it was about (a
    self-registration's resend leads back to that guest's page). House rule, issue 24 item 1.
    """

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="phone_sends")
    request_id = models.CharField(max_length=64)
    action = models.CharField(max_length=40)
    words = models.CharField(max_length=300, blank=True)
    guest = models.ForeignKey(Guest, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    at = models.DateTimeField(db_default=Now())

    class Meta:
        ordering = ["evening", "at", "id"]
        constraints = [models.UniqueConstraint(fields=["evening", "request_id"], name="phone_send_once")]

    def __str__(self) -> str:
        return f"A form sent from a phone to {self.evening.name} ({self.action})"
