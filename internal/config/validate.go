package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Validate reports every problem at once, each naming the setting and what
// is allowed, so an operator fixes the file in one pass.
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if c.StateDir == "" {
		bad("state_dir: not set and no default applies (HOME is unset); set state_dir, HOSTMCP_STATE_DIR or --state-dir")
	} else if !filepath.IsAbs(c.StateDir) {
		bad("state_dir %q: must be an absolute path", c.StateDir)
	}
	errs = append(errs, c.validateRoots()...)
	if c.ClientRoots != ClientRootsIgnore && c.ClientRoots != ClientRootsNarrow {
		errs = append(errs, fmt.Errorf("client_roots %q: want %q or %q", c.ClientRoots, ClientRootsIgnore, ClientRootsNarrow))
	}
	errs = append(errs, c.validateToolsets()...)
	errs = append(errs, c.validateLimits()...)
	errs = append(errs, c.validateStore()...)
	errs = append(errs, c.validateHTTP()...)
	errs = append(errs, c.validateRepl()...)
	errs = append(errs, c.validateProcess()...)
	errs = append(errs, c.validateBpftrace()...)
	errs = append(errs, c.validateLoad()...)
	errs = append(errs, c.validateLog()...)
	errs = append(errs, c.validateConfirm()...)
	errs = append(errs, c.validateHost()...)
	errs = append(errs, c.validateFleet()...)
	for i, p := range c.Exec.ExtraPath {
		if !filepath.IsAbs(p) {
			bad("exec.extra_path[%d] %q: must be an absolute directory", i, p)
		}
	}
	checkRange(&errs, "stdio.max_message_bytes", c.Stdio.MaxMessageBytes, minMessage, maxMessage)
	if v := c.Views.MCPApps; v != ViewsAuto && v != ViewsAlways && v != ViewsOff {
		bad("views.mcp_apps %q: want %q, %q or %q", v, ViewsAuto, ViewsAlways, ViewsOff)
	}
	return errors.Join(errs...)
}

// Bounds of the byte-size settings. They keep a typo (a missing "<< 20")
// from making a transport unusable or unbounded.
const (
	minOutputCap     = 1 << 10
	maxOutputCeiling = 16 << 20
	minHandleBudget  = 1 << 20
	minMessage       = 64 << 10
	maxMessage       = 256 << 20
	minHeader        = 4 << 10
	maxHeader        = 1 << 20
)

func (c *Config) validateRoots() []error {
	if len(c.Roots) == 0 {
		return []error{errors.New("roots: empty; give at least one [[roots]] path (the default is the working directory)")}
	}
	var errs []error
	for i, r := range c.Roots {
		if err := checkRootDir(r.Path); err != nil {
			errs = append(errs, fmt.Errorf("roots[%d].path %w", i, err))
		}
	}
	return errs
}

// checkRootDir says why path cannot be a root, or nil.
func checkRootDir(path string) error {
	if path == "" {
		return errors.New(`"": empty; want an absolute directory`)
	}
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%q: must be an absolute directory", path)
	}
	fi, err := os.Stat(path)
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%q: does not exist; a root must be an existing directory", path)
	case errors.As(err, &pe):
		return fmt.Errorf("%q: %w", path, pe.Err)
	case err != nil:
		return fmt.Errorf("%q: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("%q: not a directory; a root must be a directory", path)
	}
	return nil
}

