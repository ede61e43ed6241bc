"""The tournament pages (``/tournaments/…``); the JSON API is ``tournaments.urls``."""

from django.urls import path

from hosting.core import converters  # noqa: F401  (registers id)
from tournaments import calendars, live
from tournaments.scheduling import views as slot_views
from tournaments.views import manage as manage_views
from tournaments.views import organisers as organiser_views
from tournaments.views import public as views
from tournaments.views import season_desk
from tournaments.webhooks import views as webhook_pages

urlpatterns = [
    path("", views.tournament_list, name="tournament-list"),
    path("new/", manage_views.tournament_create, name="tournament-create"),
    path("mine/", views.my_tournaments, name="my-tournaments"),
    path("become-organiser/", organiser_views.become_organiser, name="become-organiser"),
    path("organiser-requests/", organiser_views.organiser_requests, name="organiser-requests"),
    path(
        "organiser-requests/<id:request_id>",
        organiser_views.organiser_request_answer,
        name="organiser-request-answer",
    ),
    path("<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path("<slug:slug>/board", views.tournament_board, name="tournament-board"),
    path("<slug:slug>/calendar.ics", calendars.tournament_feed, name="tournament-calendar"),
    path("<slug:slug>/matches/<str:code>/slot", slot_views.slot_page, name="match-slot"),
    path("<slug:slug>/entrants", views.tournament_entrants, name="tournament-entrants"),
    path("<slug:slug>/embed", views.tournament_embed, name="tournament-embed"),
    path("<slug:slug>/register", views.register, name="tournament-page-register"),
    path("<slug:slug>/withdraw", views.withdraw, name="tournament-page-withdraw"),
    path("<slug:slug>/check-in", views.check_in, name="tournament-page-check-in"),
    path("<slug:slug>/report", views.report, name="tournament-page-report"),
    path("<slug:slug>/garnets", views.transfer, name="tournament-page-transfer"),
    path("<slug:slug>/rules", season_desk.rules_page, name="season-rules"),
    path("<slug:slug>/desk", season_desk.desk, name="season-desk"),
    path("<slug:slug>/desk/<str:action>", season_desk.desk_action, name="season-desk-action"),
    path("<slug:slug>/lounge", season_desk.lounge, name="season-lounge"),
    path(
        "<slug:slug>/handouts/<id:handout_id>/file",
        season_desk.handout_file,
        name="season-handout-file",
    ),
    path(
        "<slug:slug>/episodes/<int:number>/submit",
        views.sealed_submit,
        name="episode-page-submit",
    ),
    path(
        "<slug:slug>/episodes/<int:number>/candidates",
        views.candidates,
        name="episode-page-candidates",
    ),
    path("<slug:slug>/episodes/<int:number>/token", views.token, name="episode-page-token"),
    path("<slug:slug>/episodes/<int:number>/ban", views.ban, name="episode-page-ban"),
    path(
        "<slug:slug>/episodes/<int:number>/opponent", views.opponent, name="episode-page-opponent"
    ),
    path("<slug:slug>/manage/", manage_views.console, name="tournament-manage"),
    path("<slug:slug>/manage/edit", manage_views.tournament_edit, name="tournament-edit"),
    path("<slug:slug>/manage/webhooks", webhook_pages.webhooks_page, name="tournament-webhooks"),
    path(
        "<slug:slug>/manage/webhooks/<id:hook_id>/<str:action>",
        webhook_pages.webhook_action,
        name="tournament-webhook-action",
    ),
    path("<slug:slug>/manage/<str:action>", manage_views.act, name="tournament-manage-action"),
]

live_urls = [
    path("<slug:slug>/", live.tournament_stream, name="tournament-live"),
]
