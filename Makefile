# Every target installs what it needs into .venv first.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed

.PHONY: venv demo lint test bench device-wheels clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip
	# The CPU build of torch must come first, or stable-baselines3 pulls CUDA wheels.
	$(PIP) install torch==2.13.0
	$(PIP) install -e '.[train,gui,eval,dev,torchrl,llm]'
	touch $(STAMP)

venv: $(STAMP)

## The main job: play agents on seeded boards and compare them.
demo: $(STAMP)
	$(PY) -m eval.demo

## Formatting, lint rules and strict types (pyproject.toml configures all three). CI runs it
## before the tests.
lint: $(STAMP)
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

## The test suite.
test: $(STAMP)
	$(PY) -m pytest -q -n 2

bench: $(STAMP)
	$(PY) benchmarks/bench_env.py

## Wheels a lent GPU machine lacks (it reaches no package registry; it has torch, numpy and
## scipy): the pure-Python packages training needs beside them, at this venv's versions, into
## .whl/ (ignored). docs/train.md, "On a lent GPU", says how a run installs them there.
DEVICE_PACKAGES := gymnasium farama-notifications stable-baselines3 sb3-contrib
device-wheels: $(STAMP)
	rm -rf .whl
	$(PIP) download --no-deps --only-binary=:all: -d .whl $$($(PY) -c "import importlib.metadata as m, sys; print(' '.join(f'{n}=={m.version(n)}' for n in sys.argv[1:]))" $(DEVICE_PACKAGES))

clean:
	rm -rf $(VENV) build *.egg-info
