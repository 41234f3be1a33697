"""The partnership family: formats played at tables of four, two partnerships sitting opposite,
ghosts in the seats left empty (``docs/rules/tables-of-four.md``). Progressive Euchre, Drive
Whist and Bunco are each a small package over ``tournament.formats.partnership.plugin``."""
