package trace

import (
	"math/rand/v2"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// A trace counts everything in the kernel over the whole window and lists
// records after: the counts are the evidence, the records examples of it.
// Every list an answer cuts says so in the data (listed), records are a
// sample spread over the whole window rather than its first moments, and
// the answer is cut to fit the output cap, records before tables.

// tableRows is how many rows a table lists by default; the rest are
// counted in its *_shown.
const tableRows = 20

// listed says how much of a list an answer carries: Shown items of the Of
// there were, and How they were chosen (all; a uniform sample of the whole
// window in time order; or the first in the order named). Its fields go
// undescribed in the schema, which repeats it for every list: the names
// and values say it.
type listed struct {
	Shown int    `json:"shown"`
	Of    int    `json:"of"`
	How   string `json:"how"`
}

// How a list was chosen.
const (
	howAll    = "all"
	howSample = "a uniform sample of the whole window, in time order"
)

// howTop says a table keeps its first rows in the order named.
func howTop(order string) string { return "the first by " + order }

// newListed describes a list of shown items out of of: all of them, or
// those chosen as how says.
func newListed(shown, of int, how string) listed {
	if shown >= of {
		how = howAll
	}
	return listed{Shown: shown, Of: of, How: how}
}

// sample keeps a uniform random sample of at most max of the items added
// (reservoir sampling), so that however many records a busy window holds,
// those listed come from all of it.
type sample[T any] struct {
	max, seen int
	items     []T
	rng       *rand.Rand
}

func newSample[T any](max int) *sample[T] {
	return &sample[T]{max: max, rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

func (s *sample[T]) add(v T) {
	s.seen++
	if len(s.items) < s.max {
		s.items = append(s.items, v)
		return
	}
	if i := s.rng.IntN(s.seen); i < s.max {
		s.items[i] = v
	}
}

// cut is one list of an answer that fitAnswer may shorten.
type cut interface {
	size() int
	keep(n int)
}

// spreadCut keeps records spread evenly over a list in time order, the
// first and the last included, so a shortened list still spans the window.
type spreadCut[T any] struct {
	list   *[]T
	all    []T
	listed *listed
	of     int
}

// spread is the cut of the records at list, of all there were (counted in
// the kernel), described in l.
func spread[T any](list *[]T, of int, l *listed) *spreadCut[T] {
	of = max(of, len(*list))
	*l = newListed(len(*list), of, howSample)
	return &spreadCut[T]{list: list, all: *list, listed: l, of: of}
}

func (c *spreadCut[T]) size() int { return len(c.all) }

func (c *spreadCut[T]) keep(n int) {
	n = min(n, len(c.all))
	kept := make([]T, 0, n)
	for i := range n {
		j := 0
		if n > 1 {
			j = i * (len(c.all) - 1) / (n - 1)
		}
		kept = append(kept, c.all[j])
	}
	*c.list = kept
	*c.listed = newListed(n, c.of, howSample)
}

// headCut keeps the first rows of a ranked table.
type headCut[T any] struct {
	list   *[]T
	all    []T
	listed *listed
	of     int
	order  string
}

// head is the cut of the table at list, ranked by order, of all the rows
// there were.
func head[T any](list *[]T, of int, order string, l *listed) *headCut[T] {
	of = max(of, len(*list))
	*l = newListed(len(*list), of, howTop(order))
	return &headCut[T]{list: list, all: *list, listed: l, of: of, order: order}
}

func (c *headCut[T]) size() int { return len(c.all) }

func (c *headCut[T]) keep(n int) {
	n = min(n, len(c.all))
	*c.list = c.all[:n:n]
	*c.listed = newListed(n, c.of, howTop(c.order))
}

// fitAnswer shortens the lists of out until its JSON takes at most budget
// bytes: first the records, each to at most the same number of items, then
// (if the records are all gone and it still does not fit) the tables the
// same way. What it cuts, each list's listed says. An answer that does not
// fit even then is left for the runner, which keeps it as a handle.
func fitAnswer(out any, budget int, records, tables []cut) {
	fits := func() bool {
		js, err := tool.MarshalJSON(out)
		return err == nil && len(js) <= budget
	}
	if fits() {
		return
	}
	for _, group := range [][]cut{records, tables} {
		most := 0
		for _, c := range group {
			most = max(most, c.size())
		}
		keepAll := func(n int) {
			for _, c := range group {
				c.keep(n)
			}
		}
		keepAll(0)
		if !fits() {
			continue // not even without these: cut the next group
		}
		keepAll(most)
		if fits() {
			return // the tables whole, once the records are gone
		}
		lo, hi := 0, most // lo fits, hi does not
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			keepAll(mid)
			if fits() {
				lo = mid
			} else {
				hi = mid
			}
		}
		keepAll(lo)
		return
	}
}
