"""Signals the games app sends; apps above it (tournaments) listen, games imports none of them."""

from django.dispatch import Signal

# Sent after the commit that finished a game; ``game_id`` is its primary key.
game_finished = Signal()
