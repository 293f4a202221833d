#!/usr/bin/env bash
# Lints the contract and checks it for breaking changes against the main branch.
# Runs from the repo root because buf.yaml lives there; uses the buf pinned in package.json.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
buf="$here/node_modules/.bin/buf"
cd "$here/.."

"$buf" lint

# The common dir, not the per-worktree one: buf reads branches from it (a worktree's git dir has none).
git_dir="$(git rev-parse --path-format=absolute --git-common-dir)"
if git rev-parse --quiet --verify 'refs/heads/main^{commit}' >/dev/null; then
  against="$git_dir#branch=main"
elif git rev-parse --quiet --verify 'refs/remotes/origin/main^{commit}' >/dev/null; then
  # A clone checked out on another branch has main only as origin/main.
  against="$git_dir#ref=refs/remotes/origin/main"
else
  # Before the first commit there is no main to break: say so instead of failing on a missing ref.
  echo "buf breaking: no main branch yet, nothing to compare against"
  exit 0
fi
"$buf" breaking --against "$against"
