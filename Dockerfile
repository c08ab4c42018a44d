# Cubes AI: the production server (API + built web app) on port 3000, run as built JavaScript.
# Stage 1 installs the workspace and builds the web app and the server (apps/server/build.mjs);
# `pnpm deploy --prod` then copies the server's dist/ with only its production dependencies.
# Stage 2 is that folder, the web app's dist/ and Node: no TypeScript, no tsx, no dev tools.
# docs/operations.md#the-image says how it was checked (no Docker engine where it was written).
FROM node:20-bookworm-slim AS build
ENV TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
RUN npm install -g pnpm@10.34.9
WORKDIR /src
COPY . .
# --legacy: the workspace packages are bundled into dist/, so nothing needs injecting.
RUN pnpm install --frozen-lockfile \
  && pnpm exec turbo run build --filter=@cubes/web --filter=@cubes/server \
  && pnpm deploy --legacy --filter=@cubes/server --prod /out \
  && cp -r apps/web/dist /out/web

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data WEB_DIST=/app/web
WORKDIR /app
COPY --from=build /out /app
# Run as an unprivileged user; /app/data holds the embedded database when DATABASE_URL is unset.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Source maps: stack traces name the .ts lines. 32 MB semi-spaces: requests make many
# short-lived objects; fewer scavenges (bench/README.md).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=32", "dist/main.js"]
