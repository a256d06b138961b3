// Sample 1000 bot in C++ (gRPC C++ and protobuf, from Debian's
// libgrpc++-dev and protobuf-compiler-grpc).
//
// It needs nothing from the arena but the .proto (a copy of
// protocol/arena/v1/arena.proto in proto/, so the folder is self-contained).
// The arena starts it with ARENA_ADDRESS ("unix:/path" or "host:port", both
// understood by gRPC C++ as they are) and ARENA_TOKEN. Build with `make` in
// this folder: the binary links gRPC and protobuf statically, so it runs in
// the bwrap and docker sandboxes with only the C library from the image.
//
// Its play is the JavaScript sample's heuristic: never raise the auction, the
// lowest contract, give away the cheapest card, always declare a marriage,
// play the cheapest card unless the trick already holds 10+ points, then the
// strongest. It chooses by the legal actions' texts and answers with the
// structured action at the same index (either form is a valid reply).
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "arena/v1/arena.grpc.pb.h"

namespace {

using arena::v1::BotMessage;
using arena::v1::DecisionRequest;
using arena::v1::RefereeMessage;

constexpr char kName[] = "cpp";
constexpr char kVersion[] = "1.0.0";
constexpr unsigned kProtocolVersion = 2;

// Card texts are rank then suit ("TH" = ten of hearts).
int Points(const std::string& card) {
  switch (card.empty() ? '?' : card[0]) {
    case 'A': return 11;
    case 'T': return 10;
    case 'K': return 4;
    case 'Q': return 3;
    case 'J': return 2;
    default: return 0;
  }
}

int Strength(const std::string& card) {
  static const std::string kOrder = "9JQKTA";  // weakest to strongest
  const auto at = card.empty() ? std::string::npos : kOrder.find(card[0]);
  return at == std::string::npos ? -1 : static_cast<int>(at);
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The card of "play KH" or "give QH 2": the second word.
std::string CardOf(const std::string& text) {
  const auto space = text.find(' ');
  if (space == std::string::npos) return "";
  const auto end = text.find(' ', space + 1);
  return text.substr(space + 1, end == std::string::npos ? std::string::npos : end - space - 1);
}

// Index of the legal action to play; the texts are in the action notation
// of docs/protocol.md and never empty.
int Choose(const DecisionRequest& d) {
  const auto& texts = d.legal_texts();
  const std::string& phase = d.observation().phase();
  auto find = [&](auto pred) {
    for (int i = 0; i < texts.size(); ++i) {
      if (pred(texts[i])) return i;
    }
    return -1;
  };
  // Pick the action among those matching `pred` with the least `score`.
  auto least = [&](auto pred, auto score) {
    int best = -1;
    for (int i = 0; i < texts.size(); ++i) {
      if (pred(texts[i]) && (best < 0 || score(texts[i]) < score(texts[best]))) best = i;
    }
    return best;
  };
  int pick = -1;
  if (phase == "bidding") {
    pick = find([](const std::string& t) { return t == "pass"; });
    if (pick < 0) pick = find([](const std::string& t) { return StartsWith(t, "bid"); });
  } else if (phase == "contract") {
    pick = find([](const std::string& t) { return StartsWith(t, "contract"); });
  } else if (phase == "exchange") {
    pick = least([](const std::string& t) { return StartsWith(t, "give"); },
                 [](const std::string& t) { return Points(CardOf(t)); });
  } else if (phase == "play") {
    pick = find([](const std::string& t) { return EndsWith(t, " marriage") || EndsWith(t, " aces"); });
    if (pick < 0) {
      int on_table = 0;
      for (const auto& tc : d.observation().trick()) on_table += Points(tc.card());
      auto is_play = [](const std::string& t) { return StartsWith(t, "play"); };
      pick = on_table >= 10
                 ? least(is_play, [](const std::string& t) { return -Strength(CardOf(t)); })
                 : least(is_play, [](const std::string& t) { return Points(CardOf(t)); });
    }
  } else {
    // Offer phases (redeal, blind, lottery, bomb...): decline when possible.
    pick = find([](const std::string& t) { return t == "pass"; });
  }
  return pick < 0 ? 0 : pick;
}

}  // namespace

int main() {
  const char* address = std::getenv("ARENA_ADDRESS");
  const char* token = std::getenv("ARENA_TOKEN");
  if (address == nullptr || token == nullptr) {
    std::cerr << "bot: ARENA_ADDRESS and ARENA_TOKEN must be set (the arena sets them)\n";
    return 2;
  }
  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  auto stub = arena::v1::Referee::NewStub(channel);
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReaderWriter<BotMessage, RefereeMessage>> stream(stub->Play(&context));

  BotMessage hello;
  hello.mutable_hello()->set_token(token);
  hello.mutable_hello()->set_bot_name(kName);
  hello.mutable_hello()->set_bot_version(kVersion);
  hello.mutable_hello()->set_protocol_version(kProtocolVersion);
  if (!stream->Write(hello)) {
    const grpc::Status status = stream->Finish();  // why: e.g. "failed to connect"
    std::cerr << "bot: could not send the hello: " << status.error_message() << "\n";
    return 1;
  }

  bool finished = false;
  bool refused = false;
  RefereeMessage msg;
  while (stream->Read(&msg)) {
    switch (msg.body_case()) {
      case RefereeMessage::kMatchStart:
        std::cerr << "seat " << msg.match_start().seat() << " in match " << msg.match_start().match_id() << "\n";
        break;
      case RefereeMessage::kDecision: {
        const DecisionRequest& d = msg.decision();
        BotMessage reply;
        reply.mutable_reply()->set_seq(d.seq());
        // The texts and the structured actions are the same list, in the same
        // order; answer with the structured one, or the text if there is none.
        const int pick = Choose(d);
        if (pick < d.legal_actions_size()) {
          *reply.mutable_reply()->mutable_action() = d.legal_actions(pick);
        } else if (pick < d.legal_texts_size()) {
          reply.mutable_reply()->set_text(d.legal_texts(pick));
        } else {
          std::cerr << "decision " << d.seq() << " names no legal action\n";
          break;
        }
        if (!stream->Write(reply)) break;  // the stream is gone; Read ends the loop
        break;
      }
      case RefereeMessage::kMatchEnd: {
        finished = true;
        std::cerr << "match over: totals";
        for (int t : msg.match_end().totals()) std::cerr << " " << t;
        std::cerr << "\n";
        stream->WritesDone();
        break;
      }
      case RefereeMessage::kRefused:
        refused = true;
        std::cerr << "refused by the referee: " << msg.refused() << "\n";
        stream->WritesDone();
        break;
      default:
        break;  // events and deal results: information only
    }
  }
  const grpc::Status status = stream->Finish();
  if (!finished && !refused) {
    std::cerr << "the stream ended before the match did: "
              << (status.ok() ? std::string("closed by the referee") : status.error_message()) << "\n";
  }
  // 0 only for a match played to its end.
  return finished ? 0 : 1;
}
