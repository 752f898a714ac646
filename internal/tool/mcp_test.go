package tool

import "testing"

// The output schema every tool serves, written out in servedOutputText, is
// servedOutputSchema marshalled, byte for byte.
func TestServedOutputJSON(t *testing.T) {
	want := string(marshalled("every tool", servedOutputSchema()))
	if got := string(servedOutputJSON()); got != want {
		t.Errorf("servedOutputText is not servedOutputSchema marshalled; make it\n%s", want)
	}
}
