"""The club pages, under /host/clubs/ (the host's, as the evenings' pages are)."""

from django.urls import path

from clubs import calendar_views, ceremony_views, kitty_views, views

urlpatterns = [
    path("", views.club_list, name="clubs"),
    path("<int:club_id>/", views.club_detail, name="club"),
    path("<int:club_id>/settings/", views.club_settings, name="club-settings"),
    path("<int:club_id>/members/<int:member_id>/", views.member_action, name="club-member"),
    path("<int:club_id>/evenings/new/", views.club_evening_new, name="club-evening-new"),
    path("<int:club_id>/evenings/bring/", views.evening_bring, name="club-evening-bring"),
    path("<int:club_id>/subs/promote/", views.sub_promote, name="club-sub-promote"),
    path("<int:club_id>/seasons/", views.season_new, name="club-season-new"),
    path("<int:club_id>/seasons/<int:season_id>/", views.season_page, name="club-season"),
    path("<int:club_id>/seasons/<int:season_id>/close/", views.season_close, name="club-season-close"),
    path(
        "<int:club_id>/seasons/<int:season_id>/ceremony/", ceremony_views.season_ceremony_tap, name="club-season-reveal"
    ),
    path("<int:club_id>/evenings/<int:evening_id>/kitty/", kitty_views.evening_kitty, name="club-kitty"),
    path(
        "<int:club_id>/evenings/<int:evening_id>/settlement.pdf", kitty_views.evening_kitty_pdf, name="club-kitty-pdf"
    ),
    path("<int:club_id>/seasons/<int:season_id>/ledger/", kitty_views.season_ledger_page, name="club-ledger"),
    path("<int:club_id>/seasons/<int:season_id>/calendar/", calendar_views.season_calendar_page, name="club-calendar"),
    path(
        "<int:club_id>/seasons/<int:season_id>/calendar/<int:evening_id>/",
        calendar_views.calendar_evening,
        name="club-calendar-evening",
    ),
    path("<int:club_id>/seasons/<int:season_id>/links/", calendar_views.member_links, name="club-member-links"),
]
urlpatterns += [
    path(f"<int:club_id>/seasons/<int:season_id>/{what}", kitty_views.season_export, {"what": what}, name=name)
    for what, name in (
        ("standings.csv", "club-standings-csv"),
        ("standings.pdf", "club-standings-pdf"),
        ("ledger.csv", "club-ledger-csv"),
        ("ledger.pdf", "club-ledger-pdf"),
        ("season.json", "club-season-json"),
    )
]
