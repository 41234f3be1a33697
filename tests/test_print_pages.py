"""The print page, the download views and ``manage.py print_document``: every document through
the Django glue, the QR codes on the seating cards scanned to the guests' real links, bad input
answered with a message (never an empty or broken PDF), and 500 guests in one request."""

import io
import math

import pypdf
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory, HostFactory
from tests.fixtures_printing import guest_names, long_name, printed_name, printing_evening
from tests.pdf_reading import page_texts
from tests.test_printing_documents import all_text, assert_pages, fold, scan
from tournament.documents.contents import DOCUMENTS
from tournament.models import Guest
from tournament.services.draws import draw_digital
from tournament.views.printing import URL_NAMES


@pytest.fixture
def logged_in(client, host):
    client.force_login(host)
    return client


@pytest.fixture
def evening(host):
    return printing_evening(host)


def url(evening, slug, **query):
    params = "&".join(f"{k}={v}" for k, v in query.items())
    return reverse(URL_NAMES[slug], args=[evening.pk]) + (f"?{params}" if params else "")


def test_the_evening_page_links_to_the_print_page(logged_in, evening):
    page = logged_in.get(reverse("host-evening", args=[evening.pk])).content.decode()
    assert reverse("host-print", args=[evening.pk]) in page


def test_the_print_page_lists_every_document_and_variant_as_a_download(logged_in, evening):
    response = logged_in.get(reverse("host-print", args=[evening.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    for kind in DOCUMENTS:
        assert kind.title in page
        for value, _label in kind.variants:
            assert f"{url(evening, kind.slug)}?paper=A4&amp;variant={value}" in page, (kind.slug, value)
    assert "US Letter" in page and 'class="warning"' not in page


def test_the_print_page_on_letter_gives_letter_links(logged_in, evening):
    page = logged_in.get(reverse("host-print", args=[evening.pk]) + "?paper=letter").content.decode()
    assert f"{url(evening, 'results')}?paper=letter&amp;variant=full" in page
    assert "paper=A4&amp;variant" not in page


def test_the_print_page_explains_what_is_missing(logged_in, host):
    evening = EveningFactory(host=host)
    for i in range(5):
        GuestFactory(evening=evening, name=f"G{i}")
    page = logged_in.get(reverse("host-print", args=[evening.pk])).content.decode()
    assert "No draw yet: run the draw before printing seating cards." in page
    assert "too few" in page  # table cards and the pull list need the plan for the guests here
    assert f'href="{url(evening, "seating-cards")}' not in page
    for i in range(5, 12):
        GuestFactory(evening=evening, name=f"G{i}")
    page = logged_in.get(reverse("host-print", args=[evening.pk])).content.decode()
    assert f'href="{url(evening, "pull-list")}?paper=A4' in page
    assert f'href="{url(evening, "table-tents")}?paper=A4' in page


def test_the_print_page_says_an_unknown_paper_and_falls_back_to_a4(logged_in, evening):
    response = logged_in.get(reverse("host-print", args=[evening.pk]) + "?paper=A5")
    assert response.status_code == 200
    assert "Unknown paper size “A5”: choose A4 or letter." in response.content.decode()


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("slug,variant", [(k.slug, v) for k in DOCUMENTS for v, _ in k.variants])
def test_every_document_downloads_as_a_pdf(logged_in, evening, slug, variant, paper):
    response = logged_in.get(url(evening, slug, paper=paper, variant=variant))
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    pdf = response.content
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    landscape = slug in ("score-sheets", "certificates")
    assert_pages(pdf, len(reader.pages), paper, landscape=landscape)
    text = all_text(pdf).replace(" ", "")
    names = [printed_name(n) for n in guest_names()]
    if slug in ("seating-cards", "score-sheets", "results"):
        for name in names:
            shown = name[:200] if name == long_name() else name  # 300 characters: may end in "…"
            assert fold(shown).replace(" ", "") in text, name
    if slug == "seating-cards":
        assert len(reader.pages) == math.ceil(40 / (8 if variant == "sheet" else 4))


def test_seating_card_qr_codes_decode_to_the_guests_real_links(logged_in, evening):
    pdf = logged_in.get(url(evening, "seating-cards")).content
    links = sorted(f"http://testserver{reverse('guest-page', args=[g.key])}" for g in evening.guests.all())
    assert sorted(scan(pdf)) == links


def test_a_reissued_link_prints_the_new_key(logged_in, evening):
    from tournament.services.guests import guest_reissue_key

    guest = evening.guests.order_by("id").first()
    old = guest.key
    guest = guest_reissue_key(guest=guest)
    codes = scan(logged_in.get(url(evening, "seating-cards")).content)
    assert f"http://testserver{reverse('guest-page', args=[guest.key])}" in codes
    assert not any(old in code for code in codes)


# Bad input: the print page with the reason and HTTP 400, never a PDF.


def assert_refused(response, message):
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert not response.content.startswith(b"%PDF")
    assert message in response.content.decode()


def test_no_draw_yet_is_a_message_not_an_empty_pdf(logged_in, make_evening):
    evening = make_evening(6, 6)
    for slug in ("seating-cards", "score-sheets", "results", "certificates"):
        assert_refused(logged_in.get(url(evening, slug)), "No draw yet")


def test_an_unknown_paper_size_is_a_message(logged_in, evening):
    for kind in DOCUMENTS:
        assert_refused(logged_in.get(url(evening, kind.slug, paper="A5")), "Unknown paper size “A5”")


def test_no_draw_and_an_unknown_paper_are_both_said(logged_in, make_evening):
    evening = make_evening(6, 6)
    response = logged_in.get(url(evening, "seating-cards", paper="A5"))
    assert_refused(response, "No draw yet")
    assert "Unknown paper size “A5”" in response.content.decode()
    page = logged_in.get(reverse("host-print", args=[evening.pk])).content.decode()
    assert "planned for the guests checked in now" in page  # table cards before the draw


def test_an_unknown_variant_is_a_message(logged_in, evening):
    assert_refused(logged_in.get(url(evening, "seating-cards", variant="poster")), "not “poster”")


def test_a_stored_name_that_cannot_print_is_listed_with_a_fix_link_and_prints_as_its_number(logged_in, evening):
    guest = evening.guests.order_by("id")[3]
    Guest.objects.filter(pk=guest.pk).update(name="𓀀 𓀁")
    response = logged_in.get(url(evening, "seating-cards"))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert f"Guest no. {guest.pk}" in all_text(response.content)
    page = logged_in.get(reverse("host-print", args=[evening.pk])).content.decode()
    fix = reverse("host-guest-name", args=[evening.pk, guest.pk])
    assert "Names that cannot be printed" in page and f'href="{fix}"' in page
    assert "Egyptian Hieroglyph A001" in page
    refused = logged_in.post(fix, {"name": "🎲 𓀀"})
    assert "cannot be printed" in refused.content.decode()
    assert logged_in.post(fix, {"name": "Nefertari 🎲"}).status_code == 302
    guest.refresh_from_db()
    assert guest.name == "Nefertari 🎲"
    page = logged_in.get(reverse("host-print", args=[evening.pk])).content.decode()
    assert "Names that cannot be printed" not in page


def test_printing_needs_a_login_and_the_evenings_host(client, evening):
    for name in ["host-print", *URL_NAMES.values()]:
        response = client.get(reverse(name, args=[evening.pk]))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(HostFactory(username="another-host"))
    for name in ["host-print", *URL_NAMES.values()]:
        assert client.get(reverse(name, args=[evening.pk])).status_code == 404


# The management command.


@pytest.mark.parametrize("slug,variant", [(k.slug, v) for k in DOCUMENTS for v, _ in k.variants])
def test_the_command_prints_every_document(evening, tmp_path, slug, variant):
    out = tmp_path / "doc.pdf"
    stdout = io.StringIO()
    call_command(
        "print_document",
        str(evening.pk),
        slug,
        "-o",
        str(out),
        "--variant",
        variant,
        "--paper",
        "letter",
        "--base-url",
        "https://poker.example.org",
        stdout=stdout,
    )
    assert out.read_bytes().startswith(b"%PDF") and "bytes" in stdout.getvalue()
    reader = pypdf.PdfReader(out)
    assert_pages(out.read_bytes(), len(reader.pages), "letter", landscape=slug in ("score-sheets", "certificates"))
    if slug == "seating-cards":
        assert sorted(scan(out.read_bytes())) == sorted(
            f"https://poker.example.org{reverse('guest-page', args=[g.key])}" for g in evening.guests.all()
        )


def test_the_command_prefilled_flag(evening, tmp_path):
    out = tmp_path / "scores.pdf"
    call_command("print_document", str(evening.pk), "score-sheets", "-o", str(out), "--prefilled", stdout=io.StringIO())
    assert "pre-filled" in all_text(out.read_bytes())
    with pytest.raises(CommandError, match="--prefilled is for score-sheets only"):
        call_command("print_document", str(evening.pk), "results", "-o", str(out), "--prefilled")


def test_the_command_refuses_bad_input_and_writes_nothing(make_evening, evening, tmp_path):
    out = tmp_path / "x.pdf"
    with pytest.raises(CommandError, match="No draw yet"):
        call_command("print_document", str(make_evening(6, 6).pk), "seating-cards", "-o", str(out))
    with pytest.raises(CommandError, match="Unknown paper size"):
        call_command("print_document", str(evening.pk), "results", "-o", str(out), "--paper", "legal")
    assert not out.exists()


# 500 guests through the Django path.


def five_hundred(host):
    evening = EveningFactory(host=host, name="Five hundred")
    Guest.objects.bulk_create(
        [
            Guest(
                evening=evening,
                name=f"{guest_names()[i % 38]} {i}",
                name_key=f"k{i}",
                pack="red" if i % 2 else "blue",
                status=Guest.Status.HERE,
            )
            for i in range(500)
        ]
    )
    draw_digital(evening=evening)
    return evening


def test_500_guests_seating_cards_in_one_request_and_by_command(logged_in, host, tmp_path):
    evening = five_hundred(host)
    response = logged_in.get(url(evening, "seating-cards"))
    assert response.status_code == 200
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 63
    last = fold(page_texts(response.content)[-1])
    assert "Booby table" in last
    out = tmp_path / "cards.pdf"
    call_command("print_document", str(evening.pk), "seating-cards", "-o", str(out), stdout=io.StringIO())
    assert len(pypdf.PdfReader(out).pages) == 63
    for slug in ("table-tents", "score-sheets", "pull-list"):
        assert logged_in.get(url(evening, slug)).status_code == 200
