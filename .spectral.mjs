// The Spectral ruleset CI lints the paid API's document with (npm run api:lint): Spectral's OpenAPI rules and the
// OWASP API security rules. Each rule switched off or narrowed here says why in one line.
import { oas } from '@stoplight/spectral-rulesets';
import owasp from '@stoplight/spectral-owasp-ruleset';

const narrowed = (name, given) => ({ ...owasp.rules[name], given });
const requestSchemas = (type) => [
  `$.paths[*][*].parameters[?(@.schema && @.schema.type=="${type}")].schema`,
  `$.paths[*][*].requestBody..[?(@ && @.type=="${type}")]`,
];
const KEY_OPERATIONS = '$.paths[*][?(@.security && @.security[0] && @.security[0].apiKey)]';

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
    // Only the API-key calls are metered; status and the console's session calls send no RateLimit headers.
    'owasp:api4:2023-rate-limit': 'off',
    'afrofx-key-rate-limit': narrowed(
      'owasp:api4:2023-rate-limit',
      `${KEY_OPERATIONS}.responses[?(@property.match(/^(2|4)/))]`,
    ),
  },
};
