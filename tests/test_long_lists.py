"""The long lists of the host's pages written in Python (issue 26 item 3) write what their
template loops wrote, character for character: the board's table tiles (``board_tiles``: Progressive
Poker's and tables of four's, and the links to the tables still to report), the
standings' rows (``standing_rows``) and the standings at tables of four (``tally_rows``). Each
loop is kept here as it stood in its template, and both are rendered on the same values, every
branch included (missing, disputed, in, count off, no round open; a guest who has left, a name
that needs escaping, a player not seated)."""

from types import SimpleNamespace as Ns

import pytest
from django.template import Context, Template

from tournament.models import Guest, HelperLink, Result

TILES_LOOP = '{% load board_tiles %}{% for t in board.tables %}\n<li class="tile {{ t.kind }}{% if board.round %}{% if not t.result %} missing{% elif t.result.status == \'disputed\' %} disputed{% else %} in{% endif %}{% endif %}" id="table-{{ t.number }}">\n  <h3><a href="{% url \'host-table\' evening.pk t.number %}">Table {{ t.number }}</a>{% if t.kind == "head" %} <small>head</small>{% elif t.kind == "booby" %} <small>booby</small>{% endif %}</h3>\n  {% if board.round %}<p class="tile-state">{% if not t.result %}<a href="{% url \'host-result\' evening.pk t.number %}">Enter the result</a>{% elif t.result.status == "disputed" %}<strong>Disputed</strong> · <a href="{% url \'host-result\' evening.pk t.number %}">decide</a>{% else %}<span class="tick" aria-hidden="true">✓</span> Result in · <a href="{% url \'host-result\' evening.pk t.number %}" aria-label="Change the result of table {{ t.number }}">change</a>{% if t.result.count_off %} · <strong class="count-off">count off</strong>{% endif %}{% endif %}</p>{% endif %}\n  <p class="tile-guests">{{ t.lines|length }} guest{{ t.lines|length|pluralize }}</p>\n</li>\n{% endfor %}'

ROWS_LOOP = (
    '{% load pack_tags %}{% for line in s.lines %}<tr{% if line.guest.status == "left" %} class="left"{% endif %}>'
    "<td>{{ line.place }}</td><td>{% pack_mark line.guest.pack evening %}<bdi>{{ line.guest.name }}</bdi>"
    '{% if line.guest.status == "left" %} <small>(left)</small>{% endif %}</td>\n<td>{{ line.row.yellow }}</td>'
    "<td>{{ line.row.counters }}</td><td>{{ line.row.fresh_stakes }}</td><td>{{ line.row.counters_won }}</td></tr>"
    "{% endfor %}"
)

TALLY_LOOP = (
    "{% load format_tags %}{% for line in standings.lines %}"
    '<tr{% if line.guest.status == "left" %} class="left"{% endif %}><td>{{ line.place }}</td>'
    '<th scope="row"><bdi>{{ line.name }}</bdi>{% if line.guest.status == "left" %} <small>(left)</small>{% endif %}</th>'
    '{% for name, words in standings.tallies %}<td class="num">{{ line.tallies|get_tally:name }}</td>{% endfor %}'
    '<td class="num">{{ line.table|default:"—" }}</td></tr>{% endfor %}'
)

NAME = 'O\'Brien <b>&amp; "Co"</b>'


def _tables():
    return [
        Ns(number=1, kind="head", result=None, lines=[1, 2, 3, 4, 5, 6]),
        Ns(number=2, kind="intermediate", result=Ns(status="disputed", count_off=0), lines=[1]),
        Ns(number=3, kind="intermediate", result=Ns(status="in", count_off=0), lines=[]),
        Ns(number=10, kind="booby", result=Ns(status="in", count_off=-2), lines=[1, 2]),
    ]


@pytest.mark.parametrize("open_round", [True, False])
def test_table_tiles_write_what_the_loop_wrote(open_round):
    board = Ns(tables=_tables(), round=Ns(number=2) if open_round else None)
    context = {"board": board, "evening": Ns(pk=7)}
    loop = Template(TILES_LOOP).render(Context(context))
    assert Template("{% load board_tiles %}{% table_tiles board evening %}").render(Context(context)) == loop
    assert ("missing" in loop) is open_round and "/e/7/" in loop


