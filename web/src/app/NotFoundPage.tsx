import { Link } from 'react-router';
import { buttonClasses } from '../components/Button';
import { useDocumentTitle } from '../lib/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="mx-auto flex max-w-6xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <p className="text-7xl font-extrabold tracking-tight text-brand-900">
        4<span className="text-gold-400">0</span>4
      </p>
      <h1 className="mt-6 text-2xl font-bold text-slate-900">This page does not exist.</h1>
      <p className="mt-3 max-w-md text-slate-600">
        The link may be broken, or the page may have moved. Today’s rates are one click away.
      </p>
      <Link to="/" className={buttonClasses('primary', 'lg', 'mt-8')}>
        Go to the home page
      </Link>
    </div>
  );
}
