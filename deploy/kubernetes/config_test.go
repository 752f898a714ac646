package kubernetes

import (
	"net"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/httpserve"
)

// podIP stands for the address the kubelet gives the pod.
const podIP = "10.20.30.40"

// configMount is the container's mount of the ConfigMap, and the one key
// it holds.
func configMount(t *testing.T, m *manifests) (corev1.VolumeMount, string) {
	t.Helper()
	if len(m.ConfigMap.Data) != 1 || len(m.ConfigMap.BinaryData) != 0 {
		t.Fatalf("the ConfigMap holds %d keys, want one TOML file", len(m.ConfigMap.Data))
	}
	var key string
	for k := range m.ConfigMap.Data {
		key = k
	}
	for _, vm := range container(t, m.DaemonSet).VolumeMounts {
		v := volume(t, m.DaemonSet, vm.Name)
		if v.ConfigMap != nil && v.ConfigMap.Name == m.ConfigMap.Name {
			if vm.SubPath != "" || len(v.ConfigMap.Items) != 0 {
				t.Fatalf("the ConfigMap is mounted by item or subPath; mount it whole so edits reach the pods")
			}
			return vm, key
		}
	}
	t.Fatalf("the ConfigMap %s is not mounted", m.ConfigMap.Name)
	return corev1.VolumeMount{}, ""
}

// configPath is where the container finds the ConfigMap's TOML.
func configPath(t *testing.T, m *manifests) string {
	vm, key := configMount(t, m)
	return path.Join(vm.MountPath, key)
}

// containerEnv is the container's environment as the kubelet makes it:
// the pod's IP (ip) from the downward API, $(NAME) expanded from the
// variables before. Any other source fails the test: nothing else is
// expected.
func containerEnv(t *testing.T, c *corev1.Container, ip string) map[string]string {
	t.Helper()
	env := map[string]string{}
	if len(c.EnvFrom) != 0 {
		t.Fatalf("envFrom %+v: every variable should be named", c.EnvFrom)
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			v := e.Value
			for name, val := range env {
				v = strings.ReplaceAll(v, "$("+name+")", val)
			}
			if strings.Contains(v, "$(") {
				t.Fatalf("env %s=%q refers to a variable not defined before it", e.Name, e.Value)
			}
			env[e.Name] = v
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "status.podIP":
			env[e.Name] = ip
		default:
			t.Fatalf("env %s from %+v", e.Name, e.ValueFrom)
		}
	}
	return env
}

