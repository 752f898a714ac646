// Command burn spins on one CPU in a function of its own name, so that a
// profile of it has a known hot function (the view tests draw it); with
// the argument "nap" it sleeps a few milliseconds at a time instead, so
// that an off-CPU profile of it has waits to draw.
package main

import (
	"fmt"
	"os"
	"time"
)

//go:noinline
func burnForView() {
	for x := 0; ; x++ {
		_ = x * x
	}
}

//go:noinline
func napForView() {
	for {
		time.Sleep(3 * time.Millisecond)
	}
}

func main() {
	fmt.Println("ready")
	if len(os.Args) > 1 && os.Args[1] == "nap" {
		napForView()
	}
	burnForView()
}
