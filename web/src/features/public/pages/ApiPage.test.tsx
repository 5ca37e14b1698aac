import { Quote } from '@afrofx/shared';
import { screen } from '@testing-library/react';
import { renderAt } from '../../../test/developer';
import { ApiPage } from './ApiPage';

describe('the API page example', () => {
  it('prints a curl command with the site’s own address, which curl can run as printed', () => {
    renderAt('/api', '/api', <ApiPage />);
    expect(screen.getByText(/^curl /)).toHaveTextContent(
      `curl "${window.location.origin}/v1/rates?market=bank`,
    );
  });

  it('shows an answer of the shape GET /v1/rates sends today', () => {
    renderAt('/api', '/api', <ApiPage />);
    const sample = JSON.parse(screen.getByText(/"data"/).textContent ?? '') as {
      data: object[];
      message: string;
    };
    expect(Object.keys(sample)).toEqual(['data', 'message']);
    expect(Object.keys(sample.data[0]!).sort()).toEqual(Object.keys(Quote.properties).sort());
  });
});
