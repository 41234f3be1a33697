"""Every form a request's input goes through: the evening's pages (``evening``), buttons and
actions (``actions``), the bell (``bell``), the door (``door``), the game and its options
(``game``), and the fields they share (``fields``)."""
