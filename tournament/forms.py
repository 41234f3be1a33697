"""Django forms for the host's and the captains' pages.

Forms only read and check what was typed; the services decide what the rules allow and raise
``RuleError`` with the message the page shows.
"""

from __future__ import annotations

from django import forms

from tournament.models import Evening, Guest, PackChoice


class EveningForm(forms.ModelForm):
    """Create or edit an evening: name, date, counters per stake, minutes per round, pack labels."""

    class Meta:
        model = Evening
        fields = [
            "name", "date", "game", "counters_per_stake", "minutes_per_round", "rounds_planned", "round_end",
            "red_label", "blue_label", "counter_value", "self_registration",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}
        help_texts = {
            "rounds_planned": "Leave empty to play until you end the evening.",
            "counter_value": "Money per counter, for the settlement sheet; leave empty when counters have no value.",
        }

    def clean_minutes_per_round(self) -> int:
        minutes = self.cleaned_data["minutes_per_round"]
        if not 1 <= minutes <= 180:
            raise forms.ValidationError("A round lasts between 1 and 180 minutes.")
        return minutes

    def clean_counters_per_stake(self) -> int:
        counters = self.cleaned_data["counters_per_stake"]
        if not 1 <= counters <= 10_000:
            raise forms.ValidationError("A stake is between 1 and 10,000 counters.")
        return counters


class GuestForm(forms.Form):
    """One guest at the door: name, pack, optional contact, and whether they are here now."""

    name = forms.CharField(max_length=500)
    pack = forms.ChoiceField(choices=PackChoice.choices)
    contact = forms.CharField(max_length=200, required=False)
    check_in = forms.BooleanField(required=False, initial=True, label="Here now (check in)")

    def __init__(self, *args, evening: Evening | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if evening is not None:
            self.fields["pack"].choices = [(p.value, evening.pack_label(p.value)) for p in PackChoice]


class GuestListForm(forms.Form):
    """A pasted list or a CSV file of guests: one per line, "name, pack[, contact]"."""

    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 6}), required=False, label="Paste a list")
    file = forms.FileField(required=False, label="or upload a CSV file")
    check_in = forms.BooleanField(required=False, label="Check them all in now")

    MAX_BYTES = 1_000_000

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError("The file is over 1 MB: split it, or remove what is not a guest.")
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError("The file is not UTF-8 text: save it as “CSV UTF-8” and upload it again.")
        if not (data.get("text") or "").strip():
            raise forms.ValidationError("Paste a list or choose a file.")
        return data


class ResultForm(forms.Form):
    """A table's result for the round: the pool winner, who was in the call, and counters.

    Built for the guests at the table; counters are required at the head table
    (``seeds/README.md``: the head table's counters are counted at every bell) and at every
    table in the last round (house rule: the final counts decide the prizes).
    """

    def __init__(self, *args, guests: list[Guest], counters_required: bool, counters_initial=None, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(g.pk), g.name) for g in guests]
        self.guests = guests
        self.fields["pool_winner"] = forms.ChoiceField(choices=choices, widget=forms.RadioSelect, label="Won the pool")
        self.fields["in_call"] = forms.MultipleChoiceField(
            choices=choices, required=False, widget=forms.CheckboxSelectMultiple, label="Called the winner (in the call)"
        )
        counters_initial = counters_initial or {}
        for g in guests:
            self.fields[f"counters_{g.pk}"] = forms.IntegerField(
                label=g.name, required=counters_required, min_value=0, max_value=1_000_000,
                initial=counters_initial.get(g.pk),
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    def counter_fields(self):
        """The counters fields in seat order (for templates)."""
        return [self[f"counters_{g.pk}"] for g in self.guests]

    def result(self) -> tuple[int, list[int], dict[int, int]]:
        """(pool winner id, ids in the call, counters by guest id) from cleaned data."""
        data = self.cleaned_data
        counters = {g.pk: data[f"counters_{g.pk}"] for g in self.guests if data.get(f"counters_{g.pk}") is not None}
        winner = int(data["pool_winner"])
        # The winner is in the call by definition; a ticked box for them is not an error here.
        return winner, [int(x) for x in data["in_call"] if int(x) != winner], counters
