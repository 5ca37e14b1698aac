// The password strength meter (zxcvbn), kept apart so that it can run on a thread of its own (passwords.ts): one
// check takes tens of milliseconds and building its dictionaries half a second, which on the API's thread stalled
// every paying customer's call behind a flood of sign-ups. Plain CommonJS, so the thread loads it as it is, from
// the source tree as from the build.
const { ZxcvbnFactory } = require('@zxcvbn-ts/core');
const zxcvbnCommon = require('@zxcvbn-ts/language-common');
const zxcvbnEnglish = require('@zxcvbn-ts/language-en');

// On its own thread (passwords.ts), the meter gives way to the thread that answers the API at the nice value it is
// started with (workerData.nice): Linux keeps one per thread, and /proc/thread-self names this one. Elsewhere (the tests check on the calling thread) nothing changes.
const { isMainThread, workerData } = require('node:worker_threads');
if (!isMainThread) {
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    require('node:os').setPriority(tid, workerData.nice);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

let meter;

/** zxcvbn's score (0 to 4) of `password`, whose `personal` words (e-mail, names) make it guessable too. */
module.exports = function passwordScore({ password, personal }) {
  meter ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEnglish.translations,
    // The estimate grows slow with length; past 64 characters a password is long enough anyway.
    maxLength: 64,
  });
  return meter.check(password, personal).score;
};
