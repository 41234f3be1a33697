"""The form of the host's page that imports an evening export (``docs/export.md``)."""

from __future__ import annotations

from django import forms

from tournament.exchange.importer import MAX_BYTES


class EveningImportForm(forms.Form):
    """One file: an evening exported as JSON (the board's **Export (JSON)**). Reads the upload's
    bytes into ``cleaned_data["raw"]``; raises ``forms.ValidationError`` for no file, an empty
    one, or one over ``tournament.exchange.importer.MAX_BYTES`` (32 MB, house rule). Whether
    the bytes are an export the importer decides (``export_read``, ``evening_import``)."""

    file = forms.FileField(
        label="The export file (JSON)",
        help_text="A file saved with an evening's “Export (JSON)”, from this site or another Head Table.",
        error_messages={
            "required": "Choose the export file (JSON) to import.",
            "empty": "The file is empty: it is not an evening export.",
        },
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(
                    f"The file is {upload.size:,} bytes: an evening export is at most {MAX_BYTES:,}."
                )
            data["raw"] = upload.read()
        return data
