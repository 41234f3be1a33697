"""Importing an evening exported as JSON (schema "head-table/evening/1", docs/export.md).

Nothing in the file is trusted. Before anything is saved the whole document is checked against
the export's JSON Schema (``tournament/exchange/export_schema.json``: a good file passed by the
maintained compiled validator ``jsonschema-rs``, any other judged and worded by ``jsonschema``)
and every guest reference is followed; then every row goes through the models' own
validation (``full_clean``'s field checks: choices, lengths, ranges, the same as the forms; and
the models' constraints, checked in Python: ``tournament.exchange.constraints``) before it is
saved, each kind of row in one ``bulk_create`` (``rows._all_saved``), so the import sends as
many statements for 500 guests as for 30.
A bad file gives one ``EveningImportError`` whose message names the place in the file in a
host's words (``rows.where``: 'Guest 4 in the file, its pack: "green" is not red or blue.'),
never the parser's or Python's own, and nothing is saved.

Here: the evening, its guests, its helpers' links (``tournament.exchange.helper_links``) and
its draws. The play (rounds, results, bells, seats, final
counts) is the format's (``import_play`` of its plug-in: Progressive Poker's in
``tournament/formats/poker/codec.py``, tables of four's in
``tournament/formats/partnership/codec.py``), which does not trust the stored moves either: it
rebuilds the evening from the live draw and replays every live bell through the rules, then
checks that the replay gives exactly the exported entries. The new evening gets new ids and new
private links (keys are never exported).
"""

from __future__ import annotations

import datetime
import functools
import itertools
import json
import re
from collections.abc import Iterator
from importlib import resources
from typing import Any

import jsonschema
import jsonschema_rs
from django.db import transaction

from tables.errors import InvariantBroken, RuleError
from tables.formats.foursome import ghost_name, is_ghost
from tournament.exchange.export import SCHEMA
from tournament.exchange.helper_links import helper_links_check, helper_links_saved
from tournament.exchange.rows import (
    EveningImportError,
    _all_saved,
    _checked,
    _field_words,
    _saved,
    _shown,
    _time,
    rows_checked_in_python,
    where,
)
from tournament.format_setting import format_choices, game_choices
from tournament.models import Draw, DrawnCard, Evening, Guest
from tournament.name_keys import normal_name
from tournament.registry import default_format, format_for, format_named, installed_formats
from tournament.services.clock import rounds_too_few
from tournament.services.state import OPEN_STATES

MAX_BYTES = 32 * 1024 * 1024  # house rule: an evening of 2,000 guests and 1,000 rounds fits easily


def export_read(raw: bytes) -> Any:
    """The JSON document in ``raw`` (the bytes of an export file; a UTF-8 byte order mark is
    allowed). Raises ``EveningImportError`` in a host's words, never the parser's (house rule,
    found by a stranger: "Expecting ',' delimiter: line 1 column 5 (char 4)"), for an empty
    file, one over ``MAX_BYTES`` (32 MB), text that is not UTF-8, text that is not JSON (where
    it breaks off or stops being JSON, by line and column; NaN and Infinity, which JSON does
    not have; a number longer than ``NUMBER_DIGITS``; half of a UTF-16 pair), and JSON nested
    too deeply to read."""
    if len(raw) > MAX_BYTES:
        raise EveningImportError(f"The file is {len(raw):,} bytes: an evening export is at most {MAX_BYTES:,}.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise EveningImportError(
            f"The file is not UTF-8 text (byte {error.start + 1} is not): an evening export is always UTF-8."
        ) from None
    if not text.strip():
        raise EveningImportError("The file is empty: it is not an evening export.")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_whole_number)
        if _SURROGATE.search(text):  # a lone half of a pair of UTF-16 codes is no text
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        return data
    except UnicodeEncodeError:
        raise EveningImportError(
            f"{NOT_AN_EVENING}: it holds text with a broken character (half of a pair of UTF-16 codes), which no "
            "export holds."
        ) from None
    except RecursionError:
        raise EveningImportError(f"{NOT_AN_EVENING}: it is nested too deeply to be one.") from None
    except json.JSONDecodeError as error:
        raise EveningImportError(_parse_words(text, error)) from None
    except _NotJson as error:  # NaN, Infinity, a number longer than any an export holds
        raise EveningImportError(f"{NOT_AN_EVENING}: {error}") from None


