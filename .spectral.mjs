// The Spectral ruleset CI lints the paid API's document with (npm run api:lint): Spectral's OpenAPI rules and the
// OWASP API security rules. Each rule switched off or narrowed here says why in one line.
import { oas } from '@stoplight/spectral-rulesets';
import owasp from '@stoplight/spectral-owasp-ruleset';

const narrowed = (name, given) => ({ ...owasp.rules[name], given });
const requestSchemas = (type) => [
  `$.paths[*][*].parameters[?(@.schema && @.schema.type=="${type}")].schema`,
  `$.paths[*][*].requestBody..[?(@ && @.type=="${type}")]`,
];
/** Every call that takes a key or session (the paid document's only ones without are the status calls). */
const KEY_OPERATIONS = '$.paths[*][?(@.security && @.security.length > 0)]';

export default {
  extends: [[oas, 'recommended'], owasp],
  rules: {
    // Bounds protect the server from what a client sends; our answers are bounded by our own data, and a client's
    // schema validator gains nothing from a maxLength on them. So the size rules check parameters and bodies only.
    'owasp:api4:2023-string-limit': 'off',
    'afrofx-request-string-limit': narrowed('owasp:api4:2023-string-limit', requestSchemas('string')),
    'owasp:api4:2023-array-limit': 'off',
    'afrofx-request-array-limit': narrowed('owasp:api4:2023-array-limit', requestSchemas('array')),
    'owasp:api4:2023-integer-limit': 'off',
    'afrofx-request-integer-limit': narrowed('owasp:api4:2023-integer-limit', requestSchemas('integer')),
    // Every call that takes the API key is limited and says so; only the key-less status calls, which monitors poll
    // and which read no customer data, are not.
    'owasp:api4:2023-rate-limit': 'off',
    'afrofx-key-rate-limit': narrowed(
      'owasp:api4:2023-rate-limit',
      `${KEY_OPERATIONS}.responses[?(@property.match(/^(2|4)/))]`,
    ),
    // Webhook management is called by servers and by the console on its own origin, never cross-origin from a
    // browser: it sends no CORS header, so its responses declare none.
    'owasp:api8:2023-define-cors-origin': 'off',
    'afrofx-define-cors-origin': narrowed(
      'owasp:api8:2023-define-cors-origin',
      "$.paths[*][?(!@.tags || @.tags[0] != 'Webhooks')]..headers",
    ),
    // npm start's default PUBLIC_URL is http://localhost (no TLS on a developer's machine); any other http:// server
    // is still an error.
    'owasp:api8:2023-no-server-http': 'off',
    'afrofx-no-server-http': narrowed(
      'owasp:api8:2023-no-server-http',
      '$.servers[?(@.url && !@.url.match(/^http:\\/\\/(localhost|127\\.0\\.0\\.1)(:\\d+)?(\\/|$)/))].url',
    ),
  },
};
