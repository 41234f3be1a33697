"""Keep private link keys out of Django's logs (issue 6 item 1: "keys do not appear in logs").

Django logs the path of every 4xx/5xx response (``django.request``), of every refused CSRF
check (``django.security.csrf``) and, under ``runserver``, of every request (``django.server``).
A guest's path carries their key (``/g/<key>/``), the door's the evening's public key
(``/e/<key>/``), a helper's their link's key (``/h/<key>/``) and a club member's their season link's
(``/m/<key>/``). ``KeyRedactingFilter`` rewrites
them to ``/g/<key>/``, ``/e/<key>/``, ``/h/<key>/`` and ``/m/<key>/`` in
the record before any handler sees it; ``install()`` attaches it to those loggers (called by the
app's ``ready()``, so it holds whatever ``LOGGING`` says). The same filter may be
named in ``LOGGING["filters"]``.

Gunicorn's access log is outside Django: run it without an access log (its default), or with
a format that leaves out the path, e.g. ``--access-logformat '%(h)s %(t)s "%(m)s" %(s)s %(b)s %(L)s'``
(no ``%(r)s``, ``%(U)s``, ``%(q)s`` or ``%(f)s``: the referrer is empty anyway, guest pages
send ``Referrer-Policy: no-referrer``).
"""

from __future__ import annotations

import logging
import re

# A key's characters, or any of them percent-encoded (``/g/%4BN0T…``: a browser or a guesser may send
# that, and the runserver log prints the path as sent, before decoding).
KEY_IN_PATH = re.compile(r"/(g|e|h|m)/(?:[A-Za-z0-9_\-]|%[0-9A-Fa-f]{2}){8,}")
LOGGERS = ("django.request", "django.security.csrf", "django.server", "django.security")


def redact(text: str) -> str:
    """``text`` with every ``/g/<key>``, ``/e/<key>``, ``/h/<key>`` or ``/m/<key>`` path's key replaced by
    ``<key>``."""
    return KEY_IN_PATH.sub(lambda m: f"/{m.group(1)}/<key>", text)


class KeyRedactingFilter(logging.Filter):
    """A logging filter that removes private keys from a record's message and arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "path") and KEY_IN_PATH.search(getattr(request, "path", "")):
            record.request = None  # handlers that print the request would print the key
        return True


_FILTER = KeyRedactingFilter()


def install() -> None:
    """Attach the filter to Django's loggers that print request paths (idempotent)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
