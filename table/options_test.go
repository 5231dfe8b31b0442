package table_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/table/tabletest"
)

// Equal tells apart two tables that differ in any one option: the lobby
// redraws on it.
func TestOptionsEqualSeesEveryField(t *testing.T) {
	all := tabletest.AllOptions()
	if !all.Equal(tabletest.AllOptions()) {
		t.Fatal("two alike tables are not Equal")
	}
	tabletest.EachOption(all, func(name string, changed table.Options) {
		if all.Equal(changed) || changed.Equal(all) {
			t.Errorf("Equal does not see %s: compare it in Options.Equal", name)
		}
	})
}

// Every option has a JSON name of its own (the stores keep each at the
// top level of a room's record) and goes out and back as it was, in the
// lobby's summary and each session's Update as a remote node sends them.
func TestOptionsTravelAsJSON(t *testing.T) {
	typ := reflect.TypeFor[table.Options]()
	for i := range typ.NumField() {
		if tag := typ.Field(i).Tag.Get("json"); tag == "" || tag[0] == ',' || tag == "-" {
			t.Errorf("option %s has no JSON name: give it one, as stored records carry it", typ.Field(i).Name)
		}
	}
	all := tabletest.AllOptions()
	var sum table.Summary
	roundTrip(t, table.Summary{Code: "ABCD", Options: all}, &sum)
	var u table.Update
	roundTrip(t, table.Update{Room: "ABCD", Options: all}, &u)
	var rec table.RoomRecord
	roundTrip(t, table.RoomRecord{Code: "ABCD", Options: all}, &rec)
	for what, got := range map[string]table.Options{"summary": sum.Options, "update": u.Options, "record": rec.Options} {
		if !reflect.DeepEqual(got, all) {
			t.Errorf("a %s's options came back as %+v, want %+v", what, got, all)
		}
	}
}

func roundTrip(t *testing.T, v, into any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatal(err)
	}
}

// A lobby summary sent by a node from before the options were one value
// (its fields named as Go names them) reads the same on a newer node.
func TestAnOldNodesSummaryReads(t *testing.T) {
	old := `{"Code":"ABCD","Game":"grizzled","Private":true,"Host":"SHA256:ann","Campaign":"C1","Allowed":["SHA256:ann"],"Practice":true,"Hints":true}`
	var sum table.Summary
	if err := json.Unmarshal([]byte(old), &sum); err != nil {
		t.Fatal(err)
	}
	want := table.Options{Private: true, Campaign: "C1", Allowed: []string{"SHA256:ann"}, Practice: true, Hints: true}
	if !sum.Options.Equal(want) || sum.Host != "SHA256:ann" {
		t.Errorf("read %+v", sum)
	}
}
