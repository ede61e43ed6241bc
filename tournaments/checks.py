"""What every tournament must keep, checked from its rows (``manage.py check_tournaments``).

A bracket holds what its feeders decided (``tournaments.formats.repair``); match, round, stage
and tournament statuses agree; a hosted game runs only for a match being played; standings
agree with the results; a season's eliminations are its Death Match losers, its episodes
follow one another and its final is played by the two still in; currency balances are the
sum of their entries, no entry took anyone below zero, and an elimination's settlement
stands only while its player is out. Each problem is one line a
person can act on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from itertools import pairwise

from django.db.models import Sum
from django.utils import timezone

from games.models import GameSession
from hosting.core.errors import UserError
from tournaments.formats import ledger, repair
from tournaments.models import (
    ActivityCheck,
    DeathMatchPick,
    Entrant,
    Episode,
    GarnetTransfer,
    LedgerEntry,
    Match,
    MatchGame,
    Round,
    Stage,
    TokenEntry,
    Tournament,
)
from tournaments.seasons.services import ledger_for
from tournaments.services import corrections
from tournaments.services.standings import standings

ROUND_BASED = ("swiss", "round_robin")


def all_problems() -> Iterator[tuple[Tournament, list[str]]]:
    for tournament in Tournament.objects.order_by("pk"):
        yield tournament, tournament_problems(tournament)


def tournament_problems(tournament: Tournament) -> list[str]:
    tournament = Tournament.objects.get(pk=tournament.pk)  # as it is now, not as it was read
    found: list[str] = []
    for stage in tournament.stages.order_by("number"):
        found += _bracket(stage)
        found += _statuses(tournament, stage)
        found += _games(stage)
        if stage.format == "genius":
            found += _eliminations(stage)
            found += _episodes(tournament, stage)
    found += _standings(tournament)
    if tournament.format == "genius":
        found += _ledger(tournament)
        found += _settlements(tournament)
        found += _tokens(tournament)
        found += _transfers(tournament)
        found += _season_records(tournament)
        found += _activity_and_picks(tournament)
    return found


def _bracket(stage: Stage) -> list[str]:
    draws = stage.format in (*ROUND_BASED, "genius")
    names = dict(stage.tournament.entrants.values_list("pk", "display_name"))
    # A three-player Death Match is no bracket pairing: its result names two of its three.
    three = {m.code: m for m in stage.matches.all() if m.extra.get("three")}
    found = []
    for code, match in sorted(three.items()):
        slots = match.extra["three"]
        if match.status == Match.Status.FINISHED and (
            match.winner_id not in slots
            or match.loser_id not in slots
            or match.winner_id == match.loser_id
        ):
            found.append(f"{code}'s winner and loser are not two of its three players")
    held = [m for m in corrections.held(stage) if m.code not in three]
    return found + repair.problems(held, corrections.seeds(stage), draws=draws, names=names)


def _statuses(tournament: Tournament, stage: Stage) -> list[str]:
    found = []
    undecided = stage.matches.exclude(status__in=[Match.Status.FINISHED, Match.Status.CLOSED])
    for round_ in stage.rounds.filter(status=Round.Status.FINISHED):
        open_codes = sorted(undecided.filter(round=round_).values_list("code", flat=True))
        if open_codes:
            found.append(f"round {round_.bracket} {round_.number} is finished but "
                         f"{', '.join(open_codes)} is not decided")  # fmt: skip
    for match in stage.matches.filter(status=Match.Status.FINISHED):
        if not match.result_kind:
            found.append(f"{match.code} is finished without a result")
    if stage.format == "genius":
        return found
    finished = tournament.status == Tournament.Status.FINISHED
    if finished and undecided.exists():
        codes = ", ".join(sorted(undecided.values_list("code", flat=True)))
        found.append(f"the tournament is finished but {codes} is not decided")
    if stage.status == Stage.Status.FINISHED and not finished:
        found.append("the stage is finished but the tournament is not")
    all_rounds_done = not stage.rounds.exclude(status=Round.Status.FINISHED).exists()
    if all_rounds_done and stage.status != Stage.Status.FINISHED:
        found.append("every round is finished but the stage is still running")
    return found


def _games(stage: Stage) -> list[str]:
    found = []
    running = GameSession.Status.RUNNING
    links = MatchGame.objects.filter(match__stage=stage).select_related("match", "game")
    for link in links.filter(game__status=running).exclude(match__status=Match.Status.LIVE):
        found.append(
            f"game {link.game_id} is running for {link.match.code}, which is {link.match.status}"
        )
    playing = set(links.filter(game__status=running).values_list("match_id", flat=True))
    for match in stage.matches.filter(status=Match.Status.LIVE).exclude(pk__in=playing):
        if stage.tournament.play_online:
            found.append(f"{match.code} is being played but none of its games is running")
    return found


def _standings(tournament: Tournament) -> list[str]:
    stage = tournament.stages.order_by("-number").first()
    if stage is None:
        return []
    try:
        rows = standings(tournament=tournament)
    except UserError as error:
        return [f"the standings cannot be worked out: {error.message}"]
    found = []
    listed = Counter(row["entrant"] for row in rows)
    taking_part = tournament.entrants.filter(seed__isnull=False).exclude(
        status=Entrant.Status.WAITLISTED
    )
    for entrant in taking_part:
        if stage.format != "genius" and listed[entrant.pk] != 1:
            found.append(f"{entrant.display_name} is in the standings {listed[entrant.pk]} times")
    if stage.format in ROUND_BASED:
        points = _points(stage)
        for row in rows:
            expected = points.get(row["entrant"], 0.0)
            if row["entrant"] is not None and abs(row["points"] - expected) > 1e-9:
                found.append(
                    f"{row['name']} has {row['points']} points in the standings, "
                    f"{expected} by the results"
                )
    champion = _champion(stage)
    # Placements by format (rows that say how far each entrant came) put the champion alone
    # at rank 1; a table of points alone need not (a bye scores nothing in a bracket).
    if champion is not None and rows and "round_reached" in rows[0]:
        first = {row["entrant"] for row in rows if row["rank"] == 1}
        if first != {champion}:
            found.append(f"entrant {champion} won the final but is not alone at rank 1")
    return found


def _points(stage: Stage) -> dict[int, float]:
    bye_points = float(stage.options.get("bye_points", 1 if stage.format == "swiss" else 0))
    points: dict[int, float] = {}
    for match in stage.matches.filter(status__in=[Match.Status.FINISHED, Match.Status.CLOSED]):
        if match.result_kind == Match.ResultKind.BYE and match.winner_id:
            points[match.winner_id] = points.get(match.winner_id, 0.0) + bye_points
        elif match.result_kind == Match.ResultKind.DRAW:
            for side in (match.home_id, match.away_id):
                points[side] = points.get(side, 0.0) + 0.5
        elif match.status == Match.Status.FINISHED and match.winner_id:
            points[match.winner_id] = points.get(match.winner_id, 0.0) + 1.0
    return points


def _champion(stage: Stage) -> int | None:
    """The winner of a finished elimination stage's last match, if it has one."""
    if stage.status != Stage.Status.FINISHED or stage.format not in (
        "single_elimination",
        "double_elimination",
    ):
        return None
    by_code = {m.code: m for m in stage.matches.all()}
    if "GF2" in by_code and by_code["GF2"].status == Match.Status.FINISHED:
        return by_code["GF2"].winner_id
    if "GF1" in by_code:
        return by_code["GF1"].winner_id
    if stage.format == "double_elimination":
        return None  # no grand final: the two bracket champions are the result
    finals = [m for m in by_code.values() if m.code.startswith("W")]
    return max(finals, key=lambda m: repair.bracket_order(m.code)).winner_id


