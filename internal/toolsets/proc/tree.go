package proc

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type treeIn struct {
	PID      int `json:"pid,omitempty" jsonschema:"root of the tree" default:"1"`
	Depth    int `json:"depth,omitempty" default:"4"`
	MaxNodes int `json:"max_nodes,omitempty" default:"200"`
}

// treeNode is one process of the tree; nodes come in depth-first order, so
// depth alone draws the tree.
type treeNode struct {
	PID      int    `json:"pid"`
	PPID     int    `json:"ppid"`
	Depth    int    `json:"depth" jsonschema:"0 for the root"`
	Name     string `json:"name"`
	User     string `json:"user"`
	State    string `json:"state"`
	Children int    `json:"children" jsonschema:"direct children, shown or not"`
	Command  string `json:"command,omitempty" jsonschema:"command line cut to 160 bytes; absent for other users' processes unless list_other_users is set"`
}

type ancestor struct {
	PID  int    `json:"pid"`
	Name string `json:"name"`
}

type treeOut struct {
	Root      int        `json:"root"`
	Ancestors []ancestor `json:"ancestors" jsonschema:"the root's parent, its parent, and so on up to PID 1"`
	Nodes     []treeNode `json:"nodes"`
	Total     int        `json:"total" jsonschema:"processes in the subtree, the root included, at any depth"`
	Truncated bool       `json:"truncated" jsonschema:"true when depth or max_nodes left processes out"`
}

const (
	defaultTreeDepth = 4
	defaultTreeNodes = 200
	treeCommand      = 160
)

func (s *Set) tree() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_tree",
		Kind:        tool.ReadOnly,
		Title:       "Process tree",
		Description: "The process tree under a pid, with its ancestors.",
		Timeout:     5 * time.Second,
	}, s.handleTree).WithRange("depth", 1, 32).WithRange("max_nodes", 1, 2000)
}

func (s *Set) handleTree(ctx context.Context, _ *tool.Call, in treeIn) (treeOut, error) {
	if err := s.ready(); err != nil {
		return treeOut{}, err
	}
	root := cmp.Or(in.PID, 1)
	if root < 0 {
		return treeOut{}, tool.Errorf(tool.InvalidPID, "pid %d: pids are positive", root)
	}
	tab, err := s.reader.All(ctx, s.visible)
	if err != nil {
		return treeOut{}, tool.AsError(err)
	}
	byPID := make(map[int]*procs.Process, len(tab.Procs))
	kids := map[int][]int{}
	for i := range tab.Procs {
		p := &tab.Procs[i]
		byPID[p.PID] = p
		kids[p.PPID] = append(kids[p.PPID], p.PID)
	}
	if byPID[root] == nil {
		return treeOut{}, tool.Errorf(tool.ProcessNotFound, "no process %d", root)
	}
	for _, c := range kids {
		slices.Sort(c)
	}
	out := treeOut{Root: root, Ancestors: []ancestor{}}
	for p := byPID[root]; p != nil && p.PPID > 0; p = byPID[p.PPID] {
		parent := byPID[p.PPID]
		if parent == nil || len(out.Ancestors) > 4096 {
			break
		}
		out.Ancestors = append(out.Ancestors, ancestor{PID: parent.PID, Name: parent.Comm})
	}
	depth, limit := cmp.Or(in.Depth, defaultTreeDepth), cmp.Or(in.MaxNodes, defaultTreeNodes)
	seen := map[int]bool{}
	var walk func(pid, d int)
	walk = func(pid, d int) {
		if seen[pid] { // a pid reused while the table was read could close a loop
			return
		}
		seen[pid] = true
		out.Total++
		if d > depth || len(out.Nodes) >= limit {
			out.Truncated = true
		} else {
			out.Nodes = append(out.Nodes, s.node(byPID[pid], d, len(kids[pid])))
		}
		for _, c := range kids[pid] {
			walk(c, d+1)
		}
	}
	walk(root, 0)
	return out, nil
}

func (s *Set) node(p *procs.Process, depth, children int) treeNode {
	n := treeNode{PID: p.PID, PPID: p.PPID, Depth: depth, Name: p.Comm, User: s.users.Name(p.EUID), State: p.State, Children: children}
	if s.visible(p) {
		n.Command = p.Cmdline
		if len(n.Command) > treeCommand {
			n.Command = strings.ToValidUTF8(n.Command[:treeCommand], "")
		}
	}
	return n
}
