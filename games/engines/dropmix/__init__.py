"""DropMix Clash on a virtual board (rules: shared/rules/dropmix_clash.md).

Seats and sides: 2 seats play 1v1 (sides [0] and [1]); 3 seats play 1v2 (seat 0 alone
against the team [1, 2]); 4 seats play 2v2 with teams [0, 2] and [1, 3], partners seated
opposite each other. Scores belong to sides; the outcome gives each seat its side's score.

Actions a player sends (slot numbers are 1..5, left to right):

- ``{"type": "drop", "card": <card id>, "slot": n}`` plus ``"colour": <colour>`` for a Wild
  on a two-colour slot (slot 1: yellow/red, slot 5: green/blue).
- ``{"type": "spin"}`` spins the Equalizer.
- ``{"type": "retract"}`` takes back the seat's pending move (see ``turns``).
- ``{"type": "pass"}`` declines the FX extra moves left once both moves of the turn are made.
- ``{"type": "choose", "card": <card id>}`` picks a card from the deck for an FX
  ``draw(mode=choose)``; only the chooser sees their deck meanwhile.

System actions the host applies with seat ``None``: ``{"type": "window_closed", "name":
"retract" | "spin"}`` makes the pending move final (a spin's result is drawn then), and
``{"type": "timeout", "seats": [...]}`` forfeits the rest of the turn.

Config (``validate_config``): ``target`` 21 or 15, ``middle_slot_colour`` (yellow), ``wheel``
weights ({"1": 4, "2": 4, "3": 3, "X": 1}), ``retract_seconds`` (3), ``spin_retract_seconds``
(2), ``decks`` (one list of card ids or null per seat; null gets the seat distinct
starter playlists: two for a single player, one for a team member), ``catalogue`` (an
imported catalogue; default: ``data/default_catalogue.json``), and the rules' two open
rulings: ``score_floor`` (0: the lowest a score falls; a whole number of 0 or less, or null
for no floor) and ``clear_mode`` (``stack``: clearing a slot discards its whole stack, the
default; ``top``: only the top card, and the card beneath is in play again).
The turn timer (off, 15, 30 or 60 s) is the host's time control, not engine config.

Where each rule lives, top-down: ``catalogue`` (card schema, shipped data) and ``grammar``
(FX effect forms), ``decks`` (deck limits, hand sizes, draws), ``board`` (slots, control,
drop legality), ``turns`` (moves, pending moves and retracts, Equalizer, end of turn),
``effects`` (FX interpretation), ``scoring`` (gains before losses, the target, the floor),
``cards`` (drawing and reshuffling), ``views`` (what each seat sees), ``bots``.

Two choices go beyond the rules file, both to keep play finite and results honest: a move made
in place of a retracted one is final at once (so a turn cannot cycle drop, retract, drop...
forever), and an FX that clears a random card is final at once, like one that draws, because
random results are drawn only for final moves.
"""

from games.engines.dropmix.engine import DropMixClash

ENGINE = DropMixClash()

__all__ = ["ENGINE", "DropMixClash"]
