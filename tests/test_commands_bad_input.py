"""Every management command refuses bad input with one line and exit status 1 (issue 12 item 2).

The battery below gives each command in ``tournament/management/commands`` bad arguments:
unknown options, missing ones, ids and numbers that are not whole numbers, out of range or
beyond 64 bits, superscript and Arabic digits, 5,000-character texts, files that are missing,
folders, empty, Latin-1, UTF-16 without its mark, not JSON, nested 100,000 deep, and outputs in
folders that do not exist. Each case runs twice: through ``call_command`` (a ``CommandError``
whose one-line message holds the reason) and as a process of its own running manage.py's entry
point (exit status 1, one line on stderr starting "CommandError:", no traceback); the first
case of every command also runs as a real ``python manage.py ...``. Nothing may change in the database.
A command without a battery fails ``test_every_command_has_a_battery``.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

import tournament.management.commands as commands_package

ROOT = Path(__file__).resolve().parent.parent
E = "{E}"  # the evening's id, filled in per database
F = "{F}"  # the folder of bad files
BIG = "9223372036854775808"  # 2**63: beyond any database integer
HUGE = "1180591620717411303424"  # 2**70
LONG = "x" * 5000


def write_files(folder: Path) -> None:
    """The bad (and one good) input files, in ``folder``."""
    names = [f"Lady {c}" for c in "ABCDEFGHIJKL"] + [f"Gent {c}" for c in "ABCDEFGHIJKL"]
    good = "name,pack\n" + "\n".join(f"{n},{'red' if n.startswith('Lady') else 'blue'}" for n in names)
    (folder / "good.csv").write_text(good, encoding="utf-8")
    (folder / "latin1.csv").write_bytes("name,pack\nMårten,red\n".encode("latin-1"))
    (folder / "utf16-no-mark.csv").write_bytes("name,pack\nAnn,red\n".encode("utf-16-le"))
    (folder / "nul.csv").write_bytes(b"name,pack\nAnn\x00,red\n")
    (folder / "empty.csv").write_bytes(b"")
    (folder / "huge.csv").write_bytes(b"Ann,red\n" * 200_000)
    (folder / "a-folder").mkdir()
    (folder / "empty.json").write_bytes(b"")
    (folder / "latin1.json").write_bytes('{"name": "Mårten"}'.encode("latin-1"))
    (folder / "not.json").write_text("name,pack\nAnn,red\n", encoding="utf-8")
    (folder / "nested.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (folder / "other.json").write_text('{"schema": "head-table/evening/2"}', encoding="utf-8")


# command -> [(arguments, what the one-line message must say)]
BATTERY: dict[str, list[tuple[list[str], str]]] = {
    "bell": [
        ([], "the following arguments are required: evening"),
        (["abc"], "No evening with id “abc”"),
        ([BIG], f"No evening with id “{BIG}”"),
        (["²"], "No evening with id “²”"),
        (["-1"], "No evening with id “-1”"),
        ([LONG], "No evening with id “xxxxxxxxxxxxxxxxxxxxxxxxxxx...”"),
        ([E, "--bogus"], "unrecognized arguments: --bogus"),
        ([E, "--undo"], "No bell has rung yet, so there is nothing to undo."),
    ],
    "correct": [
        ([E, "--round", "1", "--table", "1"], "the following arguments are required: --winner"),
        (
            [E, "--round", BIG, "--table", "1", "--winner", "Lady A"],
            "--round: Ensure this value is less than or equal to 1000.",
        ),
        (
            [E, "--round", "-1", "--table", "1", "--winner", "Lady A"],
            "--round: Ensure this value is greater than or equal to 1.",
        ),
        ([E, "--round", "²", "--table", "1", "--winner", "Lady A"], "--round: Enter a whole number."),
        (
            [E, "--round", "1", "--table", "0", "--winner", "Lady A"],
            "--table: Ensure this value is greater than or equal to 1.",
        ),
        (
            [E, "--round", "1", "--table", "1", "--winner", "Lady A", "--counters", f"Lady A={HUGE}"],
            "--counters Lady A: Ensure this value is less than or equal to 1000000.",
        ),
        (
            [E, "--round", "1", "--table", "1", "--winner", "Lady A", "--counters", "Lady A=-5"],
            "--counters Lady A: Ensure this value is greater than or equal to 0.",
        ),
        (
            [E, "--round", "1", "--table", "1", "--winner", "Lady A", "--counters", "Lady A"],
            "Write counters as NAME=COUNT",
        ),
        ([E, "--round", "1", "--table", "1", "--winner", LONG], "No guest called"),
        ([E, "--round", "1", "--table", "1", "--winner", "Lady A"], "Round 1"),
    ],
    "draw": [
        ([], "the following arguments are required: evening"),
        (["abc"], "No evening with id “abc”"),
        ([BIG], "No evening with id"),
        ([E, "--accept-relaxed=yes"], "ignored explicit argument"),
        ([E], "draw"),
    ],
    "evening_create": [
        (["E"], "the following arguments are required: --csv"),
        (["E", "--csv", f"{F}/latin1.csv"], "save it as “CSV UTF-8”"),
        (["E", "--csv", f"{F}/utf16-no-mark.csv"], "save it as “CSV UTF-8”"),
        (["E", "--csv", f"{F}/nul.csv"], "save it as “CSV UTF-8”"),
        (["E", "--csv", f"{F}/empty.csv"], "The submitted file is empty."),
        (["E", "--csv", f"{F}/huge.csv"], "is 1,600,000 bytes: at most 1,000,000 can be read."),
        (["E", "--csv", f"{F}/a-folder"], "is a folder"),
        (["E", "--csv", f"{F}/missing.csv"], "does not exist"),
        (["E", "--csv", f"{F}/good.csv", "--stake", "-5"], "--stake: "),
        (["E", "--csv", f"{F}/good.csv", "--stake", "0"], "--stake: A stake is 1 counter or more."),
        (["E", "--csv", f"{F}/good.csv", "--stake", BIG], "--stake: "),
        (["E", "--csv", f"{F}/good.csv", "--stake", "abc"], "--stake: Enter a whole number."),
        (["E", "--csv", f"{F}/good.csv", "--rounds", "-1"], "--rounds: "),
        (["E", "--csv", f"{F}/good.csv", "--rounds", "101"], "--rounds: Plan at most 100 rounds."),
        (["E", "--csv", f"{F}/good.csv", "--minutes", "0"], "--minutes: A round lasts 1 minute or more."),
        (["E", "--csv", f"{F}/good.csv", "--minutes", "²"], "--minutes: Enter a whole number."),
        (["E", "--csv", f"{F}/good.csv", "--date", "2026-02-30"], "--date: Enter a valid date."),
        ([LONG, "--csv", f"{F}/good.csv"], "NAME: Ensure this value has at most 120 characters (it has 5000)."),
        (["E", "--csv", f"{F}/good.csv", "--host", LONG], "--host: Ensure this value has at most 150 characters"),
        (["E", "--csv", f"{F}/good.csv", "--host", "bad name!"], "--host: Enter a valid username."),
        (["E", "--csv", f"{F}/good.csv", "surplus"], "unrecognized arguments: surplus"),
    ],
    "export_evening": [
        ([], "the following arguments are required: evening"),
        (["abc"], "No evening with id “abc”"),
        ([E, "-o", f"{F}/no-such-folder/e.json"], "the folder"),
        ([E, "-o", f"{F}/a-folder"], "is a folder"),
        ([E, "--bogus"], "unrecognized arguments: --bogus"),
    ],
    "import_evening": [
        ([], "the following arguments are required: file"),
        ([f"{F}/missing.json"], "does not exist"),
        ([f"{F}/a-folder"], "is a folder"),
        ([f"{F}/empty.json"], "The file is empty"),
        ([f"{F}/latin1.json"], "The file is not UTF-8 text"),
        ([f"{F}/not.json"], "The file is not a Head Table evening: it is not JSON text at all"),
        ([f"{F}/nested.json"], "nested too deeply"),
        ([f"{F}/other.json"], "The file is not a Head Table evening export"),
        ([f"{F}/other.json", "--host", LONG], "--host: Ensure this value has at most 150 characters"),
    ],
    "load_demo": [
        (["--minutes", "-5"], "--minutes: A round lasts 1 minute or more."),
        (["--minutes", "abc"], "--minutes: "),
        (["--minutes", BIG], "--minutes: A round lasts at most 180 minutes."),
        (["--username", LONG], "--username: Ensure this value has at most 150 characters"),
        (["--username", "bad name!"], "--username: Enter a valid username."),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
    "print_document": [
        ([E, "seating-cards"], "the following arguments are required: --output"),
        ([E, "menu", "-o", f"{F}/x.pdf"], "argument document: invalid choice: 'menu'"),
        ([E, "seating-cards", "-o", f"{F}/no-such-folder/x.pdf"], "the folder"),
        ([E, "seating-cards", "-o", f"{F}/a-folder"], "is a folder"),
        (
            [E, "seating-cards", "-o", f"{F}/x.pdf", "--base-url", "http://" + LONG],
            "Ensure this value has at most 200 characters (it has 5007).",
        ),
        ([E, "seating-cards", "-o", f"{F}/x.pdf", "--base-url", "not a url"], "--base-url: Enter a valid URL."),
        ([E, "seating-cards", "-o", f"{F}/x.pdf", "--base-url", "ftp://example.org"], "--base-url: give an http"),
        ([E, "seating-cards", "-o", f"{F}/x.pdf", "--paper", "B5"], "B5"),
        ([E, "seating-cards", "-o", f"{F}/x.pdf", "--variant", "zigzag"], "zigzag"),
        (["abc", "seating-cards", "-o", f"{F}/x.pdf"], "No evening with id “abc”"),
    ],
    "result": [
        ([E, "--winner", "Lady A"], "the following arguments are required: --table"),
        (
            [E, "--table", "1", "--winner", "Lady A", "--counters", f"Lady A={HUGE}"],
            "--counters Lady A: Ensure this value is less than or equal to 1000000.",
        ),
        (
            [E, "--table", "1", "--winner", "Lady A", "--counters", "Lady A=-1"],
            "--counters Lady A: Ensure this value is greater than or equal to 0.",
        ),
        (
            [E, "--table", "1", "--winner", "Lady A", "--counters", "Lady A=1e3"],
            "--counters Lady A: Enter a whole number.",
        ),
        ([E, "--table", "²", "--winner", "Lady A"], "--table: Enter a whole number."),
        ([E, "--table", BIG, "--winner", "Lady A"], "--table: Ensure this value is less than or equal to 1000."),
        ([E, "--table", "0", "--winner", "Lady A"], "--table: Ensure this value is greater than or equal to 1."),
        ([E, "--table", "99", "--winner", "Lady A"], "There is no table 99"),
        ([E, "--table", "1", "--winner", "Nobody"], "No guest called “Nobody”"),
        ([E, "--table", "1", "--winner", LONG], "No guest called"),
    ],
    "round_start": [
        ([], "the following arguments are required: evening"),
        (["abc"], "No evening with id “abc”"),
        ([BIG], "No evening with id"),
        ([E, "surplus"], "unrecognized arguments: surplus"),
        ([E], "A round is already in play: ring its bell before starting the next one."),
    ],
    "party": [
        (["--port", "abc"], "--port: Enter a whole number."),
        (["--port", "99999"], "--port: Ensure this value is less than or equal to 65535."),
        (["--port", "0"], "--port: Ensure this value is greater than or equal to 1."),
        (["--port", "²"], "--port: Enter a whole number."),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
    "serve": [
        (["notaport"], "“notaport” is not a port (1 to 65535) or ADDRESS:PORT"),
        (["99999"], "is not a port"),
        (["0"], "is not a port"),
        (["127.0.0.1:٨٠٠٠"], "is not a port"),
        (["1" * 5000], "is not a port"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["8000", "9000"], "unrecognized arguments: 9000"),
    ],
}

CASES = [(name, args, expected) for name, cases in BATTERY.items() for args, expected in cases]


def command_names() -> set[str]:
    folder = Path(commands_package.__file__).parent
    return {p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")}


def test_every_command_has_a_battery():
    assert set(BATTERY) == command_names()
    assert all(len(cases) >= 5 for cases in BATTERY.values())


def filled(args: list[str], evening: int, folder: Path) -> list[str]:
    return [a.replace(E, str(evening)).replace(F, str(folder)) for a in args]


def rows_now() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in apps.get_models()}


@pytest.fixture
def evening_in_play(tmp_path):
    """An evening from a CSV, drawn, round 1 started (through the commands themselves)."""
    write_files(tmp_path)
    out = io.StringIO()
    call_command(
        "evening_create", "Battery", "--csv", str(tmp_path / "good.csv"), "--check-in", stdout=out, stderr=io.StringIO()
    )
    evening = int(out.getvalue())
    call_command("draw", str(evening), stdout=io.StringIO())
    call_command("round_start", str(evening), stdout=io.StringIO())
    return evening, tmp_path


@pytest.mark.django_db
def test_every_bad_argument_is_one_line_through_call_command(evening_in_play):
    evening, folder = evening_in_play
    before = rows_now()
    wrong = []
    for name, args, expected in CASES:
        try:
            call_command(name, *filled(args, evening, folder), stdout=io.StringIO(), stderr=io.StringIO())
        except CommandError as error:
            message = str(error)
            if expected.replace(E, str(evening)) not in message or "\n" in message:
                wrong.append((name, args[:3], message[:200]))
        else:
            wrong.append((name, args[:3], "no error"))
    assert not wrong, wrong
    assert rows_now() == before
    assert not (folder / "x.pdf").exists()


@pytest.mark.django_db
def test_a_nul_character_in_any_argument_is_refused(evening_in_play):
    evening, folder = evening_in_play
    before = rows_now()
    for name, args in [
        ("result", [str(evening), "--table", "1", "--winner", "Lady\x00A"]),
        ("evening_create", ["E\x00", "--csv", str(folder / "good.csv")]),
        ("import_evening", [str(folder / "x\x00.json")]),
    ]:
        with pytest.raises(CommandError, match="a NUL character is not allowed"):
            call_command(name, *args, stdout=io.StringIO())
    assert rows_now() == before


@pytest.mark.django_db
def test_a_utf16_file_with_its_mark_is_read(tmp_path):
    path = tmp_path / "unicode.csv"
    path.write_bytes(
        "name,pack\n".encode("utf-16")
        + "".join(  # one BOM, at the start
            f"Mårten {i},{'red' if i % 2 else 'blue'}\n" for i in range(10)
        ).encode("utf-16-le")
    )
    out = io.StringIO()
    call_command("evening_create", "Unicode", "--csv", str(path), stdout=out, stderr=io.StringIO())
    from tournament.models import Guest

    assert sorted(Guest.objects.filter(evening_id=int(out.getvalue())).values_list("name", flat=True))[:2] == [
        "Mårten 0",
        "Mårten 1",
    ]


@pytest.fixture
def terminal(tmp_path):
    """A SQLite database of its own, migrated, with the same evening, for real processes."""
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "REDIS_URL", "CACHE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'terminal.sqlite3'}",
        DJANGO_SETTINGS_MODULE="tournament.settings",
        HEADTABLE_VAR_DIR=str(tmp_path / "var"),
        PYTHONWARNINGS="ignore",
    )
    write_files(tmp_path)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )

    for args in (
        ["migrate", "--noinput"],
        ["evening_create", "Battery", "--csv", str(tmp_path / "good.csv"), "--check-in"],
        ["draw", "1"],
        ["round_start", "1"],
    ):
        done = run(*args)
        assert done.returncode == 0, done.stderr
    return run, tmp_path, env


def database_rows(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: db.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}


# Runs in a separate Python: Django is set up once, then every case is a forked process that
# runs manage.py's own entry point (execute_from_command_line) with its own stderr and exit
# status, as the shell would see them; ~1 s of start-up saved per case.
FORKED = r"""
import json, os, sys, traceback
import django
django.setup()
from django.core.management import execute_from_command_line
results = []
for index, argv in enumerate(json.load(sys.stdin)):
    err = os.path.join(os.environ["BATTERY_DIR"], f"stderr-{index}.txt")
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        try:
            execute_from_command_line(["manage.py", *argv])
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush(); sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    results.append([os.waitstatus_to_exitcode(status), open(err, encoding="utf-8").read()])
print(json.dumps(results))
"""


def one_line_refusal(returncode: int, stderr: str, expected: str) -> bool:
    """Exit status 1, no traceback, one line on stderr: "CommandError: ..." holding ``expected``."""
    lines = stderr.strip().splitlines()
    return (
        returncode == 1
        and "Traceback" not in stderr
        and len(lines) == 1
        and lines[0].startswith("CommandError: ")
        and expected in lines[0]
    )


def test_every_bad_argument_is_one_line_and_status_1_from_the_terminal(terminal):
    run, folder, env = terminal
    before = database_rows(folder / "terminal.sqlite3")
    wrong = []
    # Through manage.py itself, the first case of every command (real start-up, real argv).
    for name, cases in BATTERY.items():
        args, expected = cases[0]
        process = run(name, *filled(args, 1, folder))
        if not one_line_refusal(process.returncode, process.stderr, expected.replace(E, "1")):
            wrong.append((name, args[:3], process.returncode, process.stderr[-300:]))
    # Every case, each in its own forked process running manage.py's entry point.
    argvs = [[name, *filled(args, 1, folder)] for name, args, _ in CASES]
    done = subprocess.run(
        [sys.executable, "-c", FORKED],
        cwd=ROOT,
        env={**env, "BATTERY_DIR": str(folder)},
        input=json.dumps(argvs),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for (name, args, expected), (code, stderr) in zip(CASES, json.loads(done.stdout), strict=True):
        if not one_line_refusal(code, stderr, expected.replace(E, "1")):
            wrong.append((name, args[:3], code, stderr[-300:]))
    assert not wrong, wrong
    assert database_rows(folder / "terminal.sqlite3") == before
