"""A member's private pages, under /m/<key>/ (included by name from ``tournament.urls``)."""

from django.urls import path

from clubs import ceremony_views, member_views

urlpatterns = [
    path("<str:room_key>/room/", ceremony_views.season_room, name="season-room"),
    path("<str:key>/", member_views.member_home, name="member-page"),
    path("<str:key>/calendar.ics", member_views.member_calendar, name="member-calendar"),
]
