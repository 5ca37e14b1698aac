import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSupportEmail } from '../../../api/site-api';
import { Card } from '../../../components/Card';

export interface LegalSection {
  heading: string;
  body: ReactNode;
}

interface LegalDocumentProps {
  title: string;
  effectiveDate: string;
  intro: ReactNode;
  sections: ReadonlyArray<LegalSection>;
}

const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/(^-|-$)/g, '');

export function LegalDocument({ title, effectiveDate, intro, sections }: LegalDocumentProps) {
  const supportEmail = useSupportEmail();
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <div className="grid gap-10 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="On this page" className="hidden lg:block">
          <div className="sticky top-24">
            <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">On this page</p>
            <ol className="mt-3 space-y-2 text-sm">
              {sections.map((section) => (
                <li key={section.heading}>
                  <a href={`#${slug(section.heading)}`} className="text-slate-600 hover:text-brand-700">
                    {section.heading}
                  </a>
                </li>
              ))}
            </ol>
            <p className="mt-8 text-xs font-semibold tracking-wide text-slate-500 uppercase">Legal</p>
            <ul className="mt-3 space-y-2 text-sm">
              <li>
                <Link to="/company/privacy" className="text-slate-600 hover:text-brand-700">
                  Privacy policy
                </Link>
              </li>
              <li>
                <Link to="/company/terms_of_use" className="text-slate-600 hover:text-brand-700">
                  Terms of use
                </Link>
              </li>
            </ul>
          </div>
        </nav>
        <Card className="p-6 sm:p-10">
          <article className="max-w-3xl">
            <h1 className="text-3xl font-extrabold tracking-tight text-brand-950 sm:text-4xl">{title}</h1>
            <p className="mt-2 text-sm text-slate-500">Effective {effectiveDate}</p>
            <div className="mt-6 text-base leading-7 text-slate-700">{intro}</div>
            {sections.map((section, index) => (
              <section key={section.heading} id={slug(section.heading)} className="mt-10 scroll-mt-24">
                <h2 className="text-xl font-bold text-slate-900">
                  {index + 1}. {section.heading}
                </h2>
                <div className="mt-3 space-y-4 leading-7 text-slate-700 [&_li]:ml-5 [&_li]:list-disc [&_li]:pl-1 [&_ul]:space-y-2">
                  {section.body}
                </div>
              </section>
            ))}
            <section
              aria-labelledby="legal-contact"
              className="mt-10 rounded-xl bg-slate-50 p-5 ring-1 ring-slate-200"
            >
              <h2 id="legal-contact" className="text-base font-bold text-slate-900">
                Contact
              </h2>
              <p className="mt-2 leading-7 text-slate-700">
                Questions about this document or your data? Write to{' '}
                {supportEmail ? (
                  <a href={`mailto:${supportEmail}`} className="font-semibold text-brand-700 underline">
                    {supportEmail}
                  </a>
                ) : (
                  'our support team'
                )}
                .
              </p>
            </section>
          </article>
        </Card>
      </div>
    </div>
  );
}
