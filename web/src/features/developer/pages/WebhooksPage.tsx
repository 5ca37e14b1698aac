import type { CreateWebhookInput, WebhookEndpoint, WebhookEndpointWithSecret } from '@afrofx/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { CodeWindow } from '../../../components/CodeWindow';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataView } from '../../../components/DataView';
import { ExternalLink } from '../../../components/ExternalLink';
import { Modal } from '../../../components/Modal';
import { PageHeader } from '../../../components/PageHeader';
import { API_DOCS_URL } from '../../../lib/links';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { SecretShownOnce } from '../components/SecretShownOnce';
import { WebhookDeliveryLog } from '../components/WebhookDeliveryLog';
import { WebhookEndpointCard } from '../components/WebhookEndpointCard';
import { WebhookForm } from '../components/WebhookForm';
import type { CurrentApp } from '../current-app';
import {
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useFetchWebhooksQuery,
  useResumeWebhookMutation,
  useRotateWebhookSecretMutation,
  useSendWebhookTestMutation,
} from '../developer-api';

const VERIFY_SAMPLE = `// AfroFX-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">
const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=')));
const expected = createHmac('sha256', secret).update(\`\${parts.t}.\${rawBody}\`).digest('hex');
const valid = timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(parts.v1, 'hex'));`;

type Pending = { kind: 'rotate' | 'delete'; endpoint: WebhookEndpoint } | null;

