"""Services: every change to an evening, one keyword-only function per action.

Each service runs in one ``transaction.atomic()``, calls ``tables/`` for the rules, writes an
``AuditEntry``, bumps the evening's ``version`` (so live pages refetch) and queues Celery tasks
only after the transaction commits. A mistake a person can fix raises ``tables.errors.RuleError``
(subclasses) with a message to show; nothing is saved then.

Locks: every service locks the rows it changes in one order, evening → round → result, one
row of one table at a time (``tournament.services.locks``, which explains why): two services
racing for the same evening then wait for each other instead of deadlocking.

Modules: ``audit`` (the log and the version bump), ``guests`` (register, CSV, check-in),
``draws`` (the seating draw), ``rounds`` (start, results, the bell), ``standing`` (reads).
"""
