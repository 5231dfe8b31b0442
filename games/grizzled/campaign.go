package grizzled

// CampaignMax is the largest trials pile a campaign reaches (§6.5).
const CampaignMax = 30

// CampaignStart is the first trials-pile size of a campaign (§6.5): 20 with
// 2 humans (the rulebook campaign), 25 otherwise (Bivouac's extension).
func CampaignStart(humans int) int {
	if humans == 2 {
		return 20
	}
	return 25
}

// CampaignNext is the next game's trials-pile size after a game played with
// trials cards (§6.5, case 49): +2 after a win, capped at 30; unchanged after
// a loss. A win with 30 (or more) cards earns veteran status.
func CampaignNext(trials int, won bool) (next int, veteran bool) {
	if !won {
		return trials, false
	}
	return min(trials+2, CampaignMax), trials >= CampaignMax
}
