import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks the encoders that react-router reads when it loads.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// Component tests get their data through props; any network call is a mistake and fails loudly. RTK Query's
// fetchBaseQuery builds a Request first, which jsdom lacks: the call then fails here, as a network error.
globalThis.fetch = () => Promise.reject(new TypeError('Component tests make no network calls.'));
Object.assign(globalThis, { Request: class Request {} });

// jsdom does not implement scrolling; pages scroll to the top on navigation.
window.scrollTo = () => undefined;

afterEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
});

// Screens load lazily: on a busy 2-core CI machine the first import of a screen's module can take seconds. findBy*
// and waitFor still return as soon as the element appears; this only moves the point where they give up.
configure({ asyncUtilTimeout: 15000 });
