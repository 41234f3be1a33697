"""The audit log's rows written in Python (``templatetags.audit_rows``) are the template's loop as
it stood, character for character: an entry by the host, by a helper's link, by a guest's
private link and by the clock, sentences and devices with markup, times in the host's time zone
(issue 26 item 3: the host's pages at 500 guests within 50 times a bare view)."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import timezone

from tournament.models import AuditEntry, Evening
from tournament.services.guests import guest_add
from tournament.services.helpers import helper_link_create

pytestmark = pytest.mark.django_db

LOOP = '{% load name_tags %}{% for r in rows %}<tr>\n<td><time datetime="{{ r.entry.at.isoformat }}">{{ r.entry.at|date:"H:i:s" }}</time><br><small>{{ r.entry.at|date:"j M" }}</small></td>\n<td>{{ r.sentence|names_isolated:names }}</td>\n<td><small>{% if r.entry.user %}{{ r.entry.user.username }} (host){% elif r.entry.helper %}a helper\'s link{% elif r.entry.guest %}a private link{% endif %}{% if r.entry.user or r.entry.helper or r.entry.guest %}<br>{% endif %}<span title="{{ r.entry.device }}">{{ r.device }}</span></small></td>\n</tr>{% empty %}<tr><td colspan="3">Nothing yet.</td></tr>{% endfor %}'  # host/audit.html's loop as it stood


def _rows(evening: Evening) -> list[dict]:
    from tournament.selectors.audit_sentences import audit_sentence
    from tournament.services.naming import guest_names
    from tournament.views.corrections import device_name

    names = guest_names(evening)
    entries = evening.audit.select_related("user", "guest", "helper").order_by("-at", "-id")
    return [{"entry": e, "sentence": audit_sentence(e, names), "device": device_name(e.device)} for e in entries]


@pytest.mark.parametrize("zone", ["UTC", "America/New_York", "Asia/Kolkata"])
def test_the_audit_rows_are_what_the_template_wrote(host, zone):
    evening = Evening.objects.create(host=host, name="Poker", date="2026-11-30")
    guest = guest_add(
        evening=evening, name='O\'Brien "&" Co', pack="red", user=host, device='Mozilla "5" <iPhone> Safari'
    )
    helper = helper_link_create(evening=evening, role="door")
    AuditEntry.objects.create(
        evening=evening, helper=helper, action="guest.here", detail={"name": "<b>x</b>"}, device="Linux & Firefox"
    )
    AuditEntry.objects.create(evening=evening, guest=guest, action="result.dispute", detail={"note": "wrong <pool>"})
    AuditEntry.objects.create(evening=evening, action="clock.ring")
    rows = _rows(evening)
    assert len(rows) >= 4
    with timezone.override(zone):
        names = [guest.name]
        then = Template(LOOP).render(Context({"rows": rows, "names": names}))
        now = Template("{% load audit_rows %}{% audit_rows rows names %}").render(
            Context({"rows": rows, "names": names})
        )
    assert now == then
    assert "<bdi>O&#x27;Brien &quot;&amp;&quot; Co</bdi>" in now  # the guest's name isolated
    assert (
        "(host)" in now and "a helper&#x27;s link" not in now and "a helper's link" in now and "a private link" in now
    )
    assert Template("{% load audit_rows %}{% audit_rows rows %}").render(Context({"rows": []})) == Template(
        LOOP
    ).render(Context({"rows": []}))
