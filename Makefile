# Head Table: `make run` serves the site with a demo evening and a Celery worker on this computer;
# `make party` serves the evening on the venue's Wi-Fi (gunicorn, DEBUG=0) for guests' phones;
# `make test` installs what the tests need and runs them all; `make lint` runs ruff (rules and format check), mypy and import-linter. Only Python 3.11+ is required.
# `run` and `party` install the runtime dependencies only; `install` adds the test extras.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run party test lint install install-runtime migrate demo bench guide-images web-fonts unlock clean

$(VENV)/.runtime: pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed: $(VENV)/.runtime
	$(PIP) install --quiet -e '.[test]'
	touch $@

install-runtime: $(VENV)/.runtime

install: $(VENV)/.installed

migrate: install-runtime
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo $(if $(FORMAT),--format $(FORMAT)) $(if $(PLAYED),--played $(PLAYED))

run: demo
	@echo ""
	@echo "  Head Table is at http://$(HOST):$(PORT)/   host login: host / head-table"
	@echo "  (a Celery worker with its beat runs beside it; Ctrl-C stops both)"
	@echo ""
	$(PY) manage.py serve $(HOST):$(PORT)

party: install-runtime
	$(PY) manage.py party --port $(PORT) $(if $(ADDRESS),--address $(ADDRESS))

test: install
	$(VENV)/bin/pytest

# The code checks: ruff's rules, ruff's formatter's layout (configured in pyproject.toml; `ruff
# format .` fixes it), mypy (strict on tables/), the import contracts.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy tables tournament clubs
	$(VENV)/bin/lint-imports

# The host's guide's screenshots (docs/images/), taken in Chromium from a demo evening.
guide-images: install
	GUIDE_IMAGES=$(CURDIR)/docs/images $(VENV)/bin/pytest -q -p no:cacheprovider tests/test_guide_screenshots.py

# The web fonts for Arabic, Hebrew, Devanagari, Thai and CJK names (static/fonts-scripts.css), from
# Fontsource's npm packages at the versions pinned in tournament/webfonts.py (needs npm).
web-fonts: install-runtime
	$(PY) -m tournament.webfonts $${TMPDIR:-/tmp}/head-table-web-fonts

# The quick benchmarks, ending with one table of ratios and their goals (docs/benchmarks.md).
# make bench BENCH_ARGS=--quick: fewer guests and repeats, to check the table in a few minutes;
# BENCH_ARGS=--write-docs: put the table into docs/benchmarks.md ("The table").
bench: install
	$(PY) bench/run_all.py $(BENCH_ARGS)

# Lift the pause on logging in that five wrong passwords put on a name (django-axes).
unlock: install-runtime
	$(PY) manage.py axes_reset

clean:
	rm -rf var/ .pytest_cache staticfiles
