# The two commands a newcomer needs: `make play` and `make test`. Only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
BENCH_STAMP := $(VENV)/.installed-bench
PYTEST_ARGS ?=
# The suite runs on one pytest-xdist worker per core; PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= auto
PYTEST := $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal
# The container image installs the application's dependencies from this lock file.
LOCK := requirements.lock

.PHONY: install play test test-stress lint bench lock messages compile-messages clean

# What the bot needs, and nothing else: enough for `make play`.
$(STAMP): pyproject.toml
	@echo "installing the bot into $(VENV) (once, about a minute)…"
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip > $(VENV)/install.log 2>&1 \
		|| { cat $(VENV)/install.log; exit 1; }
	@$(BIN)/python -m pip install --quiet -e . > $(VENV)/install.log 2>&1 \
		|| { cat $(VENV)/install.log; exit 1; }
	@touch $(STAMP)

# `make test` and `make lint` also install the test extra (pytest and pytest-xdist, mypy, ruff, uv).
$(TEST_STAMP): $(STAMP)
	@echo "installing the test tools into $(VENV) (once)…"
	@$(BIN)/python -m pip install --quiet -e '.[test]' > $(VENV)/install.log 2>&1 \
		|| { cat $(VENV)/install.log; exit 1; }
	@touch $(TEST_STAMP)

# `make bench` also installs the bench extra (math-verify, for the checker comparison).
$(BENCH_STAMP): $(TEST_STAMP)
	@echo "installing the benchmark tools into $(VENV) (once)…"
	@$(BIN)/python -m pip install --quiet -e '.[test,bench]' > $(VENV)/install.log 2>&1 \
		|| { cat $(VENV)/install.log; exit 1; }
	@touch $(BENCH_STAMP)

install: $(TEST_STAMP)

play: $(STAMP)
	@$(BIN)/python -m bot play

test: $(TEST_STAMP)
	@$(PYTEST) $(PYTEST_ARGS); status=$$?; \
	if [ $$status -eq 5 ]; then echo "make test: pytest collected no tests" >&2; fi; \
	exit $$status

# The suite, three times, beside two busy loops: a test that depends on the machine's speed fails here.
test-stress: $(TEST_STAMP)
	$(BIN)/python -m tests.stress $(STRESS_ARGS) -n $(PYTEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

lint: $(TEST_STAMP)
	$(BIN)/ruff check bot lessons storage tests benchmarks alembic fakes
	$(BIN)/mypy

bench: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks

# The pinned dependencies for Python 3.11 on any platform, from pyproject.toml.
lock: $(TEST_STAMP)
	$(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --quiet --output-file $(LOCK)

# The message catalogs: extract the template from bot/, merge it into each language's catalog,
# then compile what translators filled in (docs/languages.md).
CATALOGS := bot/locale
messages: $(TEST_STAMP)
	$(BIN)/pybabel extract --mapping-file babel.cfg --no-location --sort-output \
		--project rlvr-lessonbot --omit-header --output-file $(CATALOGS)/messages.pot .
	$(BIN)/pybabel update --input-file $(CATALOGS)/messages.pot --output-dir $(CATALOGS) \
		--domain messages --ignore-obsolete --no-fuzzy-matching --ignore-pot-creation-date

compile-messages: $(TEST_STAMP)
	$(BIN)/pybabel compile --directory $(CATALOGS) --domain messages --statistics

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
