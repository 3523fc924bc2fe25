# Two entry points: `make run` (the server on its embedded defaults) and `make test`.
# Each has its own environment: `make run` installs only what the server needs.
VENV := .venv
STAMP := $(VENV)/.installed
RUN_VENV := .venv-run
RUN_STAMP := $(RUN_VENV)/.installed

.PHONY: run test services browser nginx lint

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $(STAMP)

# Editable, so the server finds the top-level migrations/ beside the package.
$(RUN_STAMP): pyproject.toml
	python3 -m venv $(RUN_VENV)
	$(RUN_VENV)/bin/pip install -q -e .
	touch $(RUN_STAMP)

run: $(RUN_STAMP)
	$(RUN_VENV)/bin/domino serve

# The tests use the machine's PostgreSQL and Redis; start them when they are down.
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && exit 0; sleep 1; done; echo "PostgreSQL or Redis did not come up" >&2; exit 1

# The browser tests drive Debian's Chromium (Playwright's own download is not used).
browser:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

# The compose-equivalent test puts Debian's nginx in front of two servers.
nginx:
	@test -x /usr/sbin/nginx || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 nginx >/dev/null)

lint: $(STAMP)
	$(VENV)/bin/ruff check app tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# Two workers: most tests wait on servers, clocks and browsers, so two share two cores well.
# Work stealing: a worker that runs out takes tests from the other's queue, so one long
# browser game near the end does not leave a queue waiting behind it.
test: $(STAMP) services browser nginx
	$(VENV)/bin/python -m pytest -n 2 --dist worksteal --durations=25
