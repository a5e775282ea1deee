#!/usr/bin/env bash
# The steps of textfrag's GitHub Action (action.yml), one per subcommand. Everything they take comes in the
# environment (never interpolated into a script); what they give goes to GITHUB_OUTPUT, GITHUB_PATH and
# GITHUB_STEP_SUMMARY, as the runner reads them.
set -euo pipefail

step=${1:?a step: install, range, update, impact, comment, check or gate}
venv="${RUNNER_TEMP:?}/textfrag-venv"
report="${RUNNER_TEMP}/textfrag-impact"
marker='<!-- textfrag impact -->'

docs_and_config() {
  # the documents (split on spaces) and the configuration, as textfrag's options
  read -r -a docs <<<"${TEXTFRAG_DOCS:-.}"
  config=()
  if [ -n "${TEXTFRAG_CONFIG:-}" ]; then config=(--config "$TEXTFRAG_CONFIG"); fi
}

case "$step" in
install)
  package="${TEXTFRAG_PACKAGE:-}"
  if [ -z "$package" ]; then package="${GITHUB_ACTION_PATH:?}"; fi
  if [ -n "${TEXTFRAG_EXTRAS:-}" ]; then package="${package}[${TEXTFRAG_EXTRAS// /}]"; fi
  # the runner's own pip installs into a venv made without one (pip --python, pip 22.3 and later): giving
  # the venv its own pip (ensurepip) costs every run about 3 s
  if python3 -m venv --without-pip "$venv" && python3 -m pip --python "$venv/bin/python" --version >/dev/null 2>&1; then
    python3 -m pip --python "$venv/bin/python" install --quiet --disable-pip-version-check "$package"
  else
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$package"
  fi
  echo "$venv/bin" >>"${GITHUB_PATH:?}"
  "$venv/bin/textfrag" --version
  ;;

range)
  base="${TEXTFRAG_BASE:-}"
  head="${TEXTFRAG_HEAD:-HEAD}"
  if [ -z "$base" ] || [ "$base" = 0000000000000000000000000000000000000000 ]; then
    echo "textfrag: no earlier commit to compare with (a new branch, or not a pull request or push): impact is skipped"
    echo "range=" >>"${GITHUB_OUTPUT:?}"
    exit 0
  fi
  # the base commit and the history back to the fork point (a shallow checkout has neither)
  if ! git cat-file -e "${base}^{commit}" 2>/dev/null; then
    git fetch --no-tags --quiet origin "$base" || true
  fi
  if ! git merge-base "$base" "$head" >/dev/null 2>&1 && [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    git fetch --no-tags --quiet --unshallow origin || true
  fi
  if git merge-base "$base" "$head" >/dev/null 2>&1; then
    echo "range=${base}...${head}" >>"$GITHUB_OUTPUT"
  elif git cat-file -e "${base}^{commit}" 2>/dev/null; then
    echo "::warning title=textfrag::no merge base of ${base} and ${head} (a shallow clone?): impact compares the two commits"
    echo "range=${base}..${head}" >>"$GITHUB_OUTPUT"
  else
    echo "::warning title=textfrag::the base commit ${base} cannot be fetched: impact is skipped (actions/checkout with fetch-depth: 0)"
    echo "range=" >>"$GITHUB_OUTPUT"
  fi
  ;;

impact)
  docs_and_config
  args=(impact "${TEXTFRAG_RANGE:?}" "${config[@]}")
  read -r -a indexes <<<"${TEXTFRAG_QUOTED_BY:-}"
  if [ "${#indexes[@]}" -gt 0 ]; then
    for index in "${indexes[@]}"; do args+=(--quoted-by "$index"); done
  else
    for doc in "${docs[@]}"; do args+=(--docs "$doc"); done
  fi
  textfrag "${args[@]}" --format json >"$report.json"
  textfrag "${args[@]}" --format markdown >"$report.md"
  IFS=',' read -r -a formats <<<"${TEXTFRAG_FORMATS:-github,summary}"
  for format in "${formats[@]}"; do
    case "${format// /}" in
    github) textfrag "${args[@]}" --format github ;;
    summary) cat "$report.md" >>"${GITHUB_STEP_SUMMARY:?}" ;;
    sarif) textfrag "${args[@]}" --format sarif >textfrag-impact.sarif ;;
    json) cp "$report.json" textfrag-impact.json ;;
    "") ;;
    *) echo "::error title=textfrag::unknown format '$format' (github, summary, sarif or json)" && exit 2 ;;
    esac
  done
  python3 - "$report.json" >>"${GITHUB_OUTPUT:?}" <<'PY'