NOT_AN_EVENING = "The file is not a Head Table evening"
"""How every refusal of a file that is not JSON begins (house rule: a host's words)."""

NOT_AN_EXPORT = f"{NOT_AN_EVENING} export: an export says “{SCHEMA}” at its start, this file does not."
"""What JSON that is not an evening export (another kind of file, another version) is told."""

NUMBER_DIGITS = 30  # house rule: an export's longest number, an id, has 19 digits


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


class _NotJson(ValueError):
    """What the JSON reader met that an export never holds, in a host's words."""


def _no_constant(name: str) -> Any:
    raise _NotJson(f"it holds {name}, which is not a number JSON allows.")


def _whole_number(digits: str) -> int:
    """A whole number from the file; raises ``_NotJson`` for one of more than ``NUMBER_DIGITS``
    digits (Python itself refuses 4,300 with its own words)."""
    if len(digits.lstrip("-")) > NUMBER_DIGITS:
        raise _NotJson(f"it holds a number of {len(digits.lstrip('-')):,} digits, longer than any an export holds.")
    return int(digits)


def _parse_words(text: str, error: json.JSONDecodeError) -> str:
    """Why ``text`` is not JSON, in a host's words: where it breaks off (the file ends too soon)
    or where the text stops being JSON, by line and column (never the parser's own words)."""
    place = f"line {error.lineno:,}, column {error.colno:,}"
    rest = text[error.pos :]
    if error.msg.startswith("Unterminated string") and "\n" not in rest:  # cut inside a text
        lines = text.splitlines() or [""]
        place = f"line {len(lines):,}, column {len(lines[-1]) + 1:,}"
        rest = ""
    if not rest.strip():
        return f"{NOT_AN_EVENING}: it breaks off at {place}, before its end (was it cut short?)."
    if error.msg == "Extra data":
        return f"{NOT_AN_EVENING}: it goes on after its end, at {place} (two files in one?)."
    if error.pos == 0 or not text[: error.pos].strip():
        return f"{NOT_AN_EVENING}: it is not JSON text at all (it cannot be read from {place})."
    return f"{NOT_AN_EVENING}: it stops being JSON at {place}."


def _site_formats() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """This site's installed formats' keys and their table games' values, now: what the
    schema's checks are built for (a cached check is kept per these, so one built before a
    format was installed never judges a file of it)."""
    return tuple(installed_formats()), tuple(value for value, _ in game_choices())


def _validator() -> jsonschema.protocols.Validator:
    """The export schema's validator for this site's formats (``_site_formats``); "integer"
    means a JSON whole number (not 1.0, not true)."""
    return _validator_for(*_site_formats())


@functools.cache
def _validator_for(formats: tuple[str, ...], games: tuple[str, ...]) -> jsonschema.protocols.Validator:
    """``_validator``'s validator, built once per process for these ``formats`` and ``games``."""
    schema = json.loads(resources.files("tournament.exchange").joinpath("export_schema.json").read_text("utf-8"))
    schema["$defs"]["evening"]["properties"]["format"]["enum"] = list(formats)  # this site's formats
    schema["$defs"]["evening"]["properties"]["game"] = {"enum": [*games, ""]}  # and their table games ("": none)
    base = jsonschema.Draft202012Validator
    base.check_schema(schema)
    types = base.TYPE_CHECKER.redefine("integer", lambda _checker, v: isinstance(v, int) and not isinstance(v, bool))
    return jsonschema.validators.extend(base, type_checker=types)(schema, format_checker=base.FORMAT_CHECKER)


