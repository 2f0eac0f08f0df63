# quire's container image. Every RUN below is also run, without a container engine, by
# scripts/container-build.sh (CI runs it), so the recipe is proven where no engine runs.
#
#   docker build -t quire .
#   docker run -p 4000:4000 -e DATABASE_URL=postgresql://… quire
#
# Without DATABASE_URL the image would start the embedded PostgreSQL inside the container:
# development only (see docs/deployment.md). compose.yaml runs a whole installation.

# ---- build: install from the lockfile, compile, then drop the development dependencies
FROM node:22-slim AS build
WORKDIR /app
COPY . .
# `npm install` on the committed lockfile installs exactly its versions (see .ci/run on why not
# `npm ci`); the project's postinstall generates the Prisma client and compiles to dist/.
RUN npm install --no-audit --no-fund
RUN npm run build
RUN npm prune --omit=dev --no-audit --no-fund
RUN node dist/main.js --help

# ---- run: the built app, as the unprivileged `node` user of the base image
FROM node:22-slim
ENV NODE_ENV=production PORT=4000 HOST=0.0.0.0 QUIRE_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
# /healthz: this process can do its job (docs/deployment.md; /readyz checks the dependencies).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# V8 sized for a server that must stay small (docs/performance.md, Memory): a young generation of
# 2 × 16 MiB (Node 24 grows it to 2 × 64 MiB and keeps it committed), and a full collection once the
# old generation has doubled over what the last one left live (V8 lets it grow up to 4× under load,
# and the process keeps the pages). Not a cap: a large import still gets the heap it needs.
ENTRYPOINT ["node", "--max-semi-space-size=16", "--heap-growing-percent=100", "dist/main.js"]
CMD ["serve"]
