"""Forms for the pages' buttons and small posts: the draw, the physical draw, the round and its
clock, private links, the door switch, a captain's report and vote, the showdown helper, and
the query strings of the print, rules, room and audit pages (issue 12 item 1).

Every value a view reads comes through one of these: an ``action`` is a ``ChoiceField`` of the
buttons the page has; an id or a number is a ``tournament.forms.fields`` field (digits 0 to 9,
bounded); text has a length limit and refuses NUL. A missing or bad field is a form error
with words for the page, so the view changes nothing and says why. The services still decide
what the rules allow.
"""

from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator

from tournament.forms.fields import SMALL_MAX, IdField, WholeNumberField, WholeNumberListField, nul_refused, plain_words
from tournament.forms.seen import SeenVersionForm
from tournament.whole_numbers import ascii_whole_number

NOT_UNDERSTOOD = "That button was not understood: reload the page and try again."
TABLE_MAX = 1000  # more tables than any hall holds (84 at 500 guests)
ROUND_MAX = 10_000


def action_field(*choices: str, required: bool = True) -> forms.ChoiceField:
    """A ``ChoiceField`` of the page's button values, refusing anything else (NUL too) with
    ``NOT_UNDERSTOOD``."""
    return nul_refused(
        forms.ChoiceField(
            choices=[(c, c) for c in choices],
            required=required,
            error_messages={"required": NOT_UNDERSTOOD, "invalid_choice": NOT_UNDERSTOOD},
        )
    )


def form_problems(form: forms.Form) -> list[str]:
    """Every error of a bound, invalid form as words for the page, each once."""
    return list(dict.fromkeys(str(e) for errors in form.errors.values() for e in errors))


class DrawForm(SeenVersionForm):
    """The draw page's buttons: deal digitally (``action`` "digital", the default) or start a
    physical draw ("physical"); ``accept_relaxed`` "1" takes the relaxed plan offered for 9 to
    11 guests; ``representing``, the guests ticked to represent the other pack."""

    action = action_field("digital", "physical", required=False)
    accept_relaxed = nul_refused(
        forms.ChoiceField(
            choices=[("", "no"), ("1", "yes")], required=False, error_messages={"invalid_choice": NOT_UNDERSTOOD}
        )
    )
    representing = WholeNumberListField(
        max_count=1000,
        error_messages={
            "invalid": "A guest ticked to represent the other pack is not on the "
            "list: reload the page and tick them again."
        },
    )


class DrawChangeForm(SeenVersionForm):
    """A change of who is here before round 1: ``action`` "seat" (a latecomer, ``guest``, at
    ``table``), "release" (take ``guest`` out of the draw) or "swap" (``latecomer`` takes
    ``guest``'s seat)."""

    action = action_field("seat", "release", "swap")
    guest = IdField(
        error_messages={
            "required": "Pick a guest.",
            "invalid": "Pick a guest.",
            "min_value": "Pick a guest.",
            "max_value": "Pick a guest.",
        }
    )
    table = WholeNumberField(
        required=False,
        min_value=1,
        max_value=TABLE_MAX,
        error_messages={
            "invalid": "Pick a table with a free seat.",
            "min_value": "Pick a table with a free seat.",
            "max_value": "Pick a table with a free seat.",
        },
    )
    latecomer = IdField(
        required=False,
        error_messages={
            "invalid": "Pick the latecomer who takes the seat.",
            "min_value": "Pick the latecomer who takes the seat.",
            "max_value": "Pick the latecomer who takes the seat.",
        },
    )

    def clean(self):
        """A seat needs its table; a swap needs its latecomer."""
        data = super().clean()
        if data.get("action") == "seat" and data.get("table") is None and "table" not in self.errors:
            self.add_error("table", "Pick a table with a free seat.")
        if data.get("action") == "swap" and data.get("latecomer") is None and "latecomer" not in self.errors:
            self.add_error("latecomer", "Pick the latecomer who takes the seat.")
        return data


class PhysicalCardForm(SeenVersionForm):
    """One card of the physical draw: the ``guest``'s name as typed and the ``card`` they drew,
    as typed ("3", "trey", "3 red"); the services read both."""

    guest = forms.CharField(
        max_length=200,
        error_messages={
            "required": "Type the name of the guest who drew the card.",
            "max_length": "That is not a guest's name: type the name of the guest who drew the card.",
        },
    )
    card = forms.CharField(
        max_length=40,
        error_messages={
            "required": "Type the card the guest drew, e.g. “3” or “3 red”.",
            "max_length": "That is not a table card: type its rank and, if needed, its pack, e.g. “3 red”.",
        },
    )


