# syntax=docker/dockerfile:1
# Onboarding emulator image: build with the dev toolchain, run on a production-only install.
#   docker build -t onboarding-emulator .
#   docker run --rm -p 4010:4010 onboarding-emulator

# ---- build: compile TypeScript to dist/ ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
# Manifests first so the dependency layer is cached while only sources change.
# --ignore-scripts: no package runs install scripts here; the build is its own step below.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts --no-audit --no-fund
# The rest of the build context (.dockerignore keeps out tests, docs, node_modules, dist).
COPY . .
# tsc for the server and for the inspector's browser script (dist/browser), then
# scripts/build-validators.mjs precompiles the request validators into dist/.
RUN npm run build

# ---- runtime: production dependencies, built output, fixtures and scenarios ----
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    EMULATOR_HOST=0.0.0.0 \
    EMULATOR_PORT=4010
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY scenarios ./scenarios
# V8's compile cache (Node 22.1 and later): filled once here by loading every module the CLI
# imports (`--version` evaluates them all), so each start reads compiled code instead of
# compiling it. The folder belongs to the process's user: entries for modules loaded later
# (on first use) are added at run time.
ENV NODE_COMPILE_CACHE=/app/.compile-cache
RUN node dist/cli/main.js --version >/dev/null && chown -R node:node /app/.compile-cache
# Files stay root-owned and read-only to the process; the emulator keeps its state in memory.
USER node
EXPOSE 4010
# Slim images have no curl: ask node's fetch. Follows EMULATOR_PORT if it is overridden.
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.EMULATOR_PORT || 4010) + '/_emulator/health').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# The CLI handles SIGTERM/SIGINT itself, so `docker stop` shuts it down cleanly as PID 1.
CMD ["node", "dist/cli/main.js", "serve"]
