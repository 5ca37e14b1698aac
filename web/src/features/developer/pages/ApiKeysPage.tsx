import { formatDateTime, type ApiKey } from '@afrofx/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { CodeWindow } from '../../../components/CodeWindow';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataView } from '../../../components/DataView';
import { PageHeader } from '../../../components/PageHeader';
import { copyWithToast } from '../../../lib/clipboard';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { KeyField } from '../components/KeyField';
import { SecretShownOnce } from '../components/SecretShownOnce';
import type { CurrentApp } from '../current-app';
import { requestSample } from '../request-sample';
import { useFetchApiKeyQuery, useGenerateApiKeyMutation } from '../developer-api';

const copy = (text: string) => copyWithToast(text, 'key');

export function ApiKeysPage({ app }: { app: CurrentApp }) {
  useDocumentTitle('API keys');
  const { data: key, isLoading, isError, refetch } = useFetchApiKeyQuery(app._id);
  const [generateKey, { isLoading: isGenerating }] = useGenerateApiKeyMutation();
  // The whole private key lives only here, in memory, until the developer dismisses it or leaves.
  const [fresh, setFresh] = useState<{ key: ApiKey; message: string } | null>(null);
  const [confirmingRotation, setConfirmingRotation] = useState(false);

  const generate = async () => {
    setConfirmingRotation(false);
    showToast('Generating API key.', 'success');
    const result = await generateKey(app._id);
    if (result.data) setFresh({ key: result.data.data, message: result.data.message });
  };

  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            The key pair of <span className="font-semibold text-slate-900">{app.name}</span>. The public key
            names the app in logs; the private key authenticates its requests.
          </>
        }
        actions={
          key && (
            <Button variant="secondary" onClick={() => setConfirmingRotation(true)} isLoading={isGenerating}>
              Rotate keys
            </Button>
          )
        }
      />

      {fresh && (
        <SecretShownOnce
          title="Copy your private key now"
          message={fresh.message}
          label="Private key"
          secret={fresh.key.private_key}
          hint="Keep it in a secret store or an environment variable, never in client-side code. Anyone holding it spends your quota."
          onDone={() => setFresh(null)}
        />
      )}

      <Card className="p-5 sm:p-6">
        <DataView
          isLoading={isLoading}
          isError={isError}
          isEmpty={!key}
          emptyMessage="No API key has been generated for this app yet."
          emptyDescription="Generate a key pair to start calling the API from this app."
          emptyAction={
            <Button onClick={() => void generate()} isLoading={isGenerating}>
              Generate API key
            </Button>
          }
          loadingLabel="Loading the API key"
          onRetry={refetch}
        >
          {key && (
            <div className="space-y-6">
              <KeyField label="Public key" value={key.public_key} onCopy={() => void copy(key.public_key)} />
              <KeyField
                label="Private key"
                value={key.private_key}
                hint="Shown whole only once, when it was generated. Lost it? Rotate the keys to get a new pair."
              />
              <p className="border-t border-slate-100 pt-4 text-sm text-slate-500">
                Generated <span className="text-slate-700 tabular-nums">{formatDateTime(key.createdAt)}</span>
              </p>
            </div>
          )}
        </DataView>
      </Card>

      <Card className="mt-6 p-5 sm:p-6">
        <h2 className="font-semibold text-slate-900">Use the key</h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          Send the private key in the <code className="font-mono text-slate-800">Authorization</code> header
          of every request.
        </p>
        <CodeWindow title="Terminal">{requestSample(window.location.origin)}</CodeWindow>
      </Card>

      <ConfirmDialog
        open={confirmingRotation}
        title="Rotate the API keys?"
        message="A new key pair replaces the current one. The old private key stops working immediately, so update every service that uses it."
        confirmLabel="Rotate keys"
        tone="danger"
        isLoading={isGenerating}
        onConfirm={() => void generate()}
        onCancel={() => setConfirmingRotation(false)}
      />
    </>
  );
}
