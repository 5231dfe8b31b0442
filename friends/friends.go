// Package friends keeps who is whose friend: the requests players make
// and answer, and the friendships they make, kept by identity in each
// player's profile (persistence.Relations, both stores), so a rename
// keeps every friend.
//
// # Mutual, and honest about half-made friendships
//
// A friendship holds while each player lists the other in Friends. The
// two profiles are two writes (two compare-and-sets on a cluster), so
// every change is ordered to leave, if it stops half way, something the
// next step completes and nothing that means more than it should: an
// answer writes the asker's side first (they asked: they wanted it), then
// the answerer's, whose request stays until then and can be answered
// again; an end of friendship takes it off the ender's side first.
// Presence (package presence) shows a friend only when both sides list
// each other, so a half-made friendship shows nothing.
//
// # What a request may not be
//
// A request carries no words: it is a name and a key to answer, never a
// way to message someone. A player makes AskBurst requests, then one
// every AskEvery (in this node's memory); at most MaxAsked wait for an
// answer at once, at most MaxAskers wait for one player's, and a request
// lapses after AskLife. A request to someone who blocks or ignores the
// asker, or whose requests are full, is taken as made and goes nowhere:
// the asker never learns who keeps them away. Blocking someone ends the
// friendship and every request between the two (Block).
package friends

import (
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/words"

	"golang.org/x/time/rate"
)

// Limits (docs/ARCHITECTURE.md, "Security limits").
const (
	MaxFriends = persistence.MaxRelations // friends one player may have
	MaxAsked   = 20                       // requests one player has waiting for an answer
	MaxAskers  = 50                       // requests waiting for one player's answer
	AskBurst   = 10                       // requests a player makes at once…
	AskEvery   = 6 * time.Minute          // …then one every AskEvery
	AskLife    = 30 * 24 * time.Hour      // a request nobody answers lapses
	// maxPaced bounds the players whose pace a node remembers; past it
	// the whole memory starts again (each player then has a fresh burst).
	maxPaced = 50_000
)

// Person is a player as a list names them.
type Person struct{ ID, Name string }

// Outcome is what a request did.
type Outcome uint8

const (
	Asked          Outcome = iota // the request waits for the other's answer
	Befriended                    // the other had asked first: friends now
	AlreadyFriends                // nothing to do
	AlreadyAsked                  // the request was made before and still waits
)

// Refusals a player reads.
var (
	ErrNotYou     = words.NewError("friends.err.not_you")
	ErrGuest      = words.NewError("friends.err.guest")       // the asker has no key
	ErrNoProfile  = words.NewError("friends.err.no_profile")  // the other keeps no profile (a guest, or nobody)
	ErrNoRequest  = words.NewError("friends.err.no_request")  // nothing to answer
	ErrYouBlock   = words.NewError("friends.err.you_block")   // unblock them first
	ErrNotFriends = words.NewError("friends.err.not_friends") // nothing to end
)

// tooMany says a list is full.
func tooMany(key string, n int) error { return words.Refuse(nil, words.M(key, words.Num("N", n))) }

// Service is one node's friends: it reads and writes profiles in the
// store, posts notices, and tells presence whose circle changed.
type Service struct {
	store persistence.Store
	now   func() time.Time
	// Notices, if set, brings a request and its acceptance to the other
	// player's screen.
	Notices *notice.Board
	// Changed, if set, is told the players whose friends or requests
	// changed (presence reads their circle again; sessions redraw).
	Changed func(ids ...string)

	mu   sync.Mutex
	pace map[string]*rate.Limiter
}

// New is a service on store; now is its clock (nil: time.Now).
func New(store persistence.Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, now: now, pace: map[string]*rate.Limiter{}}
}

// Guest reports whether id is a keyless guest's, who has no profile.
func Guest(id string) bool { return len(id) > 6 && id[:6] == "guest:" }

// mayAsk spends one of id's requests, or says how long to wait.
func (s *Service) mayAsk(id string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.pace[id]
	if l == nil {
		if len(s.pace) >= maxPaced {
			clear(s.pace)
		}
		l = rate.NewLimiter(rate.Every(AskEvery), AskBurst)
		s.pace[id] = l
	}
	r := l.ReserveN(s.now(), 1)
	if d := r.DelayFrom(s.now()); d > 0 {
		r.CancelAt(s.now())
		return d
	}
	return 0
}

// ErrSlow is a request over the pace; the error says when the next may go.
func errSlow(wait time.Duration) error {
	return words.Refuse(nil, words.M("friends.err.slow", words.Count(int((wait+time.Minute-1)/time.Minute))))
}

