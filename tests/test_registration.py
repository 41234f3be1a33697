"""Self registration from the evening's public link and self check-in (issue 6 item 5), and
the host's door and link pages (QR codes, reissue, revoke)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import fixtures_phones
from tests.fixtures_phones import at_table
from tournament.models import AuditEntry, Guest

clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture


def door(evening) -> str:
    return reverse("door", args=[evening.public_key])


@pytest.fixture
def open_evening(make_evening):
    return make_evening(2, 2, self_registration=True)


def test_a_guest_registers_and_lands_on_their_private_page(client, open_evening):
    response = client.post(door(open_evening), {"name": "  Ada   Lovelace ", "pack": "red", "here_now": "on"})
    guest = Guest.objects.get(evening=open_evening, name="Ada Lovelace")
    assert response.status_code == 302 and response["Location"] == reverse("guest-page", args=[guest.key])
    assert guest.status == Guest.Status.HERE and guest.pack == "red"
    assert response["Referrer-Policy"] == "no-referrer"


def test_registering_without_here_now_then_checking_in_from_the_private_link(client, open_evening):
    client.post(door(open_evening), {"name": "Brook Taylor", "pack": "blue"})
    guest = Guest.objects.get(name="Brook Taylor")
    assert guest.status == Guest.Status.REGISTERED
    response = client.post(reverse("guest-check-in", args=[guest.key]))
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.status == Guest.Status.HERE
    client.post(reverse("guest-check-in", args=[guest.key]))  # twice: nothing more
    assert AuditEntry.objects.filter(action="guest.status").count() == 1


@pytest.mark.parametrize(
    "name, message",
    [
        ("", "The name is empty"),
        ("   ", "The name is empty"),
        ("x" * 500, "The name is 500 characters long"),
        ("<script>alert(1)</script>", "cannot hold &lt; or &gt;"),
    ],
)
def test_bad_names_get_a_clear_message_and_nothing_is_saved(client, open_evening, name, message):
    before = Guest.objects.count()
    response = client.post(door(open_evening), {"name": name, "pack": "red"})
    assert response.status_code == 200 and message in response.content.decode()
    assert "<script>alert(1)" not in response.content.decode()
    assert Guest.objects.count() == before


def test_a_missing_or_wrong_pack_is_refused(client, open_evening):
    for data in ({"name": "Cleo"}, {"name": "Cleo", "pack": "green"}):
        response = client.post(door(open_evening), data)
        assert response.status_code == 200 and "error" in response.content.decode()
    assert not Guest.objects.filter(name="Cleo").exists()


def test_a_duplicate_name_is_flagged_and_not_saved(client, open_evening):
    response = client.post(door(open_evening), {"name": "red 1", "pack": "blue"})
    html = response.content.decode()
    assert response.status_code == 200 and "already registered" in html and "If that is you" in html
    assert Guest.objects.filter(evening=open_evening).count() == 4
    assert AuditEntry.objects.filter(action="guest.self_register_duplicate").exists()


def test_registration_is_closed_unless_the_host_opens_it(client, make_evening, host):
    evening = make_evening(2, 2)
    assert "closed" in client.get(door(evening)).content.decode()
    response = client.post(door(evening), {"name": "Dora", "pack": "red"})
    assert response.status_code == 200 and not Guest.objects.filter(name="Dora").exists()
    client.force_login(host)
    client.post(reverse("host-door", args=[evening.pk]), {"self_registration": "on"})
    evening.refresh_from_db()
    assert evening.self_registration
    page = client.get(reverse("host-door", args=[evening.pk])).content.decode()
    assert "<svg" in page and evening.public_key in page and "Here (4)" in page


def test_the_host_shows_a_qr_code_reissues_and_revokes_a_link(client, playing, host):
    guest = at_table(playing, 2)[0]
    client.force_login(host)
    url = reverse("host-guest-link", args=[playing.pk, guest.pk])
    page = client.get(url).content.decode()
    assert '<svg class="qr"' in page and guest.key in page
    old = guest.key
    client.post(url, {"action": "reissue"})
    guest.refresh_from_db()
    assert guest.key != old and client.get(reverse("guest-page", args=[old])).status_code == 404
    asked = client.post(url, {"action": "revoke"})  # a revoke asks first: nothing revoked yet
    assert (
        asked.status_code == 200
        and "Revoke" in asked.content.decode()
        and "Yes, revoke the link" in asked.content.decode()
    )
    assert client.get(reverse("guest-page", args=[guest.key])).status_code == 200
    client.post(url, {"action": "revoke", "confirmed": "on"})
    assert client.get(reverse("guest-page", args=[guest.key])).status_code == 404
    assert "is revoked" in client.get(url).content.decode()
    client.post(url, {"action": "reissue"})
    guest.refresh_from_db()
    assert client.get(reverse("guest-page", args=[guest.key])).status_code == 200
    assert client.get(reverse("host-links", args=[playing.pk])).status_code == 200


def test_another_host_cannot_see_links(client, playing):
    from tests.factories import HostFactory

    client.force_login(HostFactory(username="intruder"))
    guest = at_table(playing, 2)[0]
    assert client.get(reverse("host-guest-link", args=[playing.pk, guest.pk])).status_code == 404
    assert client.get(reverse("host-door", args=[playing.pk])).status_code == 404


def test_the_qr_code_on_the_page_decodes_to_the_link(client, playing, host):
    """Read the inline SVG's runs back into pixels and decode them with zxing-cpp."""
    import re

    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    guest = at_table(playing, 2)[0]
    client.force_login(host)
    page = client.get(reverse("host-guest-link", args=[playing.pk, guest.pk])).content.decode()
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', page).group(1))
    scale = 8
    image = Image.new("L", (size * scale, size * scale), 255)
    for x, y, n in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", page):
        x, y, n = int(x), int(y), int(n)
        image.paste(0, (x * scale, y * scale, (x + n) * scale, (y + 1) * scale))
    found = zxingcpp.read_barcodes(image)
    assert found and found[0].text == f"http://testserver/g/{guest.key}/"
    assert found[0].ec_level == "M"


def test_the_private_links_list_names_everyone_in_the_guests_lists_order(client, host):
    """Found by trying the product: the links page listed the Latin names first, then the
    Hebrew and Arabic ones, where the guests list sorts them all by one key."""
    from tests.factories import EveningFactory, GuestFactory
    from tournament.name_keys import name_order

    evening = EveningFactory(host=host)
    names = ["Zoe Abbott", "محمد الأحمد", "Ángel Ruiz", "שרה כהן", "bob Brown", "Émile Zola"]
    for name in names:
        GuestFactory(evening=evening, name=name)
    client.force_login(host)
    page = client.get(reverse("host-links", args=[evening.pk])).content.decode()
    shown = sorted(names, key=lambda name: page.index(name))
    assert shown == sorted(names, key=name_order)
    assert shown[:3] == ["Ángel Ruiz", "bob Brown", "Émile Zola"]
