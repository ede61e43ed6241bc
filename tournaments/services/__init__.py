"""Write paths of a tournament: registration, check-in, seeding, stages, results, corrections.

Each runs in a transaction with the tournament row locked (``tournaments.core.locking``),
records an audit entry (``tournaments.core.audit``) and calls the pure formats through
``tournaments.adapters``. The modules:

- ``registration``: a tournament created and edited; registration, check-in, seeding.
- ``stages``: a stage started and advanced by every result; Swiss rounds paired.
- ``matches``: one match's games played and counted, its result decided.
- ``results``: results from hosted games or the organiser, and corrections of them.
- ``corrections``: what a corrected result repairs downstream in the bracket.
- ``claims``: results the players report and confirm themselves, where the organiser allows.
- ``withdrawals``: an entry ended early (withdrawn, disqualified), what it costs, its undo.
- ``standings``: the ranked entrants.

Below them ``tournaments.core``; above them the seasons and the disputes, which a result
reaches only through ``tournaments.core.hooks``. This package's public write API, called as
``services.<name>`` by the API, the pages, the admin, the exports and the commands, is
listed in ``__all__``.
"""

from tournaments.core.errors import TournamentUserError
from tournaments.core.permissions import check_runs
from tournaments.services.claims import match_claim_result
from tournaments.services.matches import engine_config
from tournaments.services.registration import (
    MAX_SEED_WINDOW_SECONDS,
    SEEDING_METHODS,
    TOURNAMENT_FORMATS,
    check_in_open,
    entrant_check_in,
    entrant_promote,
    entrant_register,
    registration_open,
    seeding_apply,
    tournament_create,
    tournament_update,
    waiting_list,
)
from tournaments.services.results import correction_preview, match_report_result
from tournaments.services.stages import no_shows, stage_start, swiss_round_start
from tournaments.services.standings import standings, standings_table
from tournaments.services.withdrawals import (
    consequence,
    entrant_disqualify,
    entrant_reinstate,
    entrant_withdraw,
    forfeited_since,
    undo_blockers,
)

__all__ = [
    "MAX_SEED_WINDOW_SECONDS",
    "SEEDING_METHODS",
    "TOURNAMENT_FORMATS",
    "TournamentUserError",
    "check_in_open",
    "check_runs",
    "consequence",
    "correction_preview",
    "engine_config",
    "entrant_check_in",
    "entrant_disqualify",
    "entrant_promote",
    "entrant_register",
    "entrant_reinstate",
    "entrant_withdraw",
    "forfeited_since",
    "match_claim_result",
    "match_report_result",
    "no_shows",
    "registration_open",
    "seeding_apply",
    "stage_start",
    "standings",
    "standings_table",
    "swiss_round_start",
    "tournament_create",
    "tournament_update",
    "undo_blockers",
    "waiting_list",
]
