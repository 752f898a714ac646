package fleet_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// readmeBlock is the fenced block of lang in the README's section
// heading.
func readmeBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README has no %q section", heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	m := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```").FindStringSubmatch(section)
	if m == nil {
		t.Fatalf("README's %q has no %s block", heading, lang)
	}
	return m[1]
}

// The fleet configuration the README shows loads through hostmcp's own
// strict loader, serves the fleet toolset and says what the README says.
func TestReadmeFleetConfigLoads(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hostmcp.toml")
	if err := os.WriteFile(path, []byte(readmeBlock(t, "### Asking the fleet", "toml")), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Flags{ConfigPath: path, StateDir: dir}, func(string) string { return "" }, dir)
	if err != nil {
		t.Fatalf("the README's [fleet] example: %v", err)
	}
	f := cfg.Fleet
	if !slices.Equal(cfg.Toolsets.Enabled, []string{"fleet"}) || f.PrometheusURL != "http://127.0.0.1:9090" || f.Job != "hostmcp" ||
		f.TokenFile != "/etc/hostmcp/fleet.token" || f.Parallelism != 8 || f.HostTimeout.Duration != 30*time.Second {
		t.Errorf("loaded %+v, toolsets %v", f, cfg.Toolsets.Enabled)
	}
}

// The README's scrape job is a configuration Prometheus accepts (promtool,
// from Debian's prometheus package), its token file put where the test
// can make one.
func TestReadmeScrapeJobChecks(t *testing.T) {
	promtool := testutil.RequireBinary(t, "promtool")
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "hostmcp.token")
	if err := os.WriteFile(tokenFile, []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	yml := readmeBlock(t, "### Asking the fleet", "yaml")
	if !strings.Contains(yml, "/etc/prometheus/hostmcp.token") || !strings.Contains(yml, "job_name: hostmcp") {
		t.Fatalf("the README's scrape job changed: %s", yml)
	}
	path := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(yml, "/etc/prometheus/hostmcp.token", tokenFile)), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "check", "config", path).CombinedOutput(); err != nil {
		t.Errorf("promtool check config: %v\n%s", err, out)
	}
}
