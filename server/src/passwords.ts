import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEnglish from '@zxcvbn-ts/language-en';
import argon2 from 'argon2';
import { badRequest } from './errors';

/**
 * argon2id at the library's defaults (64 MiB, 3 passes, 4 lanes: above OWASP's minimum). Under jest the hash stays
 * argon2id with a small memory cost: the suites sign up and sign in hundreds of times, and at full cost that was
 * minutes of CI on two cores. verifyPassword reads the cost from the hash itself, so either kind verifies.
 */
const HASH_OPTIONS: argon2.HashOptions = process.env.JEST_WORKER_ID
  ? { type: argon2.argon2id, memoryCost: 4096, timeCost: 2, parallelism: 1 }
  : { type: argon2.argon2id };

export const hashPassword = (password: string) => argon2.hash(password, HASH_OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

// Verifying against this when the account does not exist keeps unknown e-mails as slow as wrong passwords.
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = () => (decoyHash ??= hashPassword('afrofx-decoy-password'));

export const WEAK_PASSWORD =
  'This password is too easy to guess: choose a longer one, such as three or four unrelated words.';

let strengthMeter: ZxcvbnFactory | undefined;
const meter = () =>
  (strengthMeter ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEnglish.translations,
    // The estimate grows slow with length; past 64 characters a password is long enough anyway.
    maxLength: 64,
  }));

/**
 * OWASP ASVS 2.1.7: refuse passwords found in breach lists or easily guessed, measured with zxcvbn (score 3 of 4:
 * "safely unguessable" against online attacks). The schema has already checked the length. `personal` holds the
 * account's own words (e-mail, names), which make a password guessable too.
 */
export function assertStrongPassword(password: string, personal: string[]): void {
  if (meter().check(password, personal).score < 3) throw badRequest(WEAK_PASSWORD);
}
