/** Shared look of text inputs and selects. */
export const fieldClasses =
  'block w-full rounded-lg border-0 bg-white px-3 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:ring-red-500';

export const labelClasses = 'mb-1.5 block text-sm font-medium text-slate-700';

export const errorClasses = 'mt-1.5 text-sm text-red-600';