class PhysicalActionForm(SeenVersionForm):
    """The physical draw's buttons: ``action`` "withdraw" (undo ``guest``'s card), "finish"
    (seat everyone) or "cancel"."""

    action = action_field("withdraw", "finish", "cancel")
    guest = IdField(
        required=False,
        error_messages={
            "invalid": "Pick the guest whose card to undo.",
            "min_value": "Pick the guest whose card to undo.",
            "max_value": "Pick the guest whose card to undo.",
        },
    )

    def clean(self):
        """A withdrawal needs its guest."""
        data = super().clean()
        if data.get("action") == "withdraw" and data.get("guest") is None and "guest" not in self.errors:
            self.add_error("guest", "Pick the guest whose card to undo.")
        return data


class ClockActionForm(SeenVersionForm):
    """The clock's buttons: ring, pause, resume, add / take / set ``minutes`` (read by
    ``tournament.forms.evening.ClockMinutesForm``)."""

    action = action_field("ring", "pause", "resume", "add", "take", "set")


class LinkActionForm(forms.Form):
    """A guest's link page: ``action`` "reissue" (a new link) or "revoke"; ``confirmed``: the
    host said yes to the revoke (house rule: a revoke asks first, as removing a guest does)."""

    action = action_field("reissue", "revoke")
    confirmed = forms.BooleanField(required=False)


class DoorSwitchForm(forms.Form):
    """The door page's switch: ``self_registration`` "on" lets guests register themselves,
    "off" (or nothing) stops it."""

    self_registration = nul_refused(
        forms.ChoiceField(
            choices=[("", "off"), ("off", "off"), ("on", "on")],
            required=False,
            error_messages={"invalid_choice": NOT_UNDERSTOOD},
        )
    )


