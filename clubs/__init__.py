"""A club and its seasons (issue 25): the regulars of a host's evenings, their roster, the
club's evenings and its season standings across them (``docs/clubs.md``).

A Django app beside ``tournament``: its models link to the evenings and guests (an evening's
``ClubEvening``, a guest's ``ClubGuest``) and change none of ``tournament``'s; its services call
``tournament``'s to create an evening and register its guests, and ask each evening's format
its season tallies (``tournament.plugin.FormatPlugin.season_tallies``); its rules are plain
Python in ``tables.seasons``."""
