"""The kitty's forms: an evening's entry fee and payouts, a season's dues and the club's currency.
Amounts and shares are read as the host types them (``tables.kitty.parse_money``,
``parse_share``, ``clubs.kitty.parse_payouts``); a bad one is the form's error in words."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from clubs.kitty import parse_payouts
from tables.errors import RuleError
from tables.kitty import Payout, money_words, parse_money


def payouts_text(payouts: Sequence[Payout], currency: str = "") -> str:
    """``payouts`` written back as the form takes them, one a line ("Most buncos, 40 %")."""
    return "\n".join(f"{p.title}, {p.words()}" for p in payouts)


class KittyForm(forms.Form):
    """The evening's entry fee (an amount) and payouts ("prize, amount or share" a line)."""

    fee = forms.CharField(label="Entry fee", max_length=20, initial="0")
    payouts = forms.CharField(
        label="Payouts",
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="One prize a line: “Most buncos, 40 %” or “Booby prize, 5.00”. The rest goes to the season pot.",
    )

    def __init__(self, prizes: Sequence[tuple[str, str]], *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.prizes = tuple(prizes)

    def clean_fee(self) -> int:
        """The fee in cents."""
        try:
            return parse_money(self.cleaned_data["fee"], what="The entry fee")
        except RuleError as error:
            raise forms.ValidationError(str(error)) from None

    def clean_payouts(self) -> tuple[Payout, ...]:
        """The payouts, every bad line named."""
        try:
            return parse_payouts(self.cleaned_data["payouts"], self.prizes)
        except RuleError as error:
            raise forms.ValidationError(str(error)) from None


class MoneyForm(forms.Form):
    """The club's currency (three letters) and the season's dues (an amount, 0 for none)."""

    currency = forms.CharField(label="Currency", max_length=3, min_length=3, initial="USD")
    dues = forms.CharField(label="Season dues per member", max_length=20, initial="0")

    def clean_dues(self) -> int:
        """The dues in cents."""
        try:
            return parse_money(self.cleaned_data["dues"], what="The season dues")
        except RuleError as error:
            raise forms.ValidationError(str(error)) from None


def fee_text(cents: int) -> str:
    """A fee as the form shows it ("5.00")."""
    return money_words(cents)
