"""Reads for pages: the evening's board (``board``), the draw (``draw``), the guests list
(``guests``), the board every guest page shares (``guest_boards``) and the audit log in
sentences (``audit_sentences``). Selectors read; services write."""
