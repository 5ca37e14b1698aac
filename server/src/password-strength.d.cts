/** zxcvbn's score (0 to 4) of `password`, whose `personal` words (e-mail, names) make it guessable too. */
declare function passwordScore(task: { password: string; personal: string[] }): number;
export = passwordScore;
