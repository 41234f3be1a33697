"""Progressive Poker's own rules (``docs/rules/progressive-poker.md``): what its plug-in answers
behind ``tables.formats.engine.FormatRules`` (``rules``), and the parts behind it:

    plan          how many tables of which sizes for n guests (head and booby four, four to seven between)
    draw          the seating draw: the split between the packs, the pull list, the deal, the physical draw
    bell          what the bell does, a package: ``state``, ``options``, ``checks``, ``ring``,
                  ``guests`` (leaving and arriving), ``replay``
    prizes        standings, prizes and the settlement in counters
    poker, poker_lookup, hands, showdown, commerce, ship, thirty_one   the seed games' showdowns

The parts every format shares (``tables.cards``, ``tables.packs``, ``tables.cuts``,
``tables.entries``, ``tables.prizes``, ``tables.table_cards``) stay at ``tables/`` top level.
"""
