"""A host's pages used as a browser uses them, through Django's test client: read the forms a
page shows (``forms_on``), then press one of its buttons with what a host types in
(``press``): every field the form carries is sent as the page wrote it (the hidden ``seen``
mark, the CSRF token, the pre-filled values, the ticked boxes), only what the host changes is
changed. A button not on the page fails the test, as a host could not press it.

For the mended nights (tests/test_mending_night*.py)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class PageForm:
    """One ``<form>`` of a page: where it posts, its fields as a browser would send them, and
    its buttons (each its words and its own name and value)."""

    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    buttons: list[tuple[str, str, str]] = field(default_factory=list)  # (words, name, value)


class _Forms(HTMLParser):
    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.forms: list[PageForm] = []
        self._form: PageForm | None = None
        self._select: str | None = None
        self._selected: str | None = None
        self._first_option: str | None = None
        self._button: list | None = None
        self._textarea: list | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = PageForm(action=a.get("action") or self.url, method=(a.get("method") or "get").lower())
            self.forms.append(self._form)
            return
        form = self._form
        if form is None:
            return
        name = a.get("name")
        if tag == "input" and name is not None and "disabled" not in a:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "image"):
                form.buttons.append((a.get("value", ""), name, a.get("value", "")))
                return
            form.names.add(name)
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    form.fields.append((name, a.get("value", "on")))
            else:
                form.fields.append((name, a.get("value", "")))
        elif tag == "input" and a.get("type", "").lower() == "submit":
            form.buttons.append((a.get("value", ""), "", ""))
        elif tag == "button" and a.get("type", "submit").lower() == "submit":
            self._button = [[], a.get("name", ""), a.get("value", ""), a.get("aria-label", "")]
        elif tag == "select" and name is not None:
            form.names.add(name)
            self._select, self._selected, self._first_option = name, None, None
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._first_option is None:
                self._first_option = value
            if "selected" in a:
                self._selected = value
        elif tag == "textarea" and name is not None:
            form.names.add(name)
            self._textarea = [name, []]

    def handle_data(self, data):
        if self._button is not None:
            self._button[0].append(data)
        if self._textarea is not None:
            self._textarea[1].append(data)

    def handle_endtag(self, tag):
        form = self._form
        if tag == "form":
            self._form = None
        elif form is None:
            return
        elif tag == "button" and self._button is not None:
            words, name, value, label = self._button
            form.buttons.append((" ".join("".join(words).split()) or label, name, value))
            self._button = None
        elif tag == "select" and self._select is not None:
            chosen = self._selected if self._selected is not None else self._first_option
            form.fields.append((self._select, chosen or ""))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            form.fields.append((self._textarea[0], "".join(self._textarea[1]).lstrip("\n")))
            self._textarea = None


def forms_on(page: str, url: str) -> list[PageForm]:
    """Every form of ``page`` (HTML, drawn for ``url``), in the page's order."""
    parser = _Forms(url)
    parser.feed(page)
    return parser.forms


def buttons_on(page: str, url: str = "") -> list[str]:
    """The words of every button of ``page``'s forms."""
    return [words for form in forms_on(page, url) for words, _, _ in form.buttons]


def press(client, url: str, button: str, typed: dict | None = None, *, follow: bool = True, where: str = ""):
    """GET ``url``, find the form whose button reads ``button`` (exactly, or containing it with
    ``where`` = "in"; when several forms have it, the first whose action contains ``where``),
    and send it as a browser does with ``typed`` changed (a name -> a value, a list of values
    for ticked boxes, or None to untick / leave empty). Returns the answer (redirects followed
    unless ``follow`` is False). Fails when no such button is on the page or ``typed`` names a
    field the form has not."""
    page = client.get(url)
    assert page.status_code == 200, (url, page.status_code)
    text = page.content.decode()
    found = []
    for form in forms_on(text, url):
        for words, name, value in form.buttons:
            if words == button or (where == "in" and button in words):
                found.append((form, name, value))
    if where and where != "in":
        found = [f for f in found if where in f[0].action] or found
    assert found, f"No button {button!r} on {url}: {buttons_on(text, url)}"
    form, name, value = found[0]
    typed = typed or {}
    unknown = set(typed) - form.names
    assert not unknown, f"The form of {button!r} has no field {unknown}: {sorted(form.names)}"
    data: dict[str, list[str]] = {}
    for key, val in form.fields:
        if key not in typed:
            data.setdefault(key, []).append(val)
    for key, val in typed.items():
        if val is None:
            continue
        data[key] = [str(v) for v in val] if isinstance(val, list | tuple | set) else [str(val)]
    if name:
        data.setdefault(name, []).append(value)
    action = html.unescape(form.action)
    if form.method == "post":
        return client.post(action, data, follow=follow)
    return client.get(action, data, follow=follow)


def said(response) -> list[str]:
    """The messages the answer shows the host (the site's message list), as text."""
    return [str(m) for m in response.context["messages"]] if response.context and "messages" in response.context else []


def text_of(page: str) -> str:
    """A page's words as a person reads them: tags out, entities read, spaces collapsed."""
    body = re.sub(r"(?is)<(script|style)[^>]*>.*?</\1>", " ", page)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
