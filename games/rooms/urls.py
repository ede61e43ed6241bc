"""The casual rooms' routes: the JSON API under /api/rooms/ and the pages /play/ and /r/<code>."""

from django.urls import path

from games.rooms import api as room_api
from games.rooms import views as room_views
from hosting.core import converters  # noqa: F401  (registers code)

api_urls = [
    path("", room_api.RoomCreateView.as_view(), name="room-create"),
    path("practice", room_api.PracticeView.as_view(), name="room-practice"),
    path("quick", room_api.QuickMatchView.as_view(), name="room-quick"),
    path("<code:code>/", room_api.RoomDetailView.as_view(), name="room-detail"),
    path("<code:code>/join", room_api.RoomJoinView.as_view(), name="room-join"),
    path("<code:code>/ready", room_api.RoomReadyView.as_view(), name="room-ready"),
    path("<code:code>/remove", room_api.RoomRemoveView.as_view(), name="room-remove"),
    path("<code:code>/side", room_api.RoomSideView.as_view(), name="room-side"),
    path("<code:code>/leave", room_api.RoomLeaveView.as_view(), name="room-leave"),
    path("<code:code>/start", room_api.RoomStartView.as_view(), name="room-start"),
]

play_urls = [
    path("", room_views.play, name="play"),
    path("practice", room_views.practice, name="play-practice"),
    path("quick", room_views.quick, name="play-quick"),
]

room_page_urls = [
    path("<code:code>", room_views.room_page, name="room-page"),
    path("<code:code>/lobby", room_views.room_lobby, name="room-lobby"),
    path("<code:code>/presence", room_views.room_presence, name="room-presence"),
    path("<code:code>/<str:step>", room_views.room_step, name="room-step"),
]
