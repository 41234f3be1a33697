"""A club evening's kitty: the fees collected, the prizes paid out of it, what is carried.

Plain arithmetic over whole cents (no Django, no floats): one currency per club, so a sum of
cents is a sum of money. Rules (issue 25, item 3), and the house rules ``docs/clubs.md``,
"The kitty", writes down:

* every guest who played the evening pays its entry fee (members and subs alike); the evening's
  **pot** is those fees;
* season dues (optional) are paid by each member once, at their first settled evening of the
  season, and go whole to the **season pot** (never into an evening's payouts);
* a payout is an amount (cents) or a share of the pot (hundredths of a percent: 4000 is 40 %);
  a share is rounded down to the cent; the shares add up to 100 % or less and the payouts to
  the pot or less, else the kitty is refused;
* a prize with several winners (tied and shared, as the evening's tie rule said; or a prize the
  format gives once per pack) splits its payout in equal whole cents; the **remainder** (fewer
  cents than winners) goes to the season pot, and the sheet says so; a prize won by one guest
  (a tie cut, as the rule said) pays that guest whole;
* a prize nobody won (nobody scored a bunco) pays nothing: its payout goes to the season pot;
* what the payouts leave of the pot ("the rest") goes to the season pot;
* money won and lost at the tables (Progressive Poker with a money value: counters won times a
  counter's value, fresh stakes charged, ``docs/rules/progressive-poker.md``, 'The settlement')
  is collected from who lost and paid to who won through the kitty; a surplus is carried to the
  season pot, a shortfall is paid from the evening's pot (refused when the pot cannot).

The pot is conserved to the cent: collected == paid out + carried (``KittySheet.check``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tables.errors import RuleError

WHOLE = 10_000
"""A share of the whole pot, in hundredths of a percent (100 %)."""


def money_words(cents: int, currency: str = "") -> str:
    """``cents`` written as money: "12.05" (with ``currency``, "USD 12.05"); negative "-3.40"."""
    sign = "-" if cents < 0 else ""
    text = f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"
    return f"{currency} {text}" if currency else text


def share_words(share: int) -> str:
    """A share in hundredths of a percent as the host writes it: 4000 -> "40 %", 1250 -> "12.5 %"."""
    whole, part = divmod(share, 100)
    return f"{whole}.{str(part).rjust(2, '0').rstrip('0')} %" if part else f"{whole} %"


def parse_money(text: str, *, what: str = "The amount") -> int:
    """Cents of an amount a host typed: "5", "5.5", "5.50", "$5.50", "5,50" (a comma for the
    point). Raises ``RuleError`` naming ``what`` for a negative amount, more than two decimals,
    or no amount at all."""
    raw = "".join(c for c in (text or "").strip() if c not in "$€£¥ ").replace(",", ".")
    negative = raw.startswith("-")
    whole, _, part = raw.lstrip("+-").partition(".")
    if not (whole or part) or not (whole or "0").isdigit() or (part and not part.isdigit()) or len(part) > 2:
        raise RuleError(f"{what}: “{text}” is not an amount of money (write it as 5 or 5.50).")
    cents = int(whole or "0") * 100 + int(part.ljust(2, "0") or "0")
    if negative and cents:
        raise RuleError(f"{what} cannot be negative (got {text.strip()}).")
    return cents


def parse_share(text: str, *, what: str = "The share") -> int:
    """Hundredths of a percent of a share a host typed: "40 %", "40%", "12.5 %". Raises
    ``RuleError`` naming ``what`` for a negative share, one over 100 % or more than two
    decimals."""
    raw = (text or "").strip().rstrip("%").strip().replace(",", ".")
    if raw.startswith("-"):
        raise RuleError(f"{what} cannot be negative (got {text.strip()}).")
    whole, _, part = raw.partition(".")
    if not (whole or "0").isdigit() or (part and not part.isdigit()) or len(part) > 2 or not (whole or part):
        raise RuleError(f"{what}: “{text}” is not a share of the pot (write it as 40 %).")
    share = int(whole or "0") * 100 + int(part.ljust(2, "0") or "0")
    if share > WHOLE:
        raise RuleError(f"{what} is {share_words(share)} of the pot: a share is 100 % at most.")
    return share


@dataclass(frozen=True)
class Payout:
    """What one prize pays: ``prize`` (the format's prize key, "most_buncos": it pays each prize
    of that key, per pack too), its ``title`` in the host's words, and either ``cents`` (an
    amount) or ``share`` (hundredths of a percent of the evening's pot), the other None."""

    prize: str
    title: str
    cents: int | None = None
    share: int | None = None

    def amount(self, pot: int) -> int:
        """What this payout is worth out of ``pot`` cents: the amount, or the share rounded down
        to the cent."""
        if self.cents is not None:
            return self.cents
        return pot * (self.share or 0) // WHOLE

    def words(self, currency: str = "") -> str:
        """The payout as the host wrote it: "40 %" or "USD 20.00"."""
        return share_words(self.share) if self.share is not None else money_words(self.cents or 0, currency)


@dataclass(frozen=True)
class KittyRules:
    """An evening's kitty: the entry fee (cents) and the payouts, one per prize."""

    fee: int = 0
    payouts: tuple[Payout, ...] = ()


def kitty_refused(rules: KittyRules, *, pot: int | None = None) -> str | None:
    """Why ``rules`` may not be the evening's kitty, in the host's words, or None: a negative
    fee, a payout neither an amount nor a share (or both), a negative amount or share, one prize
    paid twice, shares over 100 %, or (``pot`` given: the evening's fees in cents) payouts adding
    up to more than the pot. House rules: module docstring."""
    if rules.fee < 0:
        return f"The entry fee cannot be negative (got {money_words(rules.fee)})."
    seen: set[str] = set()
    for payout in rules.payouts:
        if (payout.cents is None) == (payout.share is None):
            return f"{payout.title}: give an amount or a share of the pot, one of the two."
        if (payout.cents or 0) < 0 or (payout.share or 0) < 0:
            return f"{payout.title}: a payout cannot be negative."
        if payout.prize in seen:
            return f"{payout.title} is paid twice: give each prize one payout."
        seen.add(payout.prize)
    shares = sum(p.share or 0 for p in rules.payouts)
    if shares > WHOLE:
        return f"The shares add up to {share_words(shares)} of the pot: they may add up to 100 % at most."
    if pot is not None:
        total = sum(p.amount(pot) for p in rules.payouts)
        if total > pot:
            return (
                f"The payouts add up to {money_words(total)}, more than the pot of {money_words(pot)}: "
                "lower an amount or a share."
            )
    return None


@dataclass(frozen=True)
class Award:
    """A prize the evening awarded: its key (per pack: "most_buncos_red"), its title, and its
    winners (person keys, the caller's; several when tied and shared; none: not awarded)."""

    prize: str
    title: str
    winners: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    """One line of the settlement sheet: ``person`` (a key; "" for the season pot), ``kind``
    ("fee", "dues", "table" money paid in; "prize", "table" money paid out; "carried"), what
    it is for in words, and ``cents`` (always 0 or more). ``paid_in``: collected (else paid out,
    or carried when ``kind`` is "carried")."""

    person: str
    kind: str
    words: str
    cents: int
    paid_in: bool = False


@dataclass(frozen=True)
class KittySheet:
    """An evening's settlement: the pot (fees), every entry, and the totals: collected (fees,
    dues, table losses), paid out (prizes, table winnings), carried to the season pot (dues, the
    rest, the rounding remainders, prizes not awarded, a table surplus), each in cents."""

    pot: int
    entries: tuple[Entry, ...]
    collected: int
    paid_out: int
    carried: int
    remainder: int

    def check(self) -> None:
        """Raise ``AssertionError`` unless paid out + carried == collected (an invariant: a bug)."""
        assert self.paid_out + self.carried == self.collected, (self.paid_out, self.carried, self.collected)

    def received(self, person: str) -> int:
        """What ``person`` receives in cents (prizes and table winnings)."""
        return sum(e.cents for e in self.entries if e.person == person and not e.paid_in and e.kind != "carried")

    def paid(self, person: str) -> int:
        """What ``person`` pays in cents (fee, dues, table losses)."""
        return sum(e.cents for e in self.entries if e.person == person and e.paid_in)


def _split(cents: int, winners: Sequence[object]) -> tuple[int, int]:
    """Each winner's equal whole cents of ``cents``, and the remainder (fewer than the winners)."""
    return divmod(cents, len(winners)) if winners else (0, cents)


def _payout_entries(payout: Payout, pot: int, awards: Sequence[Award], currency: str) -> tuple[list[Entry], int]:
    """The entries of one payout (``module docstring``: split, remainder, not awarded) and the
    remainder in cents."""
    amount = payout.amount(pot)
    mine = [a for a in awards if a.prize == payout.prize or a.prize.startswith(payout.prize + "_")]
    won = [a for a in mine if a.winners]
    if not won:
        return [Entry("", "carried", f"{payout.title}: not awarded tonight", amount)], 0
    entries: list[Entry] = []
    each_prize, remainder = _split(amount, won)
    for award in won:
        each, rest = _split(each_prize, award.winners)
        remainder += rest
        shared = f", shared by {len(award.winners)}" if len(award.winners) > 1 else ""
        entries += [Entry(w, "prize", f"{award.title}{shared}", each) for w in award.winners]
    if remainder:
        entries.append(
            Entry("", "carried", f"{payout.title}: {money_words(remainder, currency)} left by the split", remainder)
        )
    return entries, remainder


def kitty_settle(
    rules: KittyRules,
    *,
    players: Sequence[str],
    awards: Sequence[Award] = (),
    dues: Mapping[str, int] | None = None,
    table: Mapping[str, int] | None = None,
    currency: str = "",
    table_words: tuple[str, str] = ("won at the tables", "lost at the tables"),
) -> KittySheet:
    """The evening's settlement sheet: ``players`` (who played: each pays the fee), ``awards``
    (the evening's prizes and winners), ``dues`` (person -> season dues cents paid tonight),
    ``table`` (person -> cents won, positive, or lost, negative, at the tables; ``table_words``
    say so: won, lost, in the format's words). Raises
    ``RuleError`` (``kitty_refused``) for a bad kitty or payouts over the pot, and when the
    table winnings exceed the losses by more than the pot can pay. House rules: module
    docstring."""
    players = list(dict.fromkeys(players))
    pot = rules.fee * len(players)
    refused = kitty_refused(rules, pot=pot)
    if refused:
        raise RuleError(refused)
    entries = [Entry(p, "fee", "entry fee", rules.fee, paid_in=True) for p in players if rules.fee]
    for person, cents in (dues or {}).items():
        if cents < 0:
            raise RuleError(f"Season dues cannot be negative (got {money_words(cents)}).")
        if cents:
            entries += [
                Entry(person, "dues", "season dues", cents, paid_in=True),
                Entry("", "carried", "season dues, to the season pot", cents),
            ]
    paid = 0
    remainder = 0
    for payout in rules.payouts:
        mine, rest = _payout_entries(payout, pot, awards, currency)
        entries += mine
        paid += payout.amount(pot)
        remainder += rest
    table = dict(table or {})
    lost = sum(-c for c in table.values() if c < 0)
    won = sum(c for c in table.values() if c > 0)
    if won - lost > pot - paid:
        raise RuleError(
            f"At the tables {money_words(won)} was won and {money_words(lost)} lost: the pot "
            f"({money_words(pot - paid)} after the prizes) cannot pay the difference. Check the final count."
        )
    entries += [Entry(p, "table", table_words[1], -c, paid_in=True) for p, c in table.items() if c < 0]
    entries += [Entry(p, "table", table_words[0], c) for p, c in table.items() if c > 0]
    rest = pot - paid - (won - lost)
    if rest:
        entries.append(Entry("", "carried", "the rest of the pot, to the season pot", rest))
    return _sheet(pot, entries, remainder)


def _sheet(pot: int, entries: Sequence[Entry], remainder: int) -> KittySheet:
    """The sheet of ``entries`` with its totals, checked (``KittySheet.check``)."""
    collected = sum(e.cents for e in entries if e.paid_in)
    carried = sum(e.cents for e in entries if e.kind == "carried")
    paid_out = sum(e.cents for e in entries if not e.paid_in and e.kind != "carried")
    sheet = KittySheet(pot, tuple(entries), collected, paid_out, carried, remainder)
    sheet.check()
    return sheet
