from django.urls import path

from hosting.core import converters  # noqa: F401  (registers number and code)
from tournaments.api import audit as audit_api
from tournaments.api import entrants as entrant_api
from tournaments.api import matches as match_api
from tournaments.api import season_extras as extras_api
from tournaments.api import seasons as season_api
from tournaments.api import tournaments as tournament_api
from tournaments.exports import api as export_api
from tournaments.webhooks import api as webhook_api

urlpatterns = [
    path("", tournament_api.TournamentListView.as_view(), name="api-tournament-list"),
    path(
        "<slug:slug>/", tournament_api.TournamentDetailView.as_view(), name="api-tournament-detail"
    ),
    path(
        "<slug:slug>/registration/open",
        tournament_api.RegistrationOpenView.as_view(),
        name="tournament-registration-open",
    ),
    path(
        "<slug:slug>/check-in/open",
        tournament_api.CheckInOpenView.as_view(),
        name="tournament-check-in-open",
    ),
    path("<slug:slug>/seeding", tournament_api.SeedingView.as_view(), name="tournament-seeding"),
    path("<slug:slug>/start", tournament_api.StartView.as_view(), name="tournament-start"),
    path(
        "<slug:slug>/next-round",
        tournament_api.NextRoundView.as_view(),
        name="tournament-next-round",
    ),
    path("<slug:slug>/register", entrant_api.RegisterView.as_view(), name="tournament-register"),
    path("<slug:slug>/withdraw", entrant_api.WithdrawView.as_view(), name="tournament-withdraw"),
    path("<slug:slug>/check-in", entrant_api.CheckInView.as_view(), name="tournament-check-in"),
    path(
        "<slug:slug>/matches/<code:code>/result",
        match_api.MatchResultView.as_view(),
        name="tournament-match-result",
    ),
    path(
        "<slug:slug>/matches/<code:code>/claim",
        match_api.MatchClaimView.as_view(),
        name="tournament-match-claim",
    ),
    path("<slug:slug>/standings", match_api.StandingsView.as_view(), name="tournament-standings"),
    path("<slug:slug>/audit", audit_api.AuditView.as_view(), name="tournament-audit"),
    path("<slug:slug>/export.json", export_api.ExportJSONView.as_view(), name="tournament-export"),
    path(
        "<slug:slug>/export.csv", export_api.ExportCSVView.as_view(), name="tournament-export-csv"
    ),
    path("<slug:slug>/ledger", season_api.LedgerView.as_view(), name="tournament-ledger"),
    path("<slug:slug>/transfers", extras_api.TransfersView.as_view(), name="season-transfers"),
    path(
        "<slug:slug>/transfers/<id:transfer_id>",
        extras_api.TransferDecisionView.as_view(),
        name="season-transfer",
    ),
    path("<slug:slug>/questions", extras_api.QuestionsView.as_view(), name="season-questions"),
    path(
        "<slug:slug>/questions/<id:question_id>/answer",
        extras_api.AnswerView.as_view(),
        name="season-question-answer",
    ),
    path("<slug:slug>/rules", extras_api.RulesView.as_view(), name="season-rules-api"),
    path("<slug:slug>/handouts", extras_api.HandoutsView.as_view(), name="season-handouts"),
    path(
        "<slug:slug>/confessionals",
        extras_api.ConfessionalsView.as_view(),
        name="season-confessionals",
    ),
    path("<slug:slug>/lounge", extras_api.LoungeView.as_view(), name="season-lounge-api"),
    path(
        "<slug:slug>/activity-checks",
        extras_api.ActivityChecksView.as_view(),
        name="season-activity-checks",
    ),
    path(
        "<slug:slug>/activity-checks/<id:check_id>/check-in",
        extras_api.ActivityCheckInView.as_view(),
        name="season-activity-check-in",
    ),
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
        season_api.SealedOpenView.as_view(),
        name="episode-sealed-open",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/submit",
        season_api.SealedSubmitView.as_view(),
        name="episode-sealed-submit",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/submissions",
        season_api.SubmissionsView.as_view(),
        name="episode-submissions",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/reveal",
        season_api.SealedRevealView.as_view(),
        name="episode-sealed-reveal",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/main-match",
        season_api.MainMatchView.as_view(),
        name="episode-main-match",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/death-match",
        season_api.DeathMatchSetupView.as_view(),
        name="episode-death-match",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/candidates",
        season_api.CandidatesView.as_view(),
        name="episode-candidates",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/token",
        season_api.TokenView.as_view(),
        name="episode-token",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/opponent",
        season_api.OpponentView.as_view(),
        name="episode-opponent",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/dm-pick",
        season_api.DeathMatchPickView.as_view(),
        name="episode-dm-pick",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/dm-ban",
        season_api.DeathMatchBanView.as_view(),
        name="episode-dm-ban",
    ),
    path(
        "<slug:slug>/episodes/<number:number>/dm-advantage",
        season_api.DeathMatchAdvantageView.as_view(),
        name="episode-dm-advantage",
    ),
]
