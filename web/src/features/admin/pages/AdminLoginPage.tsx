import { useNavigate } from 'react-router';
import { AuthScreen } from '../../../components/AuthScreen';
import { CredentialsForm, type Credentials } from '../../../components/CredentialsForm';
import { saveAdminSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuthenticateMutation } from '../admin-api';
import { paths } from '../../../lib/paths';

export function AdminLoginPage() {
  useDocumentTitle('Admin sign in');
  const navigate = useNavigate();
  const [authenticate, { isLoading }] = useAuthenticateMutation();

  const signIn = async (credentials: Credentials) => {
    const result = await authenticate(credentials);
    if (!result.data) return;
    const { user } = result.data.data;
    saveAdminSession({ userData: { email: user.email } });
    navigate(paths.admin.emails, { replace: true });
  };

  return (
    <AuthScreen title="Admin sign in" description="Manage rates, the mailing list and API customers.">
      <CredentialsForm onSubmit={signIn} isLoading={isLoading} />
    </AuthScreen>
  );
}
