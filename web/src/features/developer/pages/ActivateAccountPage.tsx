import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../api/error-message';
import { AuthScreen } from '../../../components/AuthScreen';
import { buttonClasses } from '../../../components/Button';
import { Notice } from '../../../components/Notice';
import { Spinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useActivateAccountQuery } from '../developer-api';
import { paths } from '../../../lib/paths';

/** SPEC §2 and §8: activates the account from the e-mailed link on arrival and shows the server's answer. */
export function ActivateAccountPage() {
  useDocumentTitle('Activate your account');
  const { accountId = '' } = useParams();
  const { data, error, isSuccess, isError } = useActivateAccountQuery(accountId);

  if (isSuccess) {
    return (
      <AuthScreen title="Account activated">
        <Notice tone="success" role="status" className="mt-6">
          {data.message}
        </Notice>
        <Link to={paths.developer.signin} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          Sign in
        </Link>
      </AuthScreen>
    );
  }

  if (isError) {
    return (
      <AuthScreen title="We couldn’t activate your account">
        <Notice tone="error" role="alert" className="mt-6">
          {errorMessage(error)}
        </Notice>
        <Link to={paths.developer.signin} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          Go to sign in
        </Link>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen title="Activating your account…">
      <div className="mt-8 flex justify-center">
        <Spinner label="Activating your account" className="text-brand-600 [&_svg]:size-8" />
      </div>
    </AuthScreen>
  );
}
