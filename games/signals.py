"""Signals the games app sends; apps above it (tournaments) listen, games imports none of them."""

from django.dispatch import Signal

# Sent after the commit that finished a game; ``game_id`` is its primary key.
game_finished = Signal()

# Sent to ask whether ``by`` (a user) runs the tournament ``game`` is played for: a receiver
# answers True when it does, and False or None otherwise (or when the game is no tournament's).
# ``games.services.steering`` asks it; tournaments answers (``tournaments.receivers``), so the
# games app never imports tournaments.
runs_game_tournament = Signal()
