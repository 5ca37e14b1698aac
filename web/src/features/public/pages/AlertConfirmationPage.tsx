import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../api/error-message';
import { buttonClasses } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Spinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useConfirmAlertMutation } from '../alerts-api';
import { LinkResult } from '../components/LinkResult';

/** Confirms a rate alert on arrival (the link of its confirmation mail) and leads to the address's alerts. */
export function AlertConfirmationPage() {
  useDocumentTitle('Confirm your rate alert');
  const { token = '' } = useParams();
  const [confirm, { data, error, isSuccess, isError }] = useConfirmAlertMutation();
  const requested = useRef<string | null>(null);

  useEffect(() => {
    // Once per link, even when React runs effects twice in development.
    if (requested.current === token) return;
    requested.current = token;
    void confirm(token);
  }, [confirm, token]);

  return (
    <div className="mx-auto flex max-w-6xl justify-center px-4 py-20 sm:px-6">
      <Card className="w-full max-w-md p-8 text-center">
        {isSuccess ? (
          <LinkResult ok title="Your alert is on" message={data.message} />
        ) : isError ? (
          <LinkResult ok={false} title="We couldn’t confirm this link" message={errorMessage(error)} />
        ) : (
          <>
            <Spinner label="Confirming your alert" className="text-brand-600" />
            <h1 className="mt-4 text-xl font-bold text-slate-900">Confirming your alert…</h1>
          </>
        )}
        {isSuccess && (
          <Link
            to={`/alerts/manage/${data.data.manageToken}`}
            className={buttonClasses('primary', 'md', 'mt-8')}
          >
            Manage your alerts
          </Link>
        )}
      </Card>
    </div>
  );
}
