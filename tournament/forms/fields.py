"""The typed fields every form and command reads numbers and ids through (issue 12 item 1).

Python's ``int()`` (and so Django's ``IntegerField``) reads any Unicode decimal digit: "٣" is 3,
and ``str.isdigit()`` is true for "²" and "①", which ``int()`` then refuses with a crash. A
number typed into Head Table is written in the digits 0 to 9 (house rule: what a host or guest
types on a form, a score sheet or a terminal), so these fields take exactly that, within
bounds a database column can hold, and say so in words when refused. Text fields keep
Django's ``ProhibitNullCharactersValidator`` (every ``CharField`` has it; ``nul_refused`` adds
it where a field is not a ``CharField``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal
from typing import TypeVar, cast

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, ProhibitNullCharactersValidator
from django.db import models
from django.utils.html import strip_tags

from tournament.whole_numbers import ID_MAX, ascii_whole_number

SMALL_MAX = 32_767  # the largest value of a small integer column (a table, a round, a rank)
_DECIMAL = re.compile(r"[+-]?[0-9]{0,19}(\.[0-9]{0,19})?")


class WholeNumberField(forms.IntegerField):
    """Django's ``IntegerField`` that takes only the digits 0 to 9 (``ascii_whole_number``),
    never a number outside a signed 64-bit integer, and refuses with plain words: "invalid"
    for what is not a whole number, "min_value"/"max_value" as Django's validators (also for
    digits beyond a 64-bit integer when the field has that bound), "too_large" otherwise."""

    default_error_messages = {"invalid": "Enter a whole number.", "too_large": "That number is far too large."}

    def to_python(self, value):
        """None for an empty value; the int; ``ValidationError`` otherwise."""
        if value in self.empty_values:
            return None
        number = ascii_whole_number(value)
        if number is None:
            text = str(value).strip()
            if re.fullmatch(r"[+-]?[0-9]+", text):
                # Digits beyond a 64-bit integer: just past the field's bound, so that its own
                # validator refuses it with its own message.
                if text.startswith("-") and self.min_value is not None:
                    return self.min_value - 1
                if not text.startswith("-") and self.max_value is not None:
                    return self.max_value + 1
                raise ValidationError(self.error_messages["too_large"], code="too_large")
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class IdField(WholeNumberField):
    """A row's id posted by a form (a guest, a result): a whole number from 1 to ``ID_MAX``."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_MAX)
        kwargs.setdefault("widget", forms.HiddenInput)
        super().__init__(**kwargs)


