# The two commands: `make run` serves the API on SQLite, `make test` runs every test.
# Each sets itself up on a fresh machine: a .venv, the package with its test extra, the migrations.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
FLASK  := $(PY) -m flask --app service
PORT   ?= 8000
WORKERS ?= 2
# pytest-xdist: the suite across two processes (this machine's two cores); PYTEST_ARGS= runs it in one.
PYTEST_ARGS ?= -n 2 --dist worksteal

.PHONY: run test install migrate openapi bench clean bot worker

# Reinstall when pyproject.toml changes; the stamp file keeps repeated runs fast.
$(VENV)/.installed: pyproject.toml
	@echo "Setting up $(VENV): the service and its test tools (a few minutes the first time)"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --progress-bar off -e '.[test]'
	touch $@

install: $(VENV)/.installed

migrate: install
	$(FLASK) db upgrade

run: migrate
	PORT=$(PORT) $(PY) -m gunicorn -c python:service.core.server --workers $(WORKERS) --bind 127.0.0.1:$(PORT) "service:create_app()"

# Beside `make run`, each in a terminal of its own: the house bot (the computer that "Play the
# computer" challenges; its token kept in instance/house-bot.token), and the worker that sends
# the mails and webhook calls (`make run` alone sends none).
bot: install
	$(VENV)/bin/gin-bot --server http://127.0.0.1:$(PORT) --token-file instance/house-bot.token --register House --take-open --think-seconds 0.5

worker: migrate
	$(FLASK) notify worker

# The layers first (lint-imports reads the contracts in pyproject.toml; docs/architecture.md), then
# every test.
test: install
	$(VENV)/bin/lint-imports
	$(PY) -m pytest $(PYTEST_ARGS)

# Regenerate openapi.yaml from the code's schemas (tests/api/test_openapi.py fails when it drifts).
openapi: install
	$(FLASK) openapi write --format yaml openapi.yaml

bench: install
	$(PY) bench/bench_api.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis

# Two bots play a whole match on a scratch SQLite database and print the score sheet
# (client/gin_client/demo.py).
.PHONY: demo
demo: install
	$(PY) -m gin_client.demo
