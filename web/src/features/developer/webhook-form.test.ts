import {
  emptyThresholdDraft,
  emptyWebhookForm,
  thresholdFromDraft,
  webhookFormErrors,
  webhookInput,
} from './webhook-form';

describe('the webhook form', () => {
  it('asks for an http(s) URL and at least one event', () => {
    expect(webhookFormErrors({ ...emptyWebhookForm, events: [] })).toEqual({
      url: 'Endpoint URL is required.',
      events: 'Choose at least one event.',
    });
    expect(webhookFormErrors({ ...emptyWebhookForm, url: 'example.com/hook' }).url).toBe(
      'Enter an http:// or https:// URL.',
    );
    expect(webhookFormErrors({ ...emptyWebhookForm, url: ' https://example.com/hook ' })).toEqual({});
  });

  it('needs a threshold for rate.threshold', () => {
    const state = { ...emptyWebhookForm, url: 'https://example.com', events: ['rate.threshold' as const] };
    expect(webhookFormErrors(state).thresholds).toBe('Add at least one threshold for rate.threshold.');
  });

  it('makes a threshold from a complete row with a positive level, once', () => {
    const row = { market: 'bank', base: 'naira', asset: 'dollar', side: 'sell', level: '1600.5' } as const;
    expect(thresholdFromDraft(emptyThresholdDraft, [])).toBe('Choose the market, pair and side.');
    expect(thresholdFromDraft({ ...row, level: '-3' }, [])).toBe('The level must be a number above 0.');
    expect(thresholdFromDraft({ ...row, level: 'abc' }, [])).toBe('The level must be a number above 0.');
    const threshold = thresholdFromDraft(row, []);
    expect(threshold).toEqual({
      market: 'bank',
      base: 'naira',
      asset: 'dollar',
      side: 'sell',
      level: 1600.5,
    });
    expect(thresholdFromDraft(row, [threshold as Exclude<typeof threshold, string>])).toBe(
      'That threshold is there already.',
    );
  });

  it('sends filters and thresholds only with the events that use them', () => {
    const threshold = { market: 'bank', base: 'naira', asset: 'dollar', side: 'buy', level: 1500 } as const;
    expect(
      webhookInput({
        url: ' https://example.com/hook ',
        events: ['rate.threshold'],
        markets: ['bank'],
        pairs: [{ base: 'rand', asset: 'euro' }],
        thresholds: [threshold],
      }),
    ).toEqual({ url: 'https://example.com/hook', events: ['rate.threshold'], thresholds: [threshold] });
    expect(
      webhookInput({
        ...emptyWebhookForm,
        url: 'https://example.com',
        markets: ['bank'],
        thresholds: [threshold],
      }),
    ).toEqual({ url: 'https://example.com', events: ['rate.updated'], markets: ['bank'] });
  });
});
