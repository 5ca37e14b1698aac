import { Card } from '../../../components/Card';
import { DataView } from '../../../components/DataView';
import { PageHeader } from '../../../components/PageHeader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AppList } from '../components/AppList';
import { CreateAppForm } from '../components/CreateAppForm';
import { useCurrentApp } from '../current-app';
import { useFetchAppsQuery } from '../developer-api';
import { useOpenApp } from '../use-open-app';

export function AppsPage() {
  useDocumentTitle('Your apps');
  const currentApp = useCurrentApp();
  const { data: apps, isLoading, isError, refetch } = useFetchAppsQuery();
  const { openingAppId, openApp } = useOpenApp();

  return (
    <>
      <PageHeader
        title="Your apps"
        description="Each app has its own API keys, plan and request log. Pick one to open its dashboard."
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card className="overflow-hidden">
          <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3 sm:px-5">
            <h2 className="text-sm font-semibold text-slate-900">Apps</h2>
            {apps && apps.length > 0 && (
              <span className="text-xs font-medium text-slate-500">
                {apps.length === 1 ? '1 app' : `${apps.length} apps`}
              </span>
            )}
          </div>
          <DataView
            isLoading={isLoading}
            isError={isError}
            isEmpty={!apps?.length}
            emptyMessage="No apps created."
            emptyDescription="Create your first app to get its API keys and start calling the API."
            loadingLabel="Loading your apps"
            onRetry={refetch}
          >
            <AppList
              apps={apps ?? []}
              currentAppId={currentApp?._id ?? null}
              openingAppId={openingAppId}
              onPick={openApp}
            />
          </DataView>
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="font-semibold text-slate-900">Create an app</h2>
          <p className="mt-1 mb-5 text-sm text-slate-600">
            Name it after the product that will call the API. You can create as many as you need.
          </p>
          <CreateAppForm />
        </Card>
      </div>
    </>
  );
}
