# The journal and the NATS server it was tested with, both built from this
# module (nats-server at the version go.mod pins).
#
#   docker build --target journal -t campaign-journal .
#   docker build --target nats -t campaign-journal-nats .
#
# docker-compose.yml builds both; docs/vps.md runs the journal alone.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/journal ./cmd/journal \
 && CGO_ENABLED=0 go build -trimpath -o /out/nats-server github.com/nats-io/nats-server/v2

# The journal: `journal serve` on the embedded store in the volume /data,
# with the access file /data/access.json (make it first:
# docker run --rm -v journal-data:/data campaign-journal access add NAME ...).
# It runs as the unprivileged user journal (uid 10001), which owns /data.
FROM debian:bookworm-slim AS journal
RUN groupadd --system --gid 10001 journal \
 && useradd --system --uid 10001 --gid journal --home-dir /data --no-create-home --shell /usr/sbin/nologin journal \
 && mkdir -p /data \
 && chown journal:journal /data \
 && chmod 0700 /data
COPY --from=build /out/journal /usr/local/bin/journal
# The CA certificates, for what the journal fetches over HTTPS (the drand
# beacon): debian:bookworm-slim has none; the build stage's Debian does.
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV JOURNAL_DATA=/data \
    JOURNAL_ACCESS=/data/access.json
WORKDIR /data
VOLUME ["/data"]
USER journal:journal
EXPOSE 8080
# /healthz answers 200 while the live projection keeps up, 503 when it is
# stuck or the store does not answer; the image has no curl, so the journal
# asks itself.
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 \
  CMD ["/usr/local/bin/journal", "healthcheck", "--url", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/usr/local/bin/journal"]
CMD ["serve", "--http", "0.0.0.0:8080"]

# One NATS server of docker-compose.yml's cluster: JetStream in the volume
# /data, the users from the generated /etc/nats/access/auth.conf (the
# compose file's access volume). It runs as uid 10001 too, so that it reads
# that file (mode 0600, written by the journal image's user).
FROM debian:bookworm-slim AS nats
RUN groupadd --system --gid 10001 nats \
 && useradd --system --uid 10001 --gid nats --home-dir /data --no-create-home --shell /usr/sbin/nologin nats \
 && mkdir -p /data /etc/nats/access \
 && chown nats:nats /data /etc/nats/access \
 && chmod 0700 /data /etc/nats/access
COPY --from=build /out/nats-server /usr/local/bin/nats-server
COPY deploy/nats.conf /etc/nats/
WORKDIR /data
VOLUME ["/data"]
USER nats:nats
EXPOSE 4222 6222 8222
ENTRYPOINT ["/usr/local/bin/nats-server"]
CMD ["--config", "/etc/nats/nats.conf"]
