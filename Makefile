# Baccarat rules-and-settlement service. `make help` lists the targets.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed
# The Node.js tools of the tests (package.json, package-lock.json: newman, the OpenAPI
# linters, the TypeScript client's toolchain), installed when npm is there
NODE_STAMP := node_modules/.installed
NPM := $(shell command -v npm 2>/dev/null)

.DEFAULT_GOAL := help
# The gettext catalogues of the languages answers are written in (service/contract/language.py):
# babel/<domain>.cfg says where each domain's messages are, service/locales/<domain>.pot holds
# them, service/locales/<locale>/LC_MESSAGES/<domain>.po their translations, compiled to .mo here.
LOCALES := service/locales
DOMAINS := $(basename $(notdir $(wildcard babel/*.cfg)))
TRANSLATED := zh_Hans zh_Hant ko ja th vi
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard $(LOCALES)/*/LC_MESSAGES/*.po))

.PHONY: help install node run test quick check fmt openapi postman bench clean translations catalogues docs

# Each target's "## " comment, with the variables it names given their values.
help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}' \
		| sed 's|\$$(PORT)|$(PORT)|g'

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	@test -x $(BIN)/python || echo "Creating the virtual environment $(VENV) with $(PYTHON)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing the service in editable mode with its test and dev tools into $(VENV)"
	@echo "(pip, from pyproject.toml: about a minute, more without a pip cache; the translation catalogues are compiled on the way)"
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)
	@echo "Installed: $(BIN)/python. \`make run\` serves the API, \`make help\` lists the other targets."

install: $(STAMP) $(CATALOGUES) ## Create .venv and install the service with its dev tools (about a minute)

# Order-only on the stamp: the install compiles the catalogues itself, and a
# .mo is compiled again only when its .po changes.
$(LOCALES)/%.mo: $(LOCALES)/%.po | $(STAMP)
	$(BIN)/pybabel compile --input-file $< --output-file $@

catalogues: $(CATALOGUES) ## Compile the translations (.po) the service reads (.mo)

translations: $(STAMP) ## Extract each domain's messages into its .pot, update every language's .po, compile
	for domain in $(DOMAINS); do \
		$(BIN)/pybabel extract --no-location -F babel/$$domain.cfg -o $(LOCALES)/$$domain.pot service || exit 1; \
		for locale in $(TRANSLATED); do \
			test -f $(LOCALES)/$$locale/LC_MESSAGES/$$domain.po || \
			$(BIN)/pybabel init -D $$domain -l $$locale -i $(LOCALES)/$$domain.pot -d $(LOCALES) || exit 1; \
		done; \
		$(BIN)/pybabel update --no-fuzzy-matching --ignore-pot-creation-date -D $$domain -i $(LOCALES)/$$domain.pot -d $(LOCALES) || exit 1; \
	done
	$(MAKE) catalogues

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

node: $(NODE_STAMP) ## Install the Node.js tools of the tests into node_modules/ (npm ci)

run: $(STAMP) $(CATALOGUES) ## Serve under gunicorn on http://127.0.0.1:$(PORT)
	PORT=$(PORT) $(BIN)/gunicorn -c gunicorn.conf.py 'service.app:create_app()'

# Two passes: every test that may share the cores on all of them (pytest-xdist,
# one worker per core), then the few that measure against a reference or hold
# connections for a time, one at a time (tests/conftest.py::ALONE). The run
# fails if either pass fails, and is empty (pytest's 5) only if both are.
TEST_WORKERS ?= auto

test: $(STAMP) $(CATALOGUES) $(if $(NPM),$(NODE_STAMP)) ## Run the whole test suite (lint, types, rules, API, server, docs)
	@shared=0; alone=0; \
	$(BIN)/python -m pytest -n $(TEST_WORKERS) -m "not alone" $(PYTEST_ARGS) || shared=$$?; \
	$(BIN)/python -m pytest -p no:xdist -m alone $(PYTEST_ARGS) || alone=$$?; \
	if [ $$shared -eq 5 ] && [ $$alone -eq 5 ]; then exit 5; fi; \
	for status in $$shared $$alone; do [ $$status -eq 0 ] || [ $$status -eq 5 ] || exit $$status; done

# The quick loop while working: the rules engine, the contract document and the layers,
# without servers, browsers or the slow statistics (about a minute and a half on 2 cores).
QUICK := tests/baccarat tests/test_openapi.py tests/test_layers.py

quick: check $(CATALOGUES) ## The quick check: lint, types, the rules engine and the contract (1-2 min)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) -m "not server and not slow" $(QUICK)

check: $(STAMP) ## Lint, format check and type check
	$(BIN)/ruff check setup.py service tests bench clients
	$(BIN)/ruff format --check setup.py service tests bench clients
	$(BIN)/mypy

fmt: $(STAMP) ## Format the code
	$(BIN)/ruff format setup.py service tests bench clients
	$(BIN)/ruff check --fix setup.py service tests bench clients

openapi: $(STAMP) ## Regenerate openapi.yaml from the schemas
	$(BIN)/python -m service.openapi > openapi.yaml

postman: $(STAMP) $(NODE_STAMP) ## Rewrite the Postman collection's saved examples and answer schemas
	$(BIN)/python -m tests.postman_build

docs: $(STAMP) $(NODE_STAMP) ## Build the documentation site into site/ (mkdocs --strict: any warning fails)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

bench: $(STAMP) $(CATALOGUES) ## Benchmarks: throughput ratios and settlement speed
	$(BIN)/python -m bench

clean: ## Remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis node_modules artifacts
