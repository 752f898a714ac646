// Command lineecho is the floor under hostmcp's start-up: a static Go
// binary that reads one line from stdin and writes an answer of the same
// size, as a server answering initialize would, then exits on EOF. bench
// builds it with the same flags as hostmcp.
package main

import (
	"bufio"
	"io"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadBytes('\n')
	if err != nil {
		os.Exit(1)
	}
	os.Stdout.Write(line)
	io.Copy(io.Discard, in)
}
