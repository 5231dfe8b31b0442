package grizzled

import "github.com/bivouac-ssh/bivouac/game"

// The events code matches (game.EventType): the guided mission's coach
// teaches each the first time it happens.
const (
	EvThreeThreats game.EventType = "three_threats" // three of a threat: the mission fails
	EvMissionWon   game.EventType = "mission_won"   // every soldier withdrew in time
	EvWithdrew     game.EventType = "withdrew"      // a soldier withdrew (Player: the name)
	EvSupport      game.EventType = "support"       // the support tiles are revealed, or none
	EvMoraleDrop   game.EventType = "morale_drop"   // cards move from the morale reserve
	EvLeaderChosen game.EventType = "leader_chosen" // the next mission's leader (the token moves or stays)
)
