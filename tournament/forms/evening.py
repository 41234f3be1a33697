"""Django forms for the host's and the captains' pages.

Forms only read and check what was typed; the services decide what the rules allow and raise
``RuleError`` with the message the page shows.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.utils.html import format_html

from tournament.forms.fields import (
    ID_MAX,
    SMALL_MAX,
    WholeNumberField,
    long_choices_as_radios,
    model_number_field,
    plain_words,
)
from tournament.forms.seen import SeenVersionForm
from tournament.models import COUNTERS_MAX, Evening, Guest, PackChoice
from tournament.names import clean_name
from tournament.registry import default_format, format_choices, format_for, format_named, installed_formats
from tournament.services.evening_settings import SETTINGS, drawn, format_change_refused, options_change_refused
from tournament.whole_numbers import ascii_whole_number


def _round_end_by_format() -> str:
    """The blank round-end choice of a new evening: as its format plays it, in the formats' words
    ("As the format plays it (Bunco: when a team at the head table reaches 21; the others: when
    the clock runs out)"), from each format's ``default_round_end`` and ``round_end_words``."""
    by_result = [p for p in installed_formats().values() if p.default_round_end == Evening.RoundEnd.HEAD_POOL]
    words = [
        f"{p.title}: {p.round_end_words.split(' (')[0][:1].lower()}{p.round_end_words.split(' (')[0][1:]}"
        for p in by_result
    ]
    return f"As the format plays it ({'; '.join([*words, 'the others: when the clock runs out'])})"


ROUND_END_ANY = (
    "When the format's game is over, the rules' way (the head table's result; every table's where the "
    "format has no head table: each format's rules page says which)"
)
"""The round-end choice "when the head table finishes" for a new evening whose format is not
chosen yet (each format's own words: ``FormatPlugin.round_end_words``)."""


def _round_end_words(key: str) -> str:
    """The round-end choice "when the head table finishes" in format ``key``'s words (a format
    not installed, or none chosen yet: ``ROUND_END_ANY``)."""
    plugin = installed_formats().get(key)
    return plugin.round_end_words if plugin is not None else ROUND_END_ANY


FIXED_WORDS = "fixed once the guests have drawn"
"""Why a setting is shown as text, not offered, on the settings and clock pages after the draw."""


def _value_words(field: forms.Field, value: object) -> str:
    """``value`` of ``field`` as the host reads it: a choice's label ("Ladder: winners move up
    one table, ..."), a number, "yes"/"no" for a tick, "none" for nothing."""
    if isinstance(field, forms.ChoiceField):
        for key, label in cast(Iterable[tuple[object, object]], field.choices):
            if str(key) == str(value if value is not None else ""):
                return str(label)
    if isinstance(field, forms.BooleanField):
        return "yes" if value else "no"
    return "none" if value in (None, "") else str(value)


class FixedFieldsForm(forms.Form):
    """A form some of whose settings are fixed once the guests have drawn (house rule: the
    format, and what ``FormatPlugin.fixed_at_draw`` names). A fixed field is shown as text with
    its value and why (``fixed``: name -> the value in words), not offered; the browser sends
    nothing for it, which keeps the stored value (``keep_fixed``), and a value sent by a page
    drawn before the draw is still checked, and refused, by the form's and service's rules."""

    fixed: dict[str, str]
    fixed_why: str = FIXED_WORDS

    def fix_fields(self, names: Iterable[str]) -> None:
        """Show ``names`` (those the form has) as fixed text."""
        self.fixed = {}
        for name in names:
            if name in self.fields:
                field = self.fields[name]
                field.required, field.help_text = False, ""  # how to fill it in no longer applies
                self.fixed[name] = _value_words(field, self.get_initial_for_field(field, name))

    def keep_fixed(self, data: dict[str, Any]) -> None:
        """Put the stored value in ``data`` (the cleaned data) for each fixed field not sent."""
        for name in getattr(self, "fixed", {}):
            if name not in self.data:
                data[name] = self.get_initial_for_field(self.fields[name], name)
                self.errors.pop(name, None)

    def shown(self, fields: Iterable[Any]) -> list[tuple[Any, str]]:
        """The bound ``fields`` as the page shows them: (field, its fixed value in words, or ""
        when it is offered)."""
        fixed = getattr(self, "fixed", {})
        return [(field, fixed.get(field.name, "")) for field in fields]

    def rows(self) -> list[tuple[Any, str]]:
        """Every visible field of the form as ``shown`` gives it."""
        return self.shown(self.visible_fields())


