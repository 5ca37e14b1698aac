import { hash, randomBytes } from 'node:crypto';

// DESIGN §5: the private key is shown once and stored only as a hash; the public key names the app in logs.
export function generateKeyPair() {
  const publicKey = `pk_${randomBytes(16).toString('hex')}`;
  const privateKey = `sk_${randomBytes(24).toString('base64url')}`;
  return {
    publicKey,
    privateKey,
    privateKeyHash: hashPrivateKey(privateKey),
    privateKeyLast4: privateKey.slice(-4),
  };
}

/** One-shot: every paid call hashes its key, and a Hash object per call cost more than the digest. */
export function hashPrivateKey(privateKey: string): string {
  return hash('sha256', privateKey, 'hex');
}
