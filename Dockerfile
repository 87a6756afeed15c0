# The lounge in a container (see docs/deployment.md): the web client built with Node, then the
# app on Python. Run one container per database; put a TLS-terminating proxy in front.
FROM node:20-bookworm-slim AS client
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
ENV PYTHONUNBUFFERED=1 PORT=8000
WORKDIR /app
COPY pyproject.toml README.md ./
COPY backend/ backend/
COPY shared_rules/ shared_rules/
RUN pip install --no-cache-dir -e . \
    && useradd --create-home lounge && mkdir instance && chown lounge instance
COPY --from=client /src/frontend/dist frontend/dist
USER lounge
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/api/health', timeout=4)"
# The Procfile's release and web commands, one after the other.
CMD ["sh", "-c", "lounge db upgrade && exec lounge serve --host 0.0.0.0 --port \"$PORT\""]