// renderConfig writes the ConfigMap's TOML to a temporary file, with each
// quoted string of swap replaced, and returns its path. Each root is checked
// to be a mount of the container's, read-only as the root is, and is made
// under the temporary directory (the loader wants roots that exist).
func renderConfig(t *testing.T, m *manifests, swap map[string]string) string {
	t.Helper()
	_, key := configMount(t, m)
	doc := m.ConfigMap.Data[key]
	var shape struct {
		Roots []struct {
			Path     string `toml:"path"`
			ReadOnly bool   `toml:"read_only"`
		} `toml:"roots"`
	}
	if err := toml.Unmarshal([]byte(doc), &shape); err != nil {
		t.Fatalf("the ConfigMap's %s: %v", key, err)
	}
	if len(shape.Roots) == 0 {
		t.Fatal("no [[roots]]: hostmcp would serve its working directory, /srv")
	}
	c := container(t, m.DaemonSet)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range shape.Roots {
		mounted := false
		for _, vm := range c.VolumeMounts {
			if vm.MountPath == r.Path {
				mounted = true
				if vm.ReadOnly != r.ReadOnly {
					t.Errorf("root %s has read_only %v on a mount with readOnly %v", r.Path, r.ReadOnly, vm.ReadOnly)
				}
			}
		}
		if !mounted {
			t.Errorf("root %s is no mount of the container's", r.Path)
		}
		if err := os.MkdirAll(filepath.Join(tmp, r.Path), 0o755); err != nil {
			t.Fatal(err)
		}
		doc = strings.ReplaceAll(doc, strconv.Quote(r.Path), strconv.Quote(filepath.Join(tmp, r.Path)))
	}
	for from, to := range swap {
		if !strings.Contains(doc, strconv.Quote(from)) {
			t.Fatalf("the ConfigMap's %s has no %q", key, from)
		}
		doc = strings.ReplaceAll(doc, strconv.Quote(from), strconv.Quote(to))
	}
	file := filepath.Join(tmp, key)
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// loadConfig loads the ConfigMap's TOML with the container's environment
// through internal/config's strict loader, as hostmcp serve does.
func loadConfig(t *testing.T, m *manifests) *config.Config {
	t.Helper()
	file := renderConfig(t, m, nil)
	env := containerEnv(t, container(t, m.DaemonSet), podIP)
	cfg, err := config.Load(config.Flags{ConfigPath: file}, func(k string) string { return env[k] }, "/")
	if err != nil {
		t.Fatalf("the ConfigMap does not load: %v", err)
	}
	return cfg
}

// listenPort is the port of a host:port address.
func listenPort(t *testing.T, addr string) int32 {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.ParseInt(p, 10, 32)
	if err != nil || n == 0 {
		t.Fatalf("address %s: want a fixed port", addr)
	}
	return int32(n)
}

// TestConfigMapLoads: the TOML loads strictly, reads the host where the
// DaemonSet mounts it, keeps the state on the state volume, listens on the
// pod's IP, and serves read-only tools.
func TestConfigMapLoads(t *testing.T) {
	m := load(t)
	cfg := loadConfig(t, m)
	if cfg.Host.Proc == "/proc" || cfg.Host.Sys == "/sys" {
		t.Errorf("[host] %+v reads the container's own /proc and /sys", cfg.Host)
	}
	if host, _, _ := net.SplitHostPort(cfg.HTTP.Addr); host != podIP {
		t.Errorf("http.addr %q: want the pod's IP %s", cfg.HTTP.Addr, podIP)
	}
	if !cfg.Toolsets.ReadOnly {
		t.Error("toolsets.read_only is false: every node would serve its changing tools")
	}
	onState := false
	for _, vm := range container(t, m.DaemonSet).VolumeMounts {
		if v := volume(t, m.DaemonSet, vm.Name); vm.MountPath == cfg.StateDir && !vm.ReadOnly && (v.EmptyDir != nil || v.HostPath != nil) {
			onState = true
		}
	}
	if !onState {
		t.Errorf("state_dir %s is not a writable volume; the root file system is read-only", cfg.StateDir)
	}
}

// TestTokenOnlyFromSecret: the token is the Secret's, mounted owner-only
// where http.token_file points, never a value in the manifests; without it
// hostmcp refuses the address; Prometheus presents the same Secret.
func TestTokenOnlyFromSecret(t *testing.T) {
	m := load(t)
	cfg := loadConfig(t, m)
	c := container(t, m.DaemonSet)
	for _, e := range c.Env {
		if strings.Contains(strings.ToUpper(e.Name), "TOKEN") {
			t.Errorf("env %s: the token comes from the Secret's file, not the environment", e.Name)
		}
	}
	if err := httpserve.CheckAddr(cfg.HTTP.Addr, ""); err == nil {
		t.Fatalf("http.addr %s is served without a token", cfg.HTTP.Addr)
	}
	if cfg.HTTP.TokenFile == "" {
		t.Fatal("no http.token_file")
	}

	dir, file := path.Split(cfg.HTTP.TokenFile)
	var secret *corev1.SecretVolumeSource
	for _, vm := range c.VolumeMounts {
		if path.Clean(vm.MountPath) == path.Clean(dir) {
			if v := volume(t, m.DaemonSet, vm.Name); v.Secret != nil && vm.ReadOnly && vm.SubPath == "" {
				secret = v.Secret
			}
		}
	}
	if secret == nil {
		t.Fatalf("http.token_file %s is not in a read-only Secret volume", cfg.HTTP.TokenFile)
	}
	key, mode := "", secret.DefaultMode
	for _, it := range secret.Items {
		if it.Path == file {
			key = it.Key
			if it.Mode != nil {
				mode = it.Mode
			}
		}
	}
	if key == "" {
		t.Fatalf("the Secret volume has no item at %s", file)
	}
	if secret.Optional != nil && *secret.Optional {
		t.Error("the Secret is optional: a pod without it would fail later, not wait for it")
	}

	// hostmcp reads a token file of the Secret's mode: only its owner may.
	if mode == nil {
		t.Fatal("the Secret volume has no defaultMode: the kubelet's 0644 lets every user read the token")
	}
	probe := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(probe, []byte("0123456789abcdef0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(probe, os.FileMode(*mode)); err != nil {
		t.Fatal(err)
	}
	withProbe := *cfg
	withProbe.HTTP.TokenFile = probe
	if _, err := withProbe.Token(func(string) string { return "" }); err != nil {
		t.Errorf("a token file of mode %04o: %v", *mode, err)
	}

	auth := m.ServiceMonitor.Spec.Endpoints[0].Authorization
	if auth == nil || auth.Credentials == nil || auth.Credentials.Name != secret.SecretName || auth.Credentials.Key != key {
		t.Errorf("the ServiceMonitor's authorization %+v: want the Secret %s key %s", auth, secret.SecretName, key)
	}
	if auth != nil && auth.Type != "" && auth.Type != "Bearer" {
		t.Errorf("the ServiceMonitor's authorization type %q, want Bearer", auth.Type)
	}
}
