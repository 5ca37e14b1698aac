import { Card } from '../../../components/Card';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PageHeader } from '../../../components/PageHeader';

export type UpcomingSection = 'users' | 'api_wait_list' | 'apps';

// What each section will hold, from SPEC §2.
const sections: Record<UpcomingSection, { title: string; summary: string; details: readonly string[] }> = {
  users: {
    title: 'Users',
    summary: 'Admin accounts and API customers, with their status.',
    details: [
      'Email, status and created date',
      'Add an admin',
      'Enable or disable accounts',
      'Switch super customers',
    ],
  },
  api_wait_list: {
    title: 'API Customers',
    summary: 'The waiting list of people who asked for API access.',
    details: ['E-mail address', 'Date they joined the list'],
  },
  apps: {
    title: 'Apps',
    summary: 'Every app developers have created.',
    details: ['App name', 'Creator', 'Created at'],
  },
};

export function ComingSoonPage({ section }: { section: UpcomingSection }) {
  const { title, summary, details } = sections[section];
  useDocumentTitle(title);

  return (
    <>
      <PageHeader title={title} description={summary} />
      <Card className="flex flex-col items-center px-6 py-16 text-center">
        <span className="rounded-full bg-gold-50 px-3 py-1 text-xs font-semibold text-gold-700 ring-1 ring-gold-400/30 ring-inset">
          Coming soon
        </span>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">This section is not available yet</h2>
        <p className="mt-2 max-w-md text-sm text-slate-600">
          {title} is part of an upcoming release of the admin console. When it ships, it will show:
        </p>
        <ul className="mt-5 space-y-2 text-sm text-slate-700">
          {details.map((detail) => (
            <li key={detail} className="flex items-center justify-center gap-2">
              <span className="size-1.5 rounded-full bg-brand-500" aria-hidden="true" />
              {detail}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
