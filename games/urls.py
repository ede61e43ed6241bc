from django.urls import path

from games import api, live, views

api_urls = [
    path("", api.GameCreateView.as_view(), name="game-create"),
    path("<int:game_id>/", api.GameDetailView.as_view(), name="game-detail"),
    path("<int:game_id>/seats/<int:number>/claim", api.SeatClaimView.as_view(), name="seat-claim"),
    path("<int:game_id>/start", api.GameStartView.as_view(), name="game-start"),
    path("<int:game_id>/actions", api.GameActionView.as_view(), name="game-actions"),
    path("<int:game_id>/token", api.SeatTokenView.as_view(), name="seat-token"),
    path("<int:game_id>/leave", api.SeatLeaveView.as_view(), name="game-leave"),
    path("<int:game_id>/legal", api.LegalActionsView.as_view(), name="game-legal"),
    path("<int:game_id>/log", api.GameLogView.as_view(), name="game-log"),
    path("<int:game_id>/verify", api.GameVerifyView.as_view(), name="game-verify"),
]

live_urls = [
    path("<int:game_id>/", live.game_stream, name="game-live"),
]

page_urls = [
    path("", views.game_list, name="game-list"),
    path("<int:game_id>/", views.game_page, name="game-page"),
    path("<int:game_id>/replay", views.game_replay, name="game-replay"),
    path("<int:game_id>/verify", views.game_verify, name="game-verify-page"),
]
