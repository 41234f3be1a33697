"""Every form a guest (or a helper at a table) sends from a phone refuses bad input in the
site's words, never in Django's defaults ("Ensure this value is greater than or equal to 0.",
"Enter a whole number.", "Select a valid choice. 9 is not one of the available choices.",
"This field is required."): each field of each such form is sent empty, negative, not a
number, huge, too long and off its list, and every message it gives is checked against Django's
own catalogue of default messages."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django import forms
from django.core import validators

from tournament.formats.partnership.captain_form import BuncoReportForm, EuchreReportForm, WhistReportForm
from tournament.forms.actions import CaptainFormHeader, ShowdownForm
from tournament.forms.door import RoundNumberForm
from tournament.forms.evening import ResultForm, SelfRegistrationForm, VoteForm
from tournament.forms.fields import WholeNumberField

BAD = ["", " ", "-1", "x", "1.5", "٣", "9" * 30, "99999", "NS9 EW99 XX", "a" * 2100, "\x00"]
SEATS = [(11, "Ann"), (12, "Bob"), (-1, "Ghost 1"), (14, "Di")]


def _django_defaults() -> list[re.Pattern[str]]:
    """Django's default messages (every form field's and validator's), as patterns, with our
    ``WholeNumberField``'s inherited "Enter a whole number."."""
    texts: set[str] = set()
    for cls in [getattr(forms, n) for n in dir(forms)] + [WholeNumberField]:
        if isinstance(cls, type) and issubclass(cls, forms.Field):
            for klass in cls.__mro__:
                texts |= {str(m) for m in getattr(klass, "default_error_messages", {}).values()}
    for name in dir(validators):
        message = getattr(getattr(validators, name), "message", None)
        if isinstance(message, str) or hasattr(message, "format"):
            texts.add(str(message))
    texts.add("Ensure this value is a multiple of step size %(limit_value)s.")
    texts.discard("")
    patterns = [re.compile(r"^Ensure this value has at (most|least) \d+ characters? \(it has \d+\)\.$")]
    for text in texts:
        escaped = re.escape(text)
        escaped = re.sub(r"%\\\(\w+\\\)[sd]", ".*", escaped)
        patterns.append(re.compile(f"^{escaped}$", re.S))
    return patterns


DEFAULTS = _django_defaults()
GUESTS = [SimpleNamespace(pk=pk, name=name) for pk, name in SEATS if pk > 0]

FORMS = {
    "euchre report": lambda data: EuchreReportForm(data, seats=SEATS),
    "whist report": lambda data: WhistReportForm(data, seats=SEATS),
    "bunco report": lambda data: BuncoReportForm(data, seats=SEATS),
    "poker report": lambda data: ResultForm(data, guests=GUESTS, counters_required=True),
    "vote": VoteForm,
    "captain's header": CaptainFormHeader,
    "self-registration": lambda data: SelfRegistrationForm(data),
    "showdown helper": lambda data: ShowdownForm(data, seats=4),
    "helper's round": RoundNumberForm,
}


def test_the_catalogue_knows_djangos_words():
    said = ["Ensure this value is greater than or equal to 0.", "Enter a whole number.", "This field is required."]
    assert all(any(p.match(s) for p in DEFAULTS) for s in said)
    assert any(p.match("Select a valid choice. 9 is not one of the available choices.") for p in DEFAULTS)
    assert any(p.match("Ensure this value has at most 400 characters (it has 401).") for p in DEFAULTS)


@pytest.mark.parametrize("name", FORMS)
def test_no_guest_form_speaks_in_djangos_default_words(name):
    build = FORMS[name]
    fields = list(build({}).fields)
    found = []
    for field in fields:
        for value in BAD:
            form = build({field: [value, value] if field in ("in_call", "tied") else value})
            form.is_valid()
            for where, messages in form.errors.items():
                for message in messages:
                    if any(p.match(message) for p in DEFAULTS):
                        found.append(f"{where}={value[:12]!r}: {message[:80]}")
    assert not sorted(set(found)), "\n".join(sorted(set(found)))
