import { useDispatch } from 'react-redux';
import type { AppStore } from './store';

/** STYLE: the typed Redux hooks, made once; features use these. */
export const useAppDispatch = useDispatch.withTypes<AppStore['dispatch']>();
