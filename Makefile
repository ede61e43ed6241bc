# The two commands: `make run` (the service, embedded) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test test-slow lint install messages catalogues browser apt-gettext apt-chromium

$(INSTALLED): requirements.lock pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $(INSTALLED)

install: $(INSTALLED)

# The translation catalogues (locale/*/LC_MESSAGES/*.po) compiled to the .mo files Django
# reads; they are built, not committed. Debian's gettext provides msgfmt.
messages: install
	@command -v msgfmt >/dev/null || $(MAKE) --no-print-directory apt-gettext
	@if command -v msgfmt >/dev/null; then $(PY) manage.py compilemessages --ignore='.venv*' --verbosity 0; \
	else echo "no msgfmt: pages are served in English only" >&2; fi

# After adding or changing a visible string: refresh the catalogues, then translate every new
# entry (tests/hosting/test_translations.py fails on any entry missing or fuzzy).
MAKEMESSAGES := $(PY) manage.py makemessages -l pt_BR -l ru --no-location --no-obsolete --ignore='.venv*' --ignore='tests/*' --ignore='var/*' --ignore='staticfiles/*'
catalogues: install
	$(MAKEMESSAGES)
	$(MAKEMESSAGES) -d djangojs

# The browser the page tests drive (never a downloaded build): Debian's Chromium.
browser:
	@test -x /usr/bin/chromium || $(MAKE) --no-print-directory apt-chromium

apt-gettext:
	@if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; \
	else echo "msgfmt is missing: install Debian's gettext (sudo apt-get install gettext)" >&2; fi

apt-chromium:
	@if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	else echo "no /usr/bin/chromium: the browser tests will be skipped (sudo apt-get install chromium)" >&2; fi

run: install messages
	EMAIL_BACKEND=django.core.mail.backends.console.EmailBackend $(PY) manage.py serve

test: install messages browser
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest

test-slow: install
	$(PY) -m pytest -m slow

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff format --check .
