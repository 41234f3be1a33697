"""The two kinds of error the rules can raise.

``RuleError`` is a mistake a host or a guest made and can fix: its message is plain words that
say what is wrong and what to do, fit to show on a page. ``InvariantBroken`` means the program
itself is wrong (a rule produced an impossible state); it is never shown as a form error.
"""


class RuleError(ValueError):
    """Bad input that a person can fix; ``str(error)`` says what to fix, in plain words."""


class InvariantBroken(AssertionError):
    """A rule produced an impossible state: a bug, never the user's fault."""
