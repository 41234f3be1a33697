"""No exception is caught by its parent before its own handler (issue 12 item 7).

``RuleError`` is a ``ValueError``: a view that caught ``ValueError`` first told every refused
vote "The form was damaged" instead of the rule's message. These tests read every ``try`` in
``tournament/`` and ``tables/`` and check, with the real classes, that no handler is shadowed by
an earlier one; that the views and services have no bare or ``Exception``-wide handler; and that
a handler of a parent of ``RuleError`` in a view or a service guards nothing but a number's
conversion. And the vote after the bell, end to end, shows the rule's message.
"""

from __future__ import annotations

import ast
import builtins
import importlib
from pathlib import Path

import pytest
from django.urls import reverse

from tables.errors import RuleError
from tests import fixtures_phones
from tests.fixtures_phones import at_table
from tests.source_trees import parse_file
from tournament.models import AuditEntry, Result, ResultVote
from tournament.services.bell import bell_ring
from tournament.services.captains import captain_report
from tournament.services.results import result_record
from tournament.services.state import current_round, evening_state

ROOT = Path(__file__).resolve().parent.parent
clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture

CONVERTERS = {"int", "float", "request.POST.get", "data.get", "request.POST.get('seating', '').split"}


def _modules():
    for folder in ("tournament", "tables"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            yield path, name.removesuffix(".__init__")


def _local_imports(tree: ast.Module, module: str) -> dict:
    """The names imported anywhere in the module, inside functions too (a handler may catch a
    class imported where it is used)."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            source = importlib.import_module(node.module)
            for alias in node.names:
                if hasattr(source, alias.name):
                    names[alias.asname or alias.name] = getattr(source, alias.name)
    return names


def _handlers():
    """(path, line, module name, [(handler source, [classes])]) for every ``try`` with handlers."""
    found = []
    for path, name in _modules():
        tree = parse_file(path)
        tries = [node for node in ast.walk(tree) if isinstance(node, ast.Try) and node.handlers]
        if not tries:
            continue
        module = importlib.import_module(name)
        space = {**vars(builtins), **_local_imports(tree, name), **vars(module)}
        for node in tries:
            rows = []
            for handler in node.handlers:
                if handler.type is None:
                    rows.append(("bare except", [BaseException]))
                    continue
                value = eval(compile(ast.Expression(handler.type), str(path), "eval"), space)  # noqa: S307
                rows.append((ast.unparse(handler.type), list(value) if isinstance(value, tuple) else [value]))
            found.append((path.relative_to(ROOT), node, rows))
    return found


def _logs_the_traceback(handler: ast.ExceptHandler) -> bool:
    return any(isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "exception"
               for statement in handler.body for call in ast.walk(statement))


def test_the_scan_reads_the_handlers_it_must():
    places = {(str(path), rows[0][0]) for path, _, rows in _handlers()}
    assert ("tournament/views/guest.py", "RuleError") in places  # the vote's handlers
    assert len(places) > 30


def test_no_handler_is_shadowed_by_an_earlier_parent():
    shadowed = []
    for path, node, rows in _handlers():
        for later, (source, classes) in enumerate(rows):
            for earlier_source, earlier in rows[:later]:
                if any(issubclass(c, e) for c in classes for e in earlier):
                    shadowed.append(f"{path}:{node.lineno}: {source} after {earlier_source}")
    assert shadowed == []


def test_views_and_services_catch_no_parent_of_a_rule_error_around_a_rule():
    """A handler of ``ValueError`` (or wider) in a view or a service, with no ``RuleError``
    handler before it, may guard only a number's conversion: anything else can raise a
    ``RuleError`` whose message would be lost. A handler that logs the whole traceback
    (``log.exception``: queueing a timed task on a broker that is down) loses nothing."""
    wide = []
    for path, node, rows in _handlers():
        if path.parts[1] not in ("views", "services"):
            continue
        for index, (source, classes) in enumerate(rows):
            if _logs_the_traceback(node.handlers[index]):
                continue
            if classes[0] is BaseException or any(c in (Exception, BaseException) for c in classes):
                wide.append(f"{path}:{node.lineno}: {source}")
            if not any(c in RuleError.__mro__[1:] for c in classes):
                continue
            if any(issubclass(RuleError, c) for _, before in rows[:index] for c in before):
                continue
            calls = {ast.unparse(call.func) for statement in node.body for call in ast.walk(statement)
                     if isinstance(call, ast.Call)}
            if calls - CONVERTERS:
                wide.append(f"{path}:{node.lineno}: {source} around {sorted(calls - CONVERTERS)}")
    assert wide == []


def test_a_vote_after_the_bell_shows_the_rules_message(playing, client):
    one, two = at_table(playing, 2)[:2]
    result = captain_report(guest=one, round_number=1, table=2, pool_winner=two.pk)
    head, state = at_table(playing, 1), evening_state(playing)
    result_record(round=current_round(playing), table=1, pool_winner=head[0].pk,
                  counters={g.pk: state.counters[g.pk] for g in head})
    assert bell_ring(round_id=current_round(playing).pk, cause="host") is not None
    audit = AuditEntry.objects.count()
    response = client.post(reverse("guest-vote", args=[two.key]), {"result": result.pk, "verdict": "dispute"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Round 1 is closed: its bell has rung" in page
    assert "The form was damaged" not in page
    assert not ResultVote.objects.exists() and AuditEntry.objects.count() == audit
    result.refresh_from_db()
    assert result.status == Result.Status.REPORTED


@pytest.mark.parametrize("data", [{"result": "²", "verdict": "confirm"}, {"verdict": "confirm"}])
def test_a_damaged_vote_still_says_the_form_was_damaged(playing, client, data):
    one, two = at_table(playing, 2)[:2]
    captain_report(guest=one, round_number=1, table=2, pool_winner=two.pk)
    response = client.post(reverse("guest-vote", args=[two.key]), data)
    assert response.status_code == 302
    assert "The form was damaged" in client.get(response["Location"]).content.decode()
    assert not ResultVote.objects.exists()