def _compiled() -> jsonschema_rs.Validator:
    """The same schema (``_validator``'s, this site's formats in it) compiled by the maintained
    Rust validator ``jsonschema-rs``, built once per process and site formats; each "format"
    judged by ``jsonschema``'s own format checker, so both read a date alike."""
    return _compiled_for(*_site_formats())


@functools.cache
def _compiled_for(formats: tuple[str, ...], games: tuple[str, ...]) -> jsonschema_rs.Validator:
    """``_compiled``'s validator for these ``formats`` and ``games``."""
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    return jsonschema_rs.validator_for(
        _validator_for(formats, games).schema,
        validate_formats=True,
        formats={name: functools.partial(_conforms, checker, name) for name in checker.checkers},
    )


def _conforms(checker: jsonschema.FormatChecker, name: str, value: Any) -> bool:
    return checker.conforms(value, name)


def _valid_compiled(data: Any) -> bool:
    """Whether the compiled validator (``_compiled``) finds ``data`` valid; only for plain JSON
    (``_check_depth``). False, never an error, for what it cannot read (text with a lone
    surrogate): ``jsonschema`` then judges the file."""
    try:
        return _compiled().is_valid(data)
    except ValueError:
        return False


def export_schema() -> dict[str, Any]:
    """The export's JSON Schema (``tournament/exchange/export_schema.json``) as a dict."""
    return dict(_validator().schema)


_TYPE_WORDS = {
    "integer": "a whole number",
    "string": "text",
    "object": "a group of named values",
    "array": "a list",
    "boolean": "true or false",
    "null": "null",
}


def _schema_message(error: jsonschema.ValidationError) -> str:
    """One line for one schema error: the place in the file, then what is wrong there."""
    value, kind, expected, schema = error.instance, error.validator, error.validator_value, error.schema
    if kind == "const":
        return NOT_AN_EXPORT[:-1]
    if kind == "enum":
        said = f"{_shown(value)} is not {_choices_words(expected)}"
    elif kind == "type":
        wanted = [expected] if isinstance(expected, str) else expected
        said = f"{_shown(value)} is not {' or '.join(_TYPE_WORDS.get(t, t) for t in wanted)}"
    elif kind in ("minimum", "maximum"):
        said = (
            f"{_shown(value)} is {'less' if kind == 'minimum' else 'more'} than {expected:,}, the {kind[:3]}imum here"
        )
    elif kind == "maxLength":
        said = f"{len(value):,} characters is too long (at most {expected:,})"
    elif kind == "minLength":
        said = "it is empty"
    elif kind == "maxItems" or kind == "maxProperties":
        said = f"{len(value):,} items is too many (at most {expected:,})"
    elif kind == "minItems":
        said = f"{len(value)} items is too few (at least {expected})"
    elif kind == "required":
        missing = [_field_words(name) for name in expected if name not in value]
        said = f"it has no {' and no '.join(missing)}"
    elif kind == "additionalProperties":
        extra = [name for name in value if name not in schema.get("properties", {})]
        said = f"{_shown(extra[0]) if extra else 'a field'} is not a field a Head Table export has here"
    elif kind == "anyOf" and "description" not in schema and (types := _types_wanted(error)):
        said = f"{_shown(value)} is not {' or '.join(_TYPE_WORDS.get(t, 'what this holds') for t in types)}"
    elif kind in ("pattern", "format", "propertyNames") or "description" in schema:
        said = f"{_shown(value)} is not {schema.get('description', 'what this holds')}"
    else:  # jsonschema's own message quotes Python's reprs: never shown
        said = f"{_shown(value)} is not what a Head Table export holds here"
    return f"{where(error.absolute_path)}: {said}"


def _types_wanted(error: jsonschema.ValidationError) -> list[str]:
    """The JSON types the branches of an ``anyOf`` ask for ("integer", "null"), each once."""
    wanted: list[str] = []
    for branch in error.validator_value:
        kinds = branch.get("type", []) if isinstance(branch, dict) else []
        for kind in [kinds] if isinstance(kinds, str) else kinds:
            if kind not in wanted:
                wanted.append(kind)
    return wanted


