package hostinfo

import "strconv"

// parseUintStr parses a decimal counter such as cpuacct.usage.
func parseUintStr(s string) (uint64, error) { return strconv.ParseUint(s, 10, 64) }
