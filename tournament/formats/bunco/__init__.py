"""Bunco (the Bunco clubs' rules): three dice, 21 at the head table ends the round (``docs/rules/bunco.md``)."""
