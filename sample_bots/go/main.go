// Sample 1000 bot in Go (grpc-go and protobuf-go).
//
// It needs nothing from the arena but the .proto (a copy of
// protocol/arena/v1/arena.proto in proto/, so the folder is self-contained).
// The arena starts it with ARENA_ADDRESS ("unix:/path" or "host:port") and
// ARENA_TOKEN. Build with `make` in this folder: the stubs are generated into
// gen/ and the binary is static (no cgo), so it runs in the bwrap and docker
// sandboxes with nothing from the image.
//
// Its play is the JavaScript sample's heuristic: never raise the auction, the
// lowest contract, give away the cheapest card, always declare a marriage,
// play the cheapest card unless the trick already holds 10+ points, then the
// strongest. It chooses by the legal actions' texts and answers with the
// structured action at the same index (either form is a valid reply).
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	arenav1 "arenabot/arena/v1"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
)

const (
	name            = "go"
	version         = "1.0.0"
	protocolVersion = 2
)

// Card texts are rank then suit ("TH" = ten of hearts).
func points(card string) int {
	if card == "" {
		return 0
	}
	switch card[0] {
	case 'A':
		return 11
	case 'T':
		return 10
	case 'K':
		return 4
	case 'Q':
		return 3
	case 'J':
		return 2
	}
	return 0
}

func strength(card string) int {
	if card == "" {
		return -1
	}
	return strings.IndexByte("9JQKTA", card[0]) // weakest to strongest, -1 if unknown
}

// cardOf is the card of "play KH" or "give QH 2": the second word.
func cardOf(text string) string {
	words := strings.Fields(text)
	if len(words) < 2 {
		return ""
	}
	return words[1]
}

// choose returns the index of the legal action to play; the texts are in the
// action notation of docs/protocol.md.
func choose(d *arenav1.DecisionRequest) int {
	texts := d.GetLegalTexts()
	find := func(pred func(string) bool) int {
		for i, t := range texts {
			if pred(t) {
				return i
			}
		}
		return -1
	}
	// The action among those matching pred with the least score.
	least := func(pred func(string) bool, score func(string) int) int {
		best := -1
		for i, t := range texts {
			if pred(t) && (best < 0 || score(t) < score(texts[best])) {
				best = i
			}
		}
		return best
	}
	is := func(s string) func(string) bool { return func(t string) bool { return t == s } }
	prefix := func(p string) func(string) bool { return func(t string) bool { return strings.HasPrefix(t, p) } }
	pick := -1
	switch d.GetObservation().GetPhase() {
	case "bidding":
		if pick = find(is("pass")); pick < 0 {
			pick = find(prefix("bid"))
		}
	case "contract":
		pick = find(prefix("contract"))
	case "exchange":
		pick = least(prefix("give"), func(t string) int { return points(cardOf(t)) })
	case "play":
		pick = find(func(t string) bool {
			return strings.HasSuffix(t, " marriage") || strings.HasSuffix(t, " aces")
		})
		if pick < 0 {
			onTable := 0
			for _, tc := range d.GetObservation().GetTrick() {
				onTable += points(tc.GetCard())
			}
			if onTable >= 10 {
				pick = least(prefix("play"), func(t string) int { return -strength(cardOf(t)) })
			} else {
				pick = least(prefix("play"), func(t string) int { return points(cardOf(t)) })
			}
		}
	default:
		// Offer phases (redeal, blind, lottery, bomb...): decline when possible.
		pick = find(is("pass"))
	}
	if pick < 0 {
		return 0
	}
	return pick
}

// reply answers d with the structured action it picks, or its text when the
// request has no structured actions; nil when it names no legal action.
func reply(d *arenav1.DecisionRequest) *arenav1.BotMessage {
	pick := choose(d)
	r := &arenav1.Reply{Seq: d.GetSeq()}
	switch {
	case pick < len(d.GetLegalActions()):
		r.Action = d.GetLegalActions()[pick]
	case pick < len(d.GetLegalTexts()):
		r.Text = d.GetLegalTexts()[pick]
	default:
		return nil
	}
	return &arenav1.BotMessage{Body: &arenav1.BotMessage_Reply{Reply: r}}
}

// dial connects to "unix:/path" (grpc-go's own unix resolver is newer than
// the Debian package this is built against) or "host:port".
func dial(address string) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{grpc.WithInsecure()}
	if path := strings.TrimPrefix(address, "unix:"); path != address {
		opts = append(opts, grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		}))
		address = "passthrough:///arena"
	}
	return grpc.Dial(address, opts...)
}

func run() int {
	address, token := os.Getenv("ARENA_ADDRESS"), os.Getenv("ARENA_TOKEN")
	if address == "" || token == "" {
		fmt.Fprintln(os.Stderr, "bot: ARENA_ADDRESS and ARENA_TOKEN must be set (the arena sets them)")
		return 2
	}
	conn, err := dial(address)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bot: could not connect: %v\n", err)
		return 1
	}
	defer conn.Close()
	// The referee listens before it starts the bot: a failure here is final.
	stream, err := arenav1.NewRefereeClient(conn).Play(context.Background())
	if err == nil {
		err = stream.Send(&arenav1.BotMessage{Body: &arenav1.BotMessage_Hello{Hello: &arenav1.Hello{
			Token: token, BotName: name, BotVersion: version, ProtocolVersion: protocolVersion,
		}}})
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bot: could not send the hello: %v\n", err)
		return 1
	}
	finished, refused := false, false
	for {
		msg, err := stream.Recv()
		if err != nil {
			if finished || refused {
				break
			}
			why := "closed by the referee"
			if err != io.EOF {
				why = status.Convert(err).Message()
			}
			fmt.Fprintf(os.Stderr, "the stream ended before the match did: %s\n", why)
			break
		}
		switch body := msg.GetBody().(type) {
		case *arenav1.RefereeMessage_MatchStart:
			fmt.Fprintf(os.Stderr, "seat %d in match %s\n", body.MatchStart.GetSeat(), body.MatchStart.GetMatchId())
		case *arenav1.RefereeMessage_Decision:
			answer := reply(body.Decision)
			if answer == nil {
				fmt.Fprintf(os.Stderr, "decision %d names no legal action\n", body.Decision.GetSeq())
				continue
			}
			_ = stream.Send(answer) // if it fails, the stream is gone and Recv says why
		case *arenav1.RefereeMessage_MatchEnd:
			finished = true
			fmt.Fprintf(os.Stderr, "match over: totals %v\n", body.MatchEnd.GetTotals())
			stream.CloseSend()
		case *arenav1.RefereeMessage_Refused:
			refused = true
			fmt.Fprintf(os.Stderr, "refused by the referee: %s\n", body.Refused)
			stream.CloseSend()
		}
		// events and deal results: information only
	}
	if finished {
		return 0 // only a match played to its end
	}
	return 1
}

func main() { os.Exit(run()) }
