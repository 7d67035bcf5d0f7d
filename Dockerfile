# aivis as a scheduled container: `docker run ... aivis sync`. No image is published yet:
# build it yourself (examples/README.md, "The image").
#
# The same image as an Airbyte custom connector (docs/protocols.md#airbyte): the `airbyte`
# target, whose entrypoint is `aivis airbyte`, so `IMAGE spec` and `IMAGE check --config x.json`
# are the Airbyte protocol's commands:
#   docker build --target airbyte -t aivis/source-aivis:0.1.0 .
#
# No `# syntax=` line: nothing here needs a newer Dockerfile frontend than the one BuildKit
# ships, and naming one makes an air-gapped build fail pulling it.
#   docker build -t aivis .
#   docker run --rm -e AIVIS_API_KEY -e DATABASE_URL \
#     -v "$PWD/config.yaml:/etc/aivis/config.yaml:ro" aivis check
#
# Three stages so the image holds production dependencies and compiled JavaScript only:
# no TypeScript compiler, no test-only packages (embedded-postgres alone is ~100 MB).
#
# Builds for linux/amd64 and linux/arm64: package-lock.json carries DuckDB's native binding
# for both (and for macOS and Windows, for local `npm ci`).

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: compile src/, connectors/ and schemas/ to dist/ -------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No dependency needs an install script except embedded-postgres (tests only); skipping
# scripts keeps the build from running code it does not need.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY schemas ./schemas
COPY src ./src
COPY connectors ./connectors
RUN npm run build

# ---- prod-deps: node_modules without devDependencies, built for the target platform ------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- runtime ------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime

# tini becomes PID 1. aivis handles SIGTERM and SIGINT itself (it commits what it read and
# exits 143 or 130); tini is there for what PID 1 owes the rest: reaping zombie processes, and
# forwarding a signal to the whole process group (-g) so nothing started by Node outlives it.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

# A fixed numeric user, so Kubernetes `runAsNonRoot` can verify it without guessing.
RUN groupadd --system --gid 10001 aivis \
 && useradd --system --uid 10001 --gid aivis --home-dir /var/lib/aivis --shell /usr/sbin/nologin aivis \
 && mkdir -p /var/lib/aivis /etc/aivis \
 && chown aivis:aivis /var/lib/aivis

WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json: `"type": "module"` for dist/ and the version `aivis --version` prints.
# schemas/*.json: the OpenAPI document `aivis sandbox` serves and the config JSON Schema.
COPY package.json ./
COPY schemas/*.json ./schemas/

# `aivis` on PATH, so `ENTRYPOINT ["aivis"]` and `kubectl exec ... aivis state show` both work.
RUN printf '%s\n' '#!/bin/sh' 'exec /usr/bin/tini -s -g -- node /app/dist/src/cli/main.js "$@"' > /usr/local/bin/aivis \
 && chmod 0755 /usr/local/bin/aivis

# A small young generation and a 256 MB old space keep RSS flat (186-217 MB for a million
# mentions, docs/performance.md, row 9): V8 otherwise grows its heap by the machine's memory, not the
# run's live data (~40 MB plus one flush, itself bounded to 32 M characters). Override as needed.
ENV NODE_ENV=production \
    NODE_OPTIONS="--enable-source-maps --max-semi-space-size=1 --max-old-space-size=256" \
    AIVIS_CONFIG=/etc/aivis/config.yaml

# Relative paths in the config resolve against the config's folder (/etc/aivis, usually a
# read-only ConfigMap): point DuckDB `path` and `state.path` at /var/lib/aivis instead.
WORKDIR /var/lib/aivis
USER 10001:10001

ENTRYPOINT ["aivis"]
CMD ["sync"]

LABEL org.opencontainers.image.title="aivis" \
      org.opencontainers.image.description="Incremental ELT connector for the AI-search visibility Public API V2" \
      org.opencontainers.image.licenses="Apache-2.0"

# ---- airbyte: the runtime as an Airbyte source (`--target airbyte`) -----------------------
# Airbyte runs `IMAGE spec|check|discover|read ...` and reads AIRBYTE_ENTRYPOINT to wrap it;
# the io.airbyte labels name the connector and its version (the package's). The JSON config
# always comes as --config, so the YAML config's default path is cleared.
FROM runtime AS airbyte
ENV AIRBYTE_ENTRYPOINT="aivis airbyte" \
    AIVIS_CONFIG=""
ENTRYPOINT ["aivis", "airbyte"]
CMD ["spec"]
LABEL io.airbyte.name="aivis/source-aivis" \
      io.airbyte.version="0.1.0"

# ---- default: a plain `docker build` is the `aivis` image, as before ---------------------
FROM runtime
