package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"
)

// DefaultArtifactTTL is how long an artifact stays when its producer gives
// no TTL: long enough to open a profile after the investigation that made it.
const DefaultArtifactTTL = 24 * time.Hour

// Errors of artifact lookups, for errors.Is; as with handles, a malformed
// ID is reported as not found.
var (
	ErrArtifactNotFound = errors.New("artifact not found")
	ErrArtifactExpired  = errors.New("artifact expired")
)

// Artifact describes a file a tool produced (spec 000 section 8.1): a
// profile, collapsed stacks, a flame graph. Its bytes are the file
// <state_dir>/artifacts/<Filename>; the row is the index the tools list.
type Artifact struct {
	ID       string    `json:"id" jsonschema:"artifact id, e.g. A_20261122T024500Z_9f3a1c2b5d6e7f80"`
	RunID    string    `json:"run_id" jsonschema:"the run (one tool call) that produced it; its artifacts share it"`
	Tool     string    `json:"tool" jsonschema:"the tool that produced it"`
	Type     string    `json:"type" jsonschema:"what it holds: collapsed, pprof, flamegraph, ..."`
	MIME     string    `json:"mime" jsonschema:"its media type, e.g. image/svg+xml"`
	Filename string    `json:"filename" jsonschema:"file name inside the state directory's artifacts folder"`
	Size     int64     `json:"size_bytes" jsonschema:"size in bytes"`
	Created  time.Time `json:"created_at" jsonschema:"when it was made (RFC 3339)"`
	Expires  time.Time `json:"expires_at" jsonschema:"when it is deleted (RFC 3339)"`
}

// ArtifactInput is what PutArtifact stores.
type ArtifactInput struct {
	RunID, Tool, Type, MIME string
	Ext                     string // file extension without the dot: svg, pb.gz, txt
	Data                    []byte
	TTL                     time.Duration // DefaultArtifactTTL when zero
}

var (
	artifactIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^A_[0-9]{8}T[0-9]{6}Z_[0-9a-f]{16}$`) })
	extPattern        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]{1,8}(\.[a-z0-9]{1,8})?$`) })
)

// ValidArtifactID reports whether id has the shape PutArtifact produces, so
// callers can refuse anything else before it reaches SQL or the filesystem.
func ValidArtifactID(id string) bool { return artifactIDPattern().MatchString(id) }

// ArtifactDir is the folder holding artifact files: "artifacts" beside the
// database, which is in the state directory. It is derived from the open
// database so every user of the store agrees on it.
func (s *Store) ArtifactDir(ctx context.Context) (string, error) {
	var file string
	err := s.db.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file)
	if err != nil {
		return "", fmt.Errorf("locating the artifact directory: %w", err)
	}
	if file == "" {
		return "", fmt.Errorf("locating the artifact directory: the database has no file")
	}
	return filepath.Join(filepath.Dir(file), "artifacts"), nil
}

// PutArtifact writes the file (0600, atomically: a temporary name, then a
// rename) and then its row, so a listed artifact always has its bytes.
func (s *Store) PutArtifact(ctx context.Context, in ArtifactInput) (Artifact, error) {
	if !extPattern().MatchString(in.Ext) {
		return Artifact{}, fmt.Errorf("storing an artifact: extension %q must be like svg or pb.gz", in.Ext)
	}
	dir, err := s.ArtifactDir(ctx)
	if err != nil {
		return Artifact{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Artifact{}, fmt.Errorf("creating the artifact directory: %w", err)
	}
	ttl := in.TTL
	if ttl <= 0 {
		ttl = DefaultArtifactTTL
	}
	now := time.Unix(0, s.now().UnixNano()).UTC()
	id, err := newArtifactID(now)
	if err != nil {
		return Artifact{}, err
	}
	a := Artifact{
		ID: id, RunID: in.RunID, Tool: in.Tool, Type: in.Type, MIME: in.MIME,
		Filename: id + "." + in.Ext, Size: int64(len(in.Data)), Created: now, Expires: now.Add(ttl),
	}
	path := filepath.Join(dir, a.Filename)
	if err := writeFileAtomic(path, in.Data); err != nil {
		return Artifact{}, err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO artifacts(id, run_id, tool, type, mime, filename, size, created, expires)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.RunID, a.Tool, a.Type, a.MIME, a.Filename, a.Size, a.Created.UnixNano(), a.Expires.UnixNano())
	if err != nil {
		os.Remove(path)
		return Artifact{}, fmt.Errorf("recording artifact %s: %w", a.ID, err)
	}
	return a, nil
}

// newArtifactID returns A_<UTC time>_<64 random bits>: IDs are capabilities
// to read a profile, so they must not be guessable.
func newArtifactID(now time.Time) (string, error) {
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("generating an artifact id: %w", err)
	}
	return "A_" + now.UTC().Format(idTimeLayout) + "_" + hex.EncodeToString(r[:]), nil
}

func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("writing an artifact: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if serr := f.Sync(); werr == nil {
		werr = serr
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing artifact %s: %w", filepath.Base(path), werr)
	}
	return nil
}

// Artifact returns the description of a readable artifact.
func (s *Store) Artifact(ctx context.Context, id string) (Artifact, error) {
	if !ValidArtifactID(id) {
		return Artifact{}, fmt.Errorf("%q is not an artifact id (they look like A_20261122T024500Z_9f3a1c2b5d6e7f80): %w", clip(id), ErrArtifactNotFound)
	}
	row := s.db.QueryRowContext(ctx, `SELECT `+artifactCols+` FROM artifacts WHERE id = ?`, id)
	a, err := scanArtifact(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Artifact{}, fmt.Errorf("artifact %s: %w (it may have expired and been swept)", id, ErrArtifactNotFound)
	}
	if err != nil {
		return Artifact{}, fmt.Errorf("looking up artifact %s: %w", id, err)
	}
	if !s.now().Before(a.Expires) {
		return Artifact{}, fmt.Errorf("artifact %s expired at %s: %w", id, a.Expires.Format(time.RFC3339), ErrArtifactExpired)
	}
	return a, nil
}

func clip(id string) string {
	if len(id) > 80 {
		return id[:80] + "..."
	}
	return id
}
