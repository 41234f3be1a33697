"""Reading a printed PDF back as a reader that honours ``/ActualText`` does (Acrobat, PDFium).

Shaped text (Arabic joining forms, Indic conjuncts and reordered vowels, right-to-left runs
drawn in visual order) does not spell the name glyph by glyph, so the renderers wrap each such
line in a marked-content span carrying the logical text as ``/ActualText`` (ISO 32000-1
§14.9.4). pdfminer (under pdfplumber) and pypdf ignore such spans, so this reader, built on
pdfminer's content-stream interpreter, does what the standard says: inside a span the span's
text replaces the glyphs; outside, each glyph is mapped through the font's ``/ToUnicode``. A
new text line (``Tm``, ``Td``, ``T*``) starts a new line of output.

It also collects the glyph ids drawn in each embedded font, so tests can check that no glyph
is ``.notdef`` (glyph id 0: the empty box a font draws for a character it does not have).
"""

from __future__ import annotations

import contextlib
import io
import unicodedata
from collections import defaultdict

from fontTools.ttLib import TTFont as FontFile
from pdfminer.pdfdevice import PDFDevice
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.psparser import PSLiteral


def _decode(value) -> str:
    if isinstance(value, bytes):
        if value.startswith(b"\xfe\xff"):
            return value[2:].decode("utf-16-be")
        return value.decode("latin-1")
    return str(value)


class _Device(PDFDevice):
    def __init__(self, rsrcmgr):
        super().__init__(rsrcmgr)
        self.lines: list[str] = [""]
        self.span: list[str | None] = []
        self.codes: dict[str, set[int]] = defaultdict(set)

    def newline(self) -> None:
        if self.lines[-1]:
            self.lines.append("")

    def begin_tag(self, tag, props=None):
        actual = None
        if isinstance(props, dict) and "ActualText" in props:
            actual = _decode(props["ActualText"])
        self.span.append(actual)

    def end_tag(self):
        actual = self.span.pop() if self.span else None
        if actual is not None:
            self.lines[-1] += actual

    def render_string(self, textstate, seq, ncs, graphicstate):
        font = textstate.font
        hidden = any(s is not None for s in self.span)
        for item in seq:
            if not isinstance(item, bytes):
                continue
            for cid in font.decode(item):
                self.codes[font.basefont].add(cid)
                if not hidden:
                    with contextlib.suppress(Exception):  # no ToUnicode entry: the reader shows nothing
                        self.lines[-1] += font.to_unichr(cid)


class _Interpreter(PDFPageInterpreter):
    """pdfminer's interpreter, telling the device where a new text line starts."""

    def do_Tm(self, a, b, c, d, e, f):
        super().do_Tm(a, b, c, d, e, f)
        self.device.newline()

    def do_Td(self, tx, ty):
        super().do_Td(tx, ty)
        self.device.newline()

    def do_TD(self, tx, ty):
        super().do_TD(tx, ty)
        self.device.newline()

    def do_T_a(self):
        super().do_T_a()
        self.device.newline()

    def do_BT(self):
        super().do_BT()
        self.device.newline()


def fold(text: str) -> str:
    """How printed text is compared: NFC, whitespace collapsed (nothing else is folded)."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text as a conforming reader copies it out, one line per text line, folded."""
    pages = []
    manager = PDFResourceManager()
    for page in PDFPage.get_pages(io.BytesIO(pdf)):
        device = _Device(manager)
        _Interpreter(manager, device).process_page(page)
        pages.append("\n".join(fold(line) for line in device.lines if line.strip()))
    return pages


def pdf_text(pdf: bytes) -> str:
    """The whole document's text (``page_texts`` joined by newlines)."""
    return "\n".join(page_texts(pdf))


def notdef_glyphs(pdf: bytes) -> dict[str, int]:
    """For each embedded TrueType font, how many of the codes drawn with it show ``.notdef``
    (the empty box of a character the font does not have); an empty dict when none do.

    ReportLab's subsets keep the original ``.notdef`` as glyph 0 and draw a character the
    font lacks with code 0, an empty glyph of no width; so a drawn glyph whose outline and
    advance equal glyph 0's, or that is empty and has no width, is a missing glyph.
    """
    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(pdf))
    used: dict[str, set[int]] = defaultdict(set)
    manager = PDFResourceManager()
    for page in PDFPage.get_pages(io.BytesIO(pdf)):
        device = _Device(manager)
        _Interpreter(manager, device).process_page(page)
        for name, codes in device.codes.items():
            used[name.name if isinstance(name, PSLiteral) else str(name)] |= codes
    programs = {}
    for page in reader.pages:
        for ref in page["/Resources"].get("/Font", {}).values():
            font = ref.get_object()
            if "/FontDescriptor" not in font:
                continue
            descriptor = font["/FontDescriptor"].get_object()
            programs[str(font["/BaseFont"]).lstrip("/")] = descriptor["/FontFile2"].get_object().get_data()
    bad = {}
    for name, codes in used.items():
        program = FontFile(io.BytesIO(programs[name]))
        glyf, hmtx = program["glyf"], program["hmtx"]
        order = program.getGlyphOrder()

        def look(glyph: str, glyf=glyf, hmtx=hmtx):  # this font's tables, bound now
            return glyf[glyph].compile(glyf), hmtx[glyph][0]

        notdef, nothing = look(order[0]), (b"", 0)  # a box; ReportLab's code for "no glyph"
        table = program["cmap"].getcmap(1, 0) or program["cmap"].getcmap(3, 0)
        cmap = table.cmap if table else {}
        zero = [c for c in codes if c not in cmap or look(cmap[c]) in (notdef, nothing)]
        if zero:
            bad[name] = len(zero)
    return bad
