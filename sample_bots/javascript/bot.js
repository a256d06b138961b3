#!/usr/bin/env node
// Sample 1000 bot in JavaScript (Node.js).
//
// It needs nothing from the arena but the .proto file: the referee is a gRPC
// server, this bot a client. Started by the arena with two environment
// variables: ARENA_ADDRESS ("unix:/path" or "host:port") and ARENA_TOKEN.
// The .proto is read from ARENA_PROTO when set, else from the copy next to
// this file (arena.proto, identical to the repository's protocol/ file, so
// the bot folder is self-contained: a tournament runs a copy of it, and the
// bwrap and docker sandboxes mount only the bot's folder), else from the
// repository (../../protocol/...).
//
// Set up once with `npm ci` in this folder; run by the arena as `node bot.js`.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const fs = require('fs');

const PROTO =
  process.env.ARENA_PROTO ||
  [path.resolve(__dirname, 'arena.proto'),
   path.resolve(__dirname, '..', '..', 'protocol', 'arena', 'v1', 'arena.proto')]
    .find((p) => fs.existsSync(p));

const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0 };
const STRENGTH = { A: 5, T: 4, K: 3, Q: 2, J: 1, 9: 0 };

function cardPoints(card) {
  return POINTS[card[0]];
}

// Pick one of the legal actions (texts in the notation of docs/protocol.md,
// "Action notation"). A small, deterministic heuristic, not a strong player:
// never raise the auction beyond what it must, always declare a marriage when
// it can, give away its cheapest cards, and play its cheapest card unless the
// trick already holds 10+ points, then its strongest. Any legal choice is a
// valid reply. `observation` has the .proto's field names (keepCase), e.g.
// observation.talon_count.
function choose(observation, texts) {
  const phase = observation.phase;
  const has = (t) => texts.includes(t);
  if (phase === 'bidding') {
    if (has('pass')) return 'pass';
    return texts.find((t) => t.startsWith('bid')) || texts[0];
  }
  if (phase === 'contract') {
    // Legal contracts are sorted ascending: the bid itself is the first.
    return texts.find((t) => t.startsWith('contract')) || texts[0];
  }
  if (phase === 'exchange') {
    const gives = texts.filter((t) => t.startsWith('give'));
    if (gives.length > 0) {
      return gives.reduce((best, t) =>
        cardPoints(t.split(' ')[1]) < cardPoints(best.split(' ')[1]) ? t : best);
    }
    return texts[0];
  }
  if (phase === 'play') {
    const marriage = texts.find((t) => t.endsWith(' marriage') || t.endsWith(' aces'));
    if (marriage) return marriage;
    const plays = texts.filter((t) => t.startsWith('play'));
    if (plays.length === 0) return texts[0];
    const card = (t) => t.split(' ')[1];
    const onTable = (observation.trick || []).reduce((s, tc) => s + cardPoints(tc.card), 0);
    if (onTable >= 10) {
      return plays.reduce((best, t) =>
        STRENGTH[card(t)[0]] > STRENGTH[card(best)[0]] ? t : best);
    }
    return plays.reduce((best, t) =>
      cardPoints(card(t)) < cardPoints(card(best)) ? t : best);
  }
  // Offer phases (redeal, blind, lottery, bomb...): decline when possible.
  if (has('pass')) return 'pass';
  return texts[0];
}

function main() {
  const address = process.env.ARENA_ADDRESS;
  const token = process.env.ARENA_TOKEN;
  if (!address || !token) {
    console.error('bot.js: ARENA_ADDRESS and ARENA_TOKEN must be set (the arena sets them)');
    process.exit(2);
  }
  const definition = protoLoader.loadSync(PROTO, {
    keepCase: true, // field names exactly as in the .proto (legal_texts, match_start)
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true, // message.body names the field that is set
  });
  const arena = grpc.loadPackageDefinition(definition).arena.v1;
  const client = new arena.Referee(address, grpc.credentials.createInsecure());
  const stream = client.Play();
  let finished = false;

  stream.on('data', (msg) => {
    switch (msg.body) {
      case 'match_start':
        console.error(`seat ${msg.match_start.seat} in match ${msg.match_start.match_id}`);
        break;
      case 'decision': {
        const d = msg.decision;
        const text = choose(d.observation || {}, d.legal_texts);
        stream.write({ reply: { seq: d.seq, text } });
        break;
      }
      case 'match_end':
        finished = true;
        console.error(`match over: totals ${msg.match_end.totals.join(' ')}`);
        stream.end();
        break;
      case 'refused':
        console.error(`refused by the referee: ${msg.refused}`);
        process.exitCode = 1;
        stream.end();
        break;
      default:
        break; // events and deal results: information only
    }
  });
  stream.on('error', (err) => {
    // The referee closing the stream after match end is not an error for us.
    if (finished) return;
    console.error(`stream error: ${err.message}`);
    client.close();
    process.exit(1); // at once: nothing more will come
  });
  stream.on('end', () => {
    client.close();
    // 0 only for a match played to its end (refused: exitCode is already 1).
    if (!finished && !process.exitCode) {
      console.error('the stream ended before the match did');
      process.exitCode = 1;
    }
    process.exit();
  });
  stream.write({
    hello: { token, bot_name: 'javascript', bot_version: '1.0.0', protocol_version: 2 },
  });
}

if (require.main === module) {
  main();
}

module.exports = { choose };
