package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

const artifactCols = `id, run_id, tool, type, mime, filename, size, created, expires`

type rowScanner interface{ Scan(dest ...any) error }

func scanArtifact(r rowScanner) (Artifact, error) {
	var a Artifact
	var created, expires int64
	if err := r.Scan(&a.ID, &a.RunID, &a.Tool, &a.Type, &a.MIME, &a.Filename, &a.Size, &created, &expires); err != nil {
		return Artifact{}, err
	}
	a.Created, a.Expires = time.Unix(0, created).UTC(), time.Unix(0, expires).UTC()
	return a, nil
}

// Artifacts lists the readable artifacts, newest first, of one run when
// runID is not empty, at most limit of them (all when limit <= 0).
func (s *Store) Artifacts(ctx context.Context, runID string, limit int) ([]Artifact, error) {
	q := `SELECT ` + artifactCols + ` FROM artifacts WHERE expires > ?`
	args := []any{s.now().UnixNano()}
	if runID != "" {
		q += ` AND run_id = ?`
		args = append(args, runID)
	}
	q += ` ORDER BY created DESC, id`
	if limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("listing artifacts: %w", err)
	}
	defer rows.Close()
	out := []Artifact{}
	for rows.Next() {
		a, err := scanArtifact(rows)
		if err != nil {
			return nil, fmt.Errorf("listing artifacts: %w", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing artifacts: %w", err)
	}
	return out, nil
}

// ReadArtifact returns up to limit bytes of an artifact from offset. An
// offset equal to the size reads nothing; beyond it is ErrOffsetOutOfRange.
func (s *Store) ReadArtifact(ctx context.Context, id string, offset, limit int64) (Artifact, []byte, error) {
	a, err := s.Artifact(ctx, id)
	if err != nil {
		return Artifact{}, nil, err
	}
	if offset < 0 || offset > a.Size {
		return Artifact{}, nil, fmt.Errorf("reading artifact %s: offset %d is outside 0..%d: %w", id, offset, a.Size, ErrOffsetOutOfRange)
	}
	if limit <= 0 || limit > a.Size-offset {
		limit = a.Size - offset
	}
	dir, err := s.ArtifactDir(ctx)
	if err != nil {
		return Artifact{}, nil, err
	}
	f, err := os.Open(filepath.Join(dir, a.Filename))
	if errors.Is(err, os.ErrNotExist) {
		return Artifact{}, nil, fmt.Errorf("artifact %s: its file is gone: %w", id, ErrArtifactNotFound)
	}
	if err != nil {
		return Artifact{}, nil, fmt.Errorf("reading artifact %s: %w", id, err)
	}
	defer f.Close()
	buf := make([]byte, limit)
	n, err := f.ReadAt(buf, offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return Artifact{}, nil, fmt.Errorf("reading artifact %s: %w", id, err)
	}
	return a, buf[:n], nil
}

// SweepArtifacts deletes expired artifacts, rows and files, and files left
// without a row (a crash between writing a file and recording it) once they
// are an hour old. It returns how many artifacts it removed.
func (s *Store) SweepArtifacts(ctx context.Context) (int, error) {
	dir, err := s.ArtifactDir(ctx)
	if err != nil {
		return 0, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, filename FROM artifacts WHERE expires <= ?`, s.now().UnixNano())
	if err != nil {
		return 0, fmt.Errorf("finding expired artifacts: %w", err)
	}
	var ids, files []string
	for rows.Next() {
		var id, file string
		if err := rows.Scan(&id, &file); err != nil {
			rows.Close()
			return 0, fmt.Errorf("finding expired artifacts: %w", err)
		}
		ids, files = append(ids, id), append(files, file)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("finding expired artifacts: %w", err)
	}
	for i, id := range ids {
		if _, err := s.db.ExecContext(ctx, `DELETE FROM artifacts WHERE id = ?`, id); err != nil {
			return i, fmt.Errorf("deleting artifact %s: %w", id, err)
		}
		if err := os.Remove(filepath.Join(dir, files[i])); err != nil && !errors.Is(err, os.ErrNotExist) {
			return i, fmt.Errorf("deleting artifact %s: %w", id, err)
		}
	}
	return len(ids), s.removeOrphans(ctx, dir)
}

// removeOrphans deletes files of the artifact folder that no row names.
func (s *Store) removeOrphans(ctx context.Context, dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listing the artifact directory: %w", err)
	}
	cutoff := s.now().Add(-time.Hour)
	for _, e := range entries {
		name := e.Name()
		id, _, _ := strings.Cut(name, ".")
		if !ValidArtifactID(id) && !strings.HasPrefix(name, ".tmp-") {
			continue // not ours: leave it
		}
		info, err := e.Info()
		if err != nil || info.ModTime().After(cutoff) {
			continue
		}
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM artifacts WHERE filename = ?`, name).Scan(&n); err != nil {
			return fmt.Errorf("checking artifact file %s: %w", name, err)
		}
		if n == 0 {
			os.Remove(filepath.Join(dir, name))
		}
	}
	return nil
}