def _format_fields() -> set[str]:
    """The evening form's fields that belong to some format (``FormatPlugin.evening_fields``)."""
    return {name for plugin in installed_formats().values() for name in plugin.evening_fields}


class EveningForm(FixedFieldsForm, forms.ModelForm):
    """Create or edit an evening: name, date, format, minutes per round, pack labels, and each
    format's own settings (``FormatPlugin.evening_fields``: Progressive Poker's game and
    counters, a format at tables of four's options).

    What a host sees of the formats' settings (house rule, found by a new host trying the
    product): a new evening's form offers every format's settings, each group under the titles
    of the formats asking it ("Progressive Poker only", "Progressive Euchre and Bunco only"), in
    words fitting all of them; ``formats.js`` shows only the groups of the format chosen (the
    blank choice: the site's default format), and without JavaScript every group shows, each so
    marked. A saved evening's page, before the draw as after it, offers only its own format's
    settings, under its title ("Bunco: movement, partners, ties and prizes"), in its own words
    (no other format named): a host who changes the format before the draw saves it, and the
    page then offers the new format's settings. A setting no format of the evening asks keeps
    what the evening holds."""

    class Meta:
        model = Evening
        formfield_callback = model_number_field  # numbers in the digits 0 to 9 only
        fields = list(SETTINGS)  # what services.evening_settings may write
        # An <input type="date"> takes and gives ISO dates (2026-11-30) whatever the language.
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        help_texts = {
            "rounds_planned": "Leave empty to play until you end the evening.",
            "counter_value": "Money per counter, for the settlement sheet; leave empty when counters have no value.",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.instance.pk:  # a new evening is for today unless the host says otherwise
            import datetime

            self.fields["date"].initial = datetime.date.today()
        self._format_setup()
        long_choices_as_radios(self)

    def _format_setup(self) -> None:
        """The format's fields: the format (blank keeps it), the formats' own fields
        (``FormatPlugin.evening_form_fields``: a saved evening's format's alone, in its words;
        on a new evening every format's, optional, in words shared by the formats asking them),
        the round end in the format's words."""
        saved = self.instance.format if self.instance.pk else ""
        formats = installed_formats()
        own = formats.get(saved)
        self._offered = [own] if own is not None else list(formats.values())
        fmt_field = cast(forms.ChoiceField, self.fields["format"])
        fmt_field.choices = [("", "---------"), *format_choices()]
        fmt_field.required = False
        fmt_field.initial = self.instance.format
        fmt_field.widget.attrs["data-default-format"] = default_format()
        self._stored_options: dict[str, object] = {}
        for plugin in formats.values():  # what the evening holds, for a setting no field shows
            self._stored_options.update(plugin.evening_form_initial(self.instance.options))
        for plugin in self._offered:
            self.fields.update(plugin.evening_form_fields(shared=own is None))
            for name, value in plugin.evening_form_initial(self.instance.options).items():
                if name in self.fields:
                    self.fields[name].initial = value
        round_end = cast(forms.ChoiceField, self.fields["round_end"])
        round_end.choices = [
            (Evening.RoundEnd.HEAD_POOL, _round_end_words(saved)),
            (Evening.RoundEnd.CLOCK, Evening.RoundEnd.CLOCK.label),
        ]
        if not saved:  # a new evening: the round ends as its format plays unless the host chooses
            round_end.choices = [("", _round_end_by_format()), *round_end.choices]
            round_end.required, round_end.initial = False, ""
        for name in _format_fields():
            if name not in self.fields:
                continue
            if own is None:
                self.fields[name].required = False
            elif name not in own.evening_fields:
                del self.fields[name]
        if own is not None and own.table_games and "game" in self.fields:  # its games, one required
            game = cast(forms.ChoiceField, self.fields["game"])
            game.choices, game.required = list(own.table_games), True
        if own is not None and drawn(self.instance):  # house rule: the draw fixes the format, and more
            # Shown, not offered (a change would only be refused on saving); the browser sends
            # nothing for them, which keeps them, and a tab opened before the draw that sends a
            # change is still refused (``clean_format``, ``clean``, the service).
            self.fix_fields(("format", *own.fixed_at_draw))
            fmt_field.help_text = "to play another format, create a new evening."

    def groups(self) -> list[tuple[str, str, list]]:
        """The form's fields as the page shows them: (legend, the keys of the formats that ask
        them, space-separated, the fields as ``shown`` gives them: (bound field, its value in words
        when it is fixed, else "")), the general ones first (legend ""), then a group
        for each set of formats asking the same fields, in the formats' order. Legend: a saved
        evening's own format's title and ``FormatPlugin.fields_legend`` ("Bunco: movement,
        partners, ties and prizes"); on a new evening the titles of the formats asking them
        ("Progressive Euchre and Bunco only")."""
        owned = _format_fields()
        out: list[tuple[str, str, list]] = [("", "general", self.shown(self[n] for n in self.fields if n not in owned))]
        askers: dict[str, tuple[str, ...]] = {}
        for plugin in self._offered:
            for name in plugin.evening_fields:
                if name in self.fields:
                    askers[name] = (*askers.get(name, ()), plugin.key)
        sharing: dict[tuple[str, ...], list[str]] = {}
        for name, keys in askers.items():
            sharing.setdefault(keys, []).append(name)
        for keys, names in sharing.items():  # in the order the formats first ask them
            out.append((self._legend(keys), " ".join(keys), self.shown(self[n] for n in names)))
        return out

    def _legend(self, keys: tuple[str, ...]) -> str:
        """A group's legend for the formats ``keys`` that ask its fields (``groups``)."""
        if len(self._offered) == 1:
            own = self._offered[0]
            return f"{own.title}: {own.fields_legend}"
        titles = [format_named(key).title for key in keys]
        listed = titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"
        return f"{listed} only"

    def clean_format(self) -> str:
        chosen = self.cleaned_data.get("format") or self.instance.format or default_format()
        refused = format_change_refused(self.instance, chosen)
        if refused:
            raise forms.ValidationError(refused)
        return chosen

    def clean(self):
        data = super().clean()
        self.keep_fixed(data)
        chosen = format_named(data.get("format") or self.instance.format or default_format())
        if not data.get("round_end") and "round_end" not in self.errors:
            data["round_end"] = chosen.default_round_end  # the format's own (Bunco: the head table's 21)
        for name in _format_fields():  # another format's fields keep what the evening holds
            if name in chosen.evening_fields:
                continue
            if name in self._meta.fields:
                if name in self.fields:
                    data[name] = getattr(self.instance, name)
            else:
                data[name] = self._stored_options.get(name)
            self.errors.pop(name, None)
        for name, problem in chosen.evening_form_clean(data, self.instance).items():
            if name not in self.errors:
                self.add_error(name, problem)
        if any(name in self.fields for name in chosen.evening_fields if name not in self._meta.fields):
            try:
                self._format_options = chosen.evening_form_options(data)
            except forms.ValidationError as error:
                self.add_error(None, error)
            else:
                refused = options_change_refused(self.instance, self._format_options)
                if refused and chosen.key == self.instance.format:
                    self.add_error(None, refused)
        # The pack labels, the counter's value, the bounds of every number and the game's fit to
        # the format are the model's rules (``Evening.clean_fields``, its validators), checked
        # when the form validates the instance: one rule, in one set of words, for this form,
        # the admin and the JSON import.
        return data

    def settings(self) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """For a valid form: (the settings it holds, field name -> value; the format's options
        chosen, None when the page showed none), as ``services.evening_settings`` saves them."""
        chosen = {name: self.cleaned_data[name] for name in self._meta.fields or () if name in self.cleaned_data}
        return chosen, getattr(self, "_format_options", None)

    def save(self, commit: bool = True) -> Evening:
        """Save the evening with the format's options in ``options["format"]``."""
        evening = super().save(commit=False)
        stored = format_named(evening.format).options_stored(
            evening.options or {}, getattr(self, "_format_options", None)
        )
        if stored is not None:
            evening.options = stored
        if commit:
            evening.save()
        return evening


class GuestForm(forms.Form):
    """One guest at the door: name, pack, optional contact, and whether they are here now. The
    name is checked by ``tournament.names.clean_name`` (the one name rule: its message, "The name
    is 501 characters long: shorten it to 120 or fewer."), so the field itself takes any length
    up to 2,000 characters, as the other name fields do."""

    name = forms.CharField(max_length=2000)
    pack = forms.ChoiceField(choices=PackChoice.choices)
    contact = forms.CharField(max_length=200, required=False)
    check_in = forms.BooleanField(required=False, initial=True, label="Here now (check in)")
    # Shown (``ask_different``) once a near-duplicate name was refused: "José Núñez" is registered.
    different = forms.BooleanField(required=False, label="A different guest", widget=forms.HiddenInput)

    def ask_different(self) -> None:
        """Show the "A different guest" box: the name looks like a registered guest's."""
        self.fields["different"].widget = forms.CheckboxInput()

    def clean_name(self) -> str:
        """The name checked as the service checks it, so its message shows beside the field."""
        from tables.errors import RuleError

        try:
            return clean_name(self.cleaned_data.get("name", ""))
        except RuleError as error:
            raise forms.ValidationError(str(error)) from None

    def __init__(self, *args, evening: Evening | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if evening is not None:
            cast(forms.ChoiceField, self.fields["pack"]).choices = [
                (p.value, evening.pack_label(p.value)) for p in PackChoice
            ]


def guest_file_text(raw: bytes) -> str:
    """The text of a guest list file: UTF-8 (with or without a byte order mark) or UTF-16 with
    its byte order mark (a spreadsheet's "Unicode text"). Raises ``forms.ValidationError``
    asking for UTF-8 for any other encoding (Latin-1, UTF-16 without a mark) and for a file
    holding NUL characters (not a text file at all). House rule: guessing an encoding would
    turn "Mårten" into "MÃ¥rten" without a word, so only marked encodings are read."""
    encoding = "utf-16" if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8-sig"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError:
        text = "\x00"
    if "\x00" in text:
        raise forms.ValidationError("The file is not UTF-8 text: save it as “CSV UTF-8” and upload it again.")
    return text


class GuestListForm(forms.Form):
    """A pasted list or a CSV file of guests: one per line, "name, pack[, contact]"."""

    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 6}), required=False, label="Paste a list")
    file = forms.FileField(required=False, label="or upload a CSV file")
    check_in = forms.BooleanField(required=False, label="Check them all in now")
    # Shown (``ask_different``) once a row's name was refused as looking like another's.
    different = forms.BooleanField(required=False, label="These are different guests", widget=forms.HiddenInput)

    MAX_BYTES = 1_000_000

    def ask_different(self) -> None:
        """Show the "These are different guests" box: a row looks like a registered guest."""
        self.fields["different"].widget = forms.CheckboxInput()

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError("The file is over 1 MB: split it, or remove what is not a guest.")
            data["text"] = guest_file_text(upload.read())
        if not (data.get("text") or "").strip():
            raise forms.ValidationError("Paste a list or choose a file.")
        return data


