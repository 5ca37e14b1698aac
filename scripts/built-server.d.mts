export const root: string;
export function startBuiltServer(): Promise<{ baseUrl: string; dataDir: string; stop: () => Promise<void> }>;