export function WebhooksPage({ app }: { app: CurrentApp }) {
  useDocumentTitle('Webhooks');
  const { data: endpoints, isLoading, isError, refetch } = useFetchWebhooksQuery(app._id);
  const [createWebhook, { isLoading: isCreating }] = useCreateWebhookMutation();
  const [rotateSecret, { isLoading: isRotating }] = useRotateWebhookSecretMutation();
  const [deleteWebhook, { isLoading: isDeleting }] = useDeleteWebhookMutation();
  const [sendTest, { isLoading: isSendingTest, originalArgs: testArgs }] = useSendWebhookTestMutation();
  const [resumeWebhook, { isLoading: isResuming, originalArgs: resumeArgs }] = useResumeWebhookMutation();
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  // A secret lives only here, in memory, until the developer dismisses it or leaves.
  const [fresh, setFresh] = useState<{ endpoint: WebhookEndpointWithSecret; message: string } | null>(null);

  const create = async (input: CreateWebhookInput) => {
    const result = await createWebhook({ appId: app._id, ...input });
    if (!result.data) return false;
    setFresh({ endpoint: result.data.data, message: result.data.message });
    setCreating(false);
    return true;
  };

  const confirm = async () => {
    if (!pending) return;
    const ref = { appId: app._id, endpointId: pending.endpoint._id };
    if (pending.kind === 'rotate') {
      const result = await rotateSecret(ref);
      if (result.data) setFresh({ endpoint: result.data.data, message: result.data.message });
    } else {
      const result = await deleteWebhook(ref);
      if (result.data) {
        showToast(result.data.message, 'success');
        if (logOf === ref.endpointId) setLogOf(null);
        if (fresh?.endpoint._id === ref.endpointId) setFresh(null);
      }
    }
    setPending(null);
  };

  const test = async (endpoint: WebhookEndpoint) => {
    const result = await sendTest({ appId: app._id, endpointId: endpoint._id });
    if (!result.data) return;
    showToast(result.data.message, 'success');
    setLogOf(endpoint._id);
  };

  const resume = async (endpoint: WebhookEndpoint) => {
    const result = await resumeWebhook({ appId: app._id, endpointId: endpoint._id });
    if (result.data) showToast(result.data.message, 'success');
  };

  const addButton = <Button onClick={() => setCreating(true)}>Add endpoint</Button>;
  const logEndpoint = endpoints?.find((e) => e._id === logOf);

  return (
    <>
      <PageHeader
        title="Webhooks"
        description={
          <>
            Endpoints that <span className="font-semibold text-slate-900">{app.name}</span> is told about new
            rates and crossed levels at, instead of polling.
          </>
        }
        actions={endpoints && endpoints.length > 0 && addButton}
      />

      {fresh && (
        <SecretShownOnce
          title="Copy the signing secret now"
          message={fresh.message}
          detail={
            <>
              For <span className="font-mono">{fresh.endpoint.url}</span>
            </>
          }
          label="Signing secret"
          secret={fresh.endpoint.secret}
          hint="Keep it on your server only. Use it to check the AfroFX-Signature header of every delivery."
          onDone={() => setFresh(null)}
        />
      )}

      <DataView
        isLoading={isLoading}
        isError={isError}
        isEmpty={!endpoints?.length}
        emptyMessage="No webhook endpoints yet."
        emptyDescription="Add an endpoint to be told when a rate is entered or crosses a level. Webhooks need an active plan."
        emptyAction={addButton}
        loadingLabel="Loading the webhook endpoints"
        onRetry={refetch}
      >
        <div className="space-y-4">
          {endpoints?.map((endpoint) => (
            <WebhookEndpointCard
              key={endpoint._id}
              endpoint={endpoint}
              logShown={logOf === endpoint._id}
              isSendingTest={isSendingTest && testArgs?.endpointId === endpoint._id}
              isResuming={isResuming && resumeArgs?.endpointId === endpoint._id}
              onSendTest={() => void test(endpoint)}
              onResume={() => void resume(endpoint)}
              onToggleLog={() => setLogOf(logOf === endpoint._id ? null : endpoint._id)}
              onRotate={() => setPending({ kind: 'rotate', endpoint })}
              onDelete={() => setPending({ kind: 'delete', endpoint })}
            />
          ))}
        </div>
      </DataView>

      {logEndpoint && (
        <Card className="mt-6 overflow-hidden">
          <div className="border-b border-slate-100 px-5 py-4 sm:px-6">
            <h2 className="font-semibold text-slate-900">Delivery log</h2>
            <p className="mt-0.5 font-mono text-xs break-all text-slate-500">{logEndpoint.url}</p>
          </div>
          <WebhookDeliveryLog
            endpoint={{ appId: app._id, endpointId: logEndpoint._id }}
            parked={logEndpoint.state === 'parked'}
          />
        </Card>
      )}

      <Card className="mt-6 p-5 sm:p-6">
        <h2 className="font-semibold text-slate-900">Check the signature</h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          Every delivery is signed with the endpoint’s secret. Check it on the raw body before you trust it;
          retries carry the same <code className="font-mono text-slate-800">AfroFX-Delivery</code> id. Full
          examples in JavaScript and Python are in the{' '}
          <ExternalLink href={API_DOCS_URL} className="font-semibold text-brand-700 underline">
            API documentation
          </ExternalLink>
          .
        </p>
        <CodeWindow title="Node.js">{VERIFY_SAMPLE}</CodeWindow>
      </Card>

      <Modal
        open={creating}
        title="Add a webhook endpoint"
        description="AfroFX POSTs signed JSON to this URL. It must be reachable from the internet."
        onClose={() => setCreating(false)}
      >
        <WebhookForm isSaving={isCreating} onSubmit={create} onCancel={() => setCreating(false)} />
      </Modal>

      <ConfirmDialog
        open={pending?.kind === 'rotate'}
        title="Rotate the signing secret?"
        message="A new secret signs every delivery from now on. The current one keeps signing them too for 24 hours (a second v1 signature), so update your receiver within a day."
        confirmLabel="Rotate secret"
        tone="danger"
        isLoading={isRotating}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      />
      <ConfirmDialog
        open={pending?.kind === 'delete'}
        title="Delete this endpoint?"
        message={
          <>
            <span className="font-mono break-all">{pending?.endpoint.url}</span> will get no more deliveries,
            and its delivery log is deleted with it.
          </>
        }
        confirmLabel="Delete endpoint"
        tone="danger"
        isLoading={isDeleting}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      />
    </>
  );
}
