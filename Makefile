# The two commands a newcomer needs: `make play` and `make test`. Only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
PYTEST_ARGS ?=

.PHONY: install play test test-stress lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# `make bench` also installs the bench extra (math-verify, for the checker comparison).
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(BENCH_STAMP)

install: $(STAMP)

play: $(STAMP)
	$(BIN)/python -m bot play

test: $(STAMP)
	@$(BIN)/python -m pytest $(PYTEST_ARGS); status=$$?; \
	if [ $$status -eq 5 ]; then echo "make test: pytest collected no tests" >&2; fi; \
	exit $$status

# The suite, three times, beside two busy loops: a test that depends on the machine's speed fails here.
test-stress: $(STAMP)
	$(BIN)/python -m tests.stress $(STRESS_ARGS) $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check bot lessons storage tests benchmarks alembic fakes
	$(BIN)/mypy

bench: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
