# The journal and the NATS server it was tested with, both built from this
# module (nats-server at the version go.mod pins).
#
#   docker build --target journal -t campaign-journal .
#   docker build --target nats -t campaign-journal-nats .
#
# docker-compose.yml builds both.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/journal ./cmd/journal \
 && CGO_ENABLED=0 go build -trimpath -o /out/nats-server github.com/nats-io/nats-server/v2

FROM debian:bookworm-slim AS journal
COPY --from=build /out/journal /usr/local/bin/journal
ENTRYPOINT ["/usr/local/bin/journal"]
CMD ["serve", "--http", "0.0.0.0:8080"]

FROM debian:bookworm-slim AS nats
COPY --from=build /out/nats-server /usr/local/bin/nats-server
COPY deploy/nats.conf deploy/auth.conf /etc/nats/
EXPOSE 4222 6222 8222
ENTRYPOINT ["/usr/local/bin/nats-server"]
CMD ["--config", "/etc/nats/nats.conf"]
