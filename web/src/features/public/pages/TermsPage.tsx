import { useDocumentTitle } from '../../../lib/use-document-title';
import { LegalDocument, type LegalSection } from '../components/LegalDocument';

const sections: ReadonlyArray<LegalSection> = [
  {
    heading: 'The service',
    body: (
      <p>
        AfroFX publishes indicative bank, cash and transfer exchange rates for the Nigerian naira, Kenyan
        shilling, South African rand and Ghanaian cedi against major currencies. You can read them on this
        website, receive them by e-mail, follow our bots, or fetch them from the AfroFX API under a paid plan.
      </p>
    ),
  },
  {
    heading: 'Rates are information, not an offer',
    body: (
      <>
        <p>
          Our rates are gathered from market sources and published for information only. They are not an offer
          to buy or sell currency, and the rate you are quoted by a bank, dealer or transfer service may
          differ. Markets move during the day, and a published rate may be out of date by the time you read
          it.
        </p>
        <p>
          AfroFX is not a bank, a bureau de change or a financial adviser. Check the rate with the party you
          deal with before you exchange money, and do not rely on AfroFX as your only source for financial
          decisions.
        </p>
      </>
    ),
  },
  {
    heading: 'Accounts',
    body: (
      <ul>
        <li>Give accurate details when you sign up, and keep your password and API private keys secret.</li>
        <li>
          You are responsible for everything done with your account and keys. Tell us at once if a key leaks;
          you can rotate it from your dashboard.
        </li>
        <li>We may suspend an account that breaks these terms or puts the service or other users at risk.</li>
      </ul>
    ),
  },
  {
    heading: 'API plans and payment',
    body: (
      <ul>
        <li>
          Plans are priced in US dollars per year and include a monthly request quota. You can pay in USD or
          NGN; NGN prices use the current dollar rate.
        </li>
        <li>
          A plan runs for twelve months from purchase. Its quota resets each month and unused requests do not
          carry over.
        </li>
        <li>
          When your quota is used up, API requests are refused until the next month or until you move to a
          larger plan.
        </li>
        <li>
          A plan bought within five days of the end of your current plan starts when the current plan ends.
        </li>
        <li>
          Payments are processed by our card payment provider. Fees already paid are not refundable, except
          where the law says otherwise or where we fail to provide the service.
        </li>
      </ul>
    ),
  },
  {
    heading: 'Acceptable use',
    body: (
      <p>
        Do not try to get around quotas or rate limits, share keys to let others use your plan, resell raw API
        data as a competing rates feed, interfere with the service, or use it for anything unlawful. You may
        show AfroFX rates in your own products as long as you credit AfroFX as the source.
      </p>
    ),
  },
  {
    heading: 'Availability and liability',
    body: (
      <p>
        We work to keep AfroFX available and accurate, but we provide it as it is and cannot promise it will
        be free of errors or interruptions. To the extent the law allows, AfroFX is not liable for losses
        arising from the use of published rates, and our total liability to you in any year is limited to the
        amount you paid us in that year.
      </p>
    ),
  },
  {
    heading: 'Changes and contact',
    body: (
      <p>
        We may update these terms as the service grows. We will post the new version here and, for account
        holders, e-mail a notice before material changes take effect. Questions are welcome through the
        support option in your developer dashboard or by replying to any e-mail from us.
      </p>
    ),
  },
];

export function TermsPage() {
  useDocumentTitle('Terms of use');
  return (
    <LegalDocument
      title="Terms of use"
      effectiveDate="January 1, 2025"
      intro={
        <p>
          These terms apply to everyone who uses AfroFX — the website, the rates e-mail, our bots and the API.
          By using AfroFX you agree to them. If you use AfroFX for a company, you accept them on its behalf.
        </p>
      }
      sections={sections}
    />
  );
}
