package uikit

import "testing"

// A screen's action is a command yielding the ActMsg until the session
// says where actions go; then it goes there at once, with no command.
func TestActionsGoStraightOnceDirected(t *testing.T) {
	var a Actions
	msg := ActMsg{Seq: 7, Action: "flip"}
	cmd := a.Send(msg)
	if cmd == nil {
		t.Fatal("an undirected action gave no command")
	}
	if got, ok := cmd().(ActMsg); !ok || got.Seq != 7 || got.Action != "flip" {
		t.Fatalf("the command yielded %#v", got)
	}
	var sent []ActMsg
	a.To(func(m ActMsg) { sent = append(sent, m) })
	if cmd := a.Send(msg); cmd != nil {
		t.Error("a directed action still gave a command")
	}
	if len(sent) != 1 || sent[0] != msg {
		t.Errorf("submitted %#v, want the one action", sent)
	}
}
