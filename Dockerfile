# Onboarding emulator image: build with the dev toolchain, run on a production-only install.
#   docker build -t onboarding-emulator .
#   docker run --rm -p 127.0.0.1:4010:4010 onboarding-emulator
#   docker run --rm -p 127.0.0.1:4010:4010 onboarding-emulator --scenario happy-path --seed 7
# The same image is the relay to a receiver on the host (the entrypoint runs any command):
#   docker run --rm --network host onboarding-emulator listen --url http://127.0.0.1:4010 --forward-to http://127.0.0.1:3000/webhooks
# Written for the builder every engine has (no syntax directive, no BuildKit-only flags), so
# air-gapped runners and engines older than 25 build it as well.

# ---- build: compile TypeScript to dist/ ----
FROM node:26-bookworm-slim AS build
WORKDIR /app
# Manifests first so the dependency layer is cached while only sources change.
# --ignore-scripts: no package runs install scripts here; the build is its own step below.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts --no-audit --no-fund
# Tracing's OpenTelemetry packages for the runtime stage (see there), at the lock's versions as
# this `npm ci` installed them, less what Node never loads: the bundlers' builds (build/esm,
# build/esnext), source maps and type declarations (28 MB down to 6 MB).
RUN mkdir /otel && cp -r node_modules/@opentelemetry /otel/ \
 && rm -rf /otel/@opentelemetry/*/build/esm /otel/@opentelemetry/*/build/esnext \
 && find /otel -name '*.map' -delete -o -name '*.d.ts' -delete -o -name '*.d.cts' -delete -o -name '*.d.mts' -delete
# The rest of the build context (.dockerignore keeps out tests, docs, node_modules, dist).
COPY . .
# tsc for the server and for the inspector's browser script (dist/browser), then
# scripts/build-validators.mjs precompiles the request validators into dist/.
RUN npm run build

# ---- runtime: production dependencies, built output, fixtures and scenarios ----
FROM node:26-bookworm-slim AS runtime
ENV NODE_ENV=production \
    EMULATOR_HOST=0.0.0.0 \
    EMULATOR_PORT=4010
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Less what Node never loads: source maps and type declarations (7.6 of 22.4 MB, most of
# them the MCP SDK's).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force \
 && find node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' \) -delete
# Tracing's OpenTelemetry packages are optional peer dependencies (and devDependencies for the
# tests), so `npm ci --omit=dev` leaves them out; the image ships them, loaded only when an OTLP
# endpoint is set. Their dependencies are all in the same scope, so the build stage's copy of
# that folder is the whole set, at the lock's versions, with no second registry trip.
COPY --from=build /otel/@opentelemetry ./node_modules/@opentelemetry
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY parity/corpus ./parity/corpus
# The two folders the process may write, both owned by the user it runs as: V8's compile
# cache and /data, the documented place for a state file on a volume
# (-v emu-state:/data -e EMULATOR_STATE_FILE=/data/state.json). A new named volume takes this
# folder's owner, so it is writable without any chown.
RUN mkdir -p /app/.compile-cache /data && chown node:node /app/.compile-cache /data
# Everything below runs as `node` (uid 1000), the user the emulator runs as.
USER node
# V8's compile cache: Node keeps one folder per Node version and user id inside it, so it is
# filled here as that user. The CLI is one bundled file, and `--version` loads all of it; each
# start then reads compiled code instead of compiling it. With a read-only root file system
# the cache is still read; entries it lacks are simply not written.
ENV NODE_COMPILE_CACHE=/app/.compile-cache
RUN node dist/cli/main.js --version >/dev/null
EXPOSE 4010
# The probe is bash's own /dev/tcp and `read`: no second Node runtime (about 60 MB) beside the
# emulator, no curl in a slim image. The emulator answers it and logs it at debug level only.
# A 2 s interval makes the container healthy about 2 s after it starts on every engine
# (--start-interval needs engine 25).
HEALTHCHECK --interval=2s --timeout=2s --start-period=20s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${EMULATOR_PORT:-4010} && printf 'GET /_emulator/health HTTP/1.0\\r\\n\\r\\n' >&3 && read -r -t 2 line <&3 && [[ $line == *' 200 '* ]]"]
# Node is PID 1: the CLI handles SIGTERM and SIGINT itself, so `docker stop` drains and exits
# cleanly. Arguments after the image name go to the CLI: options alone start the server
# (`--scenario happy-path`), a command runs that command (`scenario validate x.yaml`, `--help`).
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
