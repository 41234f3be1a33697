"""The room display's "where to go" slide written in Python (``templatetags.room_moves``) is the
template's loop as it stood, character for character: at poker tables (the movers only) and at
tables of four (everyone the bell played, each with what sent them), names with markup escaped
(issue 26 item 3: the room display at 500 guests within 50 times a bare view)."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from tests.fixtures_room import played_evening
from tournament.kept import kept_forget
from tournament.models import Evening
from tournament.services.guests import guest_add
from tournament.views.room import _room_context

pytestmark = pytest.mark.django_db

MOVES = '{% load format_tags %}{# After a bell: where to go. One item per destination table, then the yellow counters and fresh stakes. At poker tables only the guests who move are listed ("movers-only": a short list, written bigger on a small evening); at tables of four everyone the bell played. #}\n<section class="slide room-moves" data-slide="moves" data-title="Where to go" data-seconds="8" aria-labelledby="room-moves-h">\n  <h2 id="room-moves-h">Round {{ board.last_bell.round.number }}: where to go</h2>\n  <ul class="pager moves-pager{% if not foursome %} movers-only{% endif %}">\n  {% for g in move_groups %}<li class="item move-group {{ g.kind }}" data-table="{{ g.table }}"><p class="to"><span class="to-word">Table</span> <span class="to-number">{{ g.table }}</span>{% if g.kind == "head" %} <span class="to-kind">head</span>{% elif g.kind == "booby" %} <span class="to-kind">booby</span>{% endif %}</p>\n    <ul class="names">{% for guest in g.guests %}<li class="name"><bdi>{{ guest.name }}</bdi>{% if g.notes %}{% with note=g.notes|get_tally_note:guest.pk %}{% if note %} <small class="move-note">{{ note }}</small>{% endif %}{% endwith %}{% endif %}</li>{% endfor %}</ul></li>\n  {% endfor %}\n  {% if yellow_won %}<li class="item move-group yellow"><p class="to"><span class="to-word">A yellow counter</span></p>\n    <ul class="names">{% for guest in yellow_won %}<li class="name"><bdi>{{ guest.name }}</bdi></li>{% endfor %}</ul></li>{% endif %}\n  {% if fresh_stakes %}<li class="item move-group stake"><p class="to"><span class="to-word">A fresh stake</span></p>\n    <ul class="names">{% for guest in fresh_stakes %}<li class="name"><bdi>{{ guest.name }}</bdi></li>{% endfor %}</ul></li>{% endif %}\n  </ul>\n</section>\n'  # room/_moves.html as it stood, its loop over the tables in the template


def _both(evening: Evening) -> tuple[str, str]:
    """The slide as the template stood and as it is now, from the display's context."""
    context = _room_context(Evening.objects.get(pk=evening.pk), mode="moves", asked="moves", etag="e")
    assert context["move_groups"], "the bell moved nobody"
    return Template(MOVES).render(Context(context)), Template("{% include 'room/_moves.html' %}").render(
        Context(context)
    )


def test_the_moves_at_poker_tables_are_what_the_template_wrote(host):
    evening = played_evening(host, 24)
    guest = evening.guests.order_by("pk").first()
    evening.guests.filter(pk=guest.pk).update(name='O\'Brien "&" Co')
    Evening.objects.filter(pk=evening.pk).update(version=evening.version + 1)
    kept_forget()
    then, now = _both(evening)
    assert now == then and "movers-only" in now
    assert 'class="to-kind">head' in now and 'class="to-kind">booby' in now and "O&#x27;Brien" in now


def test_the_moves_at_tables_of_four_are_what_the_template_wrote(host):
    from tournament.formats.partnership.state import foursome_draw
    from tournament.registry import format_for
    from tournament.services.clock import round_ring, round_start

    evening = Evening.objects.create(host=host, name="Bunco", date="2026-11-30", format="bunco", rounds_planned=3)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", 'O\'Brien "&" Co', "Ivy", "Jo", "Kit", "Lu"):
        guest_add(evening=evening, name=name, pack="red", check_in=True)
    foursome_draw(evening=Evening.objects.get(pk=evening.pk))
    rnd = round_start(evening=Evening.objects.get(pk=evening.pk), user=host)
    fmt = format_for(evening)
    for table in range(1, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=Evening.objects.get(pk=evening.pk), rnd=rnd, table=table, user=host)
    if evening.rounds.get(pk=rnd.pk).state != "closed":
        round_ring(evening=Evening.objects.get(pk=evening.pk), user=host)
    kept_forget()
    then, now = _both(evening)
    assert now == then and "move-note" in now and "O&#x27;Brien &quot;&amp;&quot; Co" in now
