import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Select } from './Select';

describe('Select', () => {
  it('starts on a disabled placeholder option that reads as its label', () => {
    render(<Select label="Market" options={['bank']} />);
    const select = screen.getByRole('combobox', { name: 'Market' });
    const placeholder = within(select).getByRole('option', { name: 'Market' });
    expect(placeholder).toBeDisabled();
    expect(placeholder).toHaveValue('');
    expect(select).toHaveValue('');
  });

  it("reads 'Select' as the placeholder when it has no label", () => {
    render(<Select aria-label="Choice" options={['a', 'b']} />);
    expect(screen.getByRole('option', { name: 'Select' })).toBeDisabled();
  });

  it('takes plain strings as options', () => {
    render(<Select label="Letter" options={['a', 'b']} />);
    expect(screen.getByRole('option', { name: 'a' })).toHaveValue('a');
    expect(screen.getByRole('option', { name: 'b' })).toHaveValue('b');
  });

  it('takes name/value pairs as options', async () => {
    const onChange = jest.fn();
    render(
      <Select
        label="Base"
        options={[
          { name: 'Naira', value: 'naira' },
          { name: 'Rand', value: 'rand' },
        ]}
        onChange={(event) => onChange(event.target.value)}
      />,
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Base' }), 'Rand');
    expect(onChange).toHaveBeenCalledWith('rand');
  });
});
