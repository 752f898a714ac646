package repl

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// The settings that refuse an ordinary user a user namespace are told
// apart, each named with its fix, from a proc tree written as each kernel
// family shows it; AppArmor's restriction counts only for an unconfined
// server.
func TestUsernsBlocked(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // the setting named, "" for none
	}{
		{"plain kernel", map[string]string{"sys/user/max_user_namespaces": "96364\n"}, ""},
		{"no proc files at all", nil, ""},
		{"none allowed", map[string]string{"sys/user/max_user_namespaces": "0\n"}, "user.max_user_namespaces"},
		{"Debian switch off", map[string]string{"sys/user/max_user_namespaces": "96364\n", "sys/kernel/unprivileged_userns_clone": "0\n"}, "kernel.unprivileged_userns_clone"},
		{"Debian switch on", map[string]string{"sys/kernel/unprivileged_userns_clone": "1\n"}, ""},
		{"AppArmor, unconfined server", map[string]string{"sys/kernel/apparmor_restrict_unprivileged_userns": "1\n", "self/attr/apparmor/current": "unconfined\n"}, "kernel.apparmor_restrict_unprivileged_userns"},
		{"AppArmor, older attr file", map[string]string{"sys/kernel/apparmor_restrict_unprivileged_userns": "1\n", "self/attr/current": "unconfined\n"}, "kernel.apparmor_restrict_unprivileged_userns"},
		{"AppArmor, server under a profile", map[string]string{"sys/kernel/apparmor_restrict_unprivileged_userns": "1\n", "self/attr/apparmor/current": "hostmcp (enforce)\n"}, ""},
		{"AppArmor restriction off", map[string]string{"sys/kernel/apparmor_restrict_unprivileged_userns": "0\n", "self/attr/apparmor/current": "unconfined\n"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proc := t.TempDir()
			for name, text := range tc.files {
				p := filepath.Join(proc, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b := usernsBlocked(proc)
			got := ""
			if b != nil {
				got = b.setting
				e := b.refusal()
				if e.Code != tool.CapabilityMissing || !strings.Contains(e.Message, got) || !strings.Contains(e.Suggestion, got) {
					t.Errorf("refusal does not name %s in message and fix: %+v", got, e)
				}
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// The kernel's own refusal of a user namespace, which no setting
// explained, becomes CAPABILITY_MISSING; any other failure to start is
// left as it was.
func TestStartRefused(t *testing.T) {
	proc := t.TempDir()
	for _, tc := range []struct {
		errno syscall.Errno
		want  tool.Code // "" when the error must come back unchanged
	}{
		{syscall.ENOSPC, tool.CapabilityMissing},
		{syscall.EUSERS, tool.CapabilityMissing},
		{syscall.EPERM, tool.CapabilityMissing},
		{syscall.ENOENT, ""},
		{syscall.EACCES, ""},
	} {
		in := &os.PathError{Op: "fork/exec", Path: "/proc/self/exe", Err: tc.errno}
		out := startRefused(in, proc)
		var te *tool.Error
		switch {
		case tc.want == "" && out != error(in):
			t.Errorf("%v: changed to %v", tc.errno, out)
		case tc.want != "" && (!errors.As(out, &te) || te.Code != tc.want || !errors.Is(out, tc.errno)):
			t.Errorf("%v: got %v, want %s keeping the cause", tc.errno, out, tc.want)
		}
	}
}
