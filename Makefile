# The two commands: `make run` (the service, embedded) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test test-slow lint install

$(INSTALLED): requirements.lock pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $(INSTALLED)

install: $(INSTALLED)

run: install
	$(PY) manage.py serve

test: install
	$(VENV)/bin/ruff check .
	$(PY) -m pytest

test-slow: install
	$(PY) -m pytest -m slow

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
