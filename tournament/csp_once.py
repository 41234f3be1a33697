"""The Content-Security-Policy header, built once per process instead of on every response.

django-csp's middleware builds the header from ``settings.CONTENT_SECURITY_POLICY`` (and its
report-only twin) on every response, which costs more than a bare view's whole answer (issue 26
item 1: "the CSP header built once"). The site's policy is one fixed policy: no view changes it
(no ``csp_update`` / ``csp_replace`` / ``csp_exempt``) and no page asks for a nonce (no inline
script or style). So ``policy_headers`` builds both headers once and keeps them while the
settings hold the same policy objects (a test's ``override_settings`` builds them anew), and
``PolicyOnceCSPMiddleware`` sets them as django-csp would, falling back to django-csp itself
for a response that carries a policy of its own or a request that drew a nonce.
"""

from __future__ import annotations

import http.client

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase

# What a view may put on its response to change the policy (django-csp's decorators).
OWN_POLICY = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro")
_built: list[tuple[object, object, str, str]] = []  # [(policy, report-only policy, header, report-only header)]


def policy_headers() -> tuple[str, str]:
    """(Content-Security-Policy, Content-Security-Policy-Report-Only) of the settings' policy,
    as django-csp builds them ("" for one not set), built once for the settings' objects."""
    policy = getattr(settings, "CONTENT_SECURITY_POLICY", None)
    report_only = getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
    held = _built[0] if _built else None
    if held is None or held[0] is not policy or held[1] is not report_only:
        held = (policy, report_only, build_policy(), build_policy(report_only=True))
        _built[:] = [held]
    return held[2], held[3]


def _excluded(request: HttpRequest, setting: str) -> bool:
    prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES", None) or ()
    return request.path_info.startswith(tuple(prefixes))


def apply_policy(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """Set the policy headers on ``response`` exactly as ``CSPMiddleware.process_response``
    does for a response with no policy of its own and a request with no nonce: not on a 404 or
    500 while ``DEBUG``, nor over a header already set, nor on an exempt response or an excluded
    path. Returns ``response``."""
    if response.status_code in (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND) and settings.DEBUG:
        return response
    csp, csp_ro = policy_headers()
    if (
        csp
        and HEADER not in response
        and getattr(response, "_csp_exempt", False) is False
        and not _excluded(request, "CONTENT_SECURITY_POLICY")
    ):
        response[HEADER] = csp
    if (
        csp_ro
        and HEADER_REPORT_ONLY not in response
        and getattr(response, "_csp_exempt_ro", False) is False
        and not _excluded(request, "CONTENT_SECURITY_POLICY_REPORT_ONLY")
    ):
        response[HEADER_REPORT_ONLY] = csp_ro
    return response


class PolicyOnceCSPMiddleware(CSPMiddleware):
    """django-csp's middleware with the site's policy built once (``policy_headers``); a
    response with a policy of its own, or a request that drew a nonce, is django-csp's."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, name, None) is not None for name in OWN_POLICY
        ):
            return super().process_response(request, response)
        apply_policy(request, response)
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
