"""Garnet transfers between players ("PM me if you want to transfer garnets"), by the season's
rule (``SeasonRules.transfers``): done at once, once the receiver accepts, or once the host
approves. A done transfer is one append-only ledger entry (``LedgerEntry`` kind ``transfer``,
payer and receiver), written through the pure ledger so that an overdraft is refused.

A private transfer (``transfer_visibility``) is seen only by its two players and the hosts:
its offer and its ledger entry are left out of every public read (the board, the API's
balances, the episode story, webhooks, exports), and its audit entry names no amount.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from hosting.core.errors import Conflict, Forbidden
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import check_runs, runs
from tournaments.formats import genius, ledger
from tournaments.models import Entrant, GarnetTransfer, LedgerEntry, Tournament
from tournaments.seasons import services as seasons

TransferStatus = GarnetTransfer.Status


def _season_running(tournament: Tournament) -> None:
    if tournament.format != genius.KEY:
        raise TournamentUserError(_("garnets belong to Genius seasons"))
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict(_("garnets change hands only while the season runs"))


def _private(rules: genius.SeasonRules, private: bool | None) -> bool:
    if rules.transfer_visibility == "choice":
        return bool(private)
    if private is not None and private != (rules.transfer_visibility == "private"):
        raise TournamentUserError(
            _("this season's transfers are all public")
            if rules.transfer_visibility == "public"
            else _("this season's transfers are all private")
        )
    return rules.transfer_visibility == "private"


def offer(
    *,
    tournament: Tournament,
    by: Any,
    sender: Entrant,
    receiver: Entrant,
    amount: int,
    reason: str = "",
    private: bool | None = None,
) -> GarnetTransfer:
    """A player offers garnets to another; done at once when the rule says so."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        _season_running(tournament)
        if getattr(by, "pk", None) != sender.user_id:
            raise Forbidden(_("only the payer can transfer their garnets"))
        players = seasons.season_for(tournament).players
        if sender.tournament_id != tournament.pk or receiver.tournament_id != tournament.pk:
            raise TournamentUserError(_("every entrant in a ledger entry must be in this season"))
        if sender.pk not in players or receiver.pk not in players:
            raise Conflict(_("garnets change hands only between players still in the season"))
        if sender.pk == receiver.pk:
            raise TournamentUserError(_("a transfer goes to another player"))
        if amount < 1:
            raise TournamentUserError(_("a transfer is of at least one garnet"))
        rules = seasons.rules_for(tournament)
        is_private = _private(rules, private)
        # Refuse at once what the ledger could never pay (it checks again when it is done).
        seasons._decided(
            ledger.transfer,
            seasons.ledger_for(tournament),
            sender.pk,
            receiver.pk,
            amount,
            reason.strip() or "transfer",
            currency=rules.currency,
        )
        episode = tournament.episodes.order_by("-number").values_list("number", flat=True).first()
        status = {
            "immediate": TransferStatus.DONE,
            "receiver_accepts": TransferStatus.AWAITING_RECEIVER,
            "host_approves": TransferStatus.AWAITING_HOST,
        }[rules.transfers]
        transfer = GarnetTransfer.objects.create(
            tournament=tournament,
            sender=sender,
            receiver=receiver,
            amount=amount,
            reason=reason.strip()[:200],
            private=is_private,
            status=TransferStatus.AWAITING_RECEIVER,
            episode=episode,
        )
        audit.log(tournament, by, "season.transfer.offered", **_said(transfer))
        if status == TransferStatus.DONE:
            _complete(tournament, transfer, by)
        elif status != transfer.status:
            transfer.status = status
            transfer.save(update_fields=["status"])
        return transfer


def _said(transfer: GarnetTransfer) -> dict[str, Any]:
    """What the audit keeps of a transfer: a private one's amount and reason stay with it."""
    data: dict[str, Any] = {"transfer": transfer.pk, "private": transfer.private}
    if not transfer.private:
        data |= {"entrant": transfer.sender_id, "to": transfer.receiver_id}
        data["amount"] = transfer.amount
    return data


