# The client's modules as one minified module (bundle.mjs, with the esbuild that
# package-lock.json pins); only the bundle goes on to the image.
FROM node:20-slim AS web
WORKDIR /src
COPY package.json package-lock.json bundle.mjs ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY app/web ./app/web
RUN node bundle.mjs

# The server alone, as docker-compose.yml runs it: no development extras, not root.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --system --create-home --uid 10001 domino \
    && mkdir /data && chown domino:domino /data

WORKDIR /srv/domino
# Exactly the releases the lock lists, with their hashes checked.
COPY requirements.lock requirements-build.lock ./
RUN pip install --require-hashes -r requirements.lock \
    && pip install --require-hashes -r requirements-build.lock
COPY pyproject.toml README.md ./
COPY app ./app
COPY --from=web /src/app/web/dist ./app/web/dist
COPY migrations ./migrations
# Editable, so the server finds the top-level migrations/ beside the package; the files
# stay root's, read-only for the server.
RUN pip install --no-deps --no-build-isolation -e .

USER domino
# The working folder of the server: the SQLite default (when no database is set) lives here.
WORKDIR /data
ENV DOMINO_HOST=0.0.0.0 \
    DOMINO_PORT=8000 \
    DOMINO_LOG_FORMAT=json
EXPOSE 8000

# Ready only when the database and the live store answer (GET /readyz).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('DOMINO_PORT', '8000')}/readyz\", timeout=4)"]

STOPSIGNAL SIGTERM
CMD ["domino", "serve"]
