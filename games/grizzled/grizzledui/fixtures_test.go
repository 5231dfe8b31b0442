package grizzledui

import (
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"
)

// Hand-built views: the contract in engine/grizzled/types.go is all the
// screen relies on, so the fixtures are plain SeatView values.

// Card IDs by their printed codes.
func T(n int) grizzled.CardID { return grizzled.FirstThreat + grizzled.CardID(n-1) }
func H(n int) grizzled.CardID { return grizzled.FirstHardKnock + grizzled.CardID(n-1) }

const MC = grizzled.MerryChristmas

func players4() []grizzled.PlayerView {
	return []grizzled.PlayerView{
		{Seat: 0, Name: "Ann", Character: "Félix Moreau", Charm: grizzled.Night, CharmAvailable: true, HandSize: 4, Tiles: 3, SpeechTokens: 1},
		{Seat: 1, Name: "Bob", Character: "Gustave Bideau", Charm: grizzled.Snow, CharmAvailable: false, HandSize: 3, Tiles: 2,
			HardKnocks: []grizzled.CardID{H(11), H(8)}, Weight: 2, Mute: true},
		{Seat: 2, Name: "Cid", Character: "Charles Saulière", Charm: grizzled.Rain, CharmAvailable: true, HandSize: 5, Tiles: 3,
			HardKnocks: []grizzled.CardID{H(6)}, Weight: 1},
		{Seat: 3, Name: "Dee", Character: "Gaston Fayard", Charm: grizzled.Shell, CharmAvailable: true, HandSize: 2, Tiles: 2,
			HardKnocks: []grizzled.CardID{H(2), H(7)}, Weight: 3, Withdrawn: true, PlacedTile: true},
	}
}

func seats4() []table.SeatInfo {
	return []table.SeatInfo{
		{Seat: 0, Name: "Ann", Connected: true},
		{Seat: 1, Name: "Bob", Connected: false},
		{Seat: 2, Name: "Cid", Bot: "easy", Connected: true},
		{Seat: 3, Name: "Dee", Connected: true},
	}
}

func narr(text string) game.Event {
	return game.Event{Audience: game.Everyone(), Kind: game.Narration, From: -1, Text: text}
}

func update(seat game.Seat, v grizzled.SeatView, log ...game.Event) table.Update {
	v.Seat = seat
	return table.Update{
		Room: "K7QX", Title: game.Raw("The Grizzled · standard"), Game: "grizzled", Seat: seat, Seq: v.Seq,
		View: v, Log: game.Refs(log), Seats: seats4(), Started: true, Over: v.Over,
	}
}

func plays(cards ...grizzled.CardID) []grizzled.Action {
	var out []grizzled.Action
	for _, c := range cards {
		out = append(out, grizzled.Action{Kind: grizzled.ActPlay, Card: c})
	}
	return out
}

func midLog() []game.Event {
	return []game.Event{
		narr("Mission 3 begins: Ann leads, 3 cards each."),
		narr("Ann plays T02 Night+Shell."),
		narr("Bob plays Mute: he may no longer speak."),
		{Audience: game.Everyone(), Kind: game.Chat, From: 2, Channel: "table", Text: "careful with Night"},
		narr("Cid plays T06 Night+Whistle."),
		narr("Dee withdraws and places a support tile face down."),
		narr("Ann plays T35 Shell+Mask."),
	}
}

// midMission: Ann's turn, Night and Shell at 2, Cid's Trauma Rain counts.
func midMission() table.Update {
	v := grizzled.SeatView{
		Seq: 41, Phase: grizzled.PhaseTurn, Round: 3, Leader: 0, Active: 0, Waiting: []game.Seat{0}, Speaker: -1,
		Trials: 9, Morale: 28, SpeechSupply: 2,
		NML:     []grizzled.CardID{T(2), T(6), T(35)},
		Counts:  [grizzled.NumThreats]int{2, 0, 1, 2, 1, 1},
		Players: players4(),
		Hand:    []grizzled.CardID{T(11), T(4), H(7), MC},
		MyTiles: []grizzled.Tile{grizzled.TileL, grizzled.TileR, grizzled.TileDL},
	}
	v.Legal = plays(v.Hand...)
	v.Legal = append(v.Legal,
		grizzled.Action{Kind: grizzled.ActCharm, Card: T(2)},
		grizzled.Action{Kind: grizzled.ActCharm, Card: T(6)})
	for t := range grizzled.NumThreats {
		v.Legal = append(v.Legal, grizzled.Action{Kind: grizzled.ActSpeech, Threat: grizzled.Threat(t)})
	}
	// Bob's Fragile blocks a withdrawal with cards in hand: no ActWithdraw.
	v.WhyNoWithdraw = game.M("grizzled.block.fragile", game.Text("Player", "Bob"))
	return update(0, v, midLog()...)
}

