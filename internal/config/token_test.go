package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestToken(t *testing.T) {
	dir := tempDir(t)
	good := "0123456789abcdef0123"
	tests := []struct {
		name    string
		file    string      // content of the token file; "" means no file set
		perm    os.FileMode // of the token file
		env     string      // HOSTMCP_TOKEN
		want    string
		wantErr string
	}{
		{name: "none", want: ""},
		{name: "env", env: good, want: good},
		{name: "env trimmed", env: " " + good + "\n", want: good},
		{name: "env too short", env: "short", wantErr: "HOSTMCP_TOKEN: the token has 5 characters; use at least 16"},
		{name: "file", file: good + "\n", perm: 0o600, want: good},
		{name: "file owner read only", file: good, perm: 0o400, want: good},
		{name: "file group readable", file: good, perm: 0o640, wantErr: "has mode 0640: other users can read or change it; run chmod 600"},
		{name: "file world readable", file: good, perm: 0o604, wantErr: "has mode 0604"},
		{name: "file group writable", file: good, perm: 0o620, wantErr: "has mode 0620"},
		{name: "file empty", file: " \n\t", perm: 0o600, wantErr: "the token is empty"},
		{name: "file short", file: "abc\n", perm: 0o600, wantErr: "the token has 3 characters"},
		{name: "file two words", file: good + " " + good, perm: 0o600, wantErr: "contains whitespace"},
		{name: "file too large", file: strings.Repeat("a", 5000), perm: 0o600, wantErr: "larger than 4096 bytes"},
		{name: "both", file: good, perm: 0o600, env: good, wantErr: "both HOSTMCP_TOKEN and http.token_file"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Default(dir, 0, envMap(nil))
			if tc.file != "" {
				c.HTTP.TokenFile = writeFile(t, dir, "token"+string(rune('a'+i)), tc.file, tc.perm)
			}
			got, err := c.Token(envMap(map[string]string{EnvToken: tc.env}))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Token error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Token: %v", err)
			}
			if got != tc.want {
				t.Errorf("Token = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTokenFileErrors(t *testing.T) {
	dir := tempDir(t)
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "gone"), "reading the token file"},
		{"directory", dir, "not a regular file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &Config{HTTP: HTTPConf{TokenFile: tc.path}}
			if _, err := c.Token(nil); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Token error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
