"""URLs, split by audience (Tabbycat style): the host under /host/, guests' private links under
/g/<key>/, public pages (rules) at the top, Django admin under /admin/."""

from django.contrib import admin
from django.urls import include, path

from tournament.views import guest, host

host_patterns = [
    path("", host.evening_list, name="host-evenings"),
    path("e/<int:evening_id>/", host.evening_detail, name="host-evening"),
    path("e/<int:evening_id>/edit/", host.evening_edit, name="host-evening-edit"),
    path("e/<int:evening_id>/guests/", host.guest_list, name="host-guests"),
    path("e/<int:evening_id>/guests/<int:guest_id>/", host.guest_status, name="host-guest-status"),
    path("e/<int:evening_id>/draw/", host.draw_page, name="host-draw"),
    path("e/<int:evening_id>/round/", host.round_action, name="host-round"),
    path("e/<int:evening_id>/result/<int:table>/", host.result_entry, name="host-result"),
    path("e/<int:evening_id>/print/seating-cards.pdf", host.print_seating_cards, name="host-print-seating"),
    path("e/<int:evening_id>/export.json", host.export_json, name="host-export"),
]

urlpatterns = [
    path("", host.home, name="home"),
    path("host/", include(host_patterns)),
    path("g/<str:key>/", guest.guest_page, name="guest-page"),
    path("rules/", guest.rules_page, name="rules"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
