"""The evening as a JSON file: the export (``export``), the import (``importer``) and the schema
both follow (``export_schema.json``; docs/export.md)."""
