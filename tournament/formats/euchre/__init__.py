"""Progressive Euchre (Foster; Keller's *The Game of Euchre*, 1887): stars for the winners, the head table's losers to the foot table (``docs/rules/progressive-euchre.md``)."""