def _eliminations(stage: Stage) -> list[str]:
    found = []
    losers: dict[int, int] = {}
    for match in stage.matches.filter(status=Match.Status.FINISHED).select_related("round"):
        if match.loser_id is not None:
            losers[match.loser_id] = match.round.number
        elif match.code != "FINAL":  # a drawn Death Match: the DMO wins the tie
            losers[match.home_id] = match.round.number
    for entrant in stage.tournament.entrants.filter(eliminated_in__isnull=False):
        if losers.get(entrant.pk) != entrant.eliminated_in:
            found.append(
                f"{entrant.display_name} is eliminated in episode {entrant.eliminated_in} "
                "without losing a Death Match there"
            )
    eliminated = set(
        stage.tournament.entrants.filter(eliminated_in__isnull=False).values_list("pk", flat=True)
    )
    for loser, episode in losers.items():
        if loser not in eliminated:
            found.append(f"entrant {loser} lost in episode {episode} but is still in the season")
    return found


def _episodes(tournament: Tournament, stage: Stage) -> list[str]:
    """Episodes follow one another: only the latest is under way, a finished one has every
    Death Match decided, the current main match was played by the cast still in (and those
    its Death Matches eliminated), and the final, until decided, by the two still in."""
    found = []
    episodes = list(tournament.episodes.order_by("number"))
    for episode, following in pairwise(episodes):
        if episode.status != Episode.Status.FINISHED:
            found.append(
                f"episode {following.number} follows episode {episode.number}, which is "
                f"{episode.status}, not finished"
            )
    for episode in episodes:
        if episode.status != Episode.Status.FINISHED:
            continue
        bracket = "final" if episode.kind == Episode.Kind.FINAL else "episodes"
        open_codes = sorted(
            stage.matches.filter(round__bracket=bracket, round__number=episode.number)
            .exclude(status=Match.Status.FINISHED)
            .values_list("code", flat=True)
        )
        if open_codes:
            found.append(
                f"episode {episode.number} is finished but {', '.join(open_codes)} is not decided"
            )
    still_in = set(
        tournament.entrants.filter(
            status__in=(Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN),
            eliminated_in__isnull=True,
        ).values_list("pk", flat=True)
    )
    current = episodes[-1] if episodes else None
    if current is not None and current.kind == Episode.Kind.EPISODE and current.winners:
        played = set(current.winners) | set(current.losers)
        cast = still_in | set(
            tournament.entrants.filter(eliminated_in=current.number).values_list("pk", flat=True)
        )
        if played != cast:
            found.append(
                f"episode {current.number}'s main match was played by entrants "
                f"{', '.join(str(pk) for pk in sorted(played))}, but its cast is "
                f"{', '.join(str(pk) for pk in sorted(cast))}"
            )
    final = stage.matches.filter(code="FINAL").first()
    if final is not None and not final.is_decided and {final.home_id, final.away_id} != still_in:
        found.append(
            f"FINAL is played by entrants {final.home_id} and {final.away_id}, but the players "
            f"still in are {', '.join(str(pk) for pk in sorted(still_in))}"
        )
    if tournament.status == Tournament.Status.FINISHED and len(still_in) != 1:
        found.append(f"the season is finished with {len(still_in)} players still in, not one")
    return found


