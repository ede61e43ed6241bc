"""The rules of a new tournament as form fields: one field per key the game engine and the
format read, with its default and one line of help, so that nobody has to write JSON.

``build`` turns the posted fields into the ``ruleset``, ``time_control`` allowances and
``format_options`` the API's ``TournamentCreateInput`` takes; the same service then checks
them. Only the chosen game's and format's fields are read (without JavaScript every fieldset
shows, and the others' values must not leak in). A field left empty keeps the engine's or
the format's own default, which may depend on another choice (Color Clash's match length
follows the mode).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ValidationError

from games import engines
from games.engines.color_clash import config as color_clash
from games.engines.drafting_trios import config as drafting_trios
from games.engines.dropmix.engine import CLEAR_MODES, DEFAULT_CONFIG, WHEEL_LABELS
from games.engines.dropmix.grammar import COLOURS
from tournaments.formats import genius
from tournaments.formats.double_elimination import GRAND_FINALS
from tournaments.models import Tournament

FORMAT_NAMES = dict(Tournament.Format.choices)


@dataclass(frozen=True)
class Field:
    """One rule: ``key`` in the dict it goes to, ``kind`` "int", "bool", "choice" or "text";
    a key ``outer.inner`` is one entry of a dict rule (DropMix's wheel weights)."""

    key: str
    label: Promise | str
    help: Promise | str
    kind: str
    default: Any = None
    choices: tuple[tuple[str, Promise], ...] = ()
    low: int | None = None
    high: int | None = None
    odd: bool = False  # a match length decided by a majority
    numeric: bool = False  # a choice among numbers, stored as a number

    def name(self, group: str) -> str:
        return f"{group}__{self.key}"

    def read(self, post: Any, group: str) -> Any:
        """The posted value, or ``None`` for "the default"; a bad value names the label."""
        raw = post.get(self.name(group), "")
        if self.kind == "bool":
            return raw == "on"
        raw = raw.strip()
        if raw == "":
            return None
        if self.kind == "text":
            if len(raw) > (self.high or 40):
                raise ValidationError(
                    {str(self.label): [_("at most %(high)s characters") % {"high": self.high}]}
                )
            return raw
        if self.kind == "choice":
            if raw not in {value for value, _label in self.choices}:
                raise ValidationError({str(self.label): [_("choose one of the offered values")]})
            return raw
        try:
            number = int(raw)
        except ValueError:
            raise ValidationError({str(self.label): [_("enter a whole number")]}) from None
        if self.low is not None and number < self.low:
            raise ValidationError({str(self.label): [_("at least %(low)s") % {"low": self.low}]})
        if self.high is not None and number > self.high:
            raise ValidationError({str(self.label): [_("at most %(high)s") % {"high": self.high}]})
        if self.odd and number % 2 == 0:
            raise ValidationError({str(self.label): [_("enter an odd number")]})
        return number


DEFAULT_FOR_MODE = (("", gettext_lazy("The mode's default")),)
SECONDS = {
    30: gettext_lazy("30 s"),
    45: gettext_lazy("45 s"),
    60: gettext_lazy("60 s"),
    90: gettext_lazy("90 s"),
}
WHEEL_NAMES = {
    "1": gettext_lazy("Spin wheel: level 1 segments"),
    "2": gettext_lazy("Spin wheel: level 2 segments"),
    "3": gettext_lazy("Spin wheel: level 3 segments"),
    "X": gettext_lazy("Spin wheel: X segments (every level)"),
}
WHEEL_HELP = gettext_lazy(
    "A spin clears the opponent's slots topped by a card of the level it lands on (X: every"
    " level); by default four segments show 1, four 2, three 3 and one X."
)
COLOUR_NAMES = {
    "yellow": gettext_lazy("Yellow"),
    "red": gettext_lazy("Red"),
    "blue": gettext_lazy("Blue"),
    "green": gettext_lazy("Green"),
}

GAME_RULES: dict[str, tuple[Field, ...]] = {
    "color_clash": (
        Field(
            "mode",
            gettext_lazy("Mode"),
            gettext_lazy(
                'Default Classic; Family night: a number card opens, "Last card!" is automatic.'
            ),
            "choice",
            "classic",
            (("classic", gettext_lazy("Classic")), ("family", gettext_lazy("Family night"))),
        ),
        Field(
            "match",
            gettext_lazy("Match length"),
            gettext_lazy("Classic plays one round, Family night three, unless you choose."),
            "choice",
            "",
            (
                *DEFAULT_FOR_MODE,
                ("one_round", gettext_lazy("One round")),
                ("three_rounds", gettext_lazy("Three rounds")),
                ("five_rounds", gettext_lazy("Five rounds")),
                ("to_500", gettext_lazy("First to 500 points")),
            ),
        ),
        Field(
            "turn_seconds",
            gettext_lazy("Turn timer"),
            gettext_lazy("Seconds per turn: 30 in Classic, 90 in Family night by default."),
            "choice",
            "",
            DEFAULT_FOR_MODE + tuple((str(s), SECONDS[s]) for s in color_clash.TURN_SECONDS),
            numeric=True,
        ),
    ),
    "drafting_trios": (
        Field(
            "power_cards_in_trios",
            gettext_lazy("Power cards in trios"),
            gettext_lazy("Off by default: a trio is three number cards."),
            "bool",
            drafting_trios.FLAGS["power_cards_in_trios"],
        ),
        Field(
            "colour_bonus_on_failed_trio",
            gettext_lazy("Colour bonus on a failed trio"),
            gettext_lazy("Off by default: the +3 / +7 bonuses need their category's condition."),
            "bool",
            drafting_trios.FLAGS["colour_bonus_on_failed_trio"],
        ),
        Field(
            "assist_previews",
            gettext_lazy("Score previews"),
            gettext_lazy("Off by default: show each open category's best score to the player."),
            "bool",
            drafting_trios.FLAGS["assist_previews"],
        ),
        Field(
            "short_hand",
            gettext_lazy("A seat short of cards"),
            gettext_lazy("Default: it passes; or its pass makes this round the last."),
            "choice",
            drafting_trios.FLAGS["short_hand"],
            (
                ("pass", gettext_lazy("Passes")),
                ("end_game", gettext_lazy("Passes and ends the game after the round")),
            ),
        ),
    ),
    "dropmix": (
        Field(
            "target",
            gettext_lazy("Target score"),
            gettext_lazy("The side that reaches it first wins; default 21."),
            "choice",
            str(DEFAULT_CONFIG["target"]),
            (("21", "21"), ("15", "15")),
            numeric=True,
        ),
        Field(
            "middle_slot_colour",
            gettext_lazy("Middle slot colour"),
            gettext_lazy("The colour the middle slot takes; default yellow."),
            "choice",
            DEFAULT_CONFIG["middle_slot_colour"],
            tuple((c, COLOUR_NAMES[c]) for c in COLOURS),
        ),
        Field(
            "score_floor",
            gettext_lazy("Lowest score"),
            gettext_lazy("A score never falls below this (0 or less); default 0."),
            "int",
            None,
            (),
            -99,
            0,
        ),
        Field(
            "clear_mode",
            gettext_lazy("Clearing a slot"),
            gettext_lazy("Default: discards its whole stack; or only its top card."),
            "choice",
            DEFAULT_CONFIG["clear_mode"],
            tuple(
                (m, gettext_lazy("Whole stack") if m == "stack" else gettext_lazy("Top card only"))
                for m in CLEAR_MODES
            ),
        ),
        Field(
            "retract_seconds",
            gettext_lazy("Seconds to take a drop back"),
            gettext_lazy("Default 3."),
            "int",
            None,
            (),
            1,
            30,
        ),
        Field(
            "spin_retract_seconds",
            gettext_lazy("Seconds to take a spin back"),
            gettext_lazy("Default 2."),
            "int",
            None,
            (),
            1,
            30,
        ),
        *(
            Field(
                f"wheel.{label}",
                WHEEL_NAMES[label],
                WHEEL_HELP,
                "int",
                None,
                (),
                0,
                20,
            )
            for label in WHEEL_LABELS
        ),
    ),
}

BYE_POINTS = (
    ("1", gettext_lazy("1 (a win)")),
    ("0.5", gettext_lazy("½ (a draw)")),
    ("0", gettext_lazy("0 (a loss)")),
)

FORMAT_RULES: dict[str, tuple[Field, ...]] = {
    "single_elimination": (
        Field(
            "third_place",
            gettext_lazy("Match for third place"),
            gettext_lazy("Off by default: the semi-final losers share third place."),
            "bool",
            False,
        ),
    ),
    "double_elimination": (
        Field(
            "grand_final",
            gettext_lazy("Grand final"),
            gettext_lazy(
                "Default: one match; with a reset the lower-bracket winner must win twice."
            ),
            "choice",
            "single",
            tuple(
                (
                    g,
                    {
                        "none": gettext_lazy("None: two champions"),
                        "single": gettext_lazy("One match"),
                        "reset": gettext_lazy("With a reset"),
                    }[g],
                )
                for g in GRAND_FINALS
            ),
        ),
    ),
    "round_robin": (
        Field(
            "bye_points",
            gettext_lazy("Points for a bye"),
            gettext_lazy("With an odd number of players someone sits out each round; default 0."),
            "choice",
            "0",
            BYE_POINTS,
            numeric=True,
        ),
        Field(
            "cycles",
            gettext_lazy("Cycles"),
            gettext_lazy("How often each pair meets; default 1."),
            "int",
            None,
            (),
            1,
            4,
        ),
        Field(
            "groups",
            gettext_lazy("Groups"),
            gettext_lazy("Players are split into this many groups; default 1."),
            "int",
            None,
            (),
            1,
            16,
        ),
    ),
    "swiss": (
        Field(
            "rounds",
            gettext_lazy("Swiss rounds"),
            gettext_lazy("Empty: enough rounds for one unbeaten player (log₂ of the entrants)."),
            "int",
            None,
            (),
            1,
            30,
        ),
        Field(
            "bye_points",
            gettext_lazy("Points for a bye"),
            gettext_lazy("The pairing-allocated bye's points; default 1."),
            "choice",
            "1",
            BYE_POINTS,
            numeric=True,
        ),
        Field(
            "pairing",
            gettext_lazy("Pairing"),
            gettext_lazy("Default: each round is paired automatically; or by the organiser."),
            "choice",
            "automatic",
            (
                ("automatic", gettext_lazy("Automatic")),
                ("organiser", gettext_lazy("By the organiser")),
            ),
        ),
    ),
    "genius": (
        Field(
            "ec_rule",
            gettext_lazy("Elimination candidate"),
            gettext_lazy("Default: the Main Match winners choose; or the Main Match loser goes."),
            "choice",
            genius.SeasonRules.ec_rule,
            (
                ("chosen_by_winners", gettext_lazy("Chosen by the winners")),
                ("mm_loser", gettext_lazy("The Main Match loser")),
            ),
        ),
        Field(
            "ec_count",
            gettext_lazy("Candidates per episode"),
            gettext_lazy("Elimination candidates (and Death Matches) per episode; default 1."),
            "int",
            None,
            (),
            1,
            8,
        ),
        Field(
            "winner_tokens",
            gettext_lazy("Tokens per winner"),
            gettext_lazy("Tokens of Life for each of several Main Match winners; default 1."),
            "int",
            None,
            (),
            0,
            9,
        ),
        Field(
            "sole_winner_tokens",
            gettext_lazy("Tokens for a sole winner"),
            gettext_lazy("Tokens of Life for a single Main Match winner; default 2."),
            "int",
            None,
            (),
            0,
            9,
        ),
        Field(
            "sole_winner_gives",
            gettext_lazy("Tokens a sole winner gives away"),
            gettext_lazy("Of those, how many they must give to another player; default 1."),
            "int",
            None,
            (),
            0,
            9,
        ),
        Field(
            "on_elimination",
            gettext_lazy("An eliminated player's tokens"),
            gettext_lazy("Default: confiscated; or passed to the Death Match winner."),
            "choice",
            genius.SeasonRules.on_elimination,
            (
                ("confiscated", gettext_lazy("Confiscated")),
                ("to_dm_winner", gettext_lazy("To the Death Match winner")),
            ),
        ),
        Field(
            "final_best_of",
            gettext_lazy("Final: best of"),
            gettext_lazy("An odd number of games; default 3."),
            "int",
            None,
            (),
            1,
            9,
            odd=True,
        ),
        Field(
            "currency",
            gettext_lazy("Currency"),
            gettext_lazy("What the season's players trade and keep; default garnets."),
            "text",
            genius.SeasonRules.currency,
            high=40,
        ),
        Field(
            "sealed_edits",
            gettext_lazy("Sealed answers may change"),
            gettext_lazy(
                "On by default: a sealed Main Match answer may be replaced until the deadline."
            ),
            "bool",
            genius.SeasonRules.sealed_edits,
        ),
        Field(
            "transfers",
            gettext_lazy("Garnet transfers"),
            gettext_lazy(
                "Default: done at once; or once the receiver accepts, or once a host approves."
            ),
            "choice",
            genius.SeasonRules.transfers,
            (
                ("immediate", gettext_lazy("At once")),
                ("receiver_accepts", gettext_lazy("When the receiver accepts")),
                ("host_approves", gettext_lazy("When a host approves")),
            ),
        ),
        Field(
            "transfer_visibility",
            gettext_lazy("Who sees a transfer"),
            gettext_lazy(
                "Default: everyone; or only the two players and the hosts; or the payer's choice."
            ),
            "choice",
            genius.SeasonRules.transfer_visibility,
            (
                ("public", gettext_lazy("Everyone")),
                ("private", gettext_lazy("The two players and the hosts")),
                ("choice", gettext_lazy("The payer chooses")),
            ),
        ),
        Field(
            "tokens_carry_over",
            gettext_lazy("Spare Tokens of Life carry over"),
            gettext_lazy("Off by default: unused tokens expire when their episode ends."),
            "bool",
            genius.SeasonRules.tokens_carry_over,
        ),
        Field(
            "confessionals_after_season",
            gettext_lazy("Confessionals public after the season"),
            gettext_lazy("Off by default: only the hosts ever read a player's diary."),
            "bool",
            genius.SeasonRules.confessionals_after_season,
        ),
        Field(
            "handouts_after_season",
            gettext_lazy("Handouts in the lounge after the season"),
            gettext_lazy(
                "On by default: once the season ends, its eliminated players read the handouts."
            ),
            "bool",
            genius.SeasonRules.handouts_after_season,
        ),
        Field(
            "no_show",
            gettext_lazy("Missing an activity check"),
            gettext_lazy(
                "Default: a warning; or a garnet fine, elimination, or a waiting player replaces."
            ),
            "choice",
            genius.SeasonRules.no_show,
            (
                ("warning", gettext_lazy("A warning")),
                ("fine", gettext_lazy("A garnet fine")),
                ("eliminate", gettext_lazy("Elimination")),
                ("replace", gettext_lazy("Replaced by a waiting player")),
            ),
        ),
        Field(
            "no_show_fine",
            gettext_lazy("Fine for a missed check"),
            gettext_lazy("Garnets, when the rule is a fine; default 1."),
            "int",
            None,
            (),
            0,
            99,
        ),
        Field(
            "dm_players",
            gettext_lazy("Players in a Death Match"),
            gettext_lazy(
                "Default 2 (EC and DMO); 3: the EC picks two opponents, last place loses."
            ),
            "choice",
            str(genius.SeasonRules.dm_players),
            (("2", gettext_lazy("Two")), ("3", gettext_lazy("Three"))),
            numeric=True,
        ),
    ),
}

UNDECIDED = Field(
    "undecided",
    gettext_lazy("A drawn match"),
    gettext_lazy("Default: it is replayed; or the higher seed goes on."),
    "choice",
    "replay",
    (("replay", gettext_lazy("Replayed")), ("higher_seed", gettext_lazy("The higher seed wins"))),
)
PHASE_NAMES = {
    "turn": gettext_lazy("Turn"),
    "draft": gettext_lazy("Draft"),
    "play": gettext_lazy("Play"),
    "choice": gettext_lazy("Choice"),
}


def allowance_fields(game: str) -> tuple[Field, ...]:
    """One allowance per phase of the game's clock, its default shown in the help; a clock
    that offers fixed choices is a select. Color Clash's turn timer is its rule, not here."""
    if game == "color_clash":
        return ()
    control = engines.get(game).default_time_control
    offered = control.get("choices", {})
    fields = []
    for phase, seconds in control["allowances"].items():
        label = _("%(phase)s: seconds per move") % {"phase": PHASE_NAMES.get(phase, phase)}
        default = _("Empty: the game's default, %(seconds)s s.") % {"seconds": seconds}
        choices = [s for s in offered.get(phase, ()) if s is not None]
        if choices:
            fields.append(
                Field(
                    phase,
                    label,
                    _("Default: %(seconds)s s.") % {"seconds": seconds},
                    "choice",
                    str(seconds),
                    tuple((str(s), _("%(seconds)s s") % {"seconds": s}) for s in choices),
                    numeric=True,
                )
            )
        else:
            fields.append(Field(phase, label, default, "int", None, (), 1, 3600))
    return tuple(fields)


def _collect(fields: tuple[Field, ...], post: Any, group: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for field in fields:
        value = field.read(post, group)
        if value is None:
            continue
        if field.kind != "int" and value == field.default:
            continue  # a rule left at its default stays out, as if never set
        if field.numeric and field.kind == "choice":
            value = float(value) if "." in value else int(value)
        outer, _dot, inner = field.key.partition(".")
        if inner:  # one entry of a dict rule; the entries left empty keep their default
            values.setdefault(outer, dict(DEFAULT_CONFIG.get(outer) or {}))[inner] = value
        else:
            values[field.key] = value
    return values


def build(post: Any, game: str, format_: str) -> dict[str, dict[str, Any]]:
    """The ruleset, allowances and format options the fields say, for this game and format."""
    ruleset = _collect(GAME_RULES.get(game, ()), post, game)
    ruleset.update(_collect((UNDECIDED,), post, "match"))
    allowances = (
        _collect(allowance_fields(game), post, f"{game}_allow") if game in GAME_RULES else {}
    )
    options = _collect(FORMAT_RULES.get(format_, ()), post, format_)
    return {"ruleset": ruleset, "allowances": allowances, "format_options": options}


def _shown(field: Field, name: str, values: Any) -> Any:
    """What the field shows: the value posted (or saved), else its default."""
    if field.kind == "bool":
        return values.get(name) == "on" if values else bool(field.default)
    if values and name in values:
        return values.get(name)
    return "" if field.default is None else str(field.default)


def sections(values: Any) -> dict[str, Any]:
    """The fieldsets the form draws: per game and per format, (field, posted name, value)."""

    def rows(fields: tuple[Field, ...], group: str) -> list[tuple[Field, str, Any]]:
        return [(f, f.name(group), _shown(f, f.name(group), values)) for f in fields]

    return {
        "games": [
            (
                game,
                engines.get(game).name,
                rows(rules, game),
                rows(allowance_fields(game), f"{game}_allow"),
            )
            for game, rules in GAME_RULES.items()
        ],
        "formats": [
            (format_, FORMAT_NAMES[format_], rows(rules, format_))
            for format_, rules in FORMAT_RULES.items()
        ],
        "undecided": rows((UNDECIDED,), "match"),
    }


def _flattened(saved: dict[str, Any], by_key: dict[str, Field]) -> dict[str, Any]:
    """A saved rule set with each dict rule whose entries are fields (``wheel``) spread into
    them (``wheel.1``, …); any other dict stays whole (and so goes to the advanced box)."""
    flat: dict[str, Any] = {}
    for key, value in saved.items():
        entries = (
            {f"{key}.{inner}": v for inner, v in value.items()} if isinstance(value, dict) else {}
        )
        if entries and all(name in by_key for name in entries):
            flat.update(entries)
        else:
            flat[key] = value
    return flat


def saved_values(
    game: str,
    format_: str,
    ruleset: dict[str, Any],
    allowances: dict[str, Any],
    options: dict[str, Any],
) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """A saved tournament's rules as the fields' values, and what no field shows (kept as
    JSON in the advanced box so that saving the form does not drop it)."""
    values: dict[str, str] = {}
    rest: dict[str, dict[str, Any]] = {}
    for part, fields, group, saved in (
        ("ruleset", (*GAME_RULES.get(game, ()), UNDECIDED), None, ruleset),
        (
            "allowances",
            allowance_fields(game) if game in GAME_RULES else (),
            f"{game}_allow",
            allowances,
        ),
        ("format_options", FORMAT_RULES.get(format_, ()), format_, options),
    ):
        by_key = {f.key: f for f in fields}
        for key, value in _flattened(saved or {}, by_key).items():
            field = by_key.get(key)
            if field is None or value is None:
                rest[part] = dict(saved)  # the whole part, since a filled box overrides it
                continue
            name = field.name(group or ("match" if field is UNDECIDED else game))
            if field.kind == "bool":
                values[name] = "on" if value else ""
            else:
                values[name] = "" if value is None else str(value)
        for field in fields:  # toggles saved at their default still show their state
            if field.kind == "bool" and field.key not in (saved or {}):
                values[field.name(group or game)] = "on" if field.default else ""
    return values, rest


# -- a season's hosted games (the Main Match and the Death Match) -------------------------------


def hosted_game_rows(prefix: str, games: list[str], values: Any) -> list[tuple[Any, ...]]:
    """The rules and clock of each of ``games`` as fields named ``<prefix><game>__<key>``, for
    a form on the console that starts a hosted game (several such forms share a page)."""

    def rows(fields: tuple[Field, ...], group: str) -> list[tuple[Field, str, Any]]:
        return [(f, f.name(group), _shown(f, f.name(group), values)) for f in fields]

    return [
        (
            game,
            engines.get(game).name,
            rows(GAME_RULES[game], f"{prefix}{game}"),
            rows(allowance_fields(game), f"{prefix}{game}_allow"),
        )
        for game in games
        if game in GAME_RULES
    ]


def hosted_game_settings(post: Any, prefix: str, game: str) -> tuple[dict, dict]:
    """The config and the allowances the fields of ``game`` say (``hosted_game_rows``)."""
    if game not in GAME_RULES:
        return {}, {}
    config = _collect(GAME_RULES[game], post, f"{prefix}{game}")
    return config, _collect(allowance_fields(game), post, f"{prefix}{game}_allow")


def hosted_game_values(
    prefix: str, game: str, config: dict[str, Any], allowances: dict[str, Any]
) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """Saved settings of a hosted game as its fields' values, and what no field shows (for
    the advanced JSON boxes, so that saving the form again keeps it)."""
    values: dict[str, str] = {}
    rest: dict[str, dict[str, Any]] = {}
    for part, fields, group, saved in (
        ("config", GAME_RULES.get(game, ()), f"{prefix}{game}", config),
        ("allowances", allowance_fields(game) if game in GAME_RULES else (), None, allowances),
    ):
        group = group or f"{prefix}{game}_allow"
        by_key = {f.key: f for f in fields}
        for key, value in _flattened(saved or {}, by_key).items():
            field = by_key.get(key)
            if field is None or value is None:
                rest[part] = dict(saved)
                continue
            values[field.name(group)] = (
                ("on" if value else "") if field.kind == "bool" else str(value)
            )
        for field in fields:
            if field.kind == "bool" and field.key not in (saved or {}):
                values[field.name(group)] = "on" if field.default else ""
    return values, rest
