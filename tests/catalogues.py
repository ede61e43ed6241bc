"""The translation catalogues compiled for a test run (the .mo files are built, not committed)."""

from __future__ import annotations

import os
import shutil

import pytest
from django.core.management import call_command

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"


def compile_catalogues() -> None:
    """``compilemessages`` as ``make`` runs it, then forget the translations already loaded
    (a process that read the catalogues before they were built would keep English)."""
    if shutil.which("msgfmt") is None:
        if REQUIRED:
            pytest.fail("msgfmt is missing: install Debian's gettext")
        pytest.skip("msgfmt is missing (Debian's gettext): catalogues cannot be compiled")
    call_command("compilemessages", ignore_patterns=[".venv*"], verbosity=0)
    from django.utils.translation import trans_real

    trans_real._translations = {}
    trans_real._default = None
