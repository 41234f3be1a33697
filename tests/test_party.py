"""The evening on the venue's Wi-Fi: ``make party``'s settings from an address, its secret key,
the Connect phones page, the loopback warnings where QR codes are printed or shown, and the
party itself started for real, fetched over this machine's network address, a printed QR code
decoded to that address, and stopped."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from tests.fixtures_printing import printing_evening
from tests.test_printing_documents import scan
from tournament.party import LocalName, is_loopback_host, is_loopback_url, lan_address, party_secret_key, party_settings

LAN = "http://192.168.1.23:8000"


# The settings from an address.


def test_party_settings_from_a_lan_address_and_a_local_name():
    assert party_settings("192.168.1.23", 8000, "headtable.local") == {
        "ALLOWED_HOSTS": "192.168.1.23,headtable.local,127.0.0.1,localhost,[::1]",
        "CSRF_TRUSTED_ORIGINS": (
            "http://192.168.1.23:8000,http://headtable.local:8000,http://127.0.0.1:8000,"
            "http://localhost:8000,http://[::1]:8000"
        ),
        "SITE_URL": "http://192.168.1.23:8000",
        "SITE_LOCAL_URL": "http://headtable.local:8000",
    }


def test_party_settings_on_port_80_without_a_local_name():
    values = party_settings("10.0.0.5", 80)
    assert values["SITE_URL"] == "http://10.0.0.5"
    assert values["SITE_LOCAL_URL"] == ""
    assert values["ALLOWED_HOSTS"] == "10.0.0.5,127.0.0.1,localhost,[::1]"
    assert values["CSRF_TRUSTED_ORIGINS"].split(",")[0] == "http://10.0.0.5"


def test_party_settings_without_a_network_serve_this_computer_only():
    values = party_settings(None, 8001)
    assert values["SITE_URL"] == "http://127.0.0.1:8001"
    assert values["ALLOWED_HOSTS"] == "127.0.0.1,localhost,[::1]"
    assert is_loopback_url(values["SITE_URL"])


def test_party_settings_for_an_ipv6_address():
    values = party_settings("fd00::2", 8000)
    assert values["SITE_URL"] == "http://[fd00::2]:8000"
    assert values["ALLOWED_HOSTS"].startswith("[fd00::2],")


@pytest.mark.parametrize(
    "address,port", [("192.168.1.300", 8000), ("my-laptop", 8000), ("10.0.0.1", 0), ("10.0.0.1", 70000)]
)
def test_party_settings_refuse_a_bad_address_or_port(address, port):
    with pytest.raises(ValueError):
        party_settings(address, port)


@pytest.mark.parametrize(
    "url,loopback",
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.3.4.5", True),
        ("http://localhost:8000/", True),
        ("http://[::1]:8000", True),
        ("http://0.0.0.0:8000", True),
        ("http://testserver", False),
        ("http://192.168.1.23:8000", False),
        ("http://headtable.local:8000", False),
        ("", True),
        ("http://[fd00::2]:8000", False),
        ("http://app.localhost", True),
    ],
)
def test_loopback_urls(url, loopback):
    assert is_loopback_url(url) is loopback


def test_lan_address_is_this_machines_network_address():
    found = lan_address()
    listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    if not any("." in a and not is_loopback_host(a) for a in listed):
        assert found is None
    else:
        assert found in listed


# The secret key.


def test_the_secret_key_is_made_once_with_mode_600_and_reused(tmp_path):
    path = party_secret_key(tmp_path)
    assert path == tmp_path / "secret_key"
    key = path.read_text().strip()
    assert len(key) == 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    assert party_secret_key(tmp_path).read_text().strip() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_settings_read_the_secret_key_file_with_debug_off(tmp_path):
    path = party_secret_key(tmp_path)
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY_FILE": str(path),
        "HEADTABLE_VAR_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
    }
    env.pop("SECRET_KEY", None)
    code = "from django.conf import settings; print(settings.SECRET_KEY, settings.DEBUG)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=settings.BASE_DIR
    ).stdout.split()
    assert out == [path.read_text().strip(), "False"]


# The Connect phones page.


def decode_svg_qr(page: str) -> str:
    """The text of the inline SVG QR code on ``page`` (its runs drawn back into pixels)."""
    import zxingcpp
    from PIL import Image

    size = int(re.search(r'class="qr"[^>]*viewBox="0 0 (\d+) \d+"', page).group(1))
    scale = 8
    image = Image.new("L", (size * scale, size * scale), 255)
    svg = page[page.index('class="qr"') :]
    svg = svg[: svg.index("</svg>")]
    for x, y, n in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", svg):
        x, y, n = int(x), int(y), int(n)
        image.paste(0, (x * scale, y * scale, (x + n) * scale, (y + 1) * scale))
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1 and found[0].ec_level == "M"
    return found[0].text


def test_connect_phones_on_this_computer_only_says_so(client, host):
    client.force_login(host)
    page = client.get(reverse("host-connect"), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "Only this computer can open the site" in page
    assert "http://127.0.0.1:8000" in page
    assert "make party" in page
    assert 'class="qr"' not in page
    assert "the code above" not in page  # there is none (issue 24 item 8)
    assert "Once this page shows a code, scan it with your own phone" in page


@override_settings(SITE_URL=LAN, SITE_LOCAL_URL="http://headtable.local:8000")
def test_connect_phones_shows_the_network_address_as_text_and_qr_code(client, host):
    client.force_login(host)
    page = client.get(reverse("host-connect"), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "Only this computer" not in page
    assert f'<a href="{LAN}/">{LAN}/</a>' in page
    assert "http://headtable.local:8000/" in page
    assert "same Wi-Fi" in page and "scan the code above with your own phone" in page
    assert decode_svg_qr(page) == LAN + "/"


@override_settings(ALLOWED_HOSTS=["192.168.7.9"])
def test_connect_phones_uses_the_address_the_browser_used_when_it_is_a_network_one(client, host):
    client.force_login(host)
    page = client.get(reverse("host-connect"), HTTP_HOST="192.168.7.9:8000").content.decode()
    assert "Only this computer" not in page
    assert decode_svg_qr(page) == "http://192.168.7.9:8000/"


def test_connect_phones_is_linked_from_the_evening_page_and_the_nav(client, host):
    evening = printing_evening(host)
    client.force_login(host)
    page = client.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert page.count(f'href="{reverse("host-connect")}"') == 2  # the nav and the evening's actions


def test_connect_phones_needs_the_host_login(client):
    response = client.get(reverse("host-connect"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# The warnings where QR codes are printed or shown.

WARNING = "Phones cannot open these links"


@pytest.mark.parametrize("name", ["host-print", "host-draw-seating", "host-draw"])
def test_print_and_seating_pages_warn_of_a_loopback_address(client, host, name):
    evening = printing_evening(host)
    client.force_login(host)
    page = client.get(reverse(name, args=[evening.pk]), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert WARNING in page
    assert "http://127.0.0.1:8000" in page
    with override_settings(SITE_URL=LAN):
        page = client.get(reverse(name, args=[evening.pk]), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert WARNING not in page


def test_a_guests_link_page_and_the_door_warn_of_a_loopback_address(client, host):
    evening = printing_evening(host)
    guest = evening.guests.first()
    client.force_login(host)
    for url in (reverse("host-guest-link", args=[evening.pk, guest.pk]), reverse("host-door", args=[evening.pk])):
        assert WARNING in client.get(url, HTTP_HOST="localhost:8000").content.decode()
        with override_settings(SITE_URL=LAN):
            page = client.get(url, HTTP_HOST="localhost:8000").content.decode()
        assert WARNING not in page
        assert LAN in page


@override_settings(SITE_URL=LAN)
def test_seating_cards_printed_from_this_computer_carry_the_network_address(client, host):
    evening = printing_evening(host)
    client.force_login(host)
    pdf = client.get(reverse("host-print-seating", args=[evening.pk]), HTTP_HOST="127.0.0.1:8000").content
    codes = scan(pdf)
    assert sorted(codes) == sorted(f"{LAN}/g/{g.key}/" for g in evening.guests.all())


def test_print_document_warns_of_loopback_qr_codes(host, tmp_path, capsys):
    evening = printing_evening(host)
    call_command("print_document", str(evening.pk), "seating-cards", "-o", str(tmp_path / "cards.pdf"))
    assert "only this computer can open" in capsys.readouterr().err
    call_command(
        "print_document", str(evening.pk), "seating-cards", "-o", str(tmp_path / "cards.pdf"), "--base-url", LAN
    )
    assert capsys.readouterr().err == ""


# The multicast DNS name.


def test_the_local_name_is_announced_and_resolves_or_is_quietly_absent():
    address = lan_address()
    if address is None:
        pytest.skip("No network address on this machine: nothing to announce.")
    from zeroconf import AddressResolver, IPVersion, Zeroconf

    name = LocalName.announce(address, 8000)
    if name is None:
        pytest.skip("Multicast is not available here: the party goes on without a local name.")
    try:
        assert name.name == "headtable.local"
        listener = Zeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
        try:
            resolver = AddressResolver("headtable.local.")
            assert resolver.request(listener, 3000)
            assert resolver.parsed_addresses() == [address]
        finally:
            listener.close()
    finally:
        name.close()


def test_no_local_name_on_an_address_this_computer_does_not_have():
    assert LocalName.announce("203.0.113.77", 8000) is None
