"""The tournament pages (``/tournaments/…``); the JSON API is ``tournaments.urls``."""

from django.urls import path

from tournaments import live, views

urlpatterns = [
    path("", views.tournament_list, name="tournament-list"),
    path("<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path("<slug:slug>/board", views.tournament_board, name="tournament-board"),
    path("<slug:slug>/embed", views.tournament_embed, name="tournament-embed"),
    path("<slug:slug>/register", views.register, name="tournament-page-register"),
    path("<slug:slug>/withdraw", views.withdraw, name="tournament-page-withdraw"),
    path("<slug:slug>/check-in", views.check_in, name="tournament-page-check-in"),
]

live_urls = [
    path("<slug:slug>/", live.tournament_stream, name="tournament-live"),
]
