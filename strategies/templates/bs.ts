// A BS (Cheat) bot for botbox in AssemblyScript. Build: npm install && npm run build (writes
// build/bot.wasm). Check it: botbox check bs . (botbox builds the directory itself).
// play(obs): obs.rank is the rank you must claim, obs.hand your card ids (rank = id / 4).
//   Answer a list of 1 to 4 card ids from your hand.
// call(obs): someone played obs.count cards claiming obs.rank. Answer true to call "BS".
// observe(event) (optional): every public event, for counting cards.
// The SDK's types are in bs.ts; docs/bots/assemblyscript.md has the whole API.
import { CallObservation, PlayObservation, rank } from "./bs";

const cards = new Array<u32>(4); // the answer, reused every turn

export function play(obs: PlayObservation): Array<u32> {
  cards.length = 0;
  for (let i = 0; i < obs.hand.length; i++) {
    const id = obs.hand[i];
    if (rank(id) == obs.rank && cards.length < 4) cards.push(id);
  }
  if (cards.length == 0) cards.push(obs.hand[0]); // a lie: one card
  return cards;
}

export function call(obs: CallObservation): bool {
  return obs.count >= 3;
}
