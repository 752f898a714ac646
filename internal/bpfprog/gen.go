// Package bpfprog holds hostmcp's CO-RE eBPF programs (bpf/*.bpf.c) and the Go
// bindings bpf2go generates for them. The compiled objects are committed,
// so building hostmcp needs no clang; `make generate` rebuilds them (with
// Debian's clang, llvm and libbpf-dev, which scripts/deps.sh installs for
// that target). The programs attach to stable tracepoints (block, sched,
// sock, raw_syscalls) and, for DNS, to uprobes: this kernel class has no
// kprobes and no fentry. It is bpfprog, not ebpf, so that a reader never
// has to tell it from cilium's ebpf package, which it imports.
package bpfprog

//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target bpfel biolat bpf/biolat.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target bpfel runqlat bpf/runqlat.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target bpfel offcpu bpf/offcpu.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target bpfel syscount bpf/syscount.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target bpfel exec bpf/exec.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target bpfel tcp bpf/tcp.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target bpfel fileio bpf/fileio.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target bpfel fileopen bpf/fileopen.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target bpfel dnswire bpf/dnswire.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
//go:generate go run github.com/cilium/ebpf/cmd/bpf2go -no-global-types -cc clang -cflags "-O2 -g -Wall -Werror" -target amd64,arm64 dns bpf/dns.bpf.c -- -I/usr/include -I/usr/include/x86_64-linux-gnu
