// Package storetest is the contract every persistence.Store passes: the
// same tests run against bbolt on one machine and JetStream on a cluster,
// so callers can rely on one meaning for each method.
//
//	func TestContract(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, clock func() time.Time) persistence.Store {
//			return openAnEmptyStore(t, clock) // closed by t.Cleanup
//		})
//	}
package storetest

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// Opener makes a fresh, empty store for one test. The store stamps times
// with clock, and the opener closes it in t's cleanup.
type Opener func(t *testing.T, clock func() time.Time) persistence.Store

// Run runs the whole contract, one subtest per behaviour, each on a fresh
// store.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(*testing.T, Opener)
	}{
		{"RoomRoundTrip", testRoomRoundTrip},
		{"PutRoomRefusesInvalid", testPutRoomRefusesInvalid},
		{"RoomsByStatusAndDelete", testRoomsByStatusAndDelete},
		{"FinishedRoomsCountOnceAndHistory", testFinishedRoomsCountOnceAndHistory},
		{"ReviewsAreKeptWithFinishedRooms", testReviewsAreKeptWithFinishedRooms},
		{"RetiredRoomKeepsItsGame", testRetiredRoomKeepsItsGame},
		{"AppendAndLogInOrder", testAppendAndLogInOrder},
		{"ReturnedEntriesAreCopies", testReturnedEntriesAreCopies},
		{"AppendSequenceRules", testAppendSequenceRules},
		{"ConcurrentAppends", testConcurrentAppends},
		{"AppendIsFenced", testAppendIsFenced},
		{"PlayerRoundTripAndUpdate", testPlayerRoundTripAndUpdate},
		{"LeftStampsLastSeen", testLeftStampsLastSeen},
		{"ConcurrentUpdatesLoseNothing", testConcurrentUpdatesLoseNothing},
		{"EachPlayerVisitsEveryProfile", testEachPlayerVisitsEveryProfile},
		{"RelationsRoundTrip", testRelationsRoundTrip},
		{"FriendsKeptByIdentity", testFriendsKeptByIdentity},
		{"PlayedWithAtFinish", testPlayedWithAtFinish},
		{"GenderRoundTrip", testGenderRoundTrip},
		{"CampaignsMembershipAndUpdate", testCampaignsMembershipAndUpdate},
		{"RecordCampaignResult", testRecordCampaignResult},
		{"CampaignTableOptions", testCampaignTableOptions},
		{"AliveMarks", testAliveMarks},
		{"SanctionsPutReplaceDelete", testSanctionsPutReplaceDelete},
		{"AuditKeepsEveryActionInOrder", testAuditKeepsEveryActionInOrder},
		{"ReportsAreKept", testReportsAreKept},
		{"SightingsMergeAndIndex", testSightingsMergeAndIndex},
		{"SightingsPrune", testSightingsPrune},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open) })
	}
}

// tickClock returns a clock that moves one second per reading, so stamped
// times are distinct and ordered.
func tickClock() func() time.Time {
	var n atomic.Int64
	base := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	return func() time.Time { return base.Add(time.Duration(n.Add(1)) * time.Second) }
}