def _choices_words(values: list[Any]) -> str:
    """The values an ``enum`` allows, as a host reads them: each by its name where the site has
    one ("Draw Poker" for ``draw_poker``), else as written ("red or blue"); a long list is not
    spelled out."""
    names = _choice_names()
    shown = [names.get(value, value.replace("_", " ")) if isinstance(value, str) else _shown(value) for value in values]
    if len(shown) > 8:
        return "one of the values a Head Table export holds here"
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _choice_names() -> dict[str, str]:
    """The table games and formats by the names a host reads ("Draw Poker" for ``draw_poker``),
    and no game ("") as "no game"; any other stored value is read as written, its underscores
    made spaces ("head pool"). Kept per this site's formats (``_site_formats``)."""
    return _choice_names_for(*_site_formats())


@functools.cache
def _choice_names_for(formats: tuple[str, ...], games: tuple[str, ...]) -> dict[str, str]:
    """``_choice_names`` for these ``formats`` and ``games`` (the cache's key)."""
    return {"": "no game", **{value: f"“{label}”" for value, label in [*game_choices(), *format_choices()]}}


def export_check(data: Any) -> None:
    """Check a whole export before anything is saved: the schema, then every guest reference.

    Raises ``EveningImportError`` with the first problem (the most relevant one the validator
    finds) and how many more there are. Returns nothing when the file may be imported. A file
    the compiled validator passes (``_valid_compiled``: the same schema, in a few milliseconds)
    is not walked again by ``jsonschema`` (150 ms for 500 guests); any other file is, and the
    message is ``jsonschema``'s verdict.
    """
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise EveningImportError(NOT_AN_EXPORT)
    if _check_depth(data) and _valid_compiled(data):
        _check_references(data)
        return
    errors = list(itertools.islice(_validator().iter_errors(data), 100))
    if errors:
        best = jsonschema.exceptions.best_match(errors)
        more = len(errors) - 1
        tail = f" (and {more}{'+' if len(errors) == 100 else ''} more problem{'s' if more > 1 else ''})" if more else ""
        raise EveningImportError(_schema_message(best) + tail + ".")
    _check_references(data)


MAX_DEPTH = 12  # the export's own structure is 7 levels deep (rounds[].bells[].entries[].kind)
_SCALARS = frozenset({str, int, bool, type(None)})  # what json.loads makes, floats aside


def _check_depth(data: Any) -> bool:
    """Refuse JSON nested deeper than ``MAX_DEPTH`` before the validator (which recurses) sees it;
    walks level by level without recursion, so any depth is safe. Returns whether ``data`` is
    plain JSON as ``json.loads`` makes it, without a number with a fraction or an exponent (only
    dicts with text keys, lists, text, whole numbers, true, false and null): the documents
    ``_valid_compiled`` may judge (the schema has no "number" anywhere, so a float is wrong
    wherever the schema looks, and jsonschema-rs would count 1.0 as a whole number)."""
    level, keys, plain = [data], [], True
    for depth in range(MAX_DEPTH + 2):
        if not level:
            break
        if depth > MAX_DEPTH:
            _refuse_too_deep(data)
        below: list[Any] = []
        for value in level:
            kind = type(value)
            if kind is dict:
                keys.extend(value)
                below.extend(value.values())
            elif kind is list:
                below.extend(value)
            elif kind not in _SCALARS:
                plain = False
                if isinstance(value, dict):
                    below.extend(value.values())
                elif isinstance(value, list):
                    below.extend(value)
        level = below
    return plain and set(map(type, keys)) <= {str}


def _refuse_too_deep(data: Any) -> None:
    """Raise ``EveningImportError`` naming the first place nested deeper than ``MAX_DEPTH``."""
    stack: list[tuple[Any, list[Any]]] = [(data, [])]
    while stack:
        value, place = stack.pop()
        if len(place) > MAX_DEPTH:
            raise EveningImportError(
                f"{where(place)}: nested too deeply, an evening export is at most {MAX_DEPTH} levels deep."
            )
        if isinstance(value, dict):
            stack.extend((item, [*place, str(key)]) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, [*place, index]) for index, item in enumerate(value))


