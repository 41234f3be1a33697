"""DEBUG is off unless ``DEBUG=1`` is set (a plain ``manage.py runserver`` shows a host the site's
own pages, never Django's traceback with the code and settings), with a secret key of this
computer's own (``var/secret_key``, made once); the static files are served by WhiteNoise from
where they are, collected or not."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import override_settings

CODE = "from django.conf import settings; print(settings.DEBUG, settings.SECRET_KEY)"


def _settings_read(tmp_path, **env: str) -> list[str]:
    """(DEBUG, SECRET_KEY) as ``tournament.settings`` reads them in a fresh process with ``env``."""
    environ = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "SECRET_KEY_FILE")}
    environ.update(HEADTABLE_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="tournament.settings", **env)
    run = subprocess.run(
        [sys.executable, "-c", CODE], env=environ, capture_output=True, text=True, check=True, cwd=settings.BASE_DIR
    )
    return run.stdout.split()


def test_debug_is_off_by_default_with_this_computers_own_secret_key(tmp_path):
    debug, key = _settings_read(tmp_path)
    assert debug == "False"
    assert key == (tmp_path / "secret_key").read_text().strip() and len(key) == 50
    assert _settings_read(tmp_path) == [debug, key]  # made once, kept


@pytest.mark.parametrize(("value", "debug"), [("1", "True"), ("0", "False"), ("yes", "False"), ("", "False")])
def test_debug_is_on_only_when_debug_is_1(tmp_path, value, debug):
    assert _settings_read(tmp_path, DEBUG=value)[0] == debug


def test_a_secret_key_given_is_used_with_debug_off(tmp_path):
    assert _settings_read(tmp_path, SECRET_KEY="given-key")[1] == "given-key"
    assert not (tmp_path / "secret_key").exists()


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_the_static_files_are_served_with_debug_off_without_collecting_them(client):
    response = client.get("/static/headtable.css")
    assert response.status_code == 200
    assert b"".join(response.streaming_content if response.streaming else [response.content])
