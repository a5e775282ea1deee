"""A stand-in for the GitHub CLI's ``gh api`` (the one part of a pull request's run that needs GitHub's
servers): the pull request's comments are kept in the JSON file GH_STATE; listing them (with ``--jq``'s
one filter the action uses), creating one and updating one are answered as the REST API answers them,
and every call is logged."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    state_path = Path(os.environ["GH_STATE"])
    state = json.loads(state_path.read_text(encoding="utf-8")) if state_path.exists() else {"comments": [], "calls": []}
    state["calls"].append(argv)
    if not os.environ.get("GH_TOKEN"):
        print("gh: To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable.", file=sys.stderr)
        return 4
    args = [a for a in argv if a not in ("api", "--paginate", "--silent")]
    method = "GET"
    if "-X" in args:
        method = args[args.index("-X") + 1]
    body = None
    if "-F" in args:
        field = args[args.index("-F") + 1]
        assert field.startswith("body=@"), field
        body = Path(field.removeprefix("body=@")).read_text(encoding="utf-8")
    me = os.environ.get("GH_LOGIN", "github-actions[bot]")  # (who the token comments as)
    if args[:1] == ["user"]:  # (a job's GITHUB_TOKEN cannot read /user: 403, as GitHub answers it)
        state_path.write_text(json.dumps(state), encoding="utf-8")
        if os.environ.get("GH_USER_READABLE"):
            print(me)
            return 0
        print("gh: Resource not accessible by integration (HTTP 403)", file=sys.stderr)
        return 1
    url = next(a for a in args if a.startswith("repos/"))
    try:
        if method == "GET" and url.endswith("/comments"):
            jq = args[args.index("--jq") + 1]
            marker = re.search(r'startswith\("(.*?)"\)', jq)
            login = re.search(r'\.user\.login == "(.*?)"', jq)
            assert marker is not None and login is not None, jq
            for comment in state["comments"]:
                if comment["body"].startswith(marker.group(1)) and comment.get("user", me) == login.group(1):
                    print(comment["id"])
        elif method == "POST":
            number = int(url.split("/")[-2])
            state["comments"].append({"id": 1000 + len(state["comments"]), "issue": number, "body": body, "user": me})
        elif method == "PATCH":
            wanted = int(url.split("/")[-1])
            [comment] = [c for c in state["comments"] if c["id"] == wanted]
            comment["body"] = body
        else:
            print(f"gh stand-in: {method} {url} is not answered", file=sys.stderr)
            return 1
    finally:
        state_path.write_text(json.dumps(state), encoding="utf-8")
    return 0
