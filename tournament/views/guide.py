"""The host's guide on the site: ``docs/host-guide.md`` rendered as a page (``/guide/``), linked
from every page's footer, so a host reads it where they run the evening.

The Markdown is rendered with markdown-it-py (CommonMark with tables, raw HTML off); its images
(``images/NAME.png``, the screenshots the browser tests take) are served as static files from
``docs/images/`` under ``/static/guide/``. The page is rendered once per process and file version.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

GUIDE = Path(settings.BASE_DIR) / "docs" / "host-guide.md"


@lru_cache(maxsize=4)
def _rendered(mtime_ns: int) -> tuple[str, SafeString]:
    """(the guide's title, its body as HTML) for the file as it was at ``mtime_ns``."""
    text = GUIDE.read_text(encoding="utf-8")
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    title = "The host's guide"
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1":
            title = tokens[i + 1].content
        for child in token.children or ():
            if child.type == "image" and str(child.attrGet("src") or "").startswith("images/"):
                child.attrSet("src", static("guide/" + str(child.attrGet("src"))[len("images/") :]))
                child.attrSet("loading", "lazy")
    return title, mark_safe(md.renderer.render(tokens, md.options, {}))


def host_guide(request: HttpRequest) -> HttpResponse:
    """The host's guide as a page; open to everyone (it holds nothing private)."""
    title, body = _rendered(GUIDE.stat().st_mtime_ns)
    return render(request, "guide.html", {"title": title, "body": body})
