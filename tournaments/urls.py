from django.urls import path

from hosting.core import converters  # noqa: F401  (registers number and code)
from tournaments import api
from tournaments.exports import api as export_api
from tournaments.webhooks import api as webhook_api

urlpatterns = [
    path("", api.TournamentListView.as_view(), name="api-tournament-list"),
    path("<slug:slug>/", api.TournamentDetailView.as_view(), name="api-tournament-detail"),
    path(
        "<slug:slug>/registration/open",
        api.RegistrationOpenView.as_view(),
        name="tournament-registration-open",
    ),
    path(
        "<slug:slug>/check-in/open", api.CheckInOpenView.as_view(), name="tournament-check-in-open"
    ),
    path("<slug:slug>/seeding", api.SeedingView.as_view(), name="tournament-seeding"),
    path("<slug:slug>/start", api.StartView.as_view(), name="tournament-start"),
    path("<slug:slug>/next-round", api.NextRoundView.as_view(), name="tournament-next-round"),
    path("<slug:slug>/register", api.RegisterView.as_view(), name="tournament-register"),
    path("<slug:slug>/withdraw", api.WithdrawView.as_view(), name="tournament-withdraw"),
    path("<slug:slug>/check-in", api.CheckInView.as_view(), name="tournament-check-in"),
    path(
        "<slug:slug>/matches/<code:code>/result",
        api.MatchResultView.as_view(),
        name="tournament-match-result",
    ),
    path("<slug:slug>/standings", api.StandingsView.as_view(), name="tournament-standings"),
    path("<slug:slug>/audit", api.AuditView.as_view(), name="tournament-audit"),
    path("<slug:slug>/export.json", export_api.ExportJSONView.as_view(), name="tournament-export"),
    path(
        "<slug:slug>/export.csv", export_api.ExportCSVView.as_view(), name="tournament-export-csv"
    ),
    path("<slug:slug>/ledger", api.LedgerView.as_view(), name="tournament-ledger"),
    path("<slug:slug>/webhooks", webhook_api.WebhookListView.as_view(), name="api-webhooks"),
    path(
        "<slug:slug>/webhooks/<id:hook_id>",
        webhook_api.WebhookDetailView.as_view(),
        name="api-webhook",
    ),
    path(
        "<slug:slug>/webhooks/<id:hook_id>/test",
        webhook_api.WebhookTestView.as_view(),
        name="api-webhook-test",
    ),
    path(
        "<slug:slug>/webhooks/<id:hook_id>/deliveries",
        webhook_api.WebhookDeliveriesView.as_view(),
        name="api-webhook-deliveries",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/sealed",
        api.SealedOpenView.as_view(),
        name="episode-sealed-open",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/submit",
        api.SealedSubmitView.as_view(),
        name="episode-sealed-submit",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/submissions",
        api.SubmissionsView.as_view(),
        name="episode-submissions",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/reveal",
        api.SealedRevealView.as_view(),
        name="episode-sealed-reveal",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/main-match",
        api.MainMatchView.as_view(),
        name="episode-main-match",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/death-match",
        api.DeathMatchSetupView.as_view(),
        name="episode-death-match",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/candidates",
        api.CandidatesView.as_view(),
        name="episode-candidates",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/token", api.TokenView.as_view(), name="episode-token"
    ),
    path(
        "<slug:slug>/episodes/<number:number>/opponent",
        api.OpponentView.as_view(),
        name="episode-opponent",
    ),
]