import json, sys
quotes = json.load(open(sys.argv[1], encoding="utf-8"))["quotes"]
print(f"touched={len(quotes)}")
print(f"needs-review={sum(q['needs_review'] for q in quotes)}")
PY
  ;;

comment)
  repository="${TEXTFRAG_REPOSITORY:?}"
  number="${TEXTFRAG_PULL_REQUEST:?}"
  # (only a comment of the token's own account is updated: anyone may post one that starts with the marker;
  # a job's GITHUB_TOKEN cannot ask who it is, and comments as github-actions[bot])
  login=$(gh api user --jq .login 2>/dev/null || true)
  login="${login:-github-actions[bot]}"
  existing=$(gh api --paginate "repos/${repository}/issues/${number}/comments" \
    --jq ".[] | select((.body | startswith(\"${marker}\")) and .user.login == \"${login}\") | .id" | head -n 1)
  if [ -n "$existing" ]; then
    gh api --silent -X PATCH "repos/${repository}/issues/comments/${existing}" -F "body=@${report}.md"
    echo "textfrag: updated the comment ${existing}"
  elif [ "${TEXTFRAG_TOUCHED:-0}" != 0 ]; then
    gh api --silent -X POST "repos/${repository}/issues/${number}/comments" -F "body=@${report}.md"
    echo "textfrag: commented on #${number}"
  else
    echo "textfrag: the change touches no quote; no comment"
  fi
  ;;

check)
  docs_and_config
  textfrag check "${config[@]}" --format github "${docs[@]}"
  ;;

gate)
  case "${TEXTFRAG_FAIL_ON:?}" in
  any) count="${TEXTFRAG_TOUCHED:-0}" ;;
  changed) count="${TEXTFRAG_NEEDS_REVIEW:-0}" ;;
  *) exit 0 ;;
  esac
  if [ "$count" != 0 ]; then
    echo "::error title=textfrag::the change touches ${count} quote(s) (fail-on: ${TEXTFRAG_FAIL_ON}); see the notes and the summary"
    exit 1
  fi
  ;;

update)
  if [ "${TEXTFRAG_HEAD_REPOSITORY:-}" != "${TEXTFRAG_REPOSITORY:-}" ]; then
    # (a fork's branch: the job's token must not push there, and what it would push comes from the fork)
    echo "textfrag: the pull request's branch is in another repository (${TEXTFRAG_HEAD_REPOSITORY:-unknown}): nothing is pushed; run textfrag update --write on that branch"
    exit 0
  fi
  docs_and_config
  textfrag update "${config[@]}" --write "${docs[@]}" || true # (what changed is left for check to report)
  if [ -n "$(git status --porcelain)" ]; then
    git config user.name "github-actions[bot]"
    git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
    git commit --quiet -am "textfrag update: rewrite the quotes that only moved"
    git push --quiet origin "HEAD:${TEXTFRAG_BRANCH:?}"
    echo "textfrag: pushed the repaired quotes to ${TEXTFRAG_BRANCH}"
  else
    echo "textfrag: no quote only moved"
  fi
  ;;

*)
  echo "textfrag action: unknown step ${step}" >&2
  exit 2
  ;;
esac