def _references(data: dict[str, Any]) -> Iterator[tuple[list[Any], int]]:
    """Every guest id the file refers to, with its place in the file."""
    for d, draw in enumerate(data["draws"]):
        for c, card in enumerate(draw["cards"]):
            yield ["draws", d, "cards", c, "guest"], card["guest"]
    for r, rnd in enumerate(data["rounds"]):
        for x, res in enumerate(rnd["results"]):
            place = ["rounds", r, "results", x]
            for key in ("pool_winner", "reported_by_guest"):
                if res.get(key) is not None:
                    yield [*place, key], res[key]
            for key in ("in_call", "tied"):
                for i, guest in enumerate(res.get(key, ())):
                    yield [*place, key, i], guest
            for key in res["counters"]:
                yield [*place, "counters", key], int(key)
            for v, vote in enumerate(res.get("votes", ())):
                yield [*place, "votes", v, "guest"], vote["guest"]
        for b, bell in enumerate(rnd["bells"]):
            for e, entry in enumerate(bell["entries"]):
                yield ["rounds", r, "bells", b, "entries", e, "guest"], entry["guest"]
    for c, count in enumerate(data.get("final_counts", ())):
        for key in count["counters"]:
            yield ["final_counts", c, "counters", key], int(key)
    for p, prize in enumerate(data.get("prizes", ())):
        for w, winner in enumerate(prize.get("winners") or ()):
            if isinstance(winner, int) and not isinstance(winner, bool):
                yield ["prizes", p, "winners", w], winner


def _check_references(data: dict[str, Any]) -> None:
    """Guest ids and names are unique, every reference is a listed guest, a result sent from a
    scorer's link names a listed scorer's link (``helper_links.helper_links_check``), every
    card's table is in its draw's plan, no fewer rounds are planned than were played
    (``rounds_too_few``, the clock's rule), round numbers are unique, a leave/arrive bell has
    its guest."""
    ids: dict[int, int] = {}
    names: dict[str, int] = {}
    for i, guest in enumerate(data["guests"]):
        if guest["id"] in ids:
            raise EveningImportError(
                f"{where(['guests', i, 'id'])}: {guest['id']} is also the number of guest {ids[guest['id']] + 1} "
                "in the file."
            )
        ids[guest["id"]] = i
        key = Guest.fold_name(guest["name"])
        if key in names:
            raise EveningImportError(
                f"{where(['guests', i, 'name'])}: {_shown(guest['name'])} is also the name of guest "
                f"{names[key] + 1} in the file."
            )
        names[key] = i
    fmt = format_named(data["evening"].get("format") or default_format())
    for place, guest in [*_references(data), *fmt.import_references(data)]:
        if place[0] == "prizes" and is_ghost(guest):
            raise EveningImportError(f"{where(place)}: {ghost_name(guest)} is a ghost, and a ghost wins no prize.")
        if guest not in ids:
            raise EveningImportError(f"{where(place)}: no guest in the file's guest list has the number {guest}.")
    helper_links_check(data)
    for d, draw in enumerate(data["draws"]):
        ranks = fmt.card_ranks(len(draw["sizes"]))
        for c, card in enumerate(draw["cards"]):
            if card["rank"] > ranks:
                raise EveningImportError(
                    f"{where(['draws', d, 'cards', c, 'rank'])}: {card['rank']} is not a table of this draw "
                    f"(1 to {ranks})."
                )
    played = sum(rnd["state"] not in OPEN_STATES for rnd in data["rounds"])
    refused = rounds_too_few(data["evening"].get("rounds_planned"), played)  # the clock's and settings' rule
    if refused:
        raise EveningImportError(f"{where(['evening', 'rounds_planned'])}: {refused}")
    numbers = [rnd["number"] for rnd in data["rounds"]]
    for r, number in enumerate(numbers):
        if numbers.index(number) != r:
            raise EveningImportError(f"{where(['rounds', r, 'number'])}: round {number} is there twice.")
        for b, bell in enumerate(data["rounds"][r]["bells"]):
            kind = bell.get("kind", "bell")
            if kind != "bell" and not bell.get("record") and not any(e["kind"] == kind for e in bell["entries"]):
                what = {"leave": "guest leaving", "arrive": "guest arriving", "seat": "seat change"}.get(kind, "step")
                raise EveningImportError(
                    f"{where(['rounds', r, 'bells', b])}: a {what} without a line saying who (its {what} line)."
                )


