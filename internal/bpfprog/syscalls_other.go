//go:build !amd64

package bpfprog

// syscallNames is empty off x86_64: numbers are reported without names.
var syscallNames = map[uint32]string{}
