// Command burn spins on one CPU in a function of its own name, so that a
// profile of it has a known hot function (the view tests draw it).
package main

import "fmt"

//go:noinline
func burnForView() {
	for x := 0; ; x++ {
		_ = x * x
	}
}

func main() {
	fmt.Println("ready")
	burnForView()
}
