"""What each printed document holds, read from the evening (``contents``; the score sheets in
``score_sheets``); ``tournament.printing`` draws them with ReportLab."""
