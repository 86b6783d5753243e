// A dice bot (Mensch ärgere Dich nicht, free variant) for botbox in AssemblyScript. Build: npm install
// && npm run build (writes build/bot.wasm). Check it: botbox check dice . (botbox builds the directory).
// You are asked only when the roll leaves a choice. obs: face, steps, die, opponentDie, mine, theirs,
// theirsOnMyTrack, legal (each {from, to, captures}). Answer a Move: one of obs.legal, or new Move(from, to).
// The SDK's types are in dice.ts; docs/bots/assemblyscript.md has the whole API.
import { Move, Observation } from "./dice";

export function chooseMove(obs: Observation): Move {
  // Capture when you can, else move the piece furthest ahead.
  for (let i = 0; i < obs.legal.length; i++) {
    if (obs.legal[i].captures) return obs.legal[i];
  }
  let best = obs.legal[0];
  for (let i = 0; i < obs.legal.length; i++) {
    if (obs.legal[i].from > best.from) best = obs.legal[i];
  }
  return best;
}
