# A bot in jq, over the stdio protocol (docs/bots.md, "A bot without gRPC").
# Started as: jq --unbuffered --compact-output --null-input --from-file bot.jq
# stdin: one RefereeMessage per line (protobuf JSON mapping, .proto field
# names); stdout: one BotMessage per line. Anything for a human goes to
# stderr (`debug` writes there), never to stdout.

# The action for one decision request, as one of its legal texts: never
# raise the auction, declare a marriage when it may, otherwise lead or
# follow with the first legal card (the engine lists them in deck order);
# in the exchange and for the contract the first legal action.
def choose:
  .legal_texts as $legal
  | if ($legal | index(["pass"])) != null and .observation.phase == "bidding" then "pass"
    else (($legal | map(select(endswith(" marriage")))) + $legal) | first
    end;

# First the Hello (the bridge adds the seat's token), then a reply to each
# decision request, echoing its seq (a string: uint64 in the JSON mapping).
{hello: {bot_name: "jq", bot_version: "1.0.0", protocol_version: 2}},
(inputs
 | select(.decision != null)
 | .decision
 | {reply: {seq: .seq, text: choose}})
