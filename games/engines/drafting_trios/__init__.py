"""Drafting Trios: the two-player Death Match of simultaneous drafting and trios.

Rules: ``shared/rules/drafting_trios.md``; this package implements them exactly, with every
[resolved] gap a flag of ``config.FLAGS``. Read top-down: ``cards`` (notation and decks),
``scoring`` (the 11 categories, ``score_trio``), ``table`` (the state and card moves),
``powers`` (costs and abilities), ``actions`` (legal choices), ``rounds`` (the flow and the
resolution order), ``ending`` (totals, tie-break, outcome), ``views``, ``bots``.

Seats 0 and 1 carry the roles of ``config["roles"]`` (one EC, one DMO). Every step is
simultaneous and secret: each seat in ``to_act`` sends one choice, which is stored unseen
(views show only ``chosen``) and resolved when the last one arrives.

Choices (cards in the notation, ``"R6"`` or ``"burn"``; any order, stored sorted):

- stage ``draft`` (phase "draft"): ``{"type": "draft", "pick": "R6", "discard": "burn"}``;
  when the pile holds a single card, ``"discard": null``. In a later round's first step,
  with a charge: ``{"type": "mulligan"}``.
- stage ``name`` (phase "choice", Heart of the Cards, before the piles are drawn):
  ``{"type": "name", "card": "G4"}``.
- stage ``play`` (phase "play"):
  ``{"type": "trio", "category": "high_cards", "cards": ["B6", "G6", "R6"]}``,
  ``{"type": "power", "card": "bonus", "cost": ["R4", "Y5"], "category": "high_cards"}``
  (``category`` for Bonus and Earthquake, ``category`` and ``rule`` for Conversion, nothing
  more for the others), ``{"type": "discard", "cards": [...three...]}``, and
  ``{"type": "pass"}`` only for a seat holding fewer than three cards.
- stage ``quake`` (phase "choice", an Earthquake target filled this round):
  ``{"type": "earthquake", "category": "low_cards"}``.
- system, seat ``None``: ``{"type": "timeout", "seats": [1]}``: that seat loses; both seats
  at once: the DMO wins.

Resolutions beyond the rules file (documented here, flagged where a host may differ):

- A pile of odd size (a deck ran dry) ends with a single card, which is picked with no
  discard; drafting goes on until both piles are empty, so piles of unequal sizes work.
- A seat with fewer than three cards at play passes (flag ``short_hand``: "pass", or
  "end_game" to make that round the last).
- Re-activating Heart of the Cards or Burn while one is in force restarts its two rounds;
  a named card is applied once per round (a Mulligan's redraw does not repeat it).
- An Earthquake whose re-choice finds no category open for both does nothing; two
  Earthquakes on the same category destroy it once (the second was not "filled by the
  opponent", so it is not chosen again).
- "If no pile can be formed": when either player draws no card at all for their pile, the
  current round is the last one.
- A trio's three cards stay on the scoresheet; every other card played or discarded goes to
  its player's discard pile.
"""

from games.engines.drafting_trios.engine import DraftingTrios

ENGINE = DraftingTrios()
