"""The Euchre tournament with a rotation schedule: individual scores, partners by a schedule.

The way most euchre tournaments and fund-raising euchre nights are run today (``docs/rules/euchre-tournament.md``): each player enters alone and plays for their own
total; partners change by a schedule fixed before play, not by results. Its rules core:

* ``schedule``: the rotation schedule, every player's table and seat in every game and who sits
  out (``rotation_schedule``), after E. H. Moore's whist tournaments ("Tactical memoranda I–III",
  *American Journal of Mathematics* 18, 1896);
* ``whist``: the whist tournaments themselves (cyclic designs, developed from a first game, and
  their check), with the first games found once by computer search in ``starters``
  (``search_starters`` is that search);
* ``scoring``: a game's score per player, the sit-out's score and the prizes' order.
"""
