package main

import (
	"context"
	"fmt"
)

// demoTOR records a short The One Ring adventure.
func (a *app) demoTOR(ctx context.Context) error {
	return fmt.Errorf("demo --system tor: not yet")
}
