import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../api/error-message';
import { buttonClasses } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { LinkResult } from '../components/LinkResult';
import { useConfirmSubscriptionMutation } from '../public-api';

/** SPEC §2: confirms a mailing-list subscription on arrival and shows the server's answer. */
export function ConfirmationPage() {
  useDocumentTitle('Confirm your subscription');
  const { id = '' } = useParams();
  const [confirm, { data, error, isSuccess, isError }] = useConfirmSubscriptionMutation();
  const requested = useRef<string | null>(null);

  useEffect(() => {
    // Once per link, even when React runs effects twice in development.
    if (requested.current === id) return;
    requested.current = id;
    void confirm(id);
  }, [confirm, id]);

  return (
    <div className="mx-auto flex max-w-6xl justify-center px-4 py-20 sm:px-6">
      <Card className="w-full max-w-md p-8 text-center">
        {isSuccess ? (
          <LinkResult ok title="You’re on the list" message={data.message} />
        ) : isError ? (
          <LinkResult ok={false} title="We couldn’t confirm this link" message={errorMessage(error)} />
        ) : (
          <>
            <Spinner label="Confirming your subscription" className="text-brand-600" />
            <h1 className="mt-4 text-xl font-bold text-slate-900">Confirming your subscription…</h1>
          </>
        )}
        <Link to="/" className={buttonClasses('primary', 'md', 'mt-8')}>
          See today’s rates
        </Link>
      </Card>
    </div>
  );
}
