# psd2-bank: multi-stage build; the runtime image holds the compiled service and production
# dependencies only, and runs as an unprivileged user.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 and @node-rs/argon2 may compile from source: the toolchain stays in this stage.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY src ./src
COPY test ./test
COPY client ./client
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production PSD2_MODE=production DATA_DIR=/var/lib/psd2-bank HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
RUN mkdir -p /var/lib/psd2-bank && chown node:node /var/lib/psd2-bank
USER node
VOLUME /var/lib/psd2-bank
EXPOSE 8443 8444 9464
ENTRYPOINT ["node", "dist/src/main.js"]
CMD ["start"]
