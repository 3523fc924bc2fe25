# Two entry points: `make run` (the server on its embedded defaults) and `make test`.
# Each has its own environment: `make run` installs only what the server needs.
# Both install exactly what their lock lists, with the hashes checked:
#   requirements.lock        the server alone (pyproject's dependencies)
#   requirements-dev.lock    the server with the `dev` extra (tests and linters)
#   requirements-build.lock  what builds the package itself (pyproject's [build-system]),
#                            so `pip install -e .` downloads nothing unpinned
# After changing the dependencies in pyproject.toml, regenerate them with `make lock`
# (keeps every pin that still fits; `make lock LOCK_FLAGS=--upgrade` takes the newest).
VENV := .venv
STAMP := $(VENV)/.installed
RUN_VENV := .venv-run
RUN_STAMP := $(RUN_VENV)/.installed
NODE_STAMP := node_modules/.installed

# The locks are for CPython 3.11 on Linux x86_64, resolved by uv (in a throwaway venv).
UV_VERSION := 0.13.9
LOCK_FLAGS :=
LOCK_ARGS := --generate-hashes --no-strip-markers --python-version 3.11 \
	--python-platform x86_64-unknown-linux-gnu --custom-compile-command 'make lock'

.PHONY: run test services browser nginx node lint lock cluster test-cluster web

# --clear: the environment holds what the lock lists and nothing left from an older one.
# Editable, so the server finds the top-level migrations/ beside the package.
$(STAMP): requirements-dev.lock requirements-build.lock pyproject.toml
	python3 -m venv --clear $(VENV)
	$(VENV)/bin/pip install -q --require-hashes -r requirements-dev.lock
	$(VENV)/bin/pip install -q --require-hashes -r requirements-build.lock
	$(VENV)/bin/pip install -q --no-deps --no-build-isolation -e .
	touch $(STAMP)

$(RUN_STAMP): requirements.lock requirements-build.lock pyproject.toml
	python3 -m venv --clear $(RUN_VENV)
	$(RUN_VENV)/bin/pip install -q --require-hashes -r requirements.lock
	$(RUN_VENV)/bin/pip install -q --require-hashes -r requirements-build.lock
	$(RUN_VENV)/bin/pip install -q --no-deps --no-build-isolation -e .
	touch $(RUN_STAMP)

# The development lock first; the server's and the build's are constrained by it, so
# they agree.
lock:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	python3 -m venv "$$tmp" && "$$tmp/bin/pip" install -q uv==$(UV_VERSION) && \
	"$$tmp/bin/uv" pip compile -q pyproject.toml --extra dev $(LOCK_ARGS) $(LOCK_FLAGS) \
		-o requirements-dev.lock && \
	"$$tmp/bin/uv" pip compile -q pyproject.toml $(LOCK_ARGS) $(LOCK_FLAGS) \
		-c requirements-dev.lock -o requirements.lock && \
	python3 -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'], sep='\n')" | \
	"$$tmp/bin/uv" pip compile -q - $(LOCK_ARGS) $(LOCK_FLAGS) \
		-c requirements-dev.lock -o requirements-build.lock

run: $(RUN_STAMP) web
	$(RUN_VENV)/bin/domino serve

# The client's modules as one minified module (bundle.mjs, with esbuild); the server
# serves it while it matches the modules, and the modules one by one otherwise.
WEB_JS := $(wildcard app/web/js/*.js app/web/js/*/*.js app/web/js/*/*/*.js)
WEB_BUNDLE := app/web/dist/main.js

web: $(WEB_BUNDLE)

$(WEB_BUNDLE): $(WEB_JS) bundle.mjs $(NODE_STAMP)
	node bundle.mjs

# The tests use the machine's PostgreSQL and Redis; start them when they are down.
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && exit 0; sleep 1; done; echo "PostgreSQL or Redis did not come up" >&2; exit 1

# A local Redis Cluster of three masters (ports 7101-7103), from Debian's redis, started and
# joined once (.ci/redis-cluster does nothing to one that is up).
CLUSTER_URL := redis+cluster://127.0.0.1:7101
cluster:
	@.ci/redis-cluster 7101 >/dev/null

# The tests marked `cluster` (two processes: a whole game with its leak scan, seeks, an arena,
# a killed process; the store's own) on one Redis and on the local cluster.
test-cluster: $(STAMP) services cluster
	DOMINO_TEST_REDIS_CLUSTER=$(CLUSTER_URL) $(VENV)/bin/python -m pytest -m cluster -k "not redis]" -p no:cacheprovider

# The browser tests drive Debian's Chromium (Playwright's own download is not used).
browser:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

# The compose-equivalent test puts Debian's nginx in front of two servers.
nginx:
	@test -x /usr/sbin/nginx || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 nginx >/dev/null)

# TypeScript checks the browser client (tsconfig.json); npm ci installs it from
# package-lock.json.
node:
	@command -v npm >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null)

$(NODE_STAMP): package.json package-lock.json | node
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

lint: $(STAMP) $(NODE_STAMP)
	$(VENV)/bin/ruff check app tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	node_modules/.bin/tsc -p tsconfig.json

# Two workers: most tests wait on servers, clocks and browsers, so two share two cores well.
# Work stealing: a worker that runs out takes tests from the other's queue, so one long
# browser game near the end does not leave a queue waiting behind it.
test: $(STAMP) web services browser nginx
	$(VENV)/bin/python -m pytest -n 2 --dist worksteal --durations=25
