# Cubes AI: the production server (API + built web app) on port 3000.
FROM node:20-bookworm-slim
ENV TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 NODE_ENV=production PORT=3000
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile && pnpm exec turbo run build --filter=@cubes/web
# Run as an unprivileged user; /app/data holds the embedded database when DATABASE_URL is unset.
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 3000
# 32 MB semi-spaces: requests make many short-lived objects; fewer scavenges (bench/README.md).
CMD ["node", "--max-semi-space-size=32", "--import", "tsx", "apps/server/src/main.ts"]