def _settlements(tournament: Tournament) -> list[str]:
    """An elimination's currency settlement stands only while its player is out in that
    episode: a ruling that reinstates them pays it back (``ledger.return_settlement``)."""
    entries = ledger_for(tournament)
    found = []
    out = dict(tournament.entrants.values_list("pk", "eliminated_in"))
    settled = {
        (e.player, e.episode)
        for e in entries
        if e.reason in (ledger.CONFISCATED, ledger.TO_DM_WINNER) and e.episode is not None
    }
    for player, episode in sorted(settled):
        if out.get(player) != episode and ledger.outstanding_settlement(entries, player, episode):
            found.append(
                f"entrant {player} is not eliminated in episode {episode}, but what that "
                "elimination settled was never paid back"
            )
    return found


def _ledger(tournament: Tournament) -> list[str]:
    """Balances are the sum of the entries, and no entry took anyone below zero."""
    found = []
    entries = ledger_for(tournament)
    for currency in sorted({entry.currency for entry in entries}):
        for number in range(1, len(entries) + 1):
            entry = entries[number - 1]
            if entry.currency != currency:
                continue
            short = {p: v for p, v in ledger.balances(entries[:number], currency).items() if v < 0}
            for player, held in short.items():
                found.append(
                    f"ledger entry {number} ({entry.kind} {entry.amount}) leaves entrant "
                    f"{player} at {held} {currency}"
                )
        pure = {p: v for p, v in ledger.balances(entries, currency).items() if v}
        summed = {p: v for p, v in _summed(tournament, currency).items() if v}
        if pure != summed:
            found.append(f"the {currency} balances do not equal the sum of their entries")
    return found


def _summed(tournament: Tournament, currency: str) -> dict[int, int]:
    """Each entrant's balance added up by the database, independently of the pure ledger."""
    rows = LedgerEntry.objects.filter(tournament=tournament, currency=currency)
    totals: dict[int, int] = {}

    def add(query, field: str, sign: int) -> None:  # type: ignore[no-untyped-def]
        for row in query.values(field).annotate(total=Sum("amount")):
            totals[row[field]] = totals.get(row[field], 0) + sign * row["total"]

    add(rows.filter(kind="award"), "entrant", 1)
    add(rows.exclude(kind="award"), "entrant", -1)
    add(rows.filter(to__isnull=False), "to", 1)
    return totals


