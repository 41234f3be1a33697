"""URLs, split by audience (Tabbycat style): the host under /host/, guests' private links under
/g/<key>/, public pages (rules) at the top, Django admin under /admin/."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from tournament.views import (  # issue 6: the door, private links  # issue 4: corrections, standings, house rules  # issue 5: the round clock, the room display  # issue 11: phones reach the party, the host's guide
    board,  # issue 11: the board at 84 tables
    clock,
    connect,
    corrections,
    door,
    draw,
    ending,  # issue 11: the end of the evening and the prizes
    guest,
    guests,
    guide,
    helpers,
    host,
    links,
    printing,
    room,
    seats,
    showdown,
    standings,
    waits,
)
from tournament.views import rules as rulebook

host_patterns = [
    path("", host.evening_list, name="host-evenings"),
    path("import/", host.evening_import_page, name="host-evening-import"),
    path("connect/", connect.connect_phones, name="host-connect"),
    path("e/<int:evening_id>/", host.evening_detail, name="host-evening"),
    path("e/<int:evening_id>/edit/", host.evening_edit, name="host-evening-edit"),
    path("e/<int:evening_id>/guests/", guests.guests_page, name="host-guests"),
    path("e/<int:evening_id>/guests/<int:guest_id>/", guests.guest_status, name="host-guest-status"),
    path("e/<int:evening_id>/guests/<int:guest_id>/remove/", guests.guest_remove, name="host-guest-remove"),
    path("e/<int:evening_id>/guests/check-in/", guests.guests_check_in, name="host-guests-check-in"),
    path("e/<int:evening_id>/guests/<int:guest_id>/name/", guests.guest_name, name="host-guest-name"),
    path("e/<int:evening_id>/draw/", draw.draw_page, name="host-draw"),
    path("e/<int:evening_id>/draw/change/", draw.draw_change, name="host-draw-change"),
    path("e/<int:evening_id>/draw/pull-list/", draw.pull_list_page, name="host-draw-pull"),
    path("e/<int:evening_id>/draw/physical/", draw.physical_page, name="host-draw-physical"),
    path("e/<int:evening_id>/draw/physical/action/", draw.physical_action, name="host-draw-physical-action"),
    path("e/<int:evening_id>/seating/", draw.seating_page, name="host-draw-seating"),
    path("e/<int:evening_id>/seats/", seats.seats_page, name="host-seats"),
    path("e/<int:evening_id>/round/", host.round_action, name="host-round"),
    path("e/<int:evening_id>/round/<int:number>/bell/", host.bell_confirm, name="host-bell-confirm"),
    path("e/<int:evening_id>/result/<int:table>/", host.result_entry, name="host-result"),
    path("e/<int:evening_id>/print/", printing.print_page, name="host-print"),
    path("e/<int:evening_id>/print/seating-cards.pdf", printing.print_seating_cards, name="host-print-seating"),
    path("e/<int:evening_id>/print/table-tents.pdf", printing.print_table_tents, name="host-print-tents"),
    path("e/<int:evening_id>/print/score-sheets.pdf", printing.print_score_sheets, name="host-print-scores"),
    path("e/<int:evening_id>/print/pull-list.pdf", printing.print_pull_list, name="host-print-pull"),
    path("e/<int:evening_id>/print/results.pdf", printing.print_results, name="host-print-results"),
    path("e/<int:evening_id>/print/certificates.pdf", printing.print_certificates, name="host-print-certificates"),
    path("e/<int:evening_id>/print/score-cards.pdf", printing.print_score_cards, name="host-print-cards"),
    path("e/<int:evening_id>/print/tally-sheets.pdf", printing.print_tally_sheets, name="host-print-tally"),
    path("e/<int:evening_id>/export.json", host.export_json, name="host-export"),
    path("e/<int:evening_id>/showdown/<int:table>/", showdown.host_showdown, name="host-showdown"),
    path("e/<int:evening_id>/game/", rulebook.host_game, name="host-game"),
    path("e/<int:evening_id>/links/", links.links_list, name="host-links"),
    path("e/<int:evening_id>/links/<int:guest_id>/", links.guest_link, name="host-guest-link"),
    path("e/<int:evening_id>/door/", links.door, name="host-door"),
    path("e/<int:evening_id>/door/helpers/", helpers.helper_links, name="host-helpers"),
    # issue 4: standings and prizes, house rules, corrections, the bell with cuts, the audit log
    path("e/<int:evening_id>/standings/", standings.standings_page, name="host-standings"),
    path("e/<int:evening_id>/house-rules/", standings.house_rules_page, name="host-house-rules"),
    path("e/<int:evening_id>/corrections/", corrections.corrections_page, name="host-corrections"),
    path(
        "e/<int:evening_id>/corrections/<int:number>/<int:table>/", corrections.correction_entry, name="host-correction"
    ),
    path("e/<int:evening_id>/bell/", corrections.bell_cuts_page, name="host-bell-cuts"),
    path("e/<int:evening_id>/audit/", corrections.audit_page, name="host-audit"),
    # issue 5: the round clock
    path("e/<int:evening_id>/clock/", clock.clock_control, name="host-clock"),
    path("e/<int:evening_id>/clock/settings/", clock.clock_settings, name="host-clock-settings"),
    # issue 11: the board at 84 tables: one table, the "Go to table" box, the last bell's moves
    path("e/<int:evening_id>/tables/", board.table_jump, name="host-table-jump"),
    path("e/<int:evening_id>/tables/<int:table>/", board.table_page, name="host-table"),
    path("e/<int:evening_id>/moves/", board.moves_page, name="host-moves"),
    # issue 11: the end of the evening, the final count and the prize ceremony
    path("e/<int:evening_id>/end/", ending.end_evening, name="host-end"),
    path("e/<int:evening_id>/finish/", ending.finish_page, name="host-finish"),
    path("e/<int:evening_id>/finish/count/<int:table>/", ending.final_count, name="host-final-count"),
    path("e/<int:evening_id>/finish/reveal/", ending.ceremony_reveal, name="host-reveal"),
]

urlpatterns = [
    path("", host.home, name="home"),
    # Browsers and phones ask for /favicon.ico whatever the page links: send them the static one.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.ico"), permanent=True)),
    path("host/clubs/", include("clubs.urls")),  # issue 25: a club's members and seasons (the clubs app)
    path("host/", include(host_patterns)),
    path("m/", include("clubs.member_urls")),  # issue 25 item 5: a club member's private page and calendar
    path("g/<str:key>/", guest.guest_page, name="guest-page"),
    path("g/<str:key>/wait/", waits.guest_wait, name="guest-wait"),  # issue 26 item 2: the push
    path("g/<str:key>/report/", guest.captain_report, name="guest-report"),
    path("g/<str:key>/vote/", guest.captain_vote, name="guest-vote"),
    path("g/<str:key>/here/", guest.check_in, name="guest-check-in"),
    path("e/<str:key>/", door.door_page, name="door"),
    path("e/<str:key>/seating/", draw.public_seating, name="public-seating"),
    path("rules/", guest.rules_page, name="rules"),
    path("guide/", guide.host_guide, name="guide"),
    path("rules/<str:game>/", rulebook.rules_game, name="rules-game"),
    path("e/<str:public_key>/rules/", rulebook.rules_evening, name="rules-evening"),
    path("e/<str:public_key>/room/", room.room_display, name="room"),  # issue 5: the room display
    path("g/<str:key>/showdown/", showdown.guest_showdown, name="guest-showdown"),
    # helpers' links: the door and the scores, without the host's password
    path("h/<str:key>/", helpers.helper_page, name="helper-page"),
    path("h/<str:key>/guests/<int:guest_id>/", helpers.helper_guest, name="helper-guest"),
    path("h/<str:key>/check-in/", helpers.helper_check_in, name="helper-check-in"),
    path("h/<str:key>/result/<int:table>/", helpers.helper_result, name="helper-result"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
