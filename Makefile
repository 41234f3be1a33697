# Head Table: `make run` serves the site with a demo evening and a Celery worker;
# `make test` installs what the tests need and runs them all. Only Python 3.11+ is required.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install install-test migrate demo worker beat bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: demo
	@echo ""
	@echo "  Head Table is at http://$(HOST):$(PORT)/   host login: host / head-table"
	@echo "  (a Celery worker with its beat runs beside it; Ctrl-C stops both)"
	@echo ""
	$(PY) manage.py serve $(HOST):$(PORT)

test: install
	$(VENV)/bin/pytest

bench: install
	$(PY) bench/run_all.py

clean:
	rm -rf var/ .pytest_cache staticfiles
