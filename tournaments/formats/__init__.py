"""Pure pairing and bracket generators, registered by key (the key is what the database stores).

Standard library only (plus rustworkx for Swiss matching); no Django import below this
package. ``tournaments/adapters.py`` is the one bridge between rows and these functions.
"""

from __future__ import annotations

from types import ModuleType

from tournaments.formats import (
    double_elimination,
    genius,
    round_robin,
    single_elimination,
    swiss,
)
from tournaments.formats.errors import FormatError

FORMATS: dict[str, ModuleType] = {
    module.KEY: module
    for module in (single_elimination, double_elimination, round_robin, swiss, genius)
}

__all__ = ["FORMATS", "FormatError"]