def counters_field(name: str, *, required: bool, initial: int | None) -> WholeNumberField:
    """The field for one guest's counters (0 to ``COUNTERS_MAX``), whose every message names the
    guest ("Ann's counters cannot be below 0."), so a refused form says whose count to fix."""
    return WholeNumberField(
        label=format_html("<bdi>{}</bdi>", name),  # isolated on the page; the messages say it plainly
        required=required,
        min_value=0,
        max_value=COUNTERS_MAX,
        initial=initial,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "required": f"Give {name}'s counters (0 if none).",
            "invalid": f"{name}'s counters: a whole number in the digits 0 to 9.",
            "min_value": f"{name}'s counters cannot be below 0.",
            "max_value": f"{name}'s counters: at most {COUNTERS_MAX:,}.",
        },
    )


class ResultForm(forms.Form):
    """A table's result for the round: the pool winner, who was in the call, and counters.

    Built for the guests at the table; counters are required at the head table
    (``docs/rules/progressive-poker.md``, 'A round': the head table's counters are counted at every bell). The last
    round's counts are taken after its bell, table by table (``FinalCountForm``).
    """

    def __init__(self, *args, guests: list[Guest], counters_required: bool, counters_initial=None, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(g.pk), format_html("<bdi>{}</bdi>", g.name)) for g in guests]  # each name isolated
        self.guests = guests
        chosen = "Choose who won the pool from the guests at this table."
        self.fields["pool_winner"] = forms.ChoiceField(
            choices=choices,
            widget=forms.RadioSelect,
            label="Won the pool",
            error_messages={"required": chosen, "invalid_choice": chosen},
        )
        ticked = {"invalid_choice": "Only the guests at this table can be ticked: reload the page and tick again."}
        self.fields["in_call"] = forms.MultipleChoiceField(
            choices=choices,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            label="Called the winner (in the call)",
            error_messages=ticked,
        )
        self.fields["tied"] = forms.MultipleChoiceField(
            choices=choices,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            label="Split the pool with the winner (a tie)",
            error_messages=ticked,
        )
        counters_initial = counters_initial or {}
        for g in guests:
            self.fields[f"counters_{g.pk}"] = counters_field(
                g.name, required=counters_required, initial=counters_initial.get(g.pk)
            )
        plain_words(self)

    def counter_fields(self):
        """The counters fields in seat order (for templates)."""
        return [self[f"counters_{g.pk}"] for g in self.guests]

    def tied(self) -> list[int]:
        """Guest ids who split the pool with the winner (the winner left out)."""
        winner = int(self.cleaned_data["pool_winner"])
        return [int(x) for x in self.cleaned_data.get("tied", []) if int(x) != winner]

    def winner_ticked_in_call(self) -> str:
        """The pool winner's name when they were ticked under "in the call" too (``result``
        leaves them out: the winner is in the call by the rules, ``tables.formats.poker.bell.checks``), so
        the page can say so instead of dropping the tick silently; "" otherwise."""
        winner = self.cleaned_data["pool_winner"]
        if winner not in self.cleaned_data.get("in_call", []):
            return ""
        return next((g.name for g in self.guests if str(g.pk) == winner), "")

    def result(self) -> tuple[int, list[int], dict[int, int]]:
        """(pool winner id, ids in the call, counters by guest id) from cleaned data."""
        data = self.cleaned_data
        counters = {g.pk: data[f"counters_{g.pk}"] for g in self.guests if data.get(f"counters_{g.pk}") is not None}
        winner = int(data["pool_winner"])
        # The winner is in the call by definition; a ticked box for them is not an error here.
        return winner, [int(x) for x in data["in_call"] if int(x) != winner], counters


