"""The zero-set-up broker's transport (tournament/filesystem_broker.py, issue 24 item 6) on a
folder of the test's own, through a real kombu connection: writers in other processes never
show a consumer a half-written message, and a file that does not parse is tried again, then
set aside, never raised. tests/test_worker_burst.py tries it with a real worker."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import time
from pathlib import Path
from queue import Empty

import pytest
from kombu import Connection

import tournament.filesystem_broker  # noqa: F401  registers filesystem-atomic://

WRITERS, EACH = 3, 1500


def connect(folder: Path) -> Connection:
    """A connection to the ``filesystem-atomic://`` broker in ``folder`` (as the settings set it)."""
    for part in ("queue", "processed", "control"):
        (folder / part).mkdir(exist_ok=True)
    return Connection(
        "filesystem-atomic://",
        transport_options={
            "data_folder_in": str(folder / "queue"),
            "data_folder_out": str(folder / "queue"),
            "processed_folder": str(folder / "processed"),
            "unreadable_folder": str(folder / "unreadable"),
            "control_folder": str(folder / "control"),
        },
    )


def write(folder: str, writer: int) -> None:
    """Put ``EACH`` messages ``{"writer": writer, "i": i}`` on queue "q", 0.2 ms apart."""
    with connect(Path(folder)) as connection:
        channel = connection.default_channel
        for i in range(EACH):
            channel._put("q", {"writer": writer, "i": i, "padding": "x" * 400})
            time.sleep(0.0002)


def test_a_consumer_polling_while_three_processes_write_gets_every_message_once(tmp_path):
    # kombu's own transport (filesystem://), in three runs of the same, handed this consumer 112,
    # 0 and 88 of the 4,500 messages empty or cut short (a JSONDecodeError each) and lost them.
    writers = [multiprocessing.Process(target=write, args=(str(tmp_path), n)) for n in range(WRITERS)]
    for writer in writers:
        writer.start()
    got = []
    with connect(tmp_path) as connection:
        channel = connection.default_channel
        while any(writer.is_alive() for writer in writers) or len(got) < WRITERS * EACH:
            try:
                message = channel._get("q")
            except Empty:
                if not any(writer.is_alive() for writer in writers):
                    break
                continue
            got.append((message["writer"], message["i"]))
    assert all(writer.exitcode == 0 for writer in writers)
    assert sorted(got) == [(w, i) for w in range(WRITERS) for i in range(EACH)]
    assert os.listdir(tmp_path / "queue") == [] and os.listdir(tmp_path / "processed") == []


def test_a_half_written_file_waits_for_a_later_poll_and_a_dead_one_is_set_aside(tmp_path, caplog):
    with connect(tmp_path) as connection:
        channel = connection.default_channel
        queue = tmp_path / "queue"
        # kombu's own writer, caught between creating its file and writing the end of it
        half = queue / "1000_00000000-0000-0000-0000-000000000001.q.msg"
        half.write_text('{"body": "ab')
        with pytest.raises(Empty):
            channel._get("q")
        assert half.exists()  # put back where it was, for the next poll
        half.write_text('{"body": "abc"}')
        assert channel._get("q") == {"body": "abc"}
        # an empty file left by a power cut, older than UNREADABLE_AFTER, before a good message
        dead = queue / "1001_00000000-0000-0000-0000-000000000002.q.msg"
        dead.write_text("")
        old = time.time() - 60
        os.utime(dead, (old, old))
        channel._put("q", {"body": "next"})
        with caplog.at_level(logging.ERROR, logger="tournament.filesystem_broker"):
            assert channel._get("q") == {"body": "next"}
        assert not dead.exists() and (tmp_path / "unreadable" / dead.name).read_text() == ""
        assert "set aside" in caplog.text and dead.name in caplog.text
        with pytest.raises(Empty):
            channel._get("q")
        assert os.listdir(queue) == []


def test_a_message_is_written_whole_under_a_name_only_its_queue_reads(tmp_path):
    with connect(tmp_path) as connection:
        channel = connection.default_channel
        channel._put("q", {"body": "one"})
        (name,) = os.listdir(tmp_path / "queue")
        assert name.endswith(".q.msg") and json.loads((tmp_path / "queue" / name).read_text()) == {"body": "one"}
        assert channel._size("q") == 1 and channel._size("other") == 0
        with pytest.raises(Empty):
            channel._get("other")
        assert channel._get("q") == {"body": "one"}


def test_a_processed_folder_removed_by_hand_is_made_again(tmp_path):
    with connect(tmp_path) as connection:
        channel = connection.default_channel
        channel._put("q", {"body": "kept"})
        (tmp_path / "processed").rmdir()
        assert channel._get("q") == {"body": "kept"}
        assert (tmp_path / "processed").is_dir() and os.listdir(tmp_path / "queue") == []
