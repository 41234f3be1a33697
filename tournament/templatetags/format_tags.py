"""Template filters for the formats at tables of four: a player's tally by name, a round's
target number (the format's ``round_target``: Bunco's); and the standings table's rows (``tally_rows``)."""

from __future__ import annotations

from collections.abc import Mapping

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tables.formats import FoursomeFormat
from tables.formats.scoring import bunco_target as target_of
from tables.formats.table_rules import bunco_pad as pad_for
from tournament.templatetags.standing_rows import number

register = template.Library()
LEFT_ROW = ' class="left"'  # a guest who has left: their row is greyed (static/headtable.css)


@register.filter
def get_tally(tallies: Mapping[str, int] | None, name: str) -> int:
    """A player's total of one tally ("stars", "buncos"): 0 when they have none yet."""
    return int((tallies or {}).get(name, 0))


@register.filter
def get_tally_note(notes: Mapping[int, str] | None, player: int) -> str:
    """A player's note in a mapping by player id ("won at table 3"): "" when none."""
    return (notes or {}).get(player, "")


@register.filter
def tally_word(words: str, count: int) -> str:
    """A tally's words for ``count``, singular for one: ("wins", 1) -> "win", ("losses", 1) ->
    "loss", ("mini buncos", 1) -> "mini bunco", ("stars", 3) -> "stars"; words whose noun comes
    first: ("games won", 1) -> "game won", ("games sat out", 1) -> "game sat out"."""
    if count != 1:
        return words
    first, _, rest = words.partition(" ")
    if rest and not words.endswith("s") and first.endswith("s"):
        return f"{tally_word(first, 1)} {rest}"
    return words[:-2] if words.endswith("sses") else words.removesuffix("s")


@register.filter
def bunco_target(round_number: int) -> int:
    """The number Bunco's round ``round_number`` rolls for, 1 to 6
    (``tables.formats.scoring.bunco_target``: round 7's is 1 again)."""
    return target_of(round_number)


@register.filter
def round_target(round_number: int, fmt: FoursomeFormat | None) -> int | None:
    """The number round ``round_number`` aims at in ``fmt`` (its ``round_target``: Bunco's dice,
    1 to 6), or None for a format whose rounds aim at none (or no format)."""
    target = fmt.round_target if fmt is not None else None
    return target(round_number) if target is not None else None


@register.filter
def bunco_pad(target: int) -> tuple:
    """The Bunco score pad's buttons for a round whose target is ``target``
    (``tables.formats.table_rules.bunco_pad``: 1 or 2 dice showing the target, a mini bunco, a
    bunco; each a ``PadButton`` with its points, label and words)."""
    return pad_for(target)


@register.simple_tag
def tally_rows(standings) -> SafeString:
    """The ``<tr>`` rows of the standings table at tables of four (``partnership/host_standings.html``)
    written in Python, character for character what its loop wrote (issue 26 item 3: 500 lines,
    each a dozen lookups and a localised number per tally, within 50 times a bare view): place,
    the name (isolated: ``<bdi>``), each of ``standings.tallies``' totals (0 when none), the table
    now ("—" when not seated); a guest who has left marked "(left)", their row greyed, as at
    Progressive Poker (``standing_rows``). ``standings``: a ``FoursomeStandings``. Returns safe HTML; raises
    nothing. Columns: ``docs/rules/tables-of-four.md`` (the standings)."""
    names = [name for name, _ in standings.tallies]
    out = []
    for line in standings.lines:
        tallies = "".join(f'<td class="num">{get_tally(line.tallies, name)}</td>' for name in names)
        table = number(line.table) if line.table else "—"
        left = line.guest is not None and line.guest.status == "left"  # as at Progressive Poker: "(left)"
        out.append(
            f'<tr{LEFT_ROW if left else ""}><td>{number(line.place)}</td><th scope="row"><bdi>{escape(line.name)}</bdi>'
            f'{" <small>(left)</small>" if left else ""}</th>{tallies}<td class="num">{table}</td></tr>'
        )
    return mark_safe("".join(out))  # noqa: S308 (every value above is escaped or a number)
