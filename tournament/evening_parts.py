"""An evening's part kept per version: what a page draws again unchanged, computed once per
process and version in one snapshot of the database.

``evening_part`` is the one way every kept part of an evening is read: the shared board, the
guests and poker's standings (``tournament.selectors.guest_boards``), the guests list's reading
(``tournament.selectors.guest_list_kept``) and the print page's checks
(``tournament.documents.print_checks``). Every change to an evening bumps its version
(``tournament.services.versions.evening_touch``), so a part kept under the version a request
read is the part the database defines at that version. House rule: issue 26 item 3 ("fragments
cached by the evening's version where a page is re-drawn unchanged").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tournament.kept import Kept
from tournament.models import Evening
from tournament.services.versions import evening_token
from tournament.snapshots import one_snapshot

T = TypeVar("T")
_COMPUTING = "_part_computed_from"
"""Set on the evening a part is being computed from (read in that part's snapshot), while it is:
a part that part computes from it (the shared board's guests) does not read its version again."""


def evening_part(kept: Kept[T], evening: Evening, compute: Callable[[Evening], T]) -> T:
    """``evening``'s part kept in ``kept`` at ``evening.version``: the one this process keeps,
    or else ``compute(now)``'s, where ``now`` is the evening read again inside one snapshot of the
    database (``tournament.snapshots``) in which the part is computed, so that a change committed
    meanwhile is in all of the part or in none of it. Kept from now on under ``now.version``
    (one thread computes while the others wait), unless this process already keeps a newer one.
    The evening a part computing this one was given is not read again (the same snapshot). Raises what ``compute`` raises (nothing is kept then)."""
    token = evening_token(evening.pk, evening.public_key)
    hit = kept.peek(token, evening.version)
    if hit is not None:
        return hit
    with one_snapshot():
        if evening.__dict__.get(_COMPUTING):  # given by a part computing from it: read at this moment already
            now = evening
        else:
            version = Evening.objects.filter(pk=evening.pk).values_list("version", flat=True).first()
            now = evening if version in (None, evening.version) else Evening.objects.get(pk=evening.pk)
        kept_version = kept.key_of(token)
        newer_kept = isinstance(kept_version, int) and kept_version > now.version
        return kept.get(token, now.version, lambda: _computed(now, compute), keep=not newer_kept)


def _computed(now: Evening, compute: Callable[[Evening], T]) -> T:
    """``compute(now)``, with ``now`` marked meanwhile as read at this snapshot's moment, so a
    part it computes from it (the shared board's guests) does not read its version again."""
    if now.__dict__.get(_COMPUTING):
        return compute(now)
    now.__dict__[_COMPUTING] = True
    try:
        return compute(now)
    finally:
        del now.__dict__[_COMPUTING]
