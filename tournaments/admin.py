"""Tournaments in the Django admin: every row to look at, and changes only as admin actions
that call the services, so each is checked, audited and repairs what depends on it exactly as
through the API. Sealed answers stay sealed until the organiser reveals them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from hosting.core.errors import UserError
from hosting.core.safe_admin import ReadOnly, ReadOnlyInline, through_service
from tournaments import services
from tournaments.models import (
    ActivityCheck,
    ActivityCheckIn,
    AuditEntry,
    Confessional,
    DeathMatchPick,
    Dispute,
    DisputeComment,
    Entrant,
    Episode,
    GarnetTransfer,
    Handout,
    LedgerEntry,
    Match,
    MatchGame,
    OrganiserRequest,
    Round,
    RuleQuestion,
    RulesVersion,
    SealedSubmission,
    Stage,
    TokenEntry,
    Tournament,
    WebhookDelivery,
    WebhookEndpoint,
)
from tournaments.seasons import services as seasons
from tournaments.services import organisers
from tournaments.webhooks import services as webhooks


def _all_fields(model: Any) -> tuple[str, ...]:
    return tuple(field.name for field in model._meta.concrete_fields if field.name != "id")


class EntrantInline(ReadOnlyInline):
    model = Entrant
    fields = ("display_name", "user", "partner", "status", "seed", "eliminated_in")
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(ReadOnly):
    list_display = ("name", "game", "format", "status", "visibility", "organiser", "created")
    list_filter = ("status", "visibility", "game", "format")
    search_fields = ("name", "slug")
    readonly_fields = _all_fields(Tournament)
    inlines = [EntrantInline]
    actions = ["open_registration", "open_check_in", "start"]

    @admin.action(description=_("Open registration"))
    def open_registration(self, request: HttpRequest, rows: QuerySet[Tournament]) -> None:
        through_service(
            self,
            request,
            rows,
            lambda t: services.registration_open(tournament=t, by=request.user),
            _("Registration opened for {count} tournament(s)."),
        )

    @admin.action(description=_("Open check-in"))
    def open_check_in(self, request: HttpRequest, rows: QuerySet[Tournament]) -> None:
        through_service(
            self,
            request,
            rows,
            lambda t: services.check_in_open(tournament=t, by=request.user),
            _("Check-in opened for {count} tournament(s)."),
        )

    @admin.action(description=_("Start (bracket, Swiss or season)"))
    def start(self, request: HttpRequest, rows: QuerySet[Tournament]) -> None:
        def begin(tournament: Tournament) -> None:
            if tournament.format == "genius":
                seasons.season_start(tournament=tournament, by=request.user)
            else:
                services.stage_start(tournament=tournament, by=request.user)

        through_service(self, request, rows, begin, _("{count} tournament(s) started."))


@admin.register(Entrant)
class EntrantAdmin(ReadOnly):
    list_display = ("display_name", "tournament", "status", "seed")
    list_filter = ("status",)
    search_fields = ("display_name", "user__username")
    readonly_fields = _all_fields(Entrant)
    actions = ["withdraw"]

    @admin.action(description=_("Withdraw"))
    def withdraw(self, request: HttpRequest, rows: QuerySet[Entrant]) -> HttpResponse | None:
        """First a page naming what each withdrawal costs and asking why; then the same
        service call as the console's and the API's."""
        reason = request.POST.get("reason", "").strip()
        if request.POST.get("confirm") != "yes" or not reason:
            costs = []
            for row in rows.select_related("tournament"):
                try:
                    costs.append((row, services.consequence(entrant=row, by=request.user), ""))
                except UserError as error:
                    costs.append((row, None, error.message))
            context = {
                **self.admin_site.each_context(request),
                "title": _("Withdraw entrants"),
                "costs": costs,
                "rows": rows,
                "missing_reason": request.POST.get("confirm") == "yes",
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            }
            return TemplateResponse(request, "tournaments/admin_withdraw.html", context)
        through_service(
            self,
            request,
            rows,
            lambda e: services.entrant_withdraw(entrant=e, by=request.user, reason=reason),
            _("{count} entrant(s) withdrawn."),
        )
        return None


@admin.register(OrganiserRequest)
class OrganiserRequestAdmin(ReadOnly):
    """Requests for the organiser role; answered here or on /tournaments/organiser-requests/,
    both through the same service (approving grants the role, which the audit records)."""

    list_display = ("user", "status", "created", "decided_by")
    list_filter = ("status",)
    search_fields = ("user__username",)
    readonly_fields = _all_fields(OrganiserRequest)
    actions = ["approve", "decline"]

    @admin.action(description=_("Approve"))
    def approve(self, request: HttpRequest, rows: QuerySet[OrganiserRequest]) -> None:
        through_service(
            self,
            request,
            rows,
            lambda r: organisers.organiser_request_decide(request=r, by=request.user, approve=True),
            _("Requests approved: {count}."),
        )

    @admin.action(description=_("Decline"))
    def decline(self, request: HttpRequest, rows: QuerySet[OrganiserRequest]) -> None:
        through_service(
            self,
            request,
            rows,
            lambda r: organisers.organiser_request_decide(
                request=r, by=request.user, approve=False
            ),
            _("Requests declined: {count}."),
        )


@admin.register(Stage)
class StageAdmin(ReadOnly):
    list_display = ("tournament", "number", "format", "status", "total_rounds")
    readonly_fields = _all_fields(Stage)


@admin.register(Round)
class RoundAdmin(ReadOnly):
    list_display = ("stage", "bracket", "number", "status")
    readonly_fields = _all_fields(Round)


class MatchGameInline(ReadOnlyInline):
    model = MatchGame
    fields = ("number", "game", "home_seat")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(ReadOnly):
    list_display = ("code", "stage", "home", "away", "status", "winner", "result_kind")
    list_filter = ("status", "result_kind")
    readonly_fields = _all_fields(Match)
    inlines = [MatchGameInline]
    actions = ["home_wins", "away_wins"]

    def _record(self, request: HttpRequest, rows: QuerySet[Match], side: str) -> None:
        # A correction that would reset started matches is refused here with the service's
        # reason; forcing one (a reason, the dry run's list) is done through the API.
        through_service(
            self,
            request,
            rows,
            lambda m: services.match_report_result(
                match=m, by=request.user, winner=getattr(m, side)
            ),
            _("{count} result(s) recorded."),
        )

    @admin.action(description=_("Record a win for the home entrant"))
    def home_wins(self, request: HttpRequest, rows: QuerySet[Match]) -> None:
        self._record(request, rows, "home")

    @admin.action(description=_("Record a win for the away entrant"))
    def away_wins(self, request: HttpRequest, rows: QuerySet[Match]) -> None:
        self._record(request, rows, "away")


@admin.register(MatchGame)
class MatchGameAdmin(ReadOnly):
    list_display = ("match", "number", "game", "home_seat")
    readonly_fields = _all_fields(MatchGame)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly):
    """Append-only: no add, change or delete here (``ReadOnly``), nor any bulk delete action;
    the model and a PostgreSQL trigger refuse too."""

    list_display = ("at", "tournament", "action", "target", "actor", "reason")
    list_filter = ("action",)
    search_fields = ("action", "target", "reason")

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}

    readonly_fields = _all_fields(AuditEntry)


class DisputeCommentInline(ReadOnlyInline):
    model = DisputeComment
    fields = ("author", "role", "text", "at")
    readonly_fields = fields


@admin.register(Dispute)
class DisputeAdmin(ReadOnly):
    """To read only: disputes are filed, taken and ruled on their own pages
    (``/admin/disputes/``), which call the services that audit each step."""

    list_display = ("pk", "tournament", "match", "filed_by", "status", "assignee", "ruling")
    list_filter = ("status", "ruling")
    readonly_fields = _all_fields(Dispute)
    inlines = [DisputeCommentInline]


@admin.register(DisputeComment)
class DisputeCommentAdmin(ReadOnly):
    list_display = ("dispute", "author", "role", "at")
    list_filter = ("role",)
    readonly_fields = _all_fields(DisputeComment)


@admin.register(Episode)
class EpisodeAdmin(ReadOnly):
    list_display = ("tournament", "number", "kind", "status")
    list_filter = ("status", "kind")
    readonly_fields = _all_fields(Episode)


@admin.register(SealedSubmission)
class SealedSubmissionAdmin(ReadOnly):
    list_display = ("episode", "entrant", "submitted_at")
    fields = ("episode", "entrant", "answer", "submitted_at")
    readonly_fields = fields

    @admin.display(description=_("answer"))
    def answer(self, submission: SealedSubmission) -> str:
        if submission.episode.mm_revealed:
            return submission.text
        return str(_("sealed until the organiser reveals the answers"))


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnly):
    """Append-only: corrections are new entries, made through the ledger service."""

    list_display = ("tournament", "kind", "entrant", "amount", "currency", "to", "said", "at")
    list_filter = ("kind", "currency", "private")
    readonly_fields = _all_fields(LedgerEntry)

    @admin.display(description=_("reason"))
    def said(self, entry: LedgerEntry) -> str:
        # A private transfer's reason is read on its own row, never in the list.
        return str(_("private")) if entry.private else entry.reason


# -- a season's extras: hidden texts (handouts, confessionals, private transfers) are never
# listed; a staff admin runs every tournament and so may open one row to read it.


@admin.register(TokenEntry)
class TokenEntryAdmin(ReadOnly):
    list_display = ("tournament", "episode", "entrant", "kind", "count", "at")
    list_filter = ("kind",)
    readonly_fields = _all_fields(TokenEntry)


@admin.register(GarnetTransfer)
class GarnetTransferAdmin(ReadOnly):
    list_display = ("tournament", "pk", "status", "private", "created")
    list_filter = ("status", "private")
    readonly_fields = _all_fields(GarnetTransfer)


@admin.register(RulesVersion)
class RulesVersionAdmin(ReadOnly):
    list_display = ("tournament", "number", "change", "at")
    readonly_fields = _all_fields(RulesVersion)


@admin.register(RuleQuestion)
class RuleQuestionAdmin(ReadOnly):
    list_display = ("tournament", "pk", "status", "created")
    list_filter = ("status",)
    readonly_fields = _all_fields(RuleQuestion)


@admin.register(Handout)
class HandoutAdmin(ReadOnly):
    list_display = ("tournament", "pk", "episode", "created")
    readonly_fields = ("tournament", "title", "text", "file_name", "episode", "by", "created")
    exclude = ("recipients", "file_data")


@admin.register(ActivityCheck)
class ActivityCheckAdmin(ReadOnly):
    list_display = ("tournament", "episode", "cutoff", "policy", "status", "applied_at")
    list_filter = ("status", "policy")
    readonly_fields = _all_fields(ActivityCheck)


@admin.register(ActivityCheckIn)
class ActivityCheckInAdmin(ReadOnly):
    list_display = ("activity_check", "entrant", "at")
    readonly_fields = _all_fields(ActivityCheckIn)


@admin.register(DeathMatchPick)
class DeathMatchPickAdmin(ReadOnly):
    list_display = ("episode", "mode", "chosen", "step_deadline")
    readonly_fields = _all_fields(DeathMatchPick)


@admin.register(Confessional)
class ConfessionalAdmin(ReadOnly):
    list_display = ("tournament", "pk", "episode", "at")
    readonly_fields = _all_fields(Confessional)


# -- webhooks (the signing secret is the organiser's: never shown here) -----------------------


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(ReadOnly):
    list_display = ("tournament", "url", "active", "created_by", "created")
    list_filter = ("active",)
    search_fields = ("url", "tournament__slug")
    fields = ("tournament", "url", "events", "active", "language", "created_by", "created")
    readonly_fields = fields
    actions = ["switch_off"]

    @admin.action(description=_("Switch the selected webhooks off"))
    def switch_off(self, request: HttpRequest, rows: QuerySet[WebhookEndpoint]) -> None:
        through_service(
            self,
            request,
            rows,
            lambda e: webhooks.endpoint_update(endpoint=e, by=request.user, active=False),
            _("{count} webhook(s) switched off."),
        )


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnly):
    list_display = ("created", "endpoint", "event", "status", "attempts", "response_code")
    list_filter = ("status", "event")
    readonly_fields = _all_fields(WebhookDelivery)


from tournaments.scheduling import admin as scheduling_admin  # noqa: E402, F401  (registers)
