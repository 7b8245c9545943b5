# psd2-bank: multi-stage build; the runtime image holds the compiled service and production
# dependencies only, and runs as an unprivileged user. Node 24 (Active LTS).
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 and @node-rs/argon2 ship prebuilt binaries; an npm that does not read
# package.json's allowScripts still runs node-gyp over better-sqlite3's binding.gyp (a no-op that
# needs the toolchain), which stays in this stage.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.app.json ./
COPY src ./src
COPY test ./test
COPY client ./client
# The build turns the openFinance files (schemas/openfinance) into the JSON that /v2's published
# document is made of, under dist/src, and ends with the bank in one file, dist/src/psd2-bank.js
# (scripts/bundle.mjs), which the entry point runs.
COPY schemas ./schemas
COPY scripts/openfinance-json.mjs scripts/bundle.mjs ./scripts/
RUN npm run build && npm prune --omit=dev

# Production by default (the bank's own TLS files and trust store mounted, see compose.yaml);
# `-e PSD2_MODE=sandbox` runs the sandbox demo instead, its development certificates written to
# the volume. Either way both listeners bind all of the container's interfaces.
FROM node:24-bookworm-slim
# At most two malloc arenas, as `npm start` runs it: up to 28 MB less peak RSS measured (docs/performance.md).
ENV NODE_ENV=production PSD2_MODE=production DATA_DIR=/var/lib/psd2-bank HOST=0.0.0.0
ENV GLIBC_TUNABLES=glibc.malloc.arena_max=2
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
# The XSDs pain.001 is validated against, read at run time beside the compiled code.
COPY --from=build /app/schemas/iso20022 ./schemas/iso20022
# Owner only, as the bank makes DATA_DIR itself: it holds the PSUs' data (a new volume copies the mode).
RUN mkdir -p -m 700 /var/lib/psd2-bank && chown node:node /var/lib/psd2-bank
USER node
VOLUME /var/lib/psd2-bank
EXPOSE 8443 8444 9464
# The heap limits `npm start` runs with, which the bench measures (docs/performance.md, "Memory").
ENTRYPOINT ["node", "--max-old-space-size=96", "--max-semi-space-size=16", "dist/src/psd2-bank.js"]
CMD ["start"]
