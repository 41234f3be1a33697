"""``{% load rule_tags %}``: a rule's source in words on any page (``{{ entry.rule|rule_in_words }}``)."""

from django import template

from tournament.bell_forms import rule_in_words as _rule_in_words

register = template.Library()


@register.filter
def rule_in_words(rule: str) -> str:
    """The rule's source as a reader sees it (``tournament.bell_forms.rule_in_words``)."""
    return _rule_in_words(str(rule or ""))