def evening_import(*, data: Any, host) -> Evening:
    """Create a new evening for ``host`` from an export (the parsed JSON); returns it, named
    as a copy ("Friday club (imported)": ``imported_name``).

    The whole document is checked first (``export_check``); then one transaction saves it,
    each row checked as ``full_clean`` checks it (``rows._checked``), and replays every live bell. Raises ``EveningImportError``
    naming the place in the file and what is wrong there (another schema, a value out of
    range, a guest id that is not in the guest list, a bell whose replay differs); nothing is
    saved then.
    """
    export_check(data)
    try:
        with transaction.atomic(), rows_checked_in_python():
            return _import(data, host)
    except EveningImportError:
        raise
    except RuleError as error:  # the rules' own words, about the evening the file holds
        raise EveningImportError(f"The file's evening cannot be played again by the rules: {error}") from None
    except (InvariantBroken, LookupError, TypeError, ValueError, ArithmeticError, AttributeError):
        # Python's own words name its types and the file's keys: a host is told what to do instead.
        raise EveningImportError(REPLAY_REFUSED) from None


REPLAY_REFUSED = (
    "The file's evening cannot be played again by the rules: something in its draw, rounds or bells is not "
    "as Head Table writes it (was the file edited by hand?). Export the evening again from its own site."
)
"""What a file whose play cannot be replayed is told when no rule names the reason."""


def _options(info: dict[str, Any]) -> dict[str, Any]:
    """The evening's stored options, each group checked by the format that keeps it
    (``FormatPlugin.stored_option_checks``: the evening's own format's checks, then any other
    installed format's for a group only it keeps). Raises ``EveningImportError`` naming the
    group, for a value its rules refuse or a group no installed format keeps."""
    options = info.get("options") or {}
    own = format_named(info.get("format", default_format()))
    checks: dict[str, Any] = {}
    for plugin in [*installed_formats().values(), own]:
        checks.update(plugin.stored_option_checks(info))
    for group, values in options.items():
        place = where(["evening", "options", group])
        if group not in checks:
            raise EveningImportError(f"{place}: no format of this site keeps house rules of this kind.")
        try:
            checks[group](dict(values))
        except RuleError as error:
            raise EveningImportError(f"{place}: {error}") from None
    return options


IMPORTED = " (imported)"
"""What an imported copy's name says it is, after the original's name (house rule, below)."""


def imported_name(name: str, host) -> str:
    """The name an imported copy of an evening named ``name`` takes among ``host``'s evenings:
    "<name> (imported)", or "<name> (imported 2)", 3 ... when the host already has an evening so
    named, the original's name shortened (at a word where it can) so the whole fits the
    120 characters of an evening's name. House rule (found by a new host trying the product: a
    copy named as its original could not be told from it in the evenings list). A blank name,
    or one already longer than 120 characters, is left as it is, for the evening's own check
    to refuse (``evening.name``). Returns the name; raises nothing."""
    limit = Evening._meta.get_field("name").max_length or 120
    if not name or len(name) > limit:
        return name
    taken = set(Evening.objects.filter(host=host).values_list("name", flat=True))
    for number in itertools.count(1):
        tail = IMPORTED if number == 1 else f"{IMPORTED[:-1]} {number})"
        room = limit - len(tail)
        head = name if len(name) <= room else (name[:room].rsplit(" ", 1)[0] if " " in name[:room] else name[:room])
        if (candidate := f"{head.rstrip()}{tail}") not in taken:
            return candidate
    raise AssertionError("unreachable")  # itertools.count never ends


