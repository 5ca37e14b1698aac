#!/usr/bin/env bash
# Redraws docs/architecture.svg: the server's folders and modules and the imports between them, as dependency-cruiser
# reads them with the project's rules (a red arrow would be a broken rule). Needs Graphviz's `dot` (Debian: graphviz).
set -euo pipefail
cd "$(dirname "$0")/.."
npx depcruise server/src shared/src --config .dependency-cruiser.cjs \
  --include-only '^(server/src|shared/src)' \
  --collapse '^(server/src/modules/[^/]+|server/src/[^/]+|shared/src)' \
  --output-type dot |
  dot -Tsvg -Grankdir=TB >docs/architecture.svg
echo "docs/architecture.svg redrawn"
