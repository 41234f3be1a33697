"""Services: every change to an evening, one keyword-only function per action.

Each service runs in one ``transaction.atomic()``, calls ``tables/`` for the rules, writes an
``AuditEntry``, bumps the evening's ``version`` (so live pages refetch) and queues Celery tasks
only after the transaction commits. A mistake a person can fix raises ``tables.errors.RuleError``
(subclasses) with a message to show; nothing is saved then.

Locks: every service locks the rows it changes in one order, evening → round → result, one
row of one table at a time (``tournament.services.locks``, which explains why): two services
racing for the same evening then wait for each other instead of deadlocking.

Modules, by what they change: ``guests`` (add, rename, check in and out, remove, lists),
``registration`` (self-registration at the door), ``links`` (private links) and ``helpers``
(door and scorer links); ``draws``, ``draw_physical`` and ``draw_changes`` (the seating draw);
``clock`` (rounds, their clock, auto-advance) and ``scheduling`` (queueing its timed tasks);
``results``, ``captains`` and ``showdowns`` (a table's result, from the host, phones or the
showdown helper); ``bell`` (ringing and undoing the bell), ``departures`` (guests leaving and
arriving), ``corrections`` (an earlier result corrected), ``ending`` (the last round, the final
count, the prize ceremony), ``prizes``; ``games`` and ``house_rules`` (the game and its
options). Shared parts: ``state`` (the evening as ``tables/`` sees it), ``locks`` (the lock
order), ``audit`` (the log), ``versions`` (the version live pages poll), ``history`` (what a
delete would break), ``naming`` (guests' names in messages).
"""
