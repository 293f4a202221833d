#!/usr/bin/env bash
# Lints the contract and checks it for breaking changes against the main branch.
# Runs from the repo root because buf.yaml lives there; uses the buf pinned in package.json.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
buf="$here/node_modules/.bin/buf"
cd "$here/.."

"$buf" lint

# A repository with no main yet (before the first commit, or a clone of another branch only)
# has nothing to break: say so instead of failing on a missing ref.
if ! git rev-parse --quiet --verify 'refs/heads/main^{commit}' >/dev/null; then
  echo "buf breaking: no local main branch yet, nothing to compare against"
  exit 0
fi
git_dir="$(git rev-parse --absolute-git-dir)"
"$buf" breaking --against "$git_dir#branch=main"
