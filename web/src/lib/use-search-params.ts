import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';

type SearchParamsInit = URLSearchParams | Record<string, string>;

/**
 * The address's query string, and a way to replace it: the part of React Router's `useSearchParams` that the pages
 * use. React Router's hook lives in the module that `/` loads, so every visitor paid for it (issue 11, point 2); this
 * one loads with the pages that use it.
 */
export function useSearchParams(): [
  URLSearchParams,
  (
    next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
    options?: { replace?: boolean },
  ) => void,
] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = (
    next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
    options?: { replace?: boolean },
  ) => {
    const init = typeof next === 'function' ? next(params) : next;
    navigate({ search: `?${new URLSearchParams(init).toString()}` }, options);
  };
  return [params, setParams];
}