// Ask has me ask other to be friends; if other asked me first, we are
// friends at once.
func (s *Service) Ask(me, other Person) (Outcome, error) {
	switch {
	case me.ID == other.ID:
		return 0, ErrNotYou
	case Guest(me.ID):
		return 0, ErrGuest
	case Guest(other.ID):
		return 0, ErrNoProfile
	}
	mine, err := s.store.Player(me.ID)
	if err != nil && !errors.Is(err, persistence.ErrNotFound) {
		return 0, err
	}
	theirs, err := s.store.Player(other.ID)
	if errors.Is(err, persistence.ErrNotFound) {
		return 0, ErrNoProfile
	}
	if err != nil {
		return 0, err
	}
	switch {
	case persistence.HasRelation(mine.Blocked, other.ID):
		return 0, words.Refuse(ErrYouBlock, words.M("friends.err.you_block", words.Text("Player", other.Name)))
	case persistence.HasRelation(mine.Friends, other.ID) && persistence.HasRelation(theirs.Friends, me.ID):
		return AlreadyFriends, nil
	case persistence.HasRelation(s.live(mine.Askers), other.ID):
		return Befriended, s.Accept(me, other)
	case persistence.HasRelation(mine.Asked, other.ID) && persistence.HasRelation(theirs.Askers, me.ID):
		return AlreadyAsked, nil
	}
	if wait := s.mayAsk(me.ID); wait > 0 {
		return 0, errSlow(wait)
	}
	now := s.now()
	if _, err := s.store.UpdatePlayer(me.ID, func(p *persistence.Profile) error {
		p.Asked = s.live(p.Asked)
		if !persistence.HasRelation(p.Asked, other.ID) && len(p.Asked) >= MaxAsked {
			return tooMany("friends.err.too_many_asked", MaxAsked)
		}
		if p.Name == "" {
			p.Name = me.Name
		}
		return add(&p.Asked, other, now)
	}); err != nil {
		return 0, err
	}
	delivered := false
	if _, err := s.store.UpdatePlayer(other.ID, func(p *persistence.Profile) error {
		delivered = false
		p.Askers = s.live(p.Askers)
		if persistence.HasRelation(p.Blocked, me.ID) || persistence.HasRelation(p.Ignored, me.ID) ||
			(!persistence.HasRelation(p.Askers, me.ID) && len(p.Askers) >= MaxAskers) {
			return nil // taken as made: nobody learns who keeps them away
		}
		delivered = true
		return add(&p.Askers, me, now)
	}); err != nil {
		return 0, err
	}
	if delivered {
		s.post(notice.Notice{ID: "friend:" + me.ID, To: other.ID, From: me.ID,
			Text: words.M("friends.notice.asks", words.Text("Player", me.Name)),
			Act:  notice.Act{Verb: notice.VerbFriend, Arg: me.ID}, Until: now.Add(notice.Life)})
	}
	s.changed(me.ID, other.ID)
	return Asked, nil
}

// Accept has me answer other's request: friends both ways.
func (s *Service) Accept(me, other Person) error {
	if me.ID == other.ID {
		return ErrNotYou
	}
	mine, err := s.store.Player(me.ID)
	if err != nil && !errors.Is(err, persistence.ErrNotFound) {
		return err
	}
	if other.Name == "" { // answered by identity alone (a notice's key): the name their request came with
		if i := slices.IndexFunc(mine.Askers, func(r persistence.Relation) bool { return r.ID == other.ID }); i >= 0 {
			other.Name = mine.Askers[i].Name
		}
	}
	if persistence.HasRelation(mine.Blocked, other.ID) {
		return words.Refuse(ErrYouBlock, words.M("friends.err.you_block", words.Text("Player", other.Name)))
	}
	if len(mine.Friends) >= MaxFriends && !persistence.HasRelation(mine.Friends, other.ID) {
		return tooMany("friends.err.too_many_friends", MaxFriends)
	}
	now := s.now()
	// The asker's side first: they asked for it. Their request is what
	// makes it so; without it (withdrawn, lapsed) there is nothing to answer.
	if _, err := s.store.UpdatePlayer(other.ID, func(p *persistence.Profile) error {
		if !persistence.HasRelation(p.Friends, me.ID) {
			if !persistence.HasRelation(s.live(p.Asked), me.ID) {
				return ErrNoRequest
			}
			if len(p.Friends) >= MaxFriends {
				return tooMany("friends.err.their_list_full", MaxFriends)
			}
		}
		persistence.RemoveRelation(&p.Asked, me.ID)
		return add(&p.Friends, me, now)
	}); err != nil {
		if errors.Is(err, ErrNoRequest) {
			s.forgetRequest(me.ID, other.ID)
		}
		return err
	}
	if _, err := s.store.UpdatePlayer(me.ID, func(p *persistence.Profile) error {
		persistence.RemoveRelation(&p.Askers, other.ID)
		if p.Name == "" {
			p.Name = me.Name
		}
		return add(&p.Friends, other, now)
	}); err != nil {
		return err
	}
	if s.Notices != nil {
		s.Notices.Withdraw(me.ID, "friend:"+other.ID)
	}
	s.post(notice.Notice{ID: "friends:" + me.ID, To: other.ID, From: me.ID,
		Text: words.M("friends.notice.accepted", words.Text("Player", me.Name)), Until: now.Add(notice.Life)})
	s.changed(me.ID, other.ID)
	return nil
}

