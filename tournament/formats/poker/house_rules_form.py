"""Progressive Poker's house-rules form: every bell option and prize option as radio buttons,
each choice with its explanation (``forms.bell.BELL_HELP``, ``PRIZE_HELP``), the rules' default
marked "(our rule)". Source: ``tables.formats.poker.bell.options`` and
``tables.formats.poker.prizes``; ``formats.poker.house_rules`` refuses an unknown option.
"""

from __future__ import annotations

from django import forms

from tables.formats.poker.bell import BellOptions
from tables.formats.poker.bell.options import CHOICES
from tables.formats.poker.prizes import BOOBY_RULES, TIE_RULES, PrizeOptions
from tournament.forms.bell import BELL_HELP, PRIZE_HELP
from tournament.forms.fields import WholeNumberField


def _choices(help_: dict[str, str], default: str) -> list[tuple[str, str]]:
    return [(value, f"{text}{' (our rule)' if value == default else ''}") for value, text in help_.items()]


class HouseRulesForm(forms.Form):
    """Every bell option and prize option as radio buttons, each choice with its explanation,
    plus ``max_table`` (the most players a table takes when a late guest is seated).
    ``bell_options()`` and ``prize_options()`` give the cleaned choices as dicts."""

    max_table = WholeNumberField(min_value=3, max_value=12, label="The most players at a table (late guests)")

    def __init__(self, *args, bell: BellOptions, prizes: PrizeOptions, **kwargs):
        super().__init__(*args, **kwargs)
        defaults_bell, defaults_prize = BellOptions(), PrizeOptions()
        for name, (question, help_) in BELL_HELP.items():
            assert set(help_) == set(CHOICES[name]), name  # every choice explained
            self.fields[name] = forms.ChoiceField(
                label=question,
                widget=forms.RadioSelect,
                choices=_choices(help_, getattr(defaults_bell, name)),
                initial=getattr(bell, name),
            )
        self.fields["max_table"].initial = bell.max_table
        for name, (question, help_) in PRIZE_HELP.items():
            assert set(help_) == set(BOOBY_RULES if name == "booby_rule" else TIE_RULES), name
            self.fields[name] = forms.ChoiceField(
                label=question,
                widget=forms.RadioSelect,
                choices=_choices(help_, getattr(defaults_prize, name)),
                initial=getattr(prizes, name),
            )
        self.order_fields([*BELL_HELP, "max_table", *PRIZE_HELP])

    def bell_options(self) -> dict:
        """The chosen bell options (``BellOptions`` field names to values)."""
        return {name: self.cleaned_data[name] for name in [*BELL_HELP, "max_table"]}

    def prize_options(self) -> dict:
        """The chosen prize options (``PrizeOptions`` field names to values)."""
        return {name: self.cleaned_data[name] for name in PRIZE_HELP}

    def bell_fields(self):
        """The bound bell fields, in order (for the template)."""
        return [self[name] for name in [*BELL_HELP, "max_table"]]

    def prize_fields(self):
        """The bound prize fields, in order (for the template)."""
        return [self[name] for name in PRIZE_HELP]
