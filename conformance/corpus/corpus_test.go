package corpus

import "testing"

// A stream is split at "---" lines and read with kubectl's YAML 1.1 rules: an unquoted `6_` is a
// number, a quoted one a string, and an empty document is skipped.
func TestDecode(t *testing.T) {
	docs, err := Decode("stream.yaml", []byte("a: 6_\nb: '6_'\n---\n---\nkind: Pod\nmetadata:\n  name: p\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 {
		t.Fatalf("expected 2 documents, got %d", len(docs))
	}
	if _, ok := docs[0].Object["a"].(float64); !ok {
		t.Errorf("unquoted 6_ decoded as %T, expected a number (YAML 1.1)", docs[0].Object["a"])
	}
	if docs[0].Object["b"] != "6_" {
		t.Errorf("quoted 6_ decoded as %v", docs[0].Object["b"])
	}
	if docs[1].Index != 2 || docs[1].Label() != "stream.yaml#2 Pod (no namespace)/p" {
		t.Errorf("second document labelled %q", docs[1].Label())
	}
}
