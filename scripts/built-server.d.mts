export const root: string;
export function startBuiltServer(): Promise<{ baseUrl: string; dataDir: string; stop: () => Promise<void> }>;

/** The central banks' addresses for a server started here: a closed local port, so a run sends nothing outside. */
export const OFFLINE_OFFICIAL_SOURCES: Record<string, string>;
