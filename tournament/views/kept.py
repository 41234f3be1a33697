"""What a phone's kept form is told (``static/keep.js``): a form a guest or a helper sends from
their phone stays on the phone until the server confirms it, so the server says, in two headers,
what became of it:

- ``X-Headtable-Kept``: "recorded" (recorded now), "already" (recorded by an earlier send of the
  same one-time id: nothing recorded twice) or "refused" (not recorded, with the reason: the
  phone keeps the form for the guest to read and correct);
- ``X-Headtable-Words``: the words to show, percent-encoded (a header is Latin-1; names are not).

The phone marks its sends with ``X-Headtable-Keep: 1``. To such a send a redirect is answered
200 with its address in ``X-Headtable-Location`` (the phone goes there itself), so the message
the view added is shown on that page and not spent on a redirect the phone follows unseen. A
plain form post (no JavaScript) gets the page or redirect it always got. House rule, issue 24
item 1.
"""

from __future__ import annotations

from urllib.parse import quote

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseRedirectBase

from tournament.forms.sends import RequestIdForm
from tournament.models import PhoneSend

RECORDED, ALREADY, REFUSED = "recorded", "already", "refused"


def is_kept(request: HttpRequest) -> bool:
    """True when ``request`` comes from a phone's kept form (``X-Headtable-Keep: 1``)."""
    return request.headers.get("X-Headtable-Keep") == "1"


def request_id(request: HttpRequest) -> str:
    """The one-time id posted with the form (``RequestIdForm``), "" when none or damaged."""
    return RequestIdForm(request.POST).request_id_or_blank()


def already_words(first: PhoneSend) -> str:
    """What a resend of a recorded form is told: "Table 1's result for round 2 was recorded
    already, when this phone first sent it: nothing was recorded twice."."""
    what = first.words or "This"
    return (
        f"{what[:1].upper()}{what[1:]} was recorded already, when this phone first sent it: nothing was recorded twice."
    )


def kept_answer(request: HttpRequest, response: HttpResponse, outcome: str, words: str = "") -> HttpResponse:
    """``response`` told to a kept form: the outcome ("recorded", "already" or "refused") and
    ``words`` in the headers, a redirect turned into a 200 naming its address. Unchanged for
    any other request."""
    if not is_kept(request):
        return response
    if outcome == REFUSED:  # the phone shows the reason with the form it keeps: a message would say it twice
        for _ in messages.get_messages(request):
            pass
    if isinstance(response, HttpResponseRedirectBase):
        answer = HttpResponse(status=200)
        answer["X-Headtable-Location"] = response["Location"]
        for key in ("Referrer-Policy", "X-Robots-Tag", "Cache-Control"):
            if key in response:
                answer[key] = response[key]
        response = answer
    response["X-Headtable-Kept"] = outcome
    response["X-Headtable-Words"] = quote(" ".join(words.split()), safe="")
    return response


def form_words(form: forms.Form) -> str:
    """Every error of a bound, invalid ``form`` as one line of words, each once ("" when none)."""
    return " ".join(dict.fromkeys(str(e) for errors in form.errors.values() for e in errors))
