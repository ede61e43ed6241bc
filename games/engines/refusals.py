"""Why the rules refuse an action: a stable code per refusal and its English sentence.

Engines raise ``IllegalAction(code, **params)``; the sentence is ``MESSAGES[code]`` filled
with the params (``{name}`` placeholders, the same syntax in Python and in the page's
script). The API sends the code and params next to the English sentence, and pages show the
sentence translated by code (``games.wording``), never by reading the English.

``gettext_noop`` only marks each sentence for ``makemessages``: engines import no Django.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    return message


MESSAGES: dict[str, str] = {
    # shared by every engine
    "unexpected_fields": gettext_noop("unexpected field(s) {fields} in a {type}"),
    "not_an_object": gettext_noop("an action is an object with a type"),
    "unknown_action": gettext_noop("unknown action {type}"),
    "game_over": gettext_noop("the game is over"),
    "not_your_turn": gettext_noop("it is not your turn"),
    "no_such_window": gettext_noop("no such window is open"),
    "no_such_seat": gettext_noop("there is no seat {seat}"),
    "card_not_held": gettext_noop("you do not hold that card"),
    "host_only": gettext_noop("{type} comes from the host, not from a player"),
    # Color Clash
    "match_over": gettext_noop("the match is over"),
    "substitute_host_only": gettext_noop("only the host assigns substitutes"),
    "substitute_needs_seat": gettext_noop("substitute needs a seat number"),
    "substitute_needs_on": gettext_noop("substitute needs on: true or false"),
    "already_substitute": gettext_noop("seat {seat} is already a substitute"),
    "already_player": gettext_noop("seat {seat} is already a player"),
    "last_card_players_only": gettext_noop('only a player can call "Last card!"'),
    "last_card_automatic": gettext_noop('Family night calls "Last card!" for you'),
    "other_window_open": gettext_noop('wait: another player\'s "Last card!" window is open'),
    "last_card_not_now": gettext_noop(
        'call "Last card!" on your turn, before your next-to-last card'
    ),
    "last_card_already_called": gettext_noop('you have already called "Last card!"'),
    "last_card_needs_two": gettext_noop('call "Last card!" when you hold two cards'),
    "catch_players_only": gettext_noop("only a player can Catch"),
    "catch_too_late": gettext_noop(
        "too late: a Catch only counts within 3 seconds of an uncalled play"
    ),
    "catch_wrong_target": gettext_noop(
        'only the player whose "Last card!" window is open can be caught'
    ),
    "catch_self": gettext_noop("you cannot catch yourself"),
    "catch_pending": gettext_noop(
        "your Catch is already waiting for the first second of the window to pass"
    ),
    "left_round": gettext_noop("you have left this round"),
    "windows_host_only": gettext_noop("only the host closes windows"),
    "system_no_turn": gettext_noop("the system cannot take a turn"),
    "last_card_window_open": gettext_noop('wait: a "Last card!" window is open'),
    "choose_wild_colour_first": gettext_noop("choose the colour for the turned Wild first"),
    "not_a_card": gettext_noop("{card} is not a card"),
    "play_drawn_only": gettext_noop("after drawing you may only play the card you drew, {card}"),
    "not_held": gettext_noop("you do not hold {card}"),
    "wild_needs_colour": gettext_noop("a Wild needs a colour: red, blue, yellow or green"),
    "wild_draw_four_colour": gettext_noop(
        "Wild Draw Four is allowed only when you hold no {colour} card"
    ),
    "only_wild_colour": gettext_noop("only a Wild takes a colour"),
    "no_match": gettext_noop(
        "{card} matches neither the colour in force ({colour}) nor the top card {top}"
    ),
    "already_drawn": gettext_noop(
        "you have already drawn this turn: play the card you drew or pass"
    ),
    "nothing_to_draw": gettext_noop("there is nothing left to draw"),
    "pass_after_draw": gettext_noop("you may pass only after drawing this turn"),
    "must_play": gettext_noop("nothing can be drawn, so you must play"),
    "no_wild_to_colour": gettext_noop("there is no turned Wild to choose a colour for"),
    "choose_a_colour": gettext_noop("choose red, blue, yellow or green"),
    "timeouts_host_only": gettext_noop("only the host applies timeouts"),
    "timeout_turn_only": gettext_noop("only the seat whose turn it is can run out of time"),
    # Drafting Trios
    "players_only": gettext_noop("only a player can make this choice"),
    "already_chose": gettext_noop("you have already made your choice in this step"),
    "opponent_choosing": gettext_noop("you have no choice to make now; your opponent is choosing"),
    "not_a_choice_now": gettext_noop("{type} is not a choice now; you may choose: {expected}"),
    "card_list": gettext_noop("{key} must be a list of {count} cards"),
    "not_a_trios_card": gettext_noop("{card} is not a card (numbers are R1..Y6, or a power id)"),
    "single_card_pile": gettext_noop("your pile holds one card: pick it, with no discard"),
    "pick_and_discard": gettext_noop("pick one card of your pile and discard another one of it"),
    "no_mulligan_charge": gettext_noop("you hold no mulligan charge"),
    "mulligan_not_now": gettext_noop(
        "a mulligan replaces the first pick of a later drafting phase"
    ),
    "name_a_card": gettext_noop("name a card in the notation: R1..Y6 or a power card id"),
    "quake_category": gettext_noop("choose a category that is open for both players"),
    "must_play_three": gettext_noop(
        "you hold three cards or more: play a trio, a power card or a discard"
    ),
    "pass_only": gettext_noop("you hold fewer than three cards: you can only pass"),
    "unknown_category": gettext_noop("unknown category {category}"),
    "category_not_open": gettext_noop("your category {category} is not open"),
    "trio_no_power": gettext_noop("a trio is three number cards; power cards cannot be part of it"),
    "cards_not_held": gettext_noop("you do not hold those three cards"),
    "not_a_power": gettext_noop("{card} is not a power card"),
    "power_used": gettext_noop("{power} can be activated once per player, and you already did"),
    "power_cost_not_held": gettext_noop("you do not hold that power card and those two cost cards"),
    "power_cost_sum": gettext_noop("the cost cards add up to {paid}; {power} costs {allowed}"),
    "earthquake_target": gettext_noop("Earthquake needs a category that is open for both players"),
    "bonus_target": gettext_noop("Bonus needs one of your open categories that has no Bonus yet"),
    "conversion_target": gettext_noop(
        "Conversion needs one of your open categories and a different rule for it"
    ),
    "no_windows": gettext_noop("Drafting Trios has no timed windows"),
    "timeout_host_clock": gettext_noop("only the host's clock can time a player out"),
    "timeout_shape": gettext_noop('a timeout names the seats whose reserve ran out: "seats": [0]'),
    "timeout_owing_only": gettext_noop("only seats that owe a choice now can run out of time"),
    # DropMix Clash
    "player_seat_needed": gettext_noop("a player action needs a player's seat"),
    "timeout_running_only": gettext_noop("only seats whose clock is running can time out"),
    "spin_not_now": gettext_noop("you may not spin the Equalizer now"),
    "pass_extras_only": gettext_noop(
        "only the extra moves left after both moves of a turn can be passed"
    ),
    "nothing_to_retract": gettext_noop("you have no pending move to retract"),
    "not_choosing": gettext_noop("you are not choosing a card"),
    "not_in_deck": gettext_noop("that card is not in your deck"),
    "not_your_move": gettext_noop("it is not your move"),
    "slot_range": gettext_noop("slot must be a number from 1 to 5"),
    "partner_moves": gettext_noop(
        "you have made your move this turn; your partner makes the other"
    ),
    "extras_do_not_fit": gettext_noop(
        "your moves left this turn are extra moves this card does not fit"
    ),
    "slot_colour": gettext_noop("slot {slot} does not take {colour}; it accepts: {accepts}"),
    "wild_colour_needed": gettext_noop(
        "name the colour the Wild plays on slot {slot}, one of: {accepts}"
    ),
    "colour_not_playable": gettext_noop("{card} cannot play as {colour} on slot {slot}"),
    "level_cover": gettext_noop("a level {level} card cannot cover the level {below} card"),
    "copy_in_play": gettext_noop("a copy of {card} is already in play"),
    "fx_blocks": gettext_noop("{fx} blocks cards matching {rule} while it is in play"),
}