def test_standing_rows_write_what_the_loop_wrote():
    labels = {"red": "Rouge", "blue": "Blue"}
    evening = Ns(red_label="Rouge", blue_label="Blue", pack_label=labels.get)
    lines = [
        Ns(
            place=1,
            guest=Ns(status="here", pack="red", name="Ann"),
            row=Ns(yellow=2, counters=-3, fresh_stakes=1, counters_won=-13),
        ),
        Ns(
            place=1,
            guest=Ns(status="left", pack="blue", name=NAME),
            row=Ns(yellow=0, counters=1200, fresh_stakes=0, counters_won=0),
        ),
    ]
    context = {"s": Ns(lines=lines), "evening": evening}
    loop = Template(ROWS_LOOP).render(Context(context))
    assert Template("{% load standing_rows %}{% standing_rows s.lines evening %}").render(Context(context)) == loop
    assert "O&#x27;Brien &lt;b&gt;" in loop and "(left)" in loop


def test_tally_rows_write_what_the_loop_wrote():
    lines = [
        Ns(place=1, name="Ann", tallies={"wins": 3, "buncos": 1}, table=1, guest=Ns(status="here")),
        Ns(place=2, name=NAME, tallies={}, table=None, guest=Ns(status="left")),
        Ns(place=3, name="Ghost 1", tallies={"wins": 1}, table=2, guest=None),
    ]
    context = {"standings": Ns(tallies=(("wins", "games won"), ("buncos", "buncos")), lines=lines)}
    loop = Template(TALLY_LOOP).render(Context(context))
    assert Template("{% load format_tags %}{% tally_rows standings %}").render(Context(context)) == loop
    assert "—" in loop and "O&#x27;Brien" in loop and loop.count("(left)") == 1


FOURSOME_LOOP = '{% load board_tiles name_tags %}{% for t, words in rows %}\n<li class="foursome-table" id="table-{{ t.number }}">\n  <h3><a href="{% url \'host-table\' evening.pk t.number %}">{{ t.label }}</a></h3>\n  <ul class="partners">{% for pair in t.partnerships %}<li><span class="side">{% if forloop.first %}North–South{% else %}East–West{% endif %}:</span> {% for s in pair %}<bdi{% if s.is_ghost %} class="ghost"{% endif %}>{{ s.name }}</bdi> <span class="seat-word">({{ s.seat_word }})</span>{% if not forloop.last %} and {% endif %}{% endfor %}</li>{% endfor %}</ul>\n  {% if board.round %}<p class="report">{% if t.result %}<span class="status {{ t.result.status }}">{% if t.result.status == "confirmed" %}Confirmed{% elif t.result.status == "disputed" %}Disputed{% else %}Report in{% endif %}</span>{% with by=t.result|sent_by %}{% if by %} from {{ by }}{% endif %}{% endwith %}: {% with names=t|seat_names %}{{ words|names_isolated:names }}{% endwith %} · <a href="{% url \'host-result\' evening.pk t.number %}">change</a>{% else %}<span class="status missing">No report yet</span> · <a href="{% url \'host-result\' evening.pk t.number %}">enter the report</a>{% endif %}</p>{% endif %}\n</li>\n{% endfor %}'

MISSING_LOOP = '{% for t in needs.missing %}<li><a href="{% url \'host-result\' evening.pk t.number %}" aria-label="Enter the result of table {{ t.number }}">{{ t.number }}</a></li>{% endfor %}'

FOURSOME_MISSING_LOOP = '{% for t in missing %}<li><a href="{% url \'host-result\' evening.pk t.number %}" aria-label="Enter the report of table {{ t.number }}">{{ t.number }}</a></li>{% endfor %}'