class CountOffForm(forms.Form):
    """The host's explicit choice to record counts that do not add up: "the table agrees the
    count is off by N". ``off_by`` (hidden) is the difference the page showed (counters, after
    minus before the deal), so a tick given for one difference never covers another. House
    rule, issue 11 deliver 2: only the host records such a count, and the board flags it."""

    agree = forms.BooleanField(required=False)
    off_by = WholeNumberField(
        required=False, widget=forms.HiddenInput, min_value=-12 * COUNTERS_MAX, max_value=12 * COUNTERS_MAX
    )

    def agreed_off(self) -> int | None:
        """The difference the host agreed to (counters, signed), or None when not ticked."""
        data = self.cleaned_data
        return data.get("off_by") if data.get("agree") and data.get("off_by") else None


class VoteForm(forms.Form):
    """A guest confirms or disputes their table's result from their phone: ``result`` (the
    result the page showed), ``verdict`` ("confirm" or "dispute") and, for a dispute, an
    optional short reason (``note``, 200 characters at most) that the host's board and the
    audit log show. House rule, issue 11 deliver 8."""

    result = WholeNumberField(
        min_value=1,
        max_value=ID_MAX,
        widget=forms.HiddenInput,
        error_messages={
            "required": "The form was damaged: look at your page again.",
            "invalid": "The form was damaged: look at your page again.",
            "min_value": "The form was damaged: look at your page again.",
            "max_value": "The form was damaged: look at your page again.",
        },
    )
    verdict = forms.ChoiceField(
        choices=[("confirm", "Confirm"), ("dispute", "Dispute")],
        error_messages={"required": "Choose confirm or dispute.", "invalid_choice": "Choose confirm or dispute."},
    )
    note = forms.CharField(
        max_length=200,
        required=False,
        label="Why you dispute it (optional)",
        error_messages={
            "max_length": "Say why in 200 characters or fewer.",
            "null_characters_not_allowed": "Say why again: the reason held a character that cannot be read.",
        },
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        plain_words(self)

    def clean_note(self) -> str:
        return " ".join(self.cleaned_data["note"].split())


class GuestNameForm(forms.Form):
    """The host corrects a guest's name. Checked by ``tournament.names.clean_name``
    (the one name rule, ``tournament.names``); the service's message is shown."""

    name = forms.CharField(max_length=2000, required=False, label="Name")

    def clean_name(self) -> str:
        """The name checked as the service checks it."""
        from tables.errors import RuleError

        try:
            return clean_name(self.cleaned_data.get("name", ""))
        except RuleError as error:
            raise forms.ValidationError(str(error)) from None


class SelfRegistrationForm(forms.Form):
    """A guest registers themself from the evening's public link: name, pack, here now?

    The name is checked by ``tournament.names.clean_name`` (the service's message is
    shown), so the field itself accepts any length up to 2,000 characters.
    """

    name = forms.CharField(
        max_length=2000,
        required=False,
        label="Your name",
        widget=forms.TextInput(attrs={"autocomplete": "name", "autocapitalize": "words"}),
    )
    pack = forms.ChoiceField(
        choices=PackChoice.choices,
        widget=forms.RadioSelect,
        label="Your pack",
        error_messages={"required": "Choose your pack.", "invalid_choice": "Choose your pack."},
    )
    here_now = forms.BooleanField(required=False, initial=True, label="I am here now (check me in)")

    def __init__(self, *args, evening: Evening | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if evening is not None:
            cast(forms.ChoiceField, self.fields["pack"]).choices = [
                (p.value, evening.pack_label(p.value)) for p in PackChoice
            ]
        plain_words(self)

    def clean_name(self) -> str:
        """The name checked as the service checks it, so its message shows beside any other."""
        from tables.errors import RuleError

        try:
            return clean_name(self.cleaned_data.get("name", ""))
        except RuleError as error:
            raise forms.ValidationError(str(error)) from None


# --- The round clock (issue 5) ---------------------------------------------------------------


class ClockSettingsForm(FixedFieldsForm, forms.ModelForm):
    """The clock's options for an evening: auto-advance and its change-over, the warning before
    the bell, and the end of the evening by number of rounds or by a clock time (house rules;
    see ``tournament.services.clock``)."""

    class Meta:
        model = Evening
        formfield_callback = model_number_field  # numbers in the digits 0 to 9 only
        fields = ["round_end", "auto_advance", "changeover_minutes", "warning_seconds", "rounds_planned", "ends_at"]
        labels = {
            "round_end": "A round ends",
            "auto_advance": "Start the next round by itself after the change-over",
            "changeover_minutes": "Change-over (minutes between the bell and the next round)",
            "warning_seconds": "Warn phones and the room this many seconds before the bell",
            "rounds_planned": "Number of rounds",
            "ends_at": "End time (the round in play then is the last)",
        }
        help_texts = {
            "rounds_planned": "Leave empty to play until the end time, or until you stop.",
            "ends_at": "Leave empty for no end time.",
            "auto_advance": "",
            "warning_seconds": "",
        }
        widgets = {"ends_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        round_end = cast(forms.ChoiceField, self.fields["round_end"])  # in the evening's format's words
        round_end.choices = [
            (Evening.RoundEnd.HEAD_POOL, _round_end_words(self.instance.format)),
            (Evening.RoundEnd.CLOCK, Evening.RoundEnd.CLOCK.label),
        ]
        self.fixed = {}
        if self.instance.pk and drawn(self.instance):  # house rule: as on the settings page
            self.fix_fields(format_for(self.instance).fixed_at_draw)
        long_choices_as_radios(self)

    def clean(self):
        """The fixed settings not sent keep their stored values (``FixedFieldsForm``)."""
        data = super().clean()
        self.keep_fixed(data)
        return data

    # The bounds of the change-over, the warning and the rounds are the model's (its validators,
    # read by ``model_number_field``): the same words here, on the settings page and in the admin.


class ClockMinutesForm(forms.Form):
    """Minutes to add to or take from the round's clock, or to set it to (1 to 180; 0 to set)."""

    minutes = WholeNumberField(
        label="Minutes",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={"required": "Give a number of minutes.", "invalid": "Give a whole number of minutes."},
    )

    def clean_minutes(self) -> int:
        minutes = self.cleaned_data["minutes"]
        if minutes < 0:
            raise forms.ValidationError(
                "Minutes cannot be below 0: give 0 to 180 (“Take” takes minutes off the clock)."
            )
        if minutes > 180:
            raise forms.ValidationError("At most 180 minutes at a time.")
        return minutes


class TableJumpForm(forms.Form):
    """The board's "Go to table" box: a table number from 1 to the evening's number of tables."""

    table = WholeNumberField(label="Go to table", min_value=1)

    def __init__(self, *args, tables: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.tables = tables
        self.fields["table"].widget.attrs.update({"max": max(tables, 1), "inputmode": "numeric"})
        self.fields["table"].error_messages.update(
            {
                "required": "Type a table number.",
                "invalid": "Type a table number.",
                "min_value": "Table numbers start at 1.",
            }
        )

    def clean_table(self) -> int:
        """The number, if the evening has such a table; else a message naming the tables there are."""
        number = self.cleaned_data["table"]
        if not self.tables:
            raise forms.ValidationError("There are no tables yet: run the draw first.")
        if number > self.tables:
            raise forms.ValidationError(f"There is no table {number}: the tables are 1 to {self.tables}.")
        return number


# --- The end of the evening (issue 11 deliver 4) ---------------------------------------------


class EndEveningForm(SeenVersionForm):
    """The host confirms *End the evening*; ``round`` is the last round the page showed (0
    before round 1), so a stale tab is refused (``tournament.services.ending.evening_end``)."""

    round = WholeNumberField(
        min_value=0,
        max_value=SMALL_MAX,
        widget=forms.HiddenInput,
        error_messages={
            "required": "Reload the page and confirm again.",
            "invalid": "Reload the page and confirm again.",
            "max_value": "Reload the page and confirm again.",
        },
    )
    confirm = forms.BooleanField(
        label="Yes, end the evening",
        error_messages={"required": "Tick “Yes, end the evening” to confirm, or go back to the board."},
    )


class CeremonyForm(SeenVersionForm):
    """One tap of the prize ceremony; ``step`` is how many steps the page showed as revealed,
    so a double tap or a stale tab is refused (``tournament.services.ending.ceremony_next``)."""

    step = WholeNumberField(
        min_value=0,
        max_value=SMALL_MAX,
        widget=forms.HiddenInput,
        error_messages={
            "required": "Reload the page and tap again.",
            "invalid": "Reload the page and tap again.",
            "max_value": "Reload the page and tap again.",
        },
    )


class CorrectionConfirmForm(forms.Form):
    """The host's confirmation of a correction that changes prizes or places already announced:
    ``confirm`` is the token the shown changes carry (``services.corrections.ConfirmCorrection``),
    so a confirmation of other changes than the page showed is asked again. Absent: not yet
    confirmed."""

    confirm = forms.RegexField(regex=r"^[0-9a-f]{1,64}$", required=False, widget=forms.HiddenInput)


class FinalCountForm(forms.Form):
    """One table's final count: every guest's counters, pre-filled from the last count
    (``initial``), and the host's "the table agrees the count is off by N" when it does not add
    up (``agreed_off``: the difference shown, signed, posted back with the tick).

    ``guests`` are (guest id, name) in seat order. The form checks numbers only; the service
    (``final_count_record``) checks the table, the guests and the sum."""

    agree = forms.BooleanField(required=False)
    agreed_off = WholeNumberField(
        required=False, widget=forms.HiddenInput, min_value=-12 * COUNTERS_MAX, max_value=12 * COUNTERS_MAX
    )

    def __init__(self, *args, guests: list[tuple[int, str]], initial_counters: dict[int, int], **kwargs):
        super().__init__(*args, **kwargs)
        self.guests = guests
        for pk, name in guests:
            self.fields[f"counters_{pk}"] = counters_field(name, required=True, initial=initial_counters.get(pk))

    def counter_fields(self):
        """The counters fields in seat order (for templates)."""
        return [self[f"counters_{pk}"] for pk, _ in self.guests]

    def counters(self) -> dict[int, int]:
        """Guest id -> counters, from cleaned data."""
        return {pk: self.cleaned_data[f"counters_{pk}"] for pk, _ in self.guests}

    def strangers(self) -> list[int]:
        """Guest ids posted with a counters field although they are not at this table (a stale
        or forged form), so that the service can refuse them by name."""
        ids = {pk for pk, _ in self.guests}
        posted = (ascii_whole_number(key.removeprefix("counters_")) for key in self.data if key.startswith("counters_"))
        return sorted(g for g in posted if g is not None and 0 < g <= ID_MAX and g not in ids)

    def clean(self):
        """A counters field whose name is not a guest's id in the digits 0 to 9 ("counters_①",
        from a damaged form) is refused; nothing is saved."""
        data = super().clean()
        for key in self.data:
            if key.startswith("counters_") and ascii_whole_number(key.removeprefix("counters_")) is None:
                raise forms.ValidationError("The form was damaged (a count for nobody): open it again.")
        return data

    def agreed(self) -> int | None:
        """The difference the host agreed to, or None when the box is not ticked."""
        if not self.cleaned_data.get("agree"):
            return None
        return self.cleaned_data.get("agreed_off")
