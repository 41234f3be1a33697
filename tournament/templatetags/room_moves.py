"""``{% move_group_items %}``: the room display's "where to go" slide's tables (``room/_moves.html``)
written in Python, so that a bell at 500 guests is not 500 template loops with a filter and a
``{% with %}`` each (issue 26 item 3: the room display at 500 guests within 50 times a bare
view). At tables of four every guest the bell played is listed, each with what sent them.

The HTML is the loop the template wrote, character for character (``tests/test_room_moves.py``
holds it as it stood): each destination table's item with its kind, then its guests'
names and notes, escaped as Django's autoescape does (``html.escape``). It reads the template's
``move_groups`` (``tournament.views.room.MoveGroup``s, in table order). House rule of the
display: ``docs/board-and-room.md``.
"""

from __future__ import annotations

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_KINDS = {"head": ' <span class="to-kind">head</span>', "booby": ' <span class="to-kind">booby</span>'}


def _group(group) -> str:
    """One destination table's item: "Table 3" (head or booby), then its guests, each with
    their note when the group has notes."""
    notes = group.notes
    names = []
    for guest in group.guests:
        note = notes.get(guest.pk, "") if notes else ""
        said = f' <small class="move-note">{escape(str(note))}</small>' if note else ""
        names.append(f'<li class="name"><bdi>{escape(str(guest.name))}</bdi>{said}</li>')
    return (
        f'<li class="item move-group {escape(str(group.kind))}" data-table="{group.table}"><p class="to">'
        f'<span class="to-word">Table</span> <span class="to-number">{group.table}</span>{_KINDS.get(group.kind, "")}'
        f'</p>\n    <ul class="names">{"".join(names)}</ul></li>\n  '
    )


@register.simple_tag(takes_context=True)
def move_group_items(context) -> SafeString:
    """Every destination table's item of ``move_groups`` as safe HTML, each followed by the
    line break and indent the template's loop left; "" for none."""
    return mark_safe("".join(_group(g) for g in context.get("move_groups") or ()))
