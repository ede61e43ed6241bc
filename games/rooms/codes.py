"""Room codes: six letters someone can read out across a table and type on a phone.

The alphabet leaves out the letters misread as digits or as each other (B 8, I 1, L 1, O 0,
S 5, Z 2). Codes are drawn with ``secrets`` (not counted up), so one room's code says nothing
about another's; 20**6 = 64 million codes, tried at a throttled rate, are not found by
guessing. A code that spells (or contains) an offensive word is drawn again.
"""

from __future__ import annotations

import secrets

ALPHABET = "ACDEFGHJKMNPQRTUVWXY"
LENGTH = 6

# Words, in the languages the site speaks and common transliterations, that no code may
# contain. Only those spellable in ALPHABET matter; the rest are listed for whoever widens it.
OFFENSIVE = frozenset(
    {
        "ANAL", "ANUS", "ARSE", "ASS", "CACA", "COCK", "COON", "CRAP", "CUM", "CUNT", "DAMN",
        "DICK", "DYKE", "FAG", "FUCK", "FUK", "FUX", "GAY", "HUY", "HUJ", "JAP", "JEW", "KKK",
        "KIKE", "KUNT", "MERDA", "NAZI", "NEGR", "NIGA", "NIGG", "PEDO", "PENE", "PICA",
        "PIKA", "PIZDA", "PORN", "POOP", "PUTA", "PUTO", "RAPE", "RETARD", "SEX", "SHIT",
        "SLUT", "SUKA", "TETA", "TWAT", "VAGINA", "VIADO", "WANK", "WHORE", "XUY", "XUJ",
        "YEBAT", "EBAT", "CYKA", "KAKA", "PEDE", "MUDAK", "DRYAN", "HUE", "XER", "KUR",
        "FDP", "KCT", "VTNC", "PQP", "WTF", "FCK", "FKU", "NGR", "TNC",
    }
)  # fmt: skip


def is_offensive(code: str) -> bool:
    word = code.upper()
    return any(bad in word for bad in OFFENSIVE)


def new_code() -> str:
    """A random code that contains no offensive word."""
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        if not is_offensive(code):
            return code


def refusal(text: str) -> str:
    """Why what a person typed is no code: "length" or "letters" ("" when it is one)."""
    code = "".join(text.split()).upper()
    if len(code) != LENGTH:
        return "length"
    return "letters" if any(letter not in ALPHABET for letter in code) else ""


def normalise(text: str) -> str | None:
    """What a person typed, as a code (case and spaces forgiven), or None if it cannot be one."""
    code = "".join(text.split()).upper()
    if len(code) != LENGTH or any(letter not in ALPHABET for letter in code):
        return None
    return code