// intensity: Ann leads mission 4 and picks k; last support is face up.
func intensity() table.Update {
	v := grizzled.SeatView{
		Seq: 57, Phase: grizzled.PhaseIntensity, Round: 4, MinIntensity: 1, MaxIntensity: 7,
		Leader: 0, Active: 0, Waiting: []game.Seat{0}, Speaker: -1,
		Trials: 17, Morale: 25, SpeechSupply: 1,
		Counts:  [grizzled.NumThreats]int{0, 0, 1, 0, 1, 0},
		Players: players4(),
		Hand:    []grizzled.CardID{T(32), H(11)},
		MyTiles: []grizzled.Tile{grizzled.TileL, grizzled.TileR},
		LastSupport: &grizzled.SupportReveal{Round: 3, Success: true, Beneficiary: 1, Tiles: []grizzled.SupportTile{
			{From: 0, To: 1, Tile: grizzled.TileL}, {From: 2, To: 1, Tile: grizzled.TileR}, {From: 3, To: 0, Tile: grizzled.TileR},
		}},
	}
	for i := range v.Players {
		v.Players[i].Withdrawn, v.Players[i].PlacedTile = false, false
	}
	v.Players[0].HandSize = 2
	for k := v.MinIntensity; k <= v.MaxIntensity; k++ {
		v.Legal = append(v.Legal, grizzled.Action{Kind: grizzled.ActIntensity, K: k})
	}
	return update(0, v,
		narr("Mission 3 succeeded: No Man's Land is cleared."),
		narr("Support: Ann L→Bob, Cid R→Bob, Dee R→Ann. Bob benefits."),
		narr("Bob discards Wounded."),
		narr("Morale drops: 4 cards move to the trials pile."),
		narr("Ann takes a speech token; the leader token passes to Ann."))
}

// speechAnswer: Cid named Snow; Ann may discard one Snow card or pass.
func speechAnswer() table.Update {
	v := grizzled.SeatView{
		Seq: 44, Phase: grizzled.PhaseSpeech, Round: 3, Leader: 0, Active: 2, Waiting: []game.Seat{0, 1},
		Trials: 9, Morale: 28, SpeechSupply: 2, SpeechThreat: grizzled.Snow, Speaker: 2,
		NML:     []grizzled.CardID{T(2), T(6)},
		Counts:  [grizzled.NumThreats]int{2, 0, 1, 1, 1, 0},
		Players: players4(),
		Hand:    []grizzled.CardID{T(4), T(14), T(37), H(5)},
		MyTiles: []grizzled.Tile{grizzled.TileL, grizzled.TileR, grizzled.TileDL},
	}
	v.Players[2].SpeechTokens = 0
	v.Legal = []grizzled.Action{
		{Kind: grizzled.ActSpeechDiscard, Card: T(14)},
		{Kind: grizzled.ActSpeechDiscard, Card: T(37)},
		{Kind: grizzled.ActSpeechDiscard, Card: H(5)},
		{Kind: grizzled.ActSpeechPass},
	}
	return update(0, v, append(midLog()[:5], narr("Cid makes a speech: Snow. Bob and Ann may discard a Snow card."))...)
}

// tilePlacement: Ann withdraws and places one of her three tiles.
func tilePlacement() table.Update {
	v := grizzled.SeatView{
		Seq: 45, Phase: grizzled.PhaseDecision, Decision: grizzled.DecidePlaceTile, Round: 3, Leader: 0, Active: 0,
		Waiting: []game.Seat{0}, Speaker: -1, Trials: 9, Morale: 28, SpeechSupply: 2,
		NML:     []grizzled.CardID{T(2), T(6), T(35)},
		Counts:  [grizzled.NumThreats]int{2, 0, 1, 2, 1, 1},
		Players: players4(),
		MyTiles: []grizzled.Tile{grizzled.TileL, grizzled.TileR, grizzled.TileDL},
	}
	v.Players[0].HandSize = 0
	v.Players[0].Withdrawn = true
	v.Legal = []grizzled.Action{
		{Kind: grizzled.ActPlaceTile, Tile: grizzled.TileL},
		{Kind: grizzled.ActPlaceTile, Tile: grizzled.TileR},
		{Kind: grizzled.ActPlaceTile, Tile: grizzled.TileDL},
	}
	return update(0, v, append(midLog()[:6], narr("Ann withdraws."))...)
}

