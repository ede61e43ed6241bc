from django.urls import path

from games import api, live, views
from hosting.core import converters  # noqa: F401  (registers id and number)

api_urls = [
    path("", api.GameCreateView.as_view(), name="game-create"),
    path("<id:game_id>/", api.GameDetailView.as_view(), name="game-detail"),
    path(
        "<id:game_id>/seats/<number:number>/claim", api.SeatClaimView.as_view(), name="seat-claim"
    ),
    path("<id:game_id>/start", api.GameStartView.as_view(), name="game-start"),
    path("<id:game_id>/client-seed", api.ClientSeedView.as_view(), name="game-client-seed"),
    path("<id:game_id>/actions", api.GameActionView.as_view(), name="game-actions"),
    path("<id:game_id>/token", api.SeatTokenView.as_view(), name="seat-token"),
    path("<id:game_id>/leave", api.SeatLeaveView.as_view(), name="game-leave"),
    path("<id:game_id>/legal", api.LegalActionsView.as_view(), name="game-legal"),
    path("<id:game_id>/log", api.GameLogView.as_view(), name="game-log"),
    path("<id:game_id>/public-log", api.PublicLogView.as_view(), name="game-public-log"),
    path("<id:game_id>/verify", api.GameVerifyView.as_view(), name="game-verify"),
]

live_urls = [
    path("<id:game_id>/", live.game_stream, name="game-live"),
]

page_urls = [
    path("", views.game_list, name="game-list"),
    path("<id:game_id>/", views.game_page, name="game-page"),
    path("<id:game_id>/replay", views.game_replay, name="game-replay"),
    path("<id:game_id>/verify", views.game_verify, name="game-verify-page"),
]
