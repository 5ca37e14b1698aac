import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../api/error-message';
import { Button, buttonClasses } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { LinkResult } from '../components/LinkResult';
import { useUnsubscribeMutation } from '../public-api';

/**
 * The unsubscribe link of every rates mail. The address comes off with a press of the button, not on arrival: mail
 * scanners open links by themselves (RFC 8058 §3.2).
 */
export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe from daily rates');
  const { token = '' } = useParams();
  const [unsubscribe, { data, error, isSuccess, isError, isLoading }] = useUnsubscribeMutation();

  return (
    <div className="mx-auto flex max-w-6xl justify-center px-4 py-20 sm:px-6">
      <Card className="w-full max-w-md p-8 text-center">
        {isSuccess ? (
          <LinkResult ok title="You’re unsubscribed" message={data.message} />
        ) : isError ? (
          <LinkResult ok={false} title="We couldn’t unsubscribe this address" message={errorMessage(error)} />
        ) : (
          <>
            <h1 className="text-xl font-bold text-slate-900">Stop the daily rates e-mails?</h1>
            <p className="mt-2 text-slate-600">
              This address will get no more AfroFX rates e-mails. You can subscribe again at any time.
            </p>
            <Button className="mt-6" isLoading={isLoading} onClick={() => void unsubscribe(token)}>
              Unsubscribe
            </Button>
          </>
        )}
        <Link
          to="/"
          className={
            isSuccess || isError
              ? buttonClasses('primary', 'md', 'mt-8')
              : buttonClasses('secondary', 'md', 'mt-6 ml-2')
          }
        >
          See today’s rates
        </Link>
      </Card>
    </div>
  );
}
