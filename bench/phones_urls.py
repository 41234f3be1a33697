"""URLs for the phones benchmark: the site's own, plus ``/bench/bare/``, the baseline: a bare
Django view that runs the same middleware and returns a few bytes, touching no database."""

from django.http import HttpResponse
from django.urls import include, path


def bare(request):
    """The baseline: the least a Django view can do."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench/bare/", bare),
    path("", include("tournament.urls")),
]
