"""Every visible string has its Portuguese (Brazil) and Russian translation, and pages are
served in the language the browser asks for or the switcher chose."""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest

from tests.catalogues import REQUIRED, compile_catalogues

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("pt_BR", "ru")
SOURCES = ("manage.py", "hosting", "notifications", "games", "tournaments", "templates", "locale")
# The layers without Django: their sentences are marked with a local ``gettext_noop``.
PURE = ("games/engines", "games/clocks.py", "tournaments/formats", "tournaments/tiebreaks.py")


def _statistics(po: Path) -> tuple[int, int, int]:
    """(translated, fuzzy, untranslated) as msgfmt counts them; it also checks the format."""
    done = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=True,
    )
    counts = {}
    for number, kind in re.findall(r"(\d+) (translated|fuzzy|untranslated)", done.stderr):
        counts[kind] = int(number)
    return counts.get("translated", 0), counts.get("fuzzy", 0), counts.get("untranslated", 0)


@pytest.fixture(scope="module")
def refreshed(tmp_path_factory) -> Path:
    """The catalogues as ``make catalogues`` would leave them, made in a copy of the sources:
    a string added to a template or script but not to the catalogue shows up untranslated."""
    if shutil.which("xgettext") is None:
        if REQUIRED:
            pytest.fail("xgettext is missing: install Debian's gettext")
        pytest.skip("xgettext is missing (Debian's gettext)")
    copy = tmp_path_factory.mktemp("sources")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, copy / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__")
            )
        elif source.exists():
            shutil.copy(source, copy / name)
    base = [sys.executable, "manage.py", "makemessages", "--no-location", "--no-obsolete"]
    base += [f"-l{language}" for language in LANGUAGES]
    for domain in ("django", "djangojs"):
        subprocess.run([*base, "-d", domain], cwd=copy, check=True, capture_output=True)
    return copy / "locale"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_no_catalogue_entry_is_missing_or_fuzzy(refreshed, language, domain):
    po = refreshed / language / "LC_MESSAGES" / f"{domain}.po"
    if not po.exists():
        assert not (ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po").exists()
        pytest.skip(f"no string of the {domain} domain yet")
    translated, fuzzy, untranslated = _statistics(po)
    assert translated > 0
    assert (fuzzy, untranslated) == (0, 0), f"{po.relative_to(refreshed)}: run make catalogues"


@pytest.fixture
def catalogues() -> None:
    compile_catalogues()


def _pure_templates() -> set[str]:
    """Every sentence the pure layers mark with ``gettext_noop("...")``."""
    templates = set()
    for entry in PURE:
        path = ROOT / entry
        for source in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            for node in ast.walk(ast.parse(source.read_text(), filename=str(source))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "gettext_noop"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    templates.add(node.args[0].value)
    return templates


def _placeholders(template: str) -> list[str]:
    return sorted(
        f"{name}!{conversion}"
        for _, name, _, conversion in string.Formatter().parse(template)
        if name is not None
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_pure_layer_sentence_is_translated_with_the_same_placeholders(catalogues, language):
    """The errors of time controls, formats, tie-breaks and engine configs, and the engines'
    refusals, reach people through ``hosting.core.wording`` by their English template: each one
    has a translation (not fuzzy: msgfmt leaves those out) that fills the same placeholders."""
    templates = _pure_templates()
    assert len(templates) > 250  # the refusals and the validation sentences
    catalogue = gettext.translation("django", ROOT / "locale", languages=[language])
    untranslated, mismatched = [], []
    for template in sorted(templates):
        translated = catalogue.gettext(template)
        if translated == template:
            untranslated.append(template)
        elif _placeholders(translated) != _placeholders(template):
            mismatched.append((template, translated))
    assert untranslated == [], "run make catalogues, then translate these"
    assert mismatched == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "html_lang", "words"),
    [
        ("pt-BR,pt;q=0.9", "pt-br", "Torneios"),
        ("ru-RU,ru;q=0.9", "ru", "Турниры"),
        ("en", "en", "Tournaments"),
    ],
)
def test_pages_follow_the_browsers_language(client, catalogues, accept, html_lang, words):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert f'<html lang="{html_lang}">' in page
    assert words in page


@pytest.mark.django_db
def test_the_switcher_keeps_the_chosen_language(client, catalogues):
    answer = client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="ru">' in page and "Сменить язык" in page


@pytest.mark.django_db
def test_the_script_catalogue_is_served_per_language(client, catalogues):
    answer = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 200
    assert "django.gettext" in answer.content.decode()
