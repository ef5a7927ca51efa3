# Parley's container image: Next.js's standalone server, run as an unprivileged user.
#   docker build -t parley .
#   docker run -p 127.0.0.1:3000:3000 -v parley-data:/data parley    (the embedded database, demo mode)
# With DATABASE_URL (PostgreSQL) and AUTH_SECRET it serves a real deployment: see compose.yaml and
# docs/operations.md ("Run it in production").

# ---- build: every dependency (the patches in patches/ applied by npm ci's postinstall), then next build
FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
# A standalone build (next.config.ts): .next/standalone holds server.js and the files it traces.
ARG PARLEY_BUILD_SKIP_TYPECHECK=0
RUN PARLEY_STANDALONE=1 PARLEY_BUILD_SKIP_TYPECHECK=$PARLEY_BUILD_SKIP_TYPECHECK npx next build
# What the server reads by path rather than imports, gathered into the standalone tree:
#  - migrations, from the project's folder (db/client.ts, lib/registry: the platform's and each app's);
#  - postgres.js and PGlite whole (serverExternalPackages: loaded from node_modules as installed, the
#    former with patches/postgres+3.4.9.patch, the latter with its WebAssembly and data files);
#  - Next.js's page runtimes as patched (patches/next+16.4.6.patch);
#  - the command that starts the server, and the check that the patches are there.
RUN set -e; \
    out=.next/standalone; \
    cp -r .next/static "$out/.next/static"; \
    find db examples apps -type d -name migrations -not -path '*/node_modules/*' 2>/dev/null | while read -r folder; do \
      mkdir -p "$out/$folder" && cp -r "$folder/." "$out/$folder/"; \
    done; \
    for package in postgres @electric-sql/pglite; do \
      rm -rf "$out/node_modules/$package" && mkdir -p "$out/node_modules/$package" && cp -r "node_modules/$package/." "$out/node_modules/$package/"; \
    done; \
    mkdir -p "$out/node_modules/next/dist/compiled/next-server" "$out/scripts"; \
    cp node_modules/next/dist/compiled/next-server/app-page*.runtime.prod.js "$out/node_modules/next/dist/compiled/next-server/"; \
    cp scripts/container-start.mjs scripts/build-if-needed.mjs scripts/dependency-patches.mjs "$out/scripts/"

# ---- runtime: the standalone tree and nothing else (no npm cache, no sources, no dev dependencies)
FROM node:22-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    PARLEY_DATA_DIR=/data
COPY --from=build --chown=root:root /app/.next/standalone ./
# The server refuses to start without the patched dependencies; refuse to build an image without them.
RUN node -e "import('./scripts/dependency-patches.mjs').then((m) => { const why = m.describeMissingDependencyPatches(m.missingDependencyPatches('.')); if (why) { console.error(why); process.exit(1); } })" \
 && mkdir -p /data .next/cache && chown node:node /data .next/cache && chmod 700 /data
# The embedded database (without DATABASE_URL) and the demo's generated secret live here.
VOLUME ["/data"]
USER node
EXPOSE 3000
# Liveness (docs/operations.md): the process answers HTTP. No curl in the slim image: Node's fetch.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/api/health`, { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# On SIGTERM Parley stops taking work and answers what it holds, within PARLEY_SHUTDOWN_TIMEOUT_MS
# (20 s): give `docker stop` more than that (`-t 30`; compose.yaml's stop_grace_period).
STOPSIGNAL SIGTERM
CMD ["node", "scripts/container-start.mjs"]
