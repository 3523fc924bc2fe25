# Two entry points: `make run` (the server on its embedded defaults) and `make test`.
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test services browser lint

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/domino serve

# The tests use the machine's PostgreSQL and Redis; start them when they are down.
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && exit 0; sleep 1; done; echo "PostgreSQL or Redis did not come up" >&2; exit 1

# The browser tests drive Debian's Chromium (Playwright's own download is not used).
browser:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

lint: $(STAMP)
	$(VENV)/bin/ruff check app tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: $(STAMP) services browser
	$(VENV)/bin/python -m pytest
