/** A chosen item in a list of them, with a button that removes it (render inside a `<ul>`). */
export function Chip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <li className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pr-1 pl-3 text-xs font-semibold text-slate-700 ring-1 ring-slate-200 ring-inset">
      {label}
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove ${label}`}
        className="flex size-6 items-center justify-center rounded-full text-slate-500 hover:bg-slate-200 hover:text-slate-800"
      >
        ×
      </button>
    </li>
  );
}
