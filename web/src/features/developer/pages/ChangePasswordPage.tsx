import { Link } from 'react-router';
import { buttonClasses } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { ChangePasswordForm } from '../../../components/ChangePasswordForm';
import { PageHeader } from '../../../components/PageHeader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useChangePasswordMutation } from '../developer-api';
import { paths } from '../../../lib/paths';

export function ChangePasswordPage() {
  useDocumentTitle('Password');
  const [changePassword, { isLoading }] = useChangePasswordMutation();

  return (
    <>
      <PageHeader
        title="Password"
        description="Change the password you sign in to the developer portal with."
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,36rem)_minmax(0,20rem)]">
        <Card className="p-5 sm:p-8">
          <ChangePasswordForm changePassword={changePassword} isLoading={isLoading} />
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="font-semibold text-slate-900">Forgot the current one?</h2>
          <p className="mt-1 text-sm text-slate-600">
            We can e-mail you a link to choose a new password without it.
          </p>
          <Link
            to={paths.developer.requestPasswordReset}
            className={buttonClasses('secondary', 'sm', 'mt-4')}
          >
            Send me a reset link
          </Link>
        </Card>
      </div>
    </>
  );
}