class AsciiDecimalField(forms.DecimalField):
    """Django's ``DecimalField`` written in the digits 0 to 9 and a point only ("٣" and "1e3"
    are refused, as ``Decimal()`` would read them)."""

    def to_python(self, value):
        """None for an empty value; the ``Decimal``; ``ValidationError`` ("invalid") otherwise."""
        if value in self.empty_values:
            return None
        if not isinstance(value, Decimal):
            text = str(value).strip()
            if not _DECIMAL.fullmatch(text) or not any(ch.isdigit() for ch in text):
                raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class WholeNumberListField(forms.Field):
    """Many ids posted under one name (ticked boxes): each a whole number from 1 to ``ID_MAX``
    in the digits 0 to 9, at most ``max_count`` of them, each once; an empty list when none."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {
        "invalid": "A ticked box was not understood: reload the page and try again.",
        "too_many": "Too many boxes were ticked at once.",
    }

    def __init__(self, *, max_count: int = 1000, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.max_count = max_count

    def to_python(self, value) -> list[int]:
        """The ids in the order posted, repeats dropped; ``ValidationError`` for a bad one."""
        if value in self.empty_values:
            return []
        values = value if isinstance(value, (list, tuple)) else [value]
        if len(values) > self.max_count:
            raise ValidationError(self.error_messages["too_many"], code="too_many")
        ids = []
        for item in values:
            number = ascii_whole_number(item)
            if number is None or number < 1:
                raise ValidationError(self.error_messages["invalid"], code="invalid")
            ids.append(number)
        return list(dict.fromkeys(ids))


class WholeNumbersTextField(forms.Field):
    """Whole numbers posted in one text (a hidden field: "17 -1 23 4", spaces or commas between
    them), each in the digits 0 to 9 (``ascii_whole_number``) from ``min_value`` to
    ``max_value``, at most ``max_count`` of them. Cleans to the list of ints, in order; an
    empty list for an empty text. Refuses anything else (NUL, other digits, 4,301 nines) with
    the field's "invalid" message: a hidden field, so the page says the form was damaged."""

    widget = forms.HiddenInput
    default_error_messages = {"invalid": "The form was damaged: open it again."}

    def __init__(self, *, min_value: int = -ID_MAX - 1, max_value: int = ID_MAX, max_count: int = 100, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.min_value, self.max_value, self.max_count = min_value, max_value, max_count

    def to_python(self, value) -> list[int]:
        """The ints; ``ValidationError`` ("invalid") for a part that is not one within bounds."""
        text = "" if value in self.empty_values else str(value)
        if len(text) > 21 * self.max_count:  # 20 characters hold any 64-bit number, and its separator
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        numbers = [ascii_whole_number(part) for part in re.split(r"[ ,]+", text.strip()) if part]
        if len(numbers) > self.max_count or any(
            n is None or not self.min_value <= n <= self.max_value for n in numbers
        ):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return [n for n in numbers if n is not None]


F = TypeVar("F", bound=forms.Field)  # a form field of any kind (nul_refused returns the same kind)


def nul_refused(field: F) -> F:
    """``field`` with Django's ``ProhibitNullCharactersValidator`` added (a ``CharField`` has it
    already; a ``ChoiceField`` does not), so a NUL character is a form error, never a database
    error on PostgreSQL."""
    if not any(isinstance(v, ProhibitNullCharactersValidator) for v in field.validators):
        field.validators.append(ProhibitNullCharactersValidator())
    return field


class _DigitsZeroToNine:
    """Refuse, as the field's "invalid", text with any character outside ASCII before Django
    parses it (``strptime`` reads "٢٠٢٦-١١-٣٠" as a date)."""

    def to_python(self, value):
        if isinstance(value, str) and not value.isascii():
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class AsciiDateField(_DigitsZeroToNine, forms.DateField):
    """Django's ``DateField`` written in the digits 0 to 9 ("2026-11-30")."""


class AsciiDateTimeField(_DigitsZeroToNine, forms.DateTimeField):
    """Django's ``DateTimeField`` written in the digits 0 to 9 ("2026-11-30T21:00")."""


class AsciiTimeField(_DigitsZeroToNine, forms.TimeField):
    """Django's ``TimeField`` written in the digits 0 to 9 ("19:30")."""


def model_number_field(db_field: models.Field, **kwargs) -> forms.Field | None:
    """A ``ModelForm``'s ``formfield_callback``: integer, decimal, date and time columns become
    ``WholeNumberField``, ``AsciiDecimalField``, ``AsciiDateField``, ``AsciiDateTimeField``
    (with the model's own bounds), every other column its usual form field."""
    if isinstance(db_field, models.IntegerField) and not db_field.choices:
        kwargs.setdefault("form_class", WholeNumberField)
        kwargs = {**_model_bounds(db_field), **kwargs}
    elif isinstance(db_field, models.DecimalField):
        kwargs.setdefault("form_class", AsciiDecimalField)
    elif isinstance(db_field, models.DateTimeField):
        kwargs.setdefault("form_class", AsciiDateTimeField)
    elif isinstance(db_field, models.DateField):
        kwargs.setdefault("form_class", AsciiDateField)
    return db_field.formfield(**kwargs)


def _model_bounds(db_field: models.Field) -> dict[str, object]:
    """The form field's bounds and their words from the column's own ``MinValueValidator`` and
    ``MaxValueValidator`` given with a message ("A round lasts 1 minute or more."), so the form
    refuses -5 and 0 in the same words as the model (not Django's "Ensure this value is
    greater than or equal to 0." for a positive column)."""
    bounds: dict[str, object] = {}
    words: dict[str, object] = {}
    for validator in db_field.validators:
        for kind, code in ((MinValueValidator, "min_value"), (MaxValueValidator, "max_value")):
            if type(validator) is kind and validator.message != kind.message:
                bounds[code], words[code] = validator.limit_value, validator.message
    return {**bounds, "error_messages": words} if words else bounds


_VALIDATOR_CODES = ("min_value", "max_value", "max_length", "min_length", "null_characters_not_allowed", "step_size")


def _django_words(field: forms.Field, code: str) -> bool:
    """Whether ``field``'s message for ``code`` is Django's own default (or absent, for a
    validator's code), rather than words a form gave it."""
    message = field.error_messages.get(code)
    if message is None:
        return code in _VALIDATOR_CODES
    defaults = {str(m) for k in type(field).__mro__ for m in getattr(k, "default_error_messages", {}).values()}
    return str(message) in defaults and str(message) != WholeNumberField.default_error_messages["too_large"]


def plain_words(form: forms.Form, *, damaged: str = "") -> forms.Form:
    """Give every field of ``form`` the site's words for whatever Django would say in its own
    ("This field is required.", "Enter a whole number.", "Ensure this value is greater than
    or equal to 0.", "Select a valid choice. 9 is not one of the available choices."), keeping
    every message the form set itself. A hidden field, or every field when ``damaged`` is given,
    says ``damaged`` (default: "The form was damaged: reload the page and send it again."),
    since a person never typed it; a visible one names its label ("Your name: at most 2000
    characters."). Returns ``form``. Called at the end of a guest-facing form's ``__init__``."""
    for name, field in form.fields.items():
        label = strip_tags(str(field.label or name.replace("_", " ").capitalize()))  # a name's <bdi> off
        hidden = bool(damaged) or field.widget.is_hidden
        said = damaged or "The form was damaged: reload the page and send it again."
        words = {
            "required": said if hidden else f"{label}: this is needed.",
            "invalid": said if hidden else f"{label}: a whole number in the digits 0 to 9.",
            "invalid_choice": said if hidden else f"{label}: choose one of those shown.",
            "invalid_list": said,
            "min_value": said if hidden else f"{label}: at least %(limit_value)s.",
            "max_value": said if hidden else f"{label}: at most %(limit_value)s.",
            "max_length": said if hidden else f"{label}: at most %(limit_value)d characters.",
            "min_length": said if hidden else f"{label}: at least %(limit_value)d characters.",
            "null_characters_not_allowed": said if hidden else f"{label} holds a character that cannot be read.",
            "step_size": said if hidden else f"{label}: a whole number.",
        }
        for code, message in words.items():
            if code == "invalid" and not isinstance(field, forms.IntegerField):
                continue  # a text field's "invalid" is its own validator's message
            if _django_words(field, code):
                field.error_messages[code] = message
    return form


LONG_CHOICE = 48
"""The longest choice, in characters, a host's select shows whole on a phone (about 330 px at
the site's type); a field with a longer choice is offered as radio buttons (``long_choices_as_radios``)."""


def long_choices_as_radios(form: forms.BaseForm) -> forms.BaseForm:
    """Offer each single-choice select of ``form`` whose longest choice is longer than
    ``LONG_CHOICE`` characters as radio buttons, one choice a line, wrapping (class "choices"),
    and return ``form``. House rule (a stranger's find: the new evening's "Round end" cut its
    words off at 1280 px wide): a select shows one line of its choice and cuts the rest, which
    no style sheet can wrap, so a choice in long words is never a select."""
    for field in form.fields.values():
        if not isinstance(field, forms.ChoiceField) or isinstance(field, forms.MultipleChoiceField):
            continue
        if type(field.widget) is not forms.Select:
            continue
        choices = list(cast(Iterable[tuple[object, object]], field.choices))
        if any(len(str(label)) > LONG_CHOICE for _, label in choices):
            field.widget = forms.RadioSelect(attrs={**field.widget.attrs, "class": "choices"})
            field.widget.choices = choices
    return form