func (c *Config) validateToolsets() []error {
	var unknown []string
	for _, n := range c.Toolsets.Enabled {
		if !slices.Contains(ToolsetNames(), n) {
			unknown = append(unknown, strconv.Quote(n))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return []error{fmt.Errorf("toolsets.enabled: unknown toolset %s; valid: %s",
		strings.Join(unknown, ", "), strings.Join(ToolsetNames(), ", "))}
}

func (c *Config) validateLimits() []error {
	var errs []error
	l := &c.Limits
	checkPositive(&errs, "limits.default_timeout", l.DefaultTimeout.Duration)
	checkPositive(&errs, "limits.max_timeout", l.MaxTimeout.Duration)
	if l.DefaultTimeout.Duration > l.MaxTimeout.Duration && l.MaxTimeout.Duration > 0 {
		errs = append(errs, fmt.Errorf("limits.default_timeout %s: must not exceed limits.max_timeout (%s)",
			l.DefaultTimeout.Duration, l.MaxTimeout.Duration))
	}
	checkRange(&errs, "limits.max_output_bytes", l.MaxOutputBytes, minOutputCap, maxOutputCeiling)
	capMax := min(max(l.MaxOutputBytes, minOutputCap), maxOutputCeiling)
	checkCap(&errs, "limits.output_cap_bytes", l.OutputCapBytes, capMax)
	for _, name := range slices.Sorted(maps.Keys(c.Tools)) {
		t := c.Tools[name]
		key := "tools." + name
		if d := t.Timeout.Duration; d < 0 || d > l.MaxTimeout.Duration {
			errs = append(errs, fmt.Errorf("%s.timeout %s: must be between 0 (inherit) and limits.max_timeout (%s)",
				key, d, l.MaxTimeout.Duration))
		}
		if t.OutputCapBytes != 0 {
			checkCap(&errs, key+".output_cap_bytes", t.OutputCapBytes, capMax)
		}
	}
	return errs
}

func (c *Config) validateStore() []error {
	var errs []error
	checkPositive(&errs, "store.handle_ttl", c.Store.HandleTTL.Duration)
	if c.Store.HandleBudgetBytes < minHandleBudget {
		errs = append(errs, fmt.Errorf("store.handle_budget_bytes %d: must be at least %d (1 MiB)",
			c.Store.HandleBudgetBytes, minHandleBudget))
	}
	if c.Store.CallRetention < 1 {
		errs = append(errs, fmt.Errorf("store.call_retention %d: must be at least 1 (call records kept)", c.Store.CallRetention))
	}
	return errs
}

func (c *Config) validateHTTP() []error {
	var errs []error
	h := &c.HTTP
	if h.Addr != "" {
		if err := checkAddr(h.Addr); err != nil {
			errs = append(errs, fmt.Errorf("http.addr %q: %w; want host:port like \"127.0.0.1:8765\", or empty for stdio", h.Addr, err))
		}
	}
	if h.TokenFile != "" && !filepath.IsAbs(h.TokenFile) {
		errs = append(errs, fmt.Errorf("http.token_file %q: must be an absolute path", h.TokenFile))
	}
	checkRange(&errs, "http.max_body_bytes", h.MaxBodyBytes, minMessage, maxMessage)
	checkRange(&errs, "http.max_header_bytes", h.MaxHeaderBytes, minHeader, maxHeader)
	return errs
}

// checkAddr accepts host:port with a numeric port; an empty host means
// every interface, which httpserve allows only with a token.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("port %q is not a number from 0 to 65535", port)
	}
	return nil
}

// checkCap bounds an output cap by limits.max_output_bytes, naming it so
// the operator knows which of the two settings to change.
func checkCap(errs *[]error, name string, v, hi int) {
	if v < minOutputCap || v > hi {
		*errs = append(*errs, fmt.Errorf("%s %d: must be between %d and limits.max_output_bytes (%d)", name, v, minOutputCap, hi))
	}
}

func checkPositive(errs *[]error, name string, d time.Duration) {
	if d <= 0 {
		*errs = append(*errs, fmt.Errorf("%s %s: must be greater than zero, like \"15s\"", name, d))
	}
}

func checkRange[T int | int64](errs *[]error, name string, v, lo, hi T) {
	if v < lo || v > hi {
		*errs = append(*errs, fmt.Errorf("%s %d: must be between %d and %d", name, v, lo, hi))
	}
}

// CheckToolNames reports tools.<name> tables that name no tool, listing the
// tools that exist. Only the server knows the tool names, so it calls this.
func (c *Config) CheckToolNames(known []string) error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(c.Tools)) {
		if slices.Contains(known, name) {
			continue
		}
		if near := nearest(name, known); near != "" {
			errs = append(errs, fmt.Errorf("tools.%s: no tool is named %q (did you mean %q?)", name, name, near))
			continue
		}
		errs = append(errs, fmt.Errorf("tools.%s: no tool is named %q; known tools: %s",
			name, name, strings.Join(slices.Sorted(slices.Values(known)), ", ")))
	}
	return errors.Join(errs...)
}

// nearest is the name in known within two edits of name, or "".
func nearest(name string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if d := editDistance(name, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}
