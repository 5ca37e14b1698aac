import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEnglish from '@zxcvbn-ts/language-en';
import argon2 from 'argon2';
import { badRequest } from './errors';

export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

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
