package werewolfui

import (
	"fmt"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/i18n"
)

// In ASCII mode, with the words romanised before layout (Russian grows
// longer), every screen still fits its window (issue 30 item 9).
func TestEveryScreenFitsInASCII(t *testing.T) {
	for _, l := range i18n.Langs {
		for _, tt := range goldenCases() {
			u := tt.u(t)
			th := asciiTheme()
			th.SetLang(l)
			th.SetASCII(true)
			s := New(th)
			s.SetHelpBar(true)
			s.SetSize(80, 24)
			s.SetUpdate(u)
			if tt.later > 0 {
				s.now = func() time.Time { return clock0.Add(tt.later) }
			}
			t.Run(fmt.Sprintf("%s/%s", l, tt.name), func(t *testing.T) {
				checkFits(t, s.View(), 80, 24)
			})
		}
	}
}
