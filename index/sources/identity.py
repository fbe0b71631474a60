"""The ids registries give a paper, which join the records of one paper from several
sources (`joining.plan_merge`).

A parser gives them in `Paper.fields` under these names, or as links (a record's own
links, before enriching), from which they are read:

- `openreview`: the OpenReview forum id (`AbCdEf123`); from a link
  `https://openreview.net/forum?id=X` (or `/pdf?id=X`).
- `pmlr`: the PMLR volume and key (`v235/smith24a`); from a link
  `https://proceedings.mlr.press/v235/smith24a.html` (or its PDF).
- `acl`: the ACL Anthology id (`2024.acl-long.1`); from a link
  `https://aclanthology.org/2024.acl-long.1` (or `.pdf`).
- `virtual_site`: the page of the paper on a conference's virtual site, as host and path
  (`icml.cc/virtual/2024/poster/33250`); from a link to such a page (`/virtual/` in its
  path).

DOI and arXiv id are `Paper.doi` and `Paper.arxiv_id`.
"""

from __future__ import annotations

import re

from paperterm.index.papers import Paper

#: The `Paper.fields` names of registry ids, in the order they are tried.
REGISTRY_FIELDS = ("openreview", "pmlr", "acl", "virtual_site")
_OPENREVIEW = re.compile(r"^https?://(?:www\.)?openreview\.net/(?:forum|pdf)\?(?:.*&)?id=([\w-]+)")
_PMLR = re.compile(r"^https?://proceedings\.mlr\.press/(v\d+)/([\w-]+?)(?:\.html|\.pdf|/|$)")
_ACL = re.compile(r"^https?://(?:www\.)?aclanthology\.org/([\w.-]+?)(?:\.pdf)?/?$")
_VIRTUAL = re.compile(r"^https?://(?:www\.)?([\w.-]+/virtual/[^?#]+?)/?(?:[?#].*)?$")


def registry_ids(paper: Paper) -> list[tuple[str, str]]:
    """(registry, id) of each registry id the record gives, in a field or a link."""
    found: dict[str, str] = {}
    for name in REGISTRY_FIELDS:
        value = paper.fields.get(name, "").strip()
        if value:
            found[name] = value.lower() if name == "virtual_site" else value
    for url in paper.links:
        if "openreview" not in found and (match := _OPENREVIEW.match(url)):
            found["openreview"] = match.group(1)
        elif "pmlr" not in found and (match := _PMLR.match(url)):
            found["pmlr"] = f"{match.group(1)}/{match.group(2)}"
        elif "acl" not in found and (match := _ACL.match(url)):
            found["acl"] = match.group(1)
        elif "virtual_site" not in found and (match := _VIRTUAL.match(url)):
            found["virtual_site"] = match.group(1).lower()
    return list(found.items())