def _complete(tournament: Tournament, transfer: GarnetTransfer, by: Any) -> None:
    rules = seasons.rules_for(tournament)
    before = seasons.ledger_for(tournament)
    reason = transfer.reason or _("transfer")
    after = seasons._decided(
        ledger.transfer,
        before,
        transfer.sender_id,
        transfer.receiver_id,
        transfer.amount,
        reason,
        currency=rules.currency,
    )
    (entry,) = after[len(before) :]
    row = LedgerEntry.objects.create(
        tournament=tournament,
        kind=entry.kind,
        entrant_id=entry.player,
        amount=entry.amount,
        to_id=entry.to,
        currency=entry.currency,
        reason=entry.reason,
        episode=transfer.episode,
        private=transfer.private,
    )
    transfer.status = TransferStatus.DONE
    transfer.ledger_entry = row
    transfer.decided_at = timezone.now()
    transfer.decided_by = by if getattr(by, "is_authenticated", False) else None
    transfer.save(update_fields=["status", "ledger_entry", "decided_at", "decided_by"])
    audit.log(tournament, by, "season.transfer.done", **_said(transfer))


def _locked(transfer: GarnetTransfer) -> tuple[Tournament, GarnetTransfer]:
    tournament = lock_tournament(transfer.tournament)
    return tournament, GarnetTransfer.objects.select_for_update().get(pk=transfer.pk)


def accept(*, transfer: GarnetTransfer, by: Any) -> GarnetTransfer:
    """The receiver accepts (``receiver_accepts``)."""
    with transaction.atomic():
        tournament, transfer = _locked(transfer)
        if getattr(by, "pk", None) != transfer.receiver.user_id:
            raise Forbidden(_("only the receiver accepts a transfer"))
        if transfer.status != TransferStatus.AWAITING_RECEIVER:
            raise Conflict(_("this transfer is not waiting for the receiver"))
        _complete(tournament, transfer, by)
        return transfer


def approve(*, transfer: GarnetTransfer, by: Any) -> GarnetTransfer:
    """A host approves (``host_approves``)."""
    with transaction.atomic():
        tournament, transfer = _locked(transfer)
        check_runs(tournament, by)
        if transfer.status != TransferStatus.AWAITING_HOST:
            raise Conflict(_("this transfer is not waiting for the host"))
        _complete(tournament, transfer, by)
        return transfer


def decline(*, transfer: GarnetTransfer, by: Any) -> GarnetTransfer:
    """The receiver (or a host) declines, or the payer withdraws, a transfer not yet done."""
    with transaction.atomic():
        tournament, transfer = _locked(transfer)
        if transfer.status not in (TransferStatus.AWAITING_RECEIVER, TransferStatus.AWAITING_HOST):
            raise Conflict(_("this transfer is already settled"))
        user = getattr(by, "pk", None)
        if user == transfer.sender.user_id:
            transfer.status = TransferStatus.WITHDRAWN
        elif user == transfer.receiver.user_id or runs(tournament, by):
            transfer.status = TransferStatus.DECLINED
        else:
            raise Forbidden(_("only its two players or a host can decline a transfer"))
        transfer.decided_at = timezone.now()
        transfer.decided_by = by
        transfer.save(update_fields=["status", "decided_at", "decided_by"])
        audit.log(tournament, by, f"season.transfer.{transfer.status}", **_said(transfer))
        return transfer


def visible_to(tournament: Tournament, user: Any) -> QuerySet[GarnetTransfer]:
    """The transfers ``user`` may see: public ones, and private ones they are party to (all
    of them for a host)."""
    rows = tournament.garnet_transfers.select_related("sender", "receiver")
    if runs(tournament, user):
        return rows
    if not getattr(user, "is_authenticated", False):
        return rows.filter(private=False)
    return rows.filter(Q(private=False) | Q(sender__user=user) | Q(receiver__user=user))


def balance_of(tournament: Tournament, entrant: Entrant) -> int:
    """A player's own balance, private transfers included (shown only to them and hosts)."""
    return seasons.balances(tournament).get(entrant.pk, 0)
