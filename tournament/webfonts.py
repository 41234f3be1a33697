"""The web fonts for the scripts Noto Sans does not cover, and the stylesheet that declares them
(issue 24 item 7: "the site brings its own fonts").

``static/fonts.css`` ships Noto Sans (Latin, Greek, Cyrillic). This module writes
``static/fonts-scripts.css`` and ``static/fonts/<folder>/`` for the scripts of the names the
printed documents already cover (``tournament/printing/fonts.py``): Arabic, Hebrew, Devanagari,
Thai, Chinese, Japanese and Korean, each from Fontsource's npm package
``@fontsource-variable/<folder>`` at the version pinned in ``SCRIPTS``, unchanged: the WOFF2
files of the variable weight axis (``wght``, 100 to 900, one file for the 400, 600, 700 and 800
the pages use), split by ``unicode-range`` so that a browser fetches only the files the text of
a page needs. Only each package's own script is shipped (its Latin, Cyrillic or Vietnamese
subsets duplicate Noto Sans, which comes first in the family stack; Arabic's math and symbols
subsets are not names); the CJK packages' numbered subsets (characters in slices by how often
they are used) are shipped whole, about 14 MB, under the ~25 MB the house allows.

One choice is the site's own: a Chinese character is in all three CJK fonts and CSS picks the
font per character, never per name, so the stack is Simplified Chinese, Japanese, Korean (Han
characters drawn as in Chinese, the printing's rule for text without kana or Hangul), and the
Simplified Chinese faces are declared without the kana (``KANA``), so kana always come from
the Japanese font. Hangul is only in the Korean font. A Japanese name mixing kanji and kana
therefore draws its kanji with the Chinese font's shapes, where the printing would use the
Japanese ones (house rule: per character on the web, per run of text in print).

Upgrading: change a version in ``SCRIPTS`` and run ``make web-fonts`` (``python -m
tournament.webfonts FOLDER``: ``npm pack`` of each package into FOLDER, then this module). Plain
Python, no Django: it only reads the packages and writes files.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"
STYLESHEET = "fonts-scripts.css"

# Hiragana, Katakana, Katakana Phonetic Extensions, halfwidth Katakana: never from the Chinese font.
KANA: tuple[tuple[int, int], ...] = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0xFF65, 0xFF9F))
# Hangul Jamo, Compatibility Jamo, Jamo Extended-A and -B, syllables, halfwidth: only from the Korean font.
HANGUL: tuple[tuple[int, int], ...] = (
    (0x1100, 0x11FF),
    (0x3130, 0x318F),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7FF),
    (0xFFA0, 0xFFDC),
)


@dataclass(frozen=True, slots=True)
class Script:
    """One Fontsource package: its ``folder`` (``noto-sans-arabic``: the package is
    ``@fontsource-variable/<folder>``, the files go to ``static/fonts/<folder>/``), the pinned
    npm ``version``, the script in words (``covers``), the ``subsets`` shipped (names from the
    package's file names; ``()``: every numbered subset) and the code points its faces are
    declared without (``without``: ranges, inclusive)."""

    folder: str
    version: str
    covers: str
    subsets: tuple[str, ...] = ()
    without: tuple[tuple[int, int], ...] = ()

    @property
    def package(self) -> str:
        """The npm package's name, ``@fontsource-variable/<folder>``."""
        return f"@fontsource-variable/{self.folder}"

    def ships(self, subset: str) -> bool:
        """Whether the package's subset ``subset`` ("arabic", "latin", "0".."119") is shipped."""
        return subset in self.subsets if self.subsets else subset.isdigit()


# In the order of the family stack, after Noto Sans (static/headtable.css's font-family).
SCRIPTS: tuple[Script, ...] = (
    Script("noto-sans-arabic", "5.3.0", "Arabic", ("arabic",)),
    Script("noto-sans-hebrew", "5.3.0", "Hebrew", ("hebrew",)),
    Script("noto-sans-devanagari", "5.3.0", "Devanagari (Hindi, Marathi, Nepali)", ("devanagari",)),
    Script("noto-sans-thai", "5.3.0", "Thai", ("thai",)),
    Script(
        "noto-sans-sc", "5.3.1", "Chinese (Simplified), the Han characters of every CJK name", without=KANA + HANGUL
    ),
    Script("noto-sans-jp", "5.3.1", "Japanese (kana, and kanji the Chinese font lacks)", without=HANGUL),
    Script("noto-sans-kr", "5.3.1", "Korean (Hangul)"),
    Script("noto-emoji", "5.3.1", "Emoji, in black and white (as the printed documents draw them)"),
)

FACE = re.compile(r"@font-face\s*\{(?P<body>[^}]*)\}")
FIELD = re.compile(r"(?P<key>[a-z-]+)\s*:\s*(?P<value>[^;]+);")


@dataclass(frozen=True, slots=True)
class Face:
    """One ``@font-face`` rule of a package's ``wght.css``: the CSS ``family`` name, the WOFF2
    ``file`` name (in the package's ``files/``), its ``subset`` (from the file name) and its
    ``ranges`` (code points, inclusive pairs, in the package's order)."""

    family: str
    file: str
    subset: str
    ranges: tuple[tuple[int, int], ...]


def parse_ranges(text: str) -> tuple[tuple[int, int], ...]:
    """``"U+0600-06FF,U+200C"`` -> ``((0x600, 0x6FF), (0x200C, 0x200C))``. Raises
    ``ValueError`` for anything else (a wildcard ``U+4??``, which Fontsource does not write)."""
    ranges = []
    for part in text.split(","):
        low, _, high = part.strip().removeprefix("U+").removeprefix("u+").partition("-")
        ranges.append((int(low, 16), int(high or low, 16)))
    return tuple(ranges)


def write_ranges(ranges: tuple[tuple[int, int], ...]) -> str:
    """The CSS ``unicode-range`` value of ``ranges`` (inclusive pairs): ``U+0600-06FF,U+200C``."""
    return ",".join(f"U+{low:04X}" if low == high else f"U+{low:04X}-{high:04X}" for low, high in ranges)


def without(ranges: tuple[tuple[int, int], ...], cut: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """``ranges`` less every code point of ``cut`` (both inclusive pairs), in ``ranges``' order:
    ``without(((0x3000, 0x30FF),), ((0x3040, 0x30FF),)) == ((0x3000, 0x303F),)``."""
    left = list(ranges)
    for cut_low, cut_high in cut:
        pieces = []
        for low, high in left:
            if high < cut_low or low > cut_high:
                pieces.append((low, high))
                continue
            if low < cut_low:
                pieces.append((low, cut_low - 1))
            if high > cut_high:
                pieces.append((cut_high + 1, high))
        left = pieces
    return tuple(left)


def faces(css: str, folder: str) -> list[Face]:
    """The ``@font-face`` rules of the package ``folder``'s ``wght.css`` text ``css``, in order.
    Raises ``ValueError`` when a rule lacks a family, a WOFF2 source or a unicode-range, or its
    file is not named ``<folder>-<subset>-wght-normal.woff2``."""
    found = []
    for rule in FACE.finditer(css):
        fields = {m["key"]: m["value"].strip() for m in FIELD.finditer(rule["body"])}
        source = re.search(r"url\((?:\./files/)?([^)]+\.woff2)\)", fields.get("src", ""))
        if not source or "font-family" not in fields or "unicode-range" not in fields:
            raise ValueError(f"{folder}: a @font-face without a family, a WOFF2 file or a unicode-range: {rule[0]!r}")
        name = source[1]
        subset = re.fullmatch(rf"{re.escape(folder)}-(.+)-wght-normal\.woff2", name)
        if not subset:
            raise ValueError(f"{folder}: the file {name} is not named {folder}-<subset>-wght-normal.woff2")
        found.append(Face(fields["font-family"].strip("'\""), name, subset[1], parse_ranges(fields["unicode-range"])))
    return found


def rule(face: Face, folder: str) -> str:
    """The stylesheet's one-line ``@font-face`` for ``face`` (its file in ``fonts/<folder>/``),
    as Fontsource writes it (swap, the weight axis 100 900)."""
    return (
        f"@font-face{{font-family:'{face.family}';font-style:normal;font-display:swap;font-weight:100 900;"
        f"src:url(fonts/{folder}/{face.file}) format('woff2-variations');unicode-range:{write_ranges(face.ranges)}}}"
    )


def shipped(script: Script, package: Path) -> list[Face]:
    """The faces of ``script`` read from its unpacked npm ``package`` folder (``wght.css``),
    those it ships, less its ``without`` code points (a face left with none is dropped).
    Raises ``ValueError`` when the package is another one or another version, or a file is
    missing or not WOFF2."""
    meta = json.loads((package / "package.json").read_text())
    if (meta["name"], meta["version"]) != (script.package, script.version):
        raise ValueError(f"{package}: {meta['name']} {meta['version']}, not {script.package} {script.version}")
    kept = []
    for face in faces((package / "wght.css").read_text(), script.folder):
        if not script.ships(face.subset):
            continue
        if (package / "files" / face.file).read_bytes()[:4] != b"wOF2":
            raise ValueError(f"{package}: files/{face.file} is not a WOFF2 file")
        ranges = without(face.ranges, script.without)
        if ranges:
            kept.append(Face(face.family, face.file, face.subset, ranges))
    return kept


HEADER = """/* The site's fonts for the scripts Noto Sans (fonts.css) lacks (issue 24 item 7): {names}.
   Written by tournament/webfonts.py (`make web-fonts`) from Fontsource's npm packages, unchanged
   WOFF2 files of the variable weight axis (100 to 900) in static/fonts/<package>/, SIL Open Font
   License 1.1 (their OFL.txt). The browser fetches only the files a page's text needs
   (unicode-range). The Chinese faces leave out the kana, which come from the Japanese font, and
   the Chinese and Japanese ones the Hangul, which comes from the Korean font (tournament/webfonts.py explains the order of the family stack in static/headtable.css). */
"""

README = """# {family} for the site's pages

{about}

Written by `tournament/webfonts.py`. To upgrade, change the version in its `SCRIPTS` and run

    make web-fonts

(`npm pack` of each package into a folder under /tmp, then `python -m tournament.webfonts`
there), then `tests/test_fonts.py` and `tests/test_fonts_browser.py`.
"""


def write(packages: dict[str, Path], static: Path = STATIC) -> int:
    """Copy each script's shipped files, its licence and a README into ``static/fonts/<folder>/``
    (emptied first) and write ``static/fonts-scripts.css``. ``packages``: folder -> unpacked
    npm package (each of ``SCRIPTS``). Returns the bytes of WOFF2 written. Raises ``ValueError``
    as ``shipped`` does, ``KeyError`` when a script's package is missing."""
    rules, total = [], 0
    for script in SCRIPTS:
        package = packages[script.folder]
        kept = shipped(script, package)
        target = static / "fonts" / script.folder
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        for face in kept:
            total += shutil.copyfile(package / "files" / face.file, target / face.file).stat().st_size
        shutil.copyfile(package / "LICENSE", target / "OFL.txt")
        numbered = all(face.subset.isdigit() for face in kept)
        what = (
            f"its {len(kept)} numbered subsets (its characters in slices), its Latin, Cyrillic and Vietnamese ones left to Noto Sans"
            if numbered
            else f"the `{'`, `'.join(f.subset for f in kept)}` subset only (Latin and the rest come from Noto Sans)"
        )
        if script.without:
            left = " and ".join(
                words
                for cut, words in ((KANA, "the kana (from Noto Sans JP)"), (HANGUL, "Hangul (from Noto Sans KR)"))
                if set(cut) <= set(script.without)
            )
            what += f"; its faces are declared without {left} (tournament/webfonts.py)"
        family = kept[0].family.removesuffix(" Variable")
        about = (
            f"The WOFF2 files here are those of the npm package `{script.package}`\N{NO-BREAK SPACE}{script.version} (Fontsource's "
            f"packaging of {family}: {script.covers}; the variable weight axis 100–900, upright), unchanged: {what}. "
            "`OFL.txt` is the package's licence, the SIL Open Font License 1.1. `static/fonts-scripts.css` declares "
            "them with the package's `unicode-range`s, so a browser fetches only the files a page's text needs; "
            "`static/headtable.css` names the family after Noto Sans (`static/fonts/noto-sans/`)."
        )
        (target / "README.md").write_text(
            README.format(
                family=family, about=textwrap.fill(about, 96, break_on_hyphens=False).replace("\N{NO-BREAK SPACE}", " ")
            )
        )
        rules += [rule(face, script.folder) for face in kept]
    names = ", ".join(s.covers.split(" (")[0].split(",")[0] for s in SCRIPTS)
    (static / STYLESHEET).write_text(HEADER.format(names=names) + "\n".join(rules) + "\n")
    return total


def fetch(folder: Path) -> dict[str, Path]:
    """``npm pack`` each of ``SCRIPTS`` at its version into ``folder`` (unless the tarball is
    there) and unpack it into ``folder/<folder>/``; returns folder -> unpacked package. Raises
    ``subprocess.CalledProcessError`` when npm fails (offline, a version that does not exist)."""
    folder.mkdir(parents=True, exist_ok=True)
    packages = {}
    for script in SCRIPTS:
        tarball = folder / f"fontsource-variable-{script.folder}-{script.version}.tgz"
        if not tarball.exists():
            subprocess.run(["npm", "pack", f"{script.package}@{script.version}"], cwd=folder, check=True)
        unpacked = folder / script.folder
        shutil.rmtree(unpacked, ignore_errors=True)
        with tarfile.open(tarball) as archive:
            archive.extractall(unpacked, filter="data")
        packages[script.folder] = unpacked / "package"
    return packages


def main(argv: list[str]) -> int:
    """``python -m tournament.webfonts FOLDER``: fetch the packages into FOLDER, write the
    fonts; prints the bytes written. Returns the exit status (2: no FOLDER)."""
    if len(argv) != 1:
        print("usage: python -m tournament.webfonts FOLDER  (a scratch folder for the npm packages)", file=sys.stderr)
        return 2
    total = write(fetch(Path(argv[0])))
    print(f"{STATIC / STYLESHEET}: {len(SCRIPTS)} families, {total:,} bytes of WOFF2")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
