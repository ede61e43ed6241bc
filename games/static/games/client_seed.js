// A browser's part of the deal (games/fairness.py): a random client seed sent with every claim,
// so the shuffle comes from the server's committed seed and the players' seeds together.
// 16 bytes from the browser's own cryptographic generator, as 32 hex digits.

const BYTES = 16;

export function clientSeed() {
  const bytes = new Uint8Array(BYTES);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A claim's body with the seed added (the server keeps it until the game starts). */
export function withClientSeed(body) {
  return { ...body, client_seed: clientSeed() };
}
