"""Color Clash: an UNO-like card game for 2 to 6 players (rules: shared/rules/color_clash.md).

Read top-down: ``cards`` (the 108 cards), ``config`` (modes, match lengths, timer),
``rounds`` (deal, first card, scoring, match end), ``turns`` (play, draw, pass, timeout),
``last_card`` (call, window, Catch), ``views``, ``outcome``, ``bots`` and ``engine``.
"""

from games.engines.color_clash.engine import ENGINE

__all__ = ["ENGINE"]
