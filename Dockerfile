FROM python:3.11-slim

WORKDIR /srv/domino
COPY pyproject.toml README.md ./
COPY app ./app
COPY migrations ./migrations
# Editable, so the server finds the top-level migrations/ beside the package.
RUN pip install --no-cache-dir -e .

ENV DOMINO_HOST=0.0.0.0 \
    DOMINO_PORT=8000
EXPOSE 8000
CMD ["domino", "serve"]
