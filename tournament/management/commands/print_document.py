"""``manage.py print_document EVENING DOCUMENT -o FILE [--paper letter] [--variant V] [--prefilled]``.

Writes one printed document of the evening to a PDF file: ``seating-cards`` (variants
``sheet``, ``tent``), ``table-tents``, ``score-sheets`` (``blank``, ``prefilled``; or
``--prefilled``), ``pull-list``, ``results``, ``certificates``. The QR codes on seating cards
point at ``--base-url`` (default: the ``SITE_URL`` setting). Anything that cannot print (no
draw yet, an unknown paper size, a revoked link, a file in a folder that does not exist, a
``--base-url`` that is not an http(s) address of at most 200 characters) is a ``CommandError``
with the reason, and no file is written; a guest whose name cannot print prints as "Guest no. N".
"""

from django import forms
from django.conf import settings
from django.core.management.base import CommandError

from tables.errors import RuleError
from tournament.documents.contents import all_kinds, document, evening_kind
from tournament.management.commands._common import (
    HeadTableCommand,
    checked,
    evening_by_id,
    output_path,
    write_output,
)
from tournament.party import is_loopback_url
from tournament.services.naming import error_message

# House rule: a site address fits a QR code with room to spare (the private link adds ~40 characters).
BASE_URL = forms.URLField(max_length=200, assume_scheme="http")


class Command(HeadTableCommand):
    help = "Write a printed document of the evening to a PDF file."

    def add_arguments(self, parser):
        parser.add_argument("evening", help="the evening's id")
        parser.add_argument("document", choices=list(all_kinds()))
        parser.add_argument("--output", "-o", required=True, help="the PDF file to write")
        parser.add_argument("--paper", default="A4", help="A4 (default) or letter")
        variants = "; ".join(f"{k.slug}: {', '.join(v for v, _ in k.variants)}" for k in all_kinds().values())
        parser.add_argument("--variant", default=None, help=f"the document's variant ({variants})")
        parser.add_argument(
            "--prefilled",
            action="store_true",
            help="score sheets pre-filled with the results so far (= --variant prefilled)",
        )
        parser.add_argument("--base-url", default=None, help="the site address in QR codes (default SITE_URL)")

    def handle(self, *args, **opts):
        evening = evening_by_id(opts["evening"])
        path = output_path(opts["output"], what="The PDF")
        base_url = checked(BASE_URL, opts["base_url"], "--base-url") if opts["base_url"] is not None else None
        if base_url is not None and not base_url.startswith(("http://", "https://")):
            raise CommandError("--base-url: give an http:// or https:// address.")
        slug, variant = opts["document"], opts["variant"]
        if opts["prefilled"]:
            if slug != "score-sheets" or variant not in (None, "prefilled"):
                raise CommandError("--prefilled is for score-sheets only (it means --variant prefilled).")
            variant = "prefilled"
        try:
            kind = evening_kind(evening, slug)
            pdf = document(evening=evening, slug=slug, paper=opts["paper"], variant=variant, base_url=base_url).render()
        except RuleError as error:
            raise CommandError(error_message(error, evening)) from None
        write_output(path, pdf, what="The PDF")
        self.stdout.write(f"{opts['output']}\t{kind.title}\t{len(pdf)} bytes")
        base = base_url or settings.SITE_URL
        if slug == "seating-cards" and is_loopback_url(base):
            self.stderr.write(
                self.style.WARNING(
                    f"Warning: the QR codes point at {base}, which only this computer can open, not guests' phones. "
                    "Print them with --base-url set to this computer's network address (make party shows it)."
                )
            )
