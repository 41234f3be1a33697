"""``manage.py party`` (what ``make party`` runs) started for real in the background, in its own
``var/`` folder: refused while the host has the demo password; then served by gunicorn (uvicorn's
ASGI workers, the phones' wait for the bell answered) with ``DEBUG=0``, fetched through this machine's network address (``hostname -I``), a printed seating
card's QR code decoded to that address and opened, and the party stopped cleanly with Ctrl-C."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.conf import settings

from tests.test_printing_documents import scan
from tournament.party import is_loopback_host

pytestmark = pytest.mark.worker


def network_address() -> str | None:
    """The first IPv4 address ``hostname -I`` lists that is not loopback."""
    listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    return next((a for a in listed if "." in a and not is_loopback_host(a)), None)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        return probe.getsockname()[1]


@pytest.fixture
def party_env(tmp_path):
    """The environment of a party of its own: a SQLite file and a broker folder under ``tmp_path``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "REDIS_URL",
            "CACHE_URL",
            "SECRET_KEY",
            "SITE_URL",
            "ALLOWED_HOSTS",
            "CSRF_TRUSTED_ORIGINS",
            "DJANGO_SETTINGS_MODULE",
        )
    }
    env.update(HEADTABLE_VAR_DIR=str(tmp_path), DATABASE_URL=f"sqlite:///{tmp_path / 'party.sqlite3'}")
    return env


def manage(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        env=env,
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )


def wait_for(url: str, proc: subprocess.Popen, seconds: float = 120) -> None:
    """Poll ``url`` until it answers; fail if the party exits or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the party stopped while starting"
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"{url} did not answer within {seconds} s")


def login(opener, base: str, username: str, password: str) -> None:
    page = opener.open(f"{base}/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode({"username": username, "password": password, "csrfmiddlewaretoken": token})
    answer = opener.open(
        urllib.request.Request(
            f"{base}/accounts/login/", data=data.encode(), headers={"Referer": f"{base}/accounts/login/"}
        )
    )
    assert "/accounts/login/" not in answer.geturl(), "the login was refused"


def test_make_party_serves_phones_on_the_network_address(party_env, tmp_path):
    lan = network_address()
    if lan is None:
        pytest.skip("This machine has no network address (hostname -I lists only loopback).")
    port = free_port()
    assert manage(party_env, "migrate", "--noinput").returncode == 0
    demo = manage(party_env, "load_demo")
    evening_id = int(re.search(r"Demo evening (\d+) loaded", demo.stdout).group(1))

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        busy = manage(party_env, "party", "--port", str(port), "--no-local-name")
    assert busy.returncode == 1 and f"Port {port} is already in use" in busy.stderr
    refused = manage(party_env, "party", "--port", str(port), "--no-local-name")
    assert refused.returncode == 1
    assert "still has the demo password" in refused.stderr and "changepassword host" in refused.stderr

    code = (
        "from django.contrib.auth.models import User; u = User.objects.get(username='host'); "
        "u.set_password('a-party-of-our-own'); u.save()"
    )
    assert manage(party_env, "shell", "-c", code).returncode == 0
    with open(tmp_path / "party.log", "w") as log:  # the server writes to its own copy of the file
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "party", "--port", str(port)],
            env=party_env,
            cwd=settings.BASE_DIR,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base, here = f"http://{lan}:{port}", f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/", proc)
        front = urllib.request.urlopen(base + "/")
        assert front.status == 200 and "uvicorn" in front.headers["Server"]  # gunicorn's uvicorn workers
        assert "Head Table" in front.read().decode()
        assert f"Phones on this Wi-Fi:  {base}/" in (tmp_path / "party.log").read_text()
        assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(base + "/no-such-page/")
        assert missing.value.code == 404 and "URLconf" not in missing.value.read().decode()  # DEBUG is off
        assert urllib.request.urlopen(base + "/static/headtable.css").status == 200  # WhiteNoise

        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        login(opener, here, "host", "a-party-of-our-own")
        connect = opener.open(f"{here}/host/connect/").read().decode()
        assert f'<a href="{base}/">{base}/</a>' in connect and "Only this computer" not in connect
        pdf = opener.open(f"{here}/host/e/{evening_id}/print/seating-cards.pdf?paper=A4&variant=sheet").read()
        codes = scan(pdf)
        assert len(codes) == 32 and all(code.startswith(f"{base}/g/") for code in codes)
        guest_page = urllib.request.urlopen(codes[0])
        assert guest_page.status == 200 and "Table" in guest_page.read().decode()
        waited = urllib.request.urlopen(codes[0] + "wait/?v=0")  # the push, on the event loop (ASGI)
        assert waited.status == 200 and json.loads(waited.read())["state"] == "changed"
    finally:
        os.kill(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=60) == 0
    with pytest.raises(OSError):
        socket.create_connection((lan, port), timeout=2).close()
    assert "Stopped." in (tmp_path / "party.log").read_text()