def _foursome_rows():
    seat = lambda name, word, ghost=False: Ns(name=name, seat_word=word, is_ghost=ghost)  # noqa: E731
    pairs = ((seat("Ann", "North"), seat(NAME, "South")), (seat("Ghost 1", "East", True), seat("Di", "West")))
    sender = Guest(pk=5, name="Bo <i>")
    scorer = HelperLink(pk=3, number=2, role="scorer", label="Sv <b>")  # a scorer's report (issue 23)
    return [
        (Ns(number=1, label="Head table", partnerships=pairs, result=None), ""),
        (
            Ns(
                number=2,
                label="Table 2",
                partnerships=pairs,
                result=Result(status="confirmed", reported_by_guest=sender),
            ),
            "N–S 21 to 9; buncos: Ann 1",
        ),
        (
            Ns(
                number=3,
                label="Table 3",
                partnerships=pairs,
                result=Result(status="disputed", reported_by_helper=scorer),
            ),
            "E–W <won>",
        ),
        (Ns(number=12, label="Booby table", partnerships=pairs, result=Result(status="reported")), "a tie"),
    ]


@pytest.mark.parametrize("open_round", [True, False])
def test_foursome_tiles_write_what_the_loop_wrote(open_round):
    context = {"rows": _foursome_rows(), "board": Ns(round=Ns(number=1) if open_round else None), "evening": Ns(pk=7)}
    loop = Template(FOURSOME_LOOP).render(Context(context))
    tag = "{% load board_tiles %}{% foursome_tiles rows board evening %}"
    assert Template(tag).render(Context(context)) == loop
    assert ("No report yet" in loop) is open_round and "O&#x27;Brien" in loop
    assert ("buncos: <bdi>Ann</bdi> 1" in loop) is open_round  # a name in the report's words, isolated
    assert ("Disputed</span> from the scorer <bdi>Sv &lt;b&gt;</bdi>:" in loop) is open_round
    assert ("Report in</span>: a tie" in loop) is open_round  # the host's own report: no sender said


def test_missing_links_write_what_the_loops_wrote():
    tables = [Ns(number=n) for n in (1, 4, 84)]
    context = {"needs": Ns(missing=tables), "missing": tables, "evening": Ns(pk=7)}
    poker = Template("{% load board_tiles %}{% missing_links needs.missing evening %}").render(Context(context))
    assert poker == Template(MISSING_LOOP).render(Context(context)) and "table 84" in poker
    four = Template('{% load board_tiles %}{% missing_links missing evening "report" %}').render(Context(context))
    assert four == Template(FOURSOME_MISSING_LOOP).render(Context(context)) and "report of table 4" in four


TABLE_LOOP = (
    '{% load pack_tags %}{% for l in table.lines %}<li{% if l.guest.pk == guest.pk %} class="me"{% endif %}>'
    "{% pack_mark l.guest.pack evening %}<bdi>{{ l.guest.name }}</bdi>{% if l.guest.pk == guest.pk %} (you){% endif %}"
    " <small>{{ l.counters }}</small></li>{% endfor %}"
)


def test_a_guests_table_list_writes_what_the_loop_wrote():
    """The players at a guest's table on their phone (``views.guest._table_list``, issue 26
    item 2): the same ``<li>`` lines as the template loop, for every player at the table seeing
    it (their own line marked), the other lines shared between them through the board."""
    from tournament.selectors.guest_boards import Shared
    from tournament.views.guest import _table_list

    labels = {"red": "Rouge", "blue": "Blue"}
    evening = Ns(red_label="Rouge", blue_label="Blue", pack_label=labels.get)
    players = [
        Ns(pk=pk, pack=pack, name=name) for pk, pack, name in [(3, "red", NAME), (8, "blue", "Ann"), (9, "red", "أحمد")]
    ]
    table = Ns(lines=[Ns(guest=g, counters=c) for g, c in zip(players, [12, -3, 0], strict=True)])
    shared = Shared(version=1, board=Ns(evening=evening), standing=[], table_of={})  # type: ignore[arg-type]
    for me in players:
        loop = Template(TABLE_LOOP).render(Context({"table": table, "guest": me, "evening": evening}))
        assert _table_list(shared, table, me.pk) == loop
        assert loop.count(' class="me"') == loop.count("(you)") == 1 and "&lt;b&gt;" in loop
    assert len(shared.fragments) == 3  # each player's line as the others see it, written once
