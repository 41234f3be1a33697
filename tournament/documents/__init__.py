"""What each printed document holds, read from the evening (``contents``; each format's own in
its package); ``tournament.printing`` draws them with ReportLab."""
