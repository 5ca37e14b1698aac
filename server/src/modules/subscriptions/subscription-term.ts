// DESIGN §4: a plan bought gives 12 months, counted in calendar months from its start.

export const TERM_MONTHS = 12;
