package onboarding

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// maxDownloads bounds the files one organize_downloads call sorts.
const maxDownloads = 5000

// categories are the folders files are sorted into, by extension. Files
// of no category stay where they are.
var categories = []struct {
	name string
	exts []string
}{
	{"Documents", []string{".pdf", ".doc", ".docx", ".odt", ".rtf", ".txt", ".md", ".epub", ".ppt", ".pptx", ".odp", ".pages"}},
	{"Spreadsheets", []string{".xls", ".xlsx", ".ods", ".csv", ".tsv", ".numbers"}},
	{"Images", []string{".jpg", ".jpeg", ".png", ".gif", ".bmp", ".svg", ".webp", ".heic", ".tif", ".tiff", ".ico", ".raw"}},
	{"Audio", []string{".mp3", ".wav", ".flac", ".ogg", ".m4a", ".aac", ".opus"}},
	{"Video", []string{".mp4", ".mkv", ".avi", ".mov", ".webm", ".wmv", ".m4v"}},
	{"Archives", []string{".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".zst"}},
	{"Installers", []string{".deb", ".rpm", ".appimage", ".exe", ".msi", ".dmg", ".pkg", ".iso", ".apk"}},
	{"Code", []string{".py", ".go", ".js", ".ts", ".sh", ".c", ".h", ".cpp", ".java", ".rb", ".rs", ".html", ".css", ".json", ".yaml", ".yml", ".toml", ".xml", ".sql", ".ipynb"}},
}

func category(name string) string {
	ext := strings.ToLower(path.Ext(name))
	for _, c := range categories {
		if slices.Contains(c.exts, ext) {
			return c.name
		}
	}
	return ""
}

// move is one proposed (or done) move.
type move struct {
	File     string `json:"file"`
	Category string `json:"category"`
	Target   string `json:"target"`
	Status   string `json:"status" jsonschema:"proposed (dry run), moved, or skipped"`
	Reason   string `json:"reason,omitempty" jsonschema:"why a move was skipped"`
}

type downloadsDetails struct {
	Path       string         `json:"path"`
	Applied    bool           `json:"applied"`
	Files      int            `json:"files" jsonschema:"regular files at the top of the folder"`
	ByCategory map[string]int `json:"by_category"`
	Left       []string       `json:"left_in_place" jsonschema:"files of no category, not moved"`
	Moves      []move         `json:"moves"`
}

// organizeDownloads sorts the files at the top of p into category folders
// under p: proposed by default, done with apply. A move never replaces a
// file (fsroot's Move without overwrite), so nothing is lost.
func (s *Set) organizeDownloads(ctx context.Context, call *tool.Call, p string, apply bool) (runOut, error) {
	if p == "" {
		return runOut{}, tool.Errorf(tool.InvalidArgument, "organize_downloads needs path: the folder to sort").
			WithSuggestion("Pass path, e.g. \"Downloads\" relative to the first root.")
	}
	roots, release, err := s.deps.Roots.ForCall(ctx, call)
	if err != nil {
		return runOut{}, err
	}
	defer release()
	dir, err := roots.Resolve(p)
	if err != nil {
		return runOut{}, err
	}
	if apply {
		if err := dir.Writable(); err != nil {
			return runOut{}, err
		}
	}
	ents, err := fs.ReadDir(dir.Root.OS().FS(), dir.Rel)
	if err != nil {
		return runOut{}, tool.Wrap(tool.NotADirectory, err, "reading %q: %s", tool.Clip(p), tool.Clip(err.Error()))
	}
	det := downloadsDetails{Path: dir.Abs(), Applied: apply, ByCategory: map[string]int{}, Left: []string{}, Moves: []move{}}
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(name, ".") {
			continue // directories, links and hidden files stay as they are
		}
		if det.Files++; det.Files > maxDownloads {
			call.Warn("only the first %d files were considered", maxDownloads)
			break
		}
		c := category(name)
		if c == "" {
			det.Left = append(det.Left, name)
			continue
		}
		det.ByCategory[c]++
		m := move{File: name, Category: c, Target: c + "/" + name, Status: "proposed"}
		if _, err := dir.Child(c).Child(name).Lstat(); err == nil {
			m.Status, m.Reason = "skipped", "a file of that name is already in "+c+"/"
		}
		det.Moves = append(det.Moves, m)
	}
	var cats []string
	for _, c := range categories {
		if n := det.ByCategory[c.name]; n > 0 {
			cats = append(cats, fmt.Sprintf("%s %d", c.name, n))
		}
	}
	preview := downloadsPreview(det, cats)
	var plan *tool.Plan
	if !apply {
		if plan, err = call.DryRun(preview); err != nil {
			return runOut{}, err
		}
	} else {
		if err := call.Confirm(preview); err != nil {
			return runOut{}, err
		}
		for i, m := range det.Moves {
			if m.Status != "proposed" {
				continue
			}
			det.Moves[i].Status = "moved"
			if err := moveInto(roots, dir, m.Category, m.File); err != nil {
				det.Moves[i].Status, det.Moves[i].Reason = "skipped", err.Error()
			}
		}
	}
	out := runOut{Flow: "organize_downloads", Details: det, Plan: plan}
	out.Steps = append(out.Steps, step{"Scanned " + dir.Abs(), fmt.Sprintf("%d files, %d of no category left in place", det.Files, len(det.Left)), true})
	out.Steps = append(out.Steps, step{"Proposed folders", strings.Join(cats, ", "), true})
	moved, skipped := 0, 0
	for _, m := range det.Moves {
		switch m.Status {
		case "moved":
			moved++
		case "skipped":
			skipped++
		}
	}
	if apply {
		out.Steps = append(out.Steps, step{"Moved files (never replacing one)", fmt.Sprintf("%d moved, %d skipped", moved, skipped), skipped == 0})
		out.Summary = fmt.Sprintf("%d files moved into %d folders; %d skipped, %d left in place.", moved, len(cats), skipped, len(det.Left))
	} else {
		out.Summary = fmt.Sprintf("Dry run: %d files would move into %d folders (%s); %d skipped, %d left in place. Run again with apply: true to move them.",
			len(det.Moves)-skipped, len(cats), strings.Join(cats, ", "), skipped, len(det.Left))
	}
	return out, nil
}

// downloadsPreview is what organizing would do: the files it would move,
// by folder. Its state is every proposed move, so a file added, removed
// or newly in the way while a person thinks asks again.
func downloadsPreview(det downloadsDetails, cats []string) tool.Preview {
	var moves int
	var state []any
	for _, m := range det.Moves {
		if m.Status == "proposed" {
			moves++
		}
		state = append(state, m.File, m.Target, m.Status)
	}
	summary := fmt.Sprintf("Move %s at the top of %q into category folders beside them (%s), replacing none",
		figures.Counted(int64(moves), "file", "files"), tool.Clip(det.Path), strings.Join(cats, ", "))
	if moves == 0 {
		summary = fmt.Sprintf("Move nothing in %q: no file there has a category folder to go to", tool.Clip(det.Path))
	}
	return tool.Preview{
		Summary: summary,
		Facts:   map[string]any{"flow": "organize_downloads", "moves": moves},
		State:   tool.StateOf(append([]any{det.Path}, state...)...),
	}
}

// moveInto moves dir/name to dir/folder/name, making folder when missing,
// and never over an existing file.
func moveInto(roots *fsroot.Set, dir fsroot.Loc, folder, name string) error {
	if _, err := dir.Child(folder).Mkdirs(true); err != nil {
		return err
	}
	_, err := roots.Move(dir.Child(name), dir.Child(folder).Child(name), false)
	return err
}
