"""The rules of a progressive card party, as plain Python.

Nothing here imports Django. Every module is a set of pure functions over small frozen
values, and every rule names where it comes from: a page of ``docs/rules/`` (the
rules in the project's words, naming the books: ``docs/rules/README.md``), or "house rule: ..." where
the texts are silent and the product had to choose.

Modules:
    packs         the red and the blue pack of the seating draw
    errors        the two kinds of error (one a person can fix, one that is a bug)
    plan          how many tables of which sizes for n guests
    draw          the seating draw: table cards, the pull list, dealing, the physical draw
    bell          what the bell does, a package: ``state`` (an evening as the rules see it),
                  ``options`` (its house rules), ``checks`` (a table's result), ``cuts``,
                  ``ring`` (ring_bell), ``guests`` (leaving and arriving), ``replay``;
                  ``tables.bell`` re-exports what the site calls
    formats       the family of formats on one engine (Euchre, Drive Whist, Bunco)
    prizes        standings, prizes and the settlement
    cards         playing cards as values (Card.parse("10H")), packs of 52 and 53
    hands         a hand's strength: an ordered value with a label
    game_options  options of the seed games (unknown names refused)
    poker, poker_lookup, commerce, thirty_one, ship, showdown   the seed games' showdowns
"""