// supportReveal: mission 3 failed, Ann is the beneficiary and chooses.
func supportReveal() table.Update {
	v := grizzled.SeatView{
		Seq: 63, Phase: grizzled.PhaseBenefit, Round: 3, Leader: 0, Active: 0, Waiting: []game.Seat{0}, Speaker: -1,
		Trials: 13, Morale: 28, SpeechSupply: 2,
		Players: players4(),
		Hand:    []grizzled.CardID{T(11)},
		MyTiles: []grizzled.Tile{grizzled.TileL, grizzled.TileR, grizzled.TileR},
		LastSupport: &grizzled.SupportReveal{Round: 3, Success: true, Beneficiary: 0, Tiles: []grizzled.SupportTile{
			{From: 1, To: 0, Tile: grizzled.TileR}, {From: 2, To: 0, Tile: grizzled.TileDL}, {From: 3, To: 2, Tile: grizzled.TileR},
		}},
	}
	for i := range v.Players {
		v.Players[i].Withdrawn, v.Players[i].PlacedTile = true, false
	}
	v.Players[0].HardKnocks = []grizzled.CardID{H(7), H(12)}
	v.Players[0].Weight = 3
	v.Players[0].CharmAvailable = false
	v.Legal = []grizzled.Action{
		{Kind: grizzled.ActBenefitDiscard, Cards: []grizzled.CardID{H(7)}},
		{Kind: grizzled.ActBenefitDiscard, Cards: []grizzled.CardID{H(12)}},
		{Kind: grizzled.ActBenefitDiscard, Cards: []grizzled.CardID{H(7), H(12)}},
		{Kind: grizzled.ActBenefitCharm},
		{Kind: grizzled.ActBenefitDecline},
	}
	return update(0, v,
		narr("Everyone has withdrawn: mission 3 succeeded."),
		narr("Support revealed: Bob R→Ann, Cid DL→Ann, Dee R→Cid."),
		narr("Ann received 2 tiles and chooses a benefit."))
}

// mcTarget: Ann played Merry Christmas and picks a hard knock to discard.
func mcTarget() table.Update {
	u := midMission()
	v := u.View.(grizzled.SeatView)
	v.Phase, v.Decision, v.Seq = grizzled.PhaseDecision, grizzled.DecideHardKnock, 42
	v.Hand = []grizzled.CardID{T(11), T(4), H(7)}
	v.Legal = []grizzled.Action{
		{Kind: grizzled.ActDiscardHardKnock, Card: H(11), Target: 1},
		{Kind: grizzled.ActDiscardHardKnock, Card: H(8), Target: 1},
		{Kind: grizzled.ActDiscardHardKnock, Card: H(6), Target: 2},
		{Kind: grizzled.ActDiscardHardKnock, Card: H(2), Target: 3},
		{Kind: grizzled.ActDiscardHardKnock, Card: H(7), Target: 3},
	}
	u.View, u.Seq = v, v.Seq
	return u
}

// absentMinded: Ann withdraws with Absent-minded and removes a tile first.
func absentMinded() table.Update {
	u := tilePlacement()
	v := u.View.(grizzled.SeatView)
	v.Decision = grizzled.DecideRemoveTile
	v.Players[0].HardKnocks = []grizzled.CardID{H(19)}
	v.Players[0].Weight = 1
	v.Legal = []grizzled.Action{
		{Kind: grizzled.ActRemoveTile, Tile: grizzled.TileL},
		{Kind: grizzled.ActRemoveTile, Tile: grizzled.TileR},
		{Kind: grizzled.ActRemoveTile, Tile: grizzled.TileDL},
	}
	u.View = v
	return u
}

// gameOver: lost on hard knocks after support.
func gameOver() table.Update {
	v := grizzled.SeatView{
		Seq: 90, Phase: grizzled.PhaseOver, Round: 6, Leader: 2, Active: 2, Speaker: -1,
		Trials: 4, Morale: 12, SpeechSupply: 0,
		Counts:  [grizzled.NumThreats]int{0, 0, 1, 0, 0, 0},
		Players: players4(), Over: true, Won: false, LossReason: "hard knocks",
		Hand: []grizzled.CardID{T(20)},
		LastSupport: &grizzled.SupportReveal{Round: 6, Success: false, Beneficiary: -1, Tiles: []grizzled.SupportTile{
			{From: 3, To: 1, Tile: grizzled.TileDR}, {From: 2, To: 3, Tile: grizzled.TileL},
		}},
	}
	v.Players[1].HardKnocks = []grizzled.CardID{H(11), H(8), H(7)}
	v.Players[1].Weight = 4
	u := update(0, v,
		narr("Mission 6 failed: Rain reached 3."),
		narr("Support revealed: Dee DR→Bob, Cid L→Dee. Nobody benefits."),
		narr("Bob carries 4 hard knocks: the team has lost."))
	u.Result = &game.Result{Outcome: "loss", Summary: game.Raw("Lost in mission 6: Bob broke under 4 hard knocks.")}
	return u
}

// spectator: the mid-mission table seen by someone watching.
func spectator() table.Update {
	u := midMission()
	v := u.View.(grizzled.SeatView)
	v.Hand, v.MyTiles, v.Legal, v.PlacedTile = nil, nil, nil, grizzled.NoTile
	v.Seat = game.Spectator
	u.View, u.Seat = v, game.Spectator
	return u
}
