// Entry of web/static/vendor/noble-curves.js: the parts of @noble/curves the
// journal's browser verifier uses (drand quicknet BLS12-381 short signatures,
// strict Ed25519 verification where Web Crypto is missing).
export { bls12_381 } from '@noble/curves/bls12-381.js';
export { ed25519 } from '@noble/curves/ed25519.js';
export { sha256 } from '@noble/hashes/sha2.js';
export { sha512 } from '@noble/hashes/sha2.js';
