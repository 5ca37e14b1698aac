import type { DeskBoard } from '@afrofx/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { showToast } from '../../../lib/toast';
import { useUpdateDeskSettingsMutation } from '../admin-api';

type Settings = DeskBoard['settings'];

const FIELDS: Array<{ key: keyof Settings; label: string }> = [
  { key: 'deskMovePercent', label: 'Flag a move from the last figure above (%)' },
  { key: 'deskOfficialDistancePercent', label: 'Flag a distance from the official figure above (%)' },
  { key: 'officialSpreadPercent', label: '“Use official” spread around a mid (%)' },
];

/** The desk's three settings; the server checks the values and names a bad one. */
export function DeskSettingsForm({ settings }: { settings: Settings }) {
  const [values, setValues] = useState(() =>
    Object.fromEntries(FIELDS.map(({ key }) => [key, String(settings[key])])),
  );
  const [save, saveState] = useUpdateDeskSettingsMutation();
  return (
    <form
      className="grid gap-4 p-4 sm:grid-cols-4 sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        const patch = Object.fromEntries(FIELDS.map(({ key }) => [key, Number(values[key])]));
        void save(patch).then((result) => {
          if (result.data) showToast('Desk settings saved.', 'success');
        });
      }}
    >
      {FIELDS.map(({ key, label }) => (
        <Input
          key={key}
          label={label}
          inputMode="decimal"
          value={values[key]}
          onChange={(event) => setValues((v) => ({ ...v, [key]: event.target.value }))}
        />
      ))}
      <Button type="submit" variant="secondary" isLoading={saveState.isLoading}>
        Save settings
      </Button>
    </form>
  );
}
