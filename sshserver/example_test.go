package sshserver_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"time"

	"github.com/bivouac-ssh/bivouac/hostkeys"
	"github.com/bivouac-ssh/bivouac/sshserver"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	bm "github.com/charmbracelet/wish/bubbletea"
)

type hello struct{ who string }

func (h hello) Init() tea.Cmd                       { return nil }
func (h hello) Update(tea.Msg) (tea.Model, tea.Cmd) { return h, tea.Quit }
func (h hello) View() string                        { return "hello " + h.who + "\n" }

// Wiring the server in main: host key first, then the server with the TUI
// and the commands, then a signal-driven Shutdown.
func Example() {
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	keyPath, fp, err := hostkeys.Ensure("data")
	if err != nil {
		logger.Error("host key", "err", err)
		os.Exit(1)
	}
	logger.Info("host key", "fingerprint", fp) // publish it for players to check

	srv, err := sshserver.New(sshserver.Config{HostKeyPath: keyPath, AllowGuests: true}, sshserver.Deps{
		Programs: func(ctx context.Context, s ssh.Session) *tea.Program {
			id, _ := sshserver.IdentityOf(s) // always there: only verified sessions get here
			_ = bm.MakeRenderer(s)           // build every style from this renderer
			opts := append(bm.MakeOptions(s), tea.WithAltScreen(), tea.WithContext(ctx))
			return tea.NewProgram(hello{who: id.ID}, opts...)
		},
		Command: func(s ssh.Session, args []string) int {
			if args[0] == "help" {
				fmt.Fprintln(s, "ssh -p 2222 host            play")
				return 0
			}
			fmt.Fprintf(s.Stderr(), "unknown command %q\n", args[0])
			return 2
		},
		Log: logger,
	})
	if err != nil {
		logger.Error("server", "err", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.ListenAndServe(); !errors.Is(err, sshserver.ErrServerClosed) {
		logger.Error("serve", "err", err)
	}
}
