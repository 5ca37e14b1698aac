import { Card } from '../../../components/Card';
import { ChangePasswordForm } from '../../../components/ChangePasswordForm';
import { PageHeader } from '../../../components/PageHeader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useChangeAdminPasswordMutation } from '../admin-api';

export function ChangePasswordPage() {
  useDocumentTitle('Password');
  const [changePassword, { isLoading }] = useChangeAdminPasswordMutation();

  return (
    <>
      <PageHeader
        title="Password"
        description="Change the password you sign in to the admin console with. Your other sessions are signed out."
      />
      <Card className="max-w-xl p-5 sm:p-8">
        <ChangePasswordForm changePassword={changePassword} isLoading={isLoading} />
      </Card>
    </>
  );
}