def _evening_and_guests(data: dict[str, Any], host) -> tuple[Evening, dict[int, Guest]]:
    info = data["evening"]
    evening = _saved(
        Evening(  # names and labels stripped, as the evening form strips them; the name says "imported"
            host=host,
            name=imported_name(info["name"].strip(), host),
            date=datetime.date.fromisoformat(info["date"]),
            game=info["game"],
            format=info.get("format", default_format()),
            options=_options(info),
            prize_seed=info.get("prize_seed", ""),
            counters_per_stake=info["counters_per_stake"],
            minutes_per_round=info["minutes_per_round"],
            rounds_planned=info.get("rounds_planned"),
            round_end=info.get("round_end", Evening.RoundEnd.CLOCK),
            stage=info["stage"],
            ended_at=_time(info.get("ended_at"), ["evening", "ended_at"]),
            ceremony_step=info.get("ceremony_step"),
            red_label=data["packs"]["red"].strip(),
            blue_label=data["packs"]["blue"].strip(),
            counter_value=info.get("counter_value"),
        ),
        ["evening"],
        {"red_label": ["packs", "red"], "blue_label": ["packs", "blue"]},
    )
    guests = {}
    for i, row in enumerate(data["guests"]):
        name = normal_name(row["name"])  # as Guest.save() sets them (an insert does not call it)
        guests[row["id"]] = _checked(
            Guest(
                evening=evening,
                name=name,
                name_key=Guest.fold_name(name),
                pack=row["pack"],
                contact=row.get("contact", "").strip(),  # as the guest form strips it
                status=row["status"],
            ),
            ["guests", i],
        )
    _all_saved(list(guests.values()))
    return evening, guests


def _draws(data: dict[str, Any], evening: Evening, gid) -> tuple[Draw, dict[str, Any]] | None:
    """Save every draw and its cards; returns the live draw (the one complete and not superseded,
    as ``services.draws.live_draw``) and its row, or None. Beside it, one physical draw being
    recorded (not complete, not superseded) may be open, as on the draw page. Raises
    ``EveningImportError`` for a second live draw or a second open one."""
    live = None
    open_physical: int | None = None
    for d, row in enumerate(data["draws"]):
        draw = _saved(
            Draw(
                evening=evening,
                kind=row["kind"],
                sizes=row["sizes"],
                relaxed=row.get("relaxed", ""),
                complete=row.get("complete", True),
                superseded_at=_time(row.get("superseded_at"), ["draws", d, "superseded_at"]),
            ),
            ["draws", d],
        )
        cards = [
            _checked(
                DrawnCard(
                    draw=draw, guest_id=gid(card["guest"]), pack=card["pack"], rank=card["rank"], seat=card.get("seat")
                ),
                ["draws", d, "cards", c],
            )
            for c, card in enumerate(row["cards"])
        ]
        _all_saved(cards)
        if row.get("superseded_at") is not None:
            continue
        if not row.get("complete", True):  # a physical draw being recorded: the draw in force stays
            if row["kind"] != Draw.Kind.PHYSICAL or open_physical is not None:
                raise EveningImportError(
                    f"{where(['draws', d])}: a second draw being recorded that is not superseded; only one "
                    "physical draw is recorded at a time."
                )
            open_physical = d
            continue
        if live is not None:
            raise EveningImportError(
                f"{where(['draws', d])}: a second draw that is not superseded; only one draw is live."
            )
        live = (draw, row)
    return live


def _import(data: dict[str, Any], host) -> Evening:
    evening, guests = _evening_and_guests(data, host)
    helper_links_saved(data, evening)  # before the play: its results name the scorers' links

    def gid(old: int) -> int:
        return guests[old].pk

    live = _draws(data, evening, gid)
    if live is None:
        return evening
    draw, row = live
    format_for(evening).import_check_draw(data, row)
    format_for(evening).import_play(data=data, evening=evening, draw=draw, row=row, gid=gid, host=host)
    return evening
