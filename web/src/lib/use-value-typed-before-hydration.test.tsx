import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Input } from '../components/Input';
import { Select } from '../components/Select';

/** A calculator in small: an amount and a currency, and the sentence the page answers with. */
function Converter({ options = ['USD', 'GBP'] }: { options?: string[] }) {
  const [amount, setAmount] = useState('100');
  const [currency, setCurrency] = useState('USD');
  return (
    <form>
      <Input label="Amount" value={amount} onChange={(event) => setAmount(event.target.value)} />
      <Select
        label="Currency"
        options={options}
        value={currency}
        onChange={(event) => setCurrency(event.target.value)}
      />
      <output>
        {amount} {currency}
      </output>
    </form>
  );
}

/** The server's markup of the converter, in the page. */
function serverDrawn(): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Converter />);
  document.body.append(container);
  return container;
}

describe('a field changed before the app takes the server-drawn page over', () => {
  let hydrated: Root | undefined;
  afterEach(() => {
    act(() => hydrated?.unmount());
    hydrated = undefined;
    document.body.replaceChildren();
  });

  it('keeps what the visitor typed and chose, and the page answers for it', async () => {
    const container = serverDrawn();
    // The visitor types and picks while the app's code is still on its way.
    container.querySelector('input')!.value = '250';
    container.querySelector('select')!.value = 'GBP';

    await act(async () => {
      hydrated = hydrateRoot(container, <Converter />);
    });

    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveValue('250');
    expect(screen.getByRole('combobox', { name: 'Currency' })).toHaveValue('GBP');
    expect(container.querySelector('output')).toHaveTextContent('250 GBP');
  });

  it('changes nothing on a page the server drew and nobody touched', async () => {
    const container = serverDrawn();

    await act(async () => {
      hydrated = hydrateRoot(container, <Converter />);
    });

    expect(container.querySelector('output')).toHaveTextContent('100 USD');
  });

  it('leaves the state of a page the app drew itself, even where the screen shows something else', () => {
    // A select whose options have not arrived shows nothing selected; its chosen value is not thrown away.
    render(<Converter options={[]} />);
    expect((screen.getByRole('combobox', { name: 'Currency' }) as HTMLSelectElement).value).toBe('');
    expect(document.querySelector('output')).toHaveTextContent('100 USD');
  });
});
