import { useDocumentTitle } from '../../../lib/use-document-title';
import { LegalDocument, type LegalSection } from '../components/LegalDocument';

const sections: ReadonlyArray<LegalSection> = [
  {
    heading: 'What we collect',
    body: (
      <>
        <p>We collect only what we need to run AfroFX:</p>
        <ul>
          <li>
            <strong>Mailing list:</strong> the e-mail address you subscribe with, whether you have confirmed
            it, and when you subscribed.
          </li>
          <li>
            <strong>Developer accounts:</strong> your first and last name, e-mail address and a one-way hash
            of your password. We never store your password itself.
          </li>
          <li>
            <strong>API usage:</strong> for each API request, the host, user agent, IP address, requested URL,
            time, response status and response time. This is the request log you see in your dashboard.
          </li>
          <li>
            <strong>Payments:</strong> the plan, currency, amount, payment reference and status of each
            purchase. Card details are entered with our payment provider and never reach our servers.
          </li>
        </ul>
      </>
    ),
  },
  {
    heading: 'How we use it',
    body: (
      <ul>
        <li>
          To send the daily rates e-mail you asked for, and account e-mails such as activation and password
          reset.
        </li>
        <li>To authenticate API requests, enforce your plan’s monthly quota and show you your usage.</li>
        <li>To verify payments, keep accounting records and answer support requests.</li>
        <li>To detect and stop abuse, such as scraping around rate limits or attacks on the service.</li>
      </ul>
    ),
  },
  {
    heading: 'What we do not do',
    body: (
      <p>
        We do not sell or rent personal data, we do not use advertising trackers, and we do not send marketing
        e-mail beyond the rates you subscribed to. The website keeps your sign-in in your browser’s session
        storage, which is cleared when you close the tab or sign out; it sets no advertising cookies.
      </p>
    ),
  },
  {
    heading: 'Who we share it with',
    body: (
      <p>
        We share data only with the service providers that help us run AfroFX — our hosting, e-mail delivery
        and card payment providers — and only as far as each needs for its task, under agreements that require
        them to protect it. We disclose data to authorities only when the law requires it.
      </p>
    ),
  },
  {
    heading: 'How long we keep it',
    body: (
      <p>
        Mailing-list addresses are kept until you ask us to remove them or an administrator removes them.
        Account data is kept while your account is open. API request logs are kept for twelve months so that
        you can review your usage. Payment records are kept for as long as tax and accounting rules require.
      </p>
    ),
  },
  {
    heading: 'Your rights',
    body: (
      <p>
        You can ask us for a copy of the personal data we hold about you, ask us to correct it, or ask us to
        delete it. Depending on where you live — including under Nigeria’s Data Protection Act, Kenya’s Data
        Protection Act, South Africa’s POPIA and Ghana’s Data Protection Act — you may also object to or
        restrict some uses, and you may complain to your data protection authority.
      </p>
    ),
  },
  {
    heading: 'Security',
    body: (
      <p>
        Traffic to AfroFX is encrypted in transit. Passwords are stored as strong one-way hashes, API private
        keys are shown once and stored only as hashes, and access to production systems is limited to the
        people who run them.
      </p>
    ),
  },
  {
    heading: 'Changes and contact',
    body: (
      <p>
        If we change this policy in a way that matters, we will say so on this page and, for account holders,
        by e-mail before the change takes effect. For any privacy question or request, write to us from the
        support option in your developer dashboard or reply to any e-mail we have sent you.
      </p>
    ),
  },
];

export function PrivacyPage() {
  useDocumentTitle('Privacy policy');
  return (
    <LegalDocument
      title="Privacy policy"
      effectiveDate="January 1, 2025"
      intro={
        <p>
          AfroFX publishes exchange rates for African currencies on this website, by e-mail, through
          social-media and messaging bots and through a paid API. This policy explains what personal data we
          handle when you use any of them, why, and the choices you have.
        </p>
      }
      sections={sections}
    />
  );
}
