"""``{% load rule_tags %}``: a rule's source in words on any page (``{{ entry.rule|rule_in_words }}``)."""

from django import template

from tournament.forms.bell import rule_in_words as _rule_in_words

register = template.Library()


@register.filter
def rule_in_words(rule: str) -> str:
    """The rule's source as a reader sees it (``tournament.forms.bell.rule_in_words``)."""
    return _rule_in_words(str(rule or ""))
