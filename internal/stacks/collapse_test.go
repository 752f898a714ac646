package stacks

import "testing"

func TestCollapsed(t *testing.T) {
	samples := []Sample{
		{Comm: "burn er", Count: 2, Stack: []Frame{{Func: "spin"}, {Func: "main", Module: "/usr/bin/burn"}}},
		{Comm: "burn er", Count: 3, Stack: []Frame{{Func: "spin"}, {Func: "main"}}},
		{Comm: "", Count: 1, Stack: []Frame{{Func: unknown, Module: "/lib/libc.so.6"}, {Func: "a;b"}}},
	}
	got := string(Collapsed(samples))
	want := "[unknown];a:b;[libc.so.6] 1\nburn_er;main;spin 5\n"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
