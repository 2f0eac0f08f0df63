#!/usr/bin/env bash
# Proves the Dockerfile's recipe where no container engine runs (CI): copies the checkout's files
# as `COPY . .` would (tracked and untracked, minus what .gitignore and .dockerignore leave out)
# into a temporary directory, then runs there, in order, every `RUN` of the Dockerfile's build
# stage (install from the lockfile, build, prune the development dependencies, `--help`).
# With --start, then runs the runtime stage and compose.yaml's services from that tree
# (scripts/container-start.mjs) before the directory is removed.
set -euo pipefail
start=false
case "${1:-}" in
  --start) start=true ;;
  "") ;;
  *) echo "usage: scripts/container-build.sh [--start]" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/quire-container-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "== COPY . . -> $work"
cd "$root"
git ls-files -z --cached --others --exclude-standard \
  | grep -zv -E '^(\.git|node_modules|dist|\.quire|test-results)(/|$)' \
  | while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done \
  | tar --null -T - -cf - | tar -xf - -C "$work"

# The build stage's RUN lines: from the first FROM to the second.
mapfile -t steps < <(awk '/^FROM /{stage++} stage==1 && /^RUN /{sub(/^RUN /, ""); print}' Dockerfile)
[ "${#steps[@]}" -gt 0 ] || { echo "no RUN step found in the Dockerfile's build stage" >&2; exit 1; }

cd "$work"
for step in "${steps[@]}"; do
  echo "== RUN $step"
  bash -euo pipefail -c "$step"
done

# What the image's last stage keeps: the app runs from the pruned tree without dev dependencies.
test -f dist/main.js
if [ -d node_modules/vitest ]; then echo "development dependencies were not pruned" >&2; exit 1; fi
echo "== the recipe builds: $(node dist/main.js --help | head -1)"

if "$start"; then
  echo "== the runtime stage and compose.yaml, started from the built tree"
  node "$root/scripts/container-start.mjs" "$work"
fi