class CaptainFormHeader(forms.Form):
    """What a captain's report form was shown for: the ``round`` and ``table`` numbers and its
    one-time ``request_id`` (at most 64 characters), so a form sent late is refused, not
    applied to another round, and a retry saves once."""

    round = WholeNumberField(min_value=1, max_value=ROUND_MAX)
    table = WholeNumberField(min_value=1, max_value=TABLE_MAX)
    request_id = forms.CharField(max_length=64, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        plain_words(self, damaged="The form was damaged: open it again.")


_SEATING = RegexValidator(r"^[0-9]{1,19}(,[0-9]{1,19}){0,99}$", "The players at this table have changed.")
SHOWDOWN_DAMAGED = "The form was damaged: enter the hands again."


class ShowdownForm(forms.Form):
    """The showdown helper's whole state (see ``tournament.formats.poker.game_forms.ShowdownEntry``): the
    ``seating`` it was shown for (guest ids), ``hand-1`` … ``hand-N``, ``dealer``, ``seat`` (the
    seat the grid fills), ``during_play``, and the button pressed: ``pick`` (a card), ``unpick``
    (a seat), ``send`` (the winner's seat), or ``action`` (decide, clear, record); ``sent_seat``
    and ``request_id`` carry a send to the head table's result form. ``button()`` names the
    button; a ``pick`` or ``unpick`` button with no value is a form error."""

    seating = forms.CharField(
        max_length=2000, validators=[_SEATING], error_messages={"required": "The players at this table have changed."}
    )
    dealer = forms.CharField(
        max_length=10, required=False, error_messages={"max_length": "Choose the dealer's seat from the list."}
    )
    seat = WholeNumberField(required=False, min_value=0, max_value=SMALL_MAX)
    during_play = nul_refused(forms.ChoiceField(choices=[("", "no"), ("1", "yes")], required=False))
    pick = forms.CharField(max_length=20, required=False)
    unpick = WholeNumberField(required=False, min_value=0, max_value=SMALL_MAX)
    send = WholeNumberField(required=False, min_value=0, max_value=SMALL_MAX)
    sent_seat = WholeNumberField(required=False, min_value=0, max_value=SMALL_MAX)
    action = action_field("decide", "clear", "record", "pick", "unpick", "send", required=False)
    request_id = forms.CharField(max_length=64, required=False)

    def __init__(self, *args, seats: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        for number in range(1, seats + 1):
            self.fields[f"hand-{number}"] = forms.CharField(max_length=500, required=False, strip=True)
        plain_words(self, damaged=SHOWDOWN_DAMAGED)

    def button(self) -> str:
        """The button pressed: "send" when a winner's send button was, else "pick" / "unpick"
        for a card or a seat's ⌫, else the posted ``action`` ("decide" when none)."""
        if "send" in self.data:
            return "send"
        if "pick" in self.data:
            return "pick"
        if "unpick" in self.data:
            return "unpick"
        return self.cleaned_data.get("action") or "decide"

    def clean(self):
        """A card button needs its card, a ⌫ button its seat."""
        data = super().clean()
        if self.errors:
            return data
        action = self.button()
        if action == "pick" and not data.get("pick"):
            self.add_error("pick", "No card was tapped: tap a card in the grid.")
        if action == "unpick" and data.get("unpick") is None:
            self.add_error("unpick", "No seat was given: tap ⌫ beside a seat's hand.")
        return data

    def posted_seating(self) -> list[int | None]:
        """The guest ids the form was shown for, in seat order, read by the one rule
        (``ascii_whole_number``: None for a number no database id holds, which no seating has)."""
        return [ascii_whole_number(x) for x in self.cleaned_data["seating"].split(",")]

    def entry_data(self) -> dict[str, str]:
        """The cleaned state as ``ShowdownEntry.from_post`` reads it."""
        data = self.cleaned_data
        return {
            **{f"hand-{n}": data[f"hand-{n}"] for n in range(1, self.seats + 1)},
            "dealer": data["dealer"],
            "seat": str(data["seat"] or 1),
            "during_play": data["during_play"],
        }


class EveningLinkQuery(forms.Form):
    """``?evening=<public key>`` on a game's rules page (optional, at most 64 characters)."""

    evening = forms.CharField(max_length=64, required=False)


class PrintQuery(forms.Form):
    """``?paper=`` (A4 or letter) and ``?variant=`` of the print page and its downloads; the
    documents decide which values exist, this form only bounds them and refuses NUL."""

    paper = forms.CharField(max_length=20, required=False)
    variant = forms.CharField(max_length=20, required=False)


class RoomQuery(forms.Form):
    """``?mode=`` of the room display: auto (the default), full or moves."""

    mode = nul_refused(
        forms.ChoiceField(choices=[("auto", "auto"), ("full", "full"), ("moves", "moves")], required=False)
    )


class PageQuery(forms.Form):
    """``?page=`` of a long list (the audit log): a page number from 1."""

    page = WholeNumberField(required=False, min_value=1, max_value=1_000_000)


class SeatChangeForm(SeenVersionForm):
    """The "Change seats" page: ``guest`` swaps with ``other`` (``action`` "swap"), or moves to
    ``place`` ("move"): a table number ("3") or, at tables of four, a table and a seat ("3-0",
    0 North .. 3 West); or "undo" the seat change ``step`` (a ``Bell`` id) the page showed as the
    last step. The services decide what the rules allow (``services.seat_changes``, ``bell_undo``)."""

    action = action_field("swap", "move", "undo")
    step = IdField(
        required=False,
        error_messages={"invalid": NOT_UNDERSTOOD, "min_value": NOT_UNDERSTOOD, "max_value": NOT_UNDERSTOOD},
    )
    guest = IdField(
        required=False,
        error_messages={
            "required": "Pick the guest whose seat changes.",
            "invalid": "Pick the guest whose seat changes.",
            "min_value": "Pick the guest whose seat changes.",
            "max_value": "Pick the guest whose seat changes.",
        },
    )
    other = IdField(
        required=False,
        error_messages={
            "invalid": "Pick the guest to swap seats with.",
            "min_value": "Pick the guest to swap seats with.",
            "max_value": "Pick the guest to swap seats with.",
        },
    )
    place = nul_refused(
        forms.CharField(
            required=False,
            max_length=20,
            validators=[RegexValidator(r"^[0-9]{1,4}(-[0-9])?$", "Pick a table or a seat from the list.")],
            error_messages={"max_length": "Pick a table or a seat from the list."},
        )
    )

    def clean(self):
        """A swap needs the other guest, a move its place; ``table`` and ``seat`` are read from
        ``place`` (``seat`` None without one)."""
        data = super().clean()
        if self.errors:
            return data
        if data.get("action") == "undo":
            if not data.get("step"):
                raise forms.ValidationError(NOT_UNDERSTOOD)
            return data
        if not data.get("guest"):
            raise forms.ValidationError("Pick the guest whose seat changes.")
        if data.get("action") == "swap" and not data.get("other"):
            raise forms.ValidationError("Pick the guest to swap seats with.")
        if data.get("action") == "move" and not data.get("place"):
            raise forms.ValidationError("Pick the table or seat to move to.")
        table, _, seat = (data.get("place") or "").partition("-")
        data["table"] = int(table) if table else None
        data["seat"] = int(seat) if seat else None
        return data
