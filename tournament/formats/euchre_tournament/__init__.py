"""The Euchre tournament with a rotation schedule: everyone enters alone and plays for their own
total; partners change by a schedule fixed before play (``docs/rules/euchre-tournament.md``).
Its rules are ``tables.formats.euchre_tournament``; its plug-in, over Progressive Euchre's, is
``tournament.formats.euchre_tournament.plugin``."""