// forgetRequest drops a request to me from other that other no longer
// makes.
func (s *Service) forgetRequest(me, other string) {
	_, _ = s.store.UpdatePlayer(me, func(p *persistence.Profile) error { // best effort: it lapses anyway
		persistence.RemoveRelation(&p.Askers, other)
		return nil
	})
	s.changed(me)
}

// Decline has me turn other's request down (they are not told; their
// request no longer waits).
func (s *Service) Decline(me, other string) error {
	found := false
	if _, err := s.store.UpdatePlayer(me, func(p *persistence.Profile) error {
		found = persistence.RemoveRelation(&p.Askers, other)
		return nil
	}); err != nil {
		return err
	}
	if !found {
		return ErrNoRequest
	}
	if _, err := s.store.UpdatePlayer(other, func(p *persistence.Profile) error {
		persistence.RemoveRelation(&p.Asked, me)
		return nil
	}); err != nil {
		return err
	}
	if s.Notices != nil {
		s.Notices.Withdraw(me, "friend:"+other)
	}
	s.changed(me, other)
	return nil
}

// Remove ends me's friendship with other, or takes back me's request to
// them. The other is not told.
func (s *Service) Remove(me, other string) error {
	found := false
	if _, err := s.store.UpdatePlayer(me, func(p *persistence.Profile) error {
		a := persistence.RemoveRelation(&p.Friends, other)
		b := persistence.RemoveRelation(&p.Asked, other)
		found = a || b
		return nil
	}); err != nil {
		return err
	}
	if !found {
		return ErrNotFriends
	}
	return s.dropOther(me, other)
}

// Block ends everything between me and other (me blocks them): the
// friendship, and the requests either way. The block itself is the
// caller's (tui.Relations).
func (s *Service) Block(me, other string) error {
	if Guest(me) || Guest(other) {
		return nil // a guest has no friends
	}
	if _, err := s.store.UpdatePlayer(me, func(p *persistence.Profile) error {
		persistence.RemoveRelation(&p.Friends, other)
		persistence.RemoveRelation(&p.Asked, other)
		persistence.RemoveRelation(&p.Askers, other)
		return nil
	}); err != nil {
		return err
	}
	if s.Notices != nil {
		s.Notices.Withdraw(me, "friend:"+other)
	}
	return s.dropOther(me, other)
}

// dropOther takes me off other's friends and requests.
func (s *Service) dropOther(me, other string) error {
	if _, err := s.store.UpdatePlayer(other, func(p *persistence.Profile) error {
		persistence.RemoveRelation(&p.Friends, me)
		persistence.RemoveRelation(&p.Askers, me)
		persistence.RemoveRelation(&p.Asked, me)
		return nil
	}); err != nil && !errors.Is(err, persistence.ErrNotFound) {
		return err
	}
	if s.Notices != nil {
		s.Notices.Withdraw(other, "friend:"+me)
	}
	s.changed(me, other)
	return nil
}

// Lists are a player's friends and requests, as stored.
type Lists struct {
	Friends []persistence.Relation
	Asked   []persistence.Relation // waiting for their answer
	Askers  []persistence.Relation // waiting for mine
}

// Of reads id's lists (lapsed requests left out). A player with no
// profile has none.
func (s *Service) Of(id string) (Lists, error) {
	p, err := s.store.Player(id)
	if errors.Is(err, persistence.ErrNotFound) {
		return Lists{}, nil
	}
	if err != nil {
		return Lists{}, err
	}
	return ListsOf(p, s.now()), nil
}

// ListsOf is a profile's lists at now.
func ListsOf(p persistence.Profile, now time.Time) Lists {
	live := func(rs []persistence.Relation) []persistence.Relation {
		return slices.DeleteFunc(slices.Clone(rs), func(r persistence.Relation) bool { return now.Sub(r.Since) >= AskLife })
	}
	return Lists{Friends: p.Friends, Asked: live(p.Asked), Askers: live(p.Askers)}
}

// live is rs without lapsed requests.
func (s *Service) live(rs []persistence.Relation) []persistence.Relation {
	now := s.now()
	return slices.DeleteFunc(rs, func(r persistence.Relation) bool { return now.Sub(r.Since) >= AskLife })
}

// SetPresence stores who sees where id is ("", "everyone", "nobody").
func (s *Service) SetPresence(id, shows string) error {
	if Guest(id) {
		return ErrGuest
	}
	if _, err := s.store.UpdatePlayer(id, func(p *persistence.Profile) error {
		p.Presence = shows
		return nil
	}); err != nil {
		return err
	}
	s.changed(id)
	return nil
}

func add(list *[]persistence.Relation, who Person, now time.Time) error {
	if persistence.HasRelation(*list, who.ID) {
		return nil
	}
	return persistence.AddRelation(list, persistence.Relation{ID: who.ID, Name: who.Name, Since: now})
}

func (s *Service) post(n notice.Notice) {
	if s.Notices != nil {
		s.Notices.Post(n)
	}
}

func (s *Service) changed(ids ...string) {
	if s.Changed != nil {
		s.Changed(ids...)
	}
}
