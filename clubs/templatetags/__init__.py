"""The clubs app's template tags: its long tables' rows written in Python (``season_rows``)."""
