"""Decision 1: nonsense text. Decision 2: a structurally valid message whose
action has a bogus kind. Decision 3: a reply with neither action nor text.
Then it plays legally: three malformed replies."""


import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    if n == 1:
        return fb.reply_text(request.seq, "\u2620 lorem ipsum dolor \x00\x7f")
    if n == 2:
        return fb.reply_action(request.seq, fb.pb.Action(kind="teleport", card="ZZ", amount=-3))
    if n == 3:
        return fb.pb.BotMessage(reply=fb.pb.Reply(seq=request.seq)).SerializeToString()
    return fb.first_legal(request.seq, request)


fb.run(decide)
