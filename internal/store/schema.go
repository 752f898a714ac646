package store

import (
	"context"
	"database/sql/driver"
	"fmt"
)

// migrations hold the schema, one entry per version: migrations[i] moves a
// database from user_version i to i+1. Append; never edit a released entry.
//
// A handle's payload lives in handle_chunks rather than in one BLOB column:
// SQLite materialises a whole BLOB to evaluate substr() on it (about 30 ms
// and 100 MB of memory per read of a 100 MB payload, measured), while a
// window read through chunks touches only the chunks it needs.
var migrations = []string{
	`CREATE TABLE handles (
		id         TEXT PRIMARY KEY,
		type       TEXT NOT NULL,
		meta_json  TEXT NOT NULL,
		size       INTEGER NOT NULL,
		lines      INTEGER NOT NULL,
		line_index BLOB NOT NULL,
		chunk      INTEGER NOT NULL,
		created    INTEGER NOT NULL,
		expires    INTEGER NOT NULL
	);
	CREATE INDEX handles_created ON handles(created);
	CREATE INDEX handles_expires ON handles(expires);
	CREATE TABLE handle_chunks (
		handle_id TEXT NOT NULL REFERENCES handles(id) ON DELETE CASCADE,
		seq       INTEGER NOT NULL,
		data      BLOB NOT NULL,
		PRIMARY KEY (handle_id, seq)
	);
	CREATE TABLE calls (
		id           INTEGER PRIMARY KEY,
		time         INTEGER NOT NULL,
		tool         TEXT NOT NULL,
		session      TEXT NOT NULL,
		args_summary TEXT NOT NULL,
		outcome      TEXT NOT NULL,
		error_code   TEXT NOT NULL,
		duration     INTEGER NOT NULL,
		bytes_out    INTEGER NOT NULL
	);
	CREATE INDEX calls_time ON calls(time);
	CREATE INDEX calls_tool_time ON calls(tool, time);`,
	// Version 2: artifacts (profiles, flame graphs). The bytes live in files
	// under <state_dir>/artifacts, named by id; the row is the index, and the
	// sweeper removes both.
	`CREATE TABLE artifacts (
		id       TEXT PRIMARY KEY,
		run_id   TEXT NOT NULL,
		tool     TEXT NOT NULL,
		type     TEXT NOT NULL,
		mime     TEXT NOT NULL,
		filename TEXT NOT NULL,
		size     INTEGER NOT NULL,
		created  INTEGER NOT NULL,
		expires  INTEGER NOT NULL
	);
	CREATE INDEX artifacts_run ON artifacts(run_id);
	CREATE INDEX artifacts_expires ON artifacts(expires);`,
	// Version 3: what came of a person's confirmation of each call
	// ([confirm], issue 23); older records have none.
	`ALTER TABLE calls ADD COLUMN confirmation TEXT NOT NULL DEFAULT '';`,
	// Version 4: named baselines of the host's health (issue 18 point 8),
	// kept until MaxBaselines newer ones push them out.
	`CREATE TABLE baselines (
		name      TEXT PRIMARY KEY,
		saved     INTEGER NOT NULL,
		tool      TEXT NOT NULL,
		hostname  TEXT NOT NULL,
		boot_id   TEXT NOT NULL,
		data_json TEXT NOT NULL
	);
	CREATE INDEX baselines_saved ON baselines(saved);`,
}

// migrate brings the schema to the newest version inside one transaction,
// so a crash mid-way leaves the previous version intact. It runs on the
// store's first connection (see migratingConnector), before database/sql
// has it, so it speaks to the driver's connection directly.
func migrate(ctx context.Context, conn driver.Conn) error {
	c, ok := conn.(interface {
		driver.ExecerContext
		driver.QueryerContext
	})
	if !ok {
		return fmt.Errorf("migrating the schema: the driver's connection runs no statements")
	}
	exec := func(ctx context.Context, q string) error {
		_, err := c.ExecContext(ctx, q, nil)
		return err
	}
	// IMMEDIATE, as every write transaction of the store: two servers
	// sharing a state directory queue on the busy timeout.
	if err := exec(ctx, `BEGIN IMMEDIATE`); err != nil {
		return fmt.Errorf("migrating the schema: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			_ = exec(context.WithoutCancel(ctx), `ROLLBACK`)
		}
	}()
	version, err := userVersion(ctx, c)
	if err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	if version > len(migrations) {
		return newerSchemaError(version)
	}
	for v := version; v < len(migrations); v++ {
		if err := exec(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
		}
	}
	if version < len(migrations) {
		// PRAGMA takes no bound parameters; the value is our own integer.
		if err := exec(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, len(migrations))); err != nil {
			return fmt.Errorf("recording the schema version: %w", err)
		}
	}
	if err := exec(ctx, `COMMIT`); err != nil {
		return fmt.Errorf("migrating the schema: %w", err)
	}
	committed = true
	return nil
}

// userVersion reads PRAGMA user_version, the schema version.
func userVersion(ctx context.Context, c driver.QueryerContext) (int, error) {
	rows, err := c.QueryContext(ctx, `PRAGMA user_version`, nil)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	v := make([]driver.Value, len(rows.Columns()))
	if len(v) != 1 {
		return 0, fmt.Errorf("PRAGMA user_version gave %d columns", len(v))
	}
	if err := rows.Next(v); err != nil {
		return 0, err
	}
	n, ok := v[0].(int64)
	if !ok {
		return 0, fmt.Errorf("PRAGMA user_version gave %T", v[0])
	}
	return int(n), nil
}
