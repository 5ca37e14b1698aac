import { copyText } from './clipboard';

describe('copyText (SPEC §8)', () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    warn.mockRestore();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
  });

  const useClipboard = (writeText: (text: string) => Promise<void>) =>
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });

  it('copies and answers true', async () => {
    const writeText = jest.fn(() => Promise.resolve());
    useClipboard(writeText);
    await expect(copyText('sk_live_123')).resolves.toBe(true);
    expect(writeText).toHaveBeenCalledWith('sk_live_123');
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns and answers false without a clipboard', async () => {
    await expect(copyText('sk_live_123')).resolves.toBe(false);
    expect(warn).toHaveBeenCalled();
  });

  it('warns and answers false when the copy fails', async () => {
    useClipboard(() => Promise.reject(new Error('denied')));
    await expect(copyText('sk_live_123')).resolves.toBe(false);
    expect(warn).toHaveBeenCalled();
  });
});
