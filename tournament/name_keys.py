"""A guest's name as it is stored, compared and searched (issue 24 deliver 3).

The same name typed on two keyboards may differ in its characters: "Zoë" with a composed ë
(U+00EB) or with e and a combining diaeresis (U+0065 U+0308) look the same and are the same
name. Three forms of a name, one rule each:

* ``normal_name``: how a name is stored, whatever way it came in: Unicode NFC (composed, the
  form the W3C recommends for text on the web), trimmed, inner runs of spaces one space.
* ``fold_name``: how "already registered" compares two names: the normal name case-folded
  (``str.casefold``, Unicode's caseless matching: "STRASSE" = "straße"), in NFC again.
* ``likeness_key`` and ``name_found``: how a search and the near-duplicate check compare names,
  ignoring case and accents. Accents come off by Unicode decomposition (NFKD, combining
  marks dropped: "Ångström" -> "angstrom", "Ngozi Adébáyọ̀" -> "ngozi adebayo"); letters that
  do not decompose ("ł", "ø", "đ") and other scripts are written in ASCII by the maintained
  ``anyascii`` library (ISC licence; Unidecode is GPL, text-unidecode unmaintained since 2019),
  so "lodz" finds "Łódź" and "ivanova" finds "Мария Иванова".
* ``name_order``: the one key every alphabetical list of names sorts by (the guests list, the
  door, the links, the draw's cards, standings' ties, the printed documents, a club's roster),
  the Unicode Collation Algorithm (UTS #10, its default table, through the ``pyuca`` library:
  pure Python, MIT licence, no system library): accents and case count after the letters
  ("Éléonore" among the E's, before "Seán Ó Briain"; "Øyvind" among the O's), each script's
  names together in the Unicode order of scripts (Latin, Greek, Cyrillic, Hebrew, Arabic, ...,
  Chinese characters), as the guests list's letter bar groups them (``name_initial``).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from anyascii import anyascii
from pyuca import Collator


def normal_name(text: str) -> str:
    """``text`` in NFC with spaces trimmed and inner runs of white space made one space."""
    return " ".join(unicodedata.normalize("NFC", text or "").split())


def fold_name(text: str) -> str:
    """The name as compared for "already registered": ``normal_name``, case-folded, in NFC
    ("Zoë  MARTIN" typed either way -> "zoë martin")."""
    return unicodedata.normalize("NFC", normal_name(text).casefold())


def bare_name(text: str) -> str:
    """The folded name without its accents (decomposed, combining marks dropped): "Núñez" ->
    "nunez"; a script without accents is kept as it is ("李明")."""
    decomposed = unicodedata.normalize("NFKD", fold_name(text))
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


def ascii_name(text: str) -> str:
    """``bare_name`` written in ASCII by ``anyascii`` and case-folded ("Łódź" -> "lodz",
    "Мария" -> "mariya"); a name it has no letters for gives ""."""
    return anyascii(bare_name(text)).casefold()


def likeness_key(text: str) -> str:
    """Two names with the same key are the same name apart from case, accents or spacing
    ("José Núñez", "Jose  Nunez", "JoseNunez"): the ASCII name without spaces, or the bare
    name without spaces when ASCII has no letters for it. House rule (issue 24): such a name
    is a near-duplicate, which the host confirms before it is added."""
    ascii_only = "".join(ascii_name(text).split())
    return ascii_only if any(ch.isalnum() for ch in ascii_only) else "".join(bare_name(text).split())


def name_found(query: str, name: str) -> bool:
    """True when every word of ``query`` appears in ``name``, case and accents ignored and any
    part of the name matching: "muller" and "MÜLL" find "Anna Müller", "ngozi adebayo" finds
    "Ngozi Adébáyọ̀", "sm ann" finds "Anne Smith". A word typed in ASCII also matches the
    name written in ASCII ("lodz" finds "Łódź"); a word in another script matches it as
    written, accents aside ("李" finds "李明", not "Lisa"). An empty query finds every name."""
    bare, written = bare_name(name), None
    for word in bare_name(query).split():
        if word in bare:
            continue
        if word.isascii():
            written = written if written is not None else ascii_name(name)
            if word in written:
                continue
        return False
    return True


@lru_cache(maxsize=1)
def _collator() -> Collator:
    """The Unicode Collation Algorithm's collator with its default table (made once: it reads
    the table, about 0.1 s)."""
    return Collator()


@lru_cache(maxsize=8192)
def name_order(name: str) -> tuple[tuple[int, ...], str]:
    """The key an alphabetical list of names sorts by (module docstring): the name's sort key
    by the Unicode Collation Algorithm (``pyuca``; "Ángel" among the A's, "Éléonore" before
    "Seán Ó Briain", "anne" just before "Anne", Latin names before Greek, Cyrillic, Hebrew,
    Arabic and Chinese ones), then the stored name itself, so names the algorithm holds equal
    still sort one way. A list of guests adds the guest's id after it (two guests may not share
    a name, but a list may hold a guest who left). Remembered per process for the last 8,192
    names (a pure function of the name: the room display and the boards sort 500 names several
    times a page; issue 26 item 3)."""
    normal = normal_name(name)
    return tuple(_collator().sort_key(normal)), normal


SCRIPT_WORDS = {"CJK": "Chinese characters", "HANGUL": "Korean", "HIRAGANA": "Japanese", "KATAKANA": "Japanese"}
"""A script's name for a host where Unicode's first word is not it (``name_initial``)."""
OTHER = "Other"
"""The group of names whose first character is no letter (an emoji, a digit)."""


@lru_cache(maxsize=8192)
def name_initial(name: str) -> tuple[str, str]:
    """(initial, script) of a name, as the guests list's letter bar offers it: the first letter
    of the name folded as the list sorts it, in its own script. A name in Latin letters gives
    its letter in ASCII, as ``name_order`` sorts it ("Éléonore" and "Ærøskøbing" -> E and A,
    "Łucja" -> L, "Øyvind" -> O): ("E", "Latin"). A name in another script gives its own first
    letter, case-folded, accents off, capital where the script has capitals ("Мария" ->
    ("М", "Cyrillic"), "Ἀθηνᾶ" -> ("Α", "Greek"), "שרה" -> ("ש", "Hebrew"), "李明" ->
    ("李", "Chinese characters")), so a guest is found under the letter their name starts
    with; the script tells Latin M from Cyrillic М. A name with no letter first gives its
    first character and ``OTHER``. House rule (a new host's find: Greek, Cyrillic, Hebrew and
    CJK initials were missing from an A–Z bar). Remembered per process like ``name_order``."""
    bare = bare_name(name)
    first = bare[:1]
    if not first.isalpha():
        return (normal_name(name)[:1] or "?"), OTHER
    script = unicodedata.name(first, "").split(" ")[0]
    if script == "LATIN":
        written = anyascii(first)[:1]
        return (written.upper() if written.isalpha() else first.upper()), "Latin"
    return first.upper(), SCRIPT_WORDS.get(script, script.title())


def initial_order(initial: str, script: str) -> tuple[int, str]:
    """The letter bar's order of an initial of ``script`` (``name_initial``): Latin first, then
    each script in Unicode's order of its letters (Greek, Cyrillic, Hebrew, Arabic, ...,
    Chinese characters, Korean), names with no letter first last; within a script, its letters
    in Unicode's order (the alphabet's, for Greek, Cyrillic, Hebrew and Arabic)."""
    return (0 if script == "Latin" else 2 if script == OTHER else 1), initial
