"""The zero-set-up broker: kombu's filesystem transport with each message written whole.

``make run`` (no ``CELERY_BROKER_URL``) keeps Celery's queue as one file per message under
``var/celery/queue/``. Kombu's own transport (``kombu.transport.filesystem``, unchanged up to
5.7.0, the latest release) creates a message's file under its final name and then writes it,
while a consumer takes any file it lists and parses it: a worker that polls at that moment
reads an empty or half-written file, and dies with ``JSONDecodeError: Expecting value``
(issue 24 item 6; upstream kombu #1551 and #398, whose fix #1593 was reverted by #1595 and
replaced by one for the exchange tables only). The message is lost with it: the writer goes on
writing into a file the worker has already removed. A consumer that polls without pause lost
65 and 364 of 12,000 messages to it in two runs (three writers, one every 0.5 ms each).

Here (``filesystem-atomic://``, registered below; ``tournament.settings`` names it):

- a message is written under a hidden temporary name in the queue's own folder and then
  renamed to its message name (``os.replace``, atomic on one filesystem), so a consumer lists
  whole messages only;
- a consumer claims a message by renaming it into ``processed_folder`` (the same filesystem:
  exactly one consumer wins; kombu moves it to the system's temporary folder, a copy and a
  delete when that is another filesystem);
- a file that still does not parse (written by another program with kombu's own transport, or
  cut short by a power cut) is put back for a later poll while it is younger than
  ``UNREADABLE_AFTER`` seconds, then moved to ``unreadable_folder`` and logged: the worker
  never dies of it.

House rule, after that upstream bug: the zero-set-up broker must never crash the worker.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import time
import uuid
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

log = logging.getLogger(__name__)

#: The URL scheme of this transport (``filesystem-atomic://``).
SCHEME = "filesystem-atomic"

#: Seconds a file that does not parse is put back for another try before it is moved aside:
#: kombu's own writer fills a file within microseconds of creating it.
UNREADABLE_AFTER = 5.0

#: How a message file's name ends, after its queue's name (kombu's naming: ``<ms>_<uuid>.<queue>.msg``).
MESSAGE_SUFFIX = ".msg"


class Channel(filesystem.Channel):
    """Kombu's filesystem channel with whole-message writes and atomic claims."""

    # kombu's filesystem channel names the argument payload, its base class message: hence the ignore
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        """Write ``payload`` (a kombu message, JSON) as one new message file of ``queue`` in
        ``data_folder_out``: into a hidden temporary file there, then renamed to
        ``<ms>_<uuid>.<queue>.msg``. Raises ``ChannelError`` when the folder cannot be written."""
        folder = self.data_folder_out
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}{MESSAGE_SUFFIX}"
        data = str_to_bytes(dumps(payload))
        try:
            handle, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".writing")
        except OSError as exc:
            raise ChannelError(f"Cannot add a message file to {folder!r}") from exc
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, os.path.join(folder, name))
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.remove(temporary)
            raise ChannelError(f"Cannot add file {name!r} to {folder!r}") from exc

    def _get(self, queue: str, timeout: float | None = None) -> dict[str, Any]:
        """Take the oldest message of ``queue`` from ``data_folder_in`` and return it (a kombu
        message, as written by ``_put``); ``timeout`` is unused (the worker polls). Raises
        ``queue.Empty`` when there is none to take, ``ChannelError`` when a file cannot be
        taken or read."""
        wanted = f"{queue}{MESSAGE_SUFFIX}"
        for filename in sorted(os.listdir(self.data_folder_in)):
            if filename.partition(".")[2] != wanted:
                continue
            source = os.path.join(self.data_folder_in, filename)
            claimed = os.path.join(self.processed_folder, filename)
            try:
                if not self._claim(source, claimed):
                    continue  # another consumer took it meanwhile
            except OSError as exc:
                raise ChannelError(f"Cannot take {source!r} from the queue") from exc
            try:
                with open(claimed, "rb") as file:
                    payload = file.read()
            except OSError as exc:
                raise ChannelError(f"Cannot read file {claimed!r} from the queue") from exc
            try:
                message = loads(bytes_to_str(payload))
            except ValueError:
                self._unreadable(claimed, source)
                continue
            if not self.store_processed:
                os.remove(claimed)
            return message
        raise Empty()

    def _claim(self, source: str, claimed: str) -> bool:
        """Rename the message file ``source`` to ``claimed`` (atomic: of several consumers, one
        gets it), making ``processed_folder`` first if it was removed. Returns False when the
        file was gone (another consumer took it); raises ``OSError`` when it cannot be moved."""
        try:
            os.replace(source, claimed)
        except FileNotFoundError:
            if not os.path.exists(source):
                return False
            os.makedirs(self.processed_folder, exist_ok=True)
            try:
                os.replace(source, claimed)
            except FileNotFoundError:
                return False
        return True

    def _unreadable(self, claimed: str, source: str) -> None:
        """A claimed file (path ``claimed``) that is not a whole message: back to ``source`` (its
        place in the queue, read again at a later poll) while it is younger than
        ``UNREADABLE_AFTER`` seconds, else into ``unreadable_folder`` with an error logged."""
        try:
            age = time.time() - os.stat(claimed).st_mtime
            if age < UNREADABLE_AFTER:
                os.replace(claimed, source)
                return
            folder = self.unreadable_folder
            os.makedirs(folder, exist_ok=True)
            kept = os.path.join(folder, os.path.basename(claimed))
            os.replace(claimed, kept)
        except OSError:
            log.exception("Could not set aside the unreadable broker message %s", claimed)
            return
        log.error("A broker message that is not JSON after %.0f s was set aside: %s", age, kept)

    @property
    def unreadable_folder(self) -> str:
        """Where files that never parsed are kept (``unreadable_folder``), for a look by hand."""
        return self.transport_options.get("unreadable_folder", os.path.join(self.processed_folder, "unreadable"))


class Transport(filesystem.Transport):
    """Kombu's filesystem transport with ``Channel`` above (``filesystem-atomic://``)."""

    Channel = Channel


TRANSPORT_ALIASES[SCHEME] = f"{__name__}:Transport"
