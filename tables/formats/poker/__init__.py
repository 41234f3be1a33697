"""Progressive Poker's own rules: the hands, the showdown helper and its seed games.

The modules here (``poker``, ``poker_lookup``, ``hands``, ``showdown``, ``commerce``, ``ship``,
``thirty_one``) are used by Progressive Poker alone; the parts every format shares (``tables.cards``,
``tables.packs``, ``tables.seats``, the bell, the draw, the plan and prizes) stay at ``tables/``
top level. Rules: docs/rules/progressive-poker.md.
"""
