import type { App } from '@afrofx/shared';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { saveCurrentApp } from './current-app';
import { paths } from '../../lib/paths';

/** SPEC §2: a picked app becomes the current app at once; its dashboard opens after a 1-second pause. */
export const OPEN_APP_DELAY_MS = 1000;

export function useOpenApp() {
  const navigate = useNavigate();
  const [openingAppId, setOpeningAppId] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const openApp = (app: App) => {
    saveCurrentApp(app);
    setOpeningAppId(app._id);
    timer.current = window.setTimeout(() => navigate(paths.developer.home), OPEN_APP_DELAY_MS);
  };

  return { openingAppId, openApp };
}
