package files

import (
	"math"
	"strings"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// warningsRoom is kept for the warnings fs_read may add after its window is
// read (stopped early, lines cut, invalid UTF-8, no handle): a page that
// left them no room would come back over the cap, as a preview.
const warningsRoom = 1024

// contentRoom is how many bytes the window's content may take as a JSON
// string, quotes included, for the answer to fit the output cap: the
// budget less the answer around the content, its numbers and optional
// fields at their longest. A cap too small for any content still gives one
// character, so paging moves; the runner previews that answer.
func contentRoom(call *tool.Call, path string, size int64) int {
	n := int(min(size, math.MaxInt32))
	around := readOut{
		Handle: "H_filecontent_00000000T000000Z_00000000",
		Meta: readMeta{
			Path: path, SizeBytes: size, TotalLines: n, Estimated: true, StartLine: n, ReturnedLines: n,
			Truncated: true, NextOffsetLines: n, SHA256: strings.Repeat("0", 64), HardLinks: math.MaxUint64,
		},
	}
	js, err := tool.MarshalJSON(around)
	if err != nil { // plain fields only
		return contentBudget
	}
	return max(call.DataBudget()-warningsRoom-(len(js)-len(`""`)), len(`""`)+6)
}
