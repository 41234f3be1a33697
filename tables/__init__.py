"""The rules of a progressive card party, as plain Python.

Nothing here imports Django. Every module is a set of pure functions over small frozen
values, and every rule names where it comes from: a page of ``docs/rules/`` (the
rules in the project's words, naming the books: ``docs/rules/README.md``), or "house rule: ..." where
the texts are silent and the product had to choose.

What every format shares sits here at the top:
    packs         the red and the blue pack of the seating draw
    table_cards   a table card in a guest's words ("3 red"), for every physical draw
    entries       what happened to one guest at a bell, as every format records it
    cuts          cutting cards to settle ties (the lowest cut stays), for bells and prizes
    prizes        a prize: title, winners and the reason in words
    errors        the two kinds of error (one a person can fix, one that is a bug)
    seats, cards, game_options, kitty, seasons, sources, words

Each format's own rules live in its package under ``formats/``:
    formats.engine              the one interface every format's rules answer (FormatRules)
    formats.poker               Progressive Poker: its plan, draw, bell, prizes and seed games
    formats (the package)       the formats at tables of four: Euchre, Drive Whist, Bunco
    formats.euchre_tournament   the Euchre tournament and its rotation schedule
"""
