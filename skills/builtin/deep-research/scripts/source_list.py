#!/usr/bin/env python3
"""Builds the report's numbered source list from the research notes.

Reads a JSON Lines file of sources ({"url": ..., "title": ...} per line; blank lines and lines that
start with # are skipped), drops repeats of the same page (scheme, host case, "www.", a trailing slash
and #fragments do not make another page), and prints an HTML <ol> with one escaped link per source,
in first-seen order. Exits 2 with a message on stderr when a line cannot be read.

Usage: python3 /home/gem/skills/deep-research/scripts/source_list.py notes/sources.jsonl
"""
import html
import json
import sys
from urllib.parse import urlsplit, urlunsplit


def page_key(url):
    parts = urlsplit(url.strip())
    host = parts.netloc.lower()
    if host.startswith("www."):
        host = host[4:]
    path = parts.path.rstrip("/") or "/"
    return urlunsplit(("", host, path, parts.query, ""))


def read_sources(path):
    sources = []
    with open(path, encoding="utf-8") as notes:
        for number, line in enumerate(notes, start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                entry = json.loads(line)
                url = str(entry["url"])
            except (ValueError, KeyError, TypeError) as error:
                sys.exit(f"{path}:{number}: not a source line ({error})")
            if not url.startswith(("http://", "https://")):
                sys.exit(f"{path}:{number}: not an http(s) URL: {url}")
            sources.append((url, str(entry.get("title") or url)))
    return sources


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    seen = set()
    items = []
    for url, title in read_sources(sys.argv[1]):
        key = page_key(url)
        if key in seen:
            continue
        seen.add(key)
        items.append(f'  <li><a href="{html.escape(url, quote=True)}">{html.escape(title)}</a></li>')
    print('<ol class="sources">')
    print("\n".join(items))
    print("</ol>")


if __name__ == "__main__":
    main()
