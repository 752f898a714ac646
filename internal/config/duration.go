package config

import (
	"fmt"
	"strconv"
	"time"
)

// Duration is a time.Duration written as Go writes it ("15s", "1m30s"),
// because TOML has no duration type and a bare number hides its unit.
type Duration struct{ time.Duration }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	s := string(b)
	if s == "0" {
		d.Duration = 0
		return nil
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		// go-toml hands an integer over as text without its position, so
		// the message must say what to write on its own.
		return fmt.Errorf("duration %s has no unit: write it as a string with one, like \"%ss\" or \"%sms\"", s, s, s)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("invalid duration %q: want a number with a unit (ms, s, m, h), like \"15s\" or \"1m30s\"", s)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the duration back in the form UnmarshalText reads.
func (d Duration) MarshalText() ([]byte, error) {
	return []byte(d.Duration.String()), nil
}
