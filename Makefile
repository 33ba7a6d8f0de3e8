# The two commands: `make run` (the product) and `make test` (the suite).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
STAMP := $(VENV)/.installed-$(shell cat requirements.lock pyproject.toml | cksum | cut -d' ' -f1)
PYTEST_ARGS ?=

.PHONY: run test install lint

run: $(STAMP)
	@exec $(VENV)/bin/python -m memoryhub.launcher run

test: $(STAMP)
	$(VENV)/bin/python -m memoryhub.launcher exec -- $(VENV)/bin/python -m pytest $(PYTEST_ARGS)

install: $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .
	$(VENV)/bin/lint-imports

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "memoryhub needs Python 3.11"'
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	rm -f $(VENV)/.installed-*
	touch $@
