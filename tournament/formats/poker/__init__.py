"""Progressive Poker (Foster's *Complete Hoyle*; the seeds): four to seven a table, counters,
yellow counters, the head table's weakest player down to the booby table
(``docs/rules/progressive-poker.md``). Its plug-in is ``tournament.formats.poker.plugin``."""