def _tokens(tournament: Tournament) -> list[str]:
    """Tokens of Life: nobody's record goes below zero."""
    found = []
    running: dict[int, int] = {}
    for entry in tournament.tokens.order_by("pk"):
        running[entry.entrant_id] = (
            running.get(entry.entrant_id, 0) + TokenEntry.SIGN[entry.kind] * entry.count
        )
        if running[entry.entrant_id] < 0:
            found.append(
                f"token entry {entry.pk} ({entry.kind} in episode {entry.episode}) leaves "
                f"entrant {entry.entrant_id} holding {running[entry.entrant_id]} ToL"
            )
    # The record is what the board remembers; the episode's own ``tokens`` are what the pure
    # rules read. A dispute ruling that reopens an episode moves the latter only, so the two
    # are compared only by the season test, not here.
    return found


def _transfers(tournament: Tournament) -> list[str]:
    """A done transfer has its one ledger entry (same players, amount and privacy); one not
    done has none."""
    found = []
    for transfer in tournament.garnet_transfers.select_related("ledger_entry"):
        entry = transfer.ledger_entry
        if transfer.status != GarnetTransfer.Status.DONE:
            if entry is not None:
                found.append(f"transfer {transfer.pk} is {transfer.status} but has a ledger entry")
            continue
        if entry is None:
            found.append(f"transfer {transfer.pk} is done but has no ledger entry")
        elif (entry.entrant_id, entry.to_id, entry.amount, entry.private) != (
            transfer.sender_id,
            transfer.receiver_id,
            transfer.amount,
            transfer.private,
        ):
            found.append(f"transfer {transfer.pk} and its ledger entry {entry.pk} disagree")
    return found


def _season_records(tournament: Tournament) -> list[str]:
    """Rules versions are numbered 1, 2, …; a published question names its version; every
    handout, confessional and question belongs to an entrant of this season."""
    found = []
    numbers = list(tournament.rules_versions.order_by("number").values_list("number", flat=True))
    if numbers != list(range(1, len(numbers) + 1)):
        found.append(f"the rules versions are numbered {numbers}, not 1 to {len(numbers)}")
    for question in tournament.rule_questions.all():
        if (question.status == "published") != (question.rules_version_id is not None):
            found.append(
                f"question {question.pk} is {question.status} but its rules version says otherwise"
            )
        if question.asker.tournament_id != tournament.pk:
            found.append(f"question {question.pk} was asked by an entrant of another tournament")
    strangers = Entrant.objects.exclude(tournament=tournament)
    if tournament.handouts.filter(recipients__in=strangers).exists():
        found.append("a handout goes to an entrant of another tournament")
    if tournament.confessionals.filter(entrant__in=strangers).exists():
        found.append("a confessional belongs to an entrant of another tournament")
    return found


# An activity check past its cut-off is applied by its task within seconds, by the beat sweep
# within a minute: one still open long after has lost both.
OVERDUE = timedelta(minutes=5)


def _activity_and_picks(tournament: Tournament) -> list[str]:
    """Activity checks are applied after their cut-off, to no-shows only; a Death Match
    pick's bans and choice come from its pool, and a DM under way by bans has its game."""
    found = []
    now = timezone.now()
    for check in tournament.activity_checks.all():
        if check.status == ActivityCheck.Status.OPEN and check.cutoff < now - OVERDUE:
            found.append(f"activity check {check.pk} is past its cut-off but was never applied")
        checked = {str(pk) for pk in check.check_ins.values_list("entrant_id", flat=True)}
        if set(check.outcome) & checked:
            found.append(f"activity check {check.pk} applied its policy to a player who checked in")
    for pick in DeathMatchPick.objects.filter(episode__tournament=tournament):
        games = {b["game"] for b in pick.banned} | ({pick.chosen} if pick.chosen else set())
        if not games <= set(pick.pool):
            found.append(f"episode {pick.episode.number}'s DM pick names games outside its pool")
        if pick.chosen and pick.episode.dm_engine != pick.chosen:
            found.append(
                f"episode {pick.episode.number}'s DM pick chose {pick.chosen}, but its Death "
                f"Match is set to {pick.episode.dm_engine or 'the season game'}"
            )
        started = pick.episode.status in (Episode.Status.DEATH_MATCH, Episode.Status.FINISHED)
        if pick.mode == DeathMatchPick.Mode.BANS and started and not pick.chosen:
            found.append(f"episode {pick.episode.number}'s Death Match began before its bans ended")
    return found
