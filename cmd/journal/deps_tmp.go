package main

import (
	_ "github.com/google/uuid"
	_ "github.com/nats-io/nats-server/v2/server"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "github.com/spf13/cobra"
	_ "github.com/stretchr/testify/require"
	_ "github.com/synadia-io/orbit.go/jetstreamext"
)

func main() {}
