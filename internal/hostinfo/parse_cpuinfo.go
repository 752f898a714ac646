package hostinfo

import (
	"bufio"
	"bytes"
	"slices"
	"strings"
)

// cpuInfo is what we take from /proc/cpuinfo.
type cpuInfo struct {
	Model      string
	Processors int  // "processor" entries: logical CPUs
	Cores      int  // distinct (physical id, core id) pairs; 0 when the file has none
	Sockets    int  // distinct physical ids; 0 when the file has none
	Hypervisor bool // the x86 "hypervisor" flag: we run under a VM
}

// modelKeys name the CPU model on the architectures we know, most specific first:
// x86 and loongarch "model name", 32-bit ARM "Processor", MIPS "cpu model",
// POWER "cpu", RISC-V "uarch".
var modelKeys = []string{"model name", "Processor", "cpu model", "cpu", "uarch"}

// parseCPUInfo reads /proc/cpuinfo, whose layout each architecture defines in its
// own show_cpuinfo (arch/x86/kernel/cpu/proc.c for x86): blocks of "key : value"
// lines, one block per logical CPU. procfs has a parser per GOARCH chosen at build
// time, so an x86 fixture could not be tested on an arm64 builder; this one is
// architecture-neutral and takes only the few keys we report.
func parseCPUInfo(b []byte) (cpuInfo, error) {
	var info cpuInfo
	modelRank := len(modelKeys)
	cores := map[string]bool{}
	sockets := map[string]bool{}
	var phys, core string
	flush := func() {
		if phys != "" || core != "" {
			cores[phys+"/"+core] = true
		}
		if phys != "" {
			sockets[phys] = true
		}
		phys, core = "", ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024) // flags lines grow with each CPU generation
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "processor":
			flush()
			info.Processors++
		case "physical id":
			phys = val
		case "core id":
			core = val
		case "flags":
			if slices.Contains(strings.Fields(val), "hypervisor") {
				info.Hypervisor = true
			}
		}
		if r := slices.Index(modelKeys, key); r >= 0 && r < modelRank && val != "" {
			info.Model, modelRank = val, r
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		return cpuInfo{}, err
	}
	info.Cores, info.Sockets = len(cores), len(sockets)
	return info, nil
}
