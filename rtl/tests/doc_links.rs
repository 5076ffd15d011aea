//! The documentation's links must resolve inside the repository: README.md and every
//! `.md` file under docs/ are read at test time, and every Markdown link `[text](target)`
//! whose target is not http(s) or mailto must name an existing file or directory,
//! relative to the page (a leading `/` means the repository root), without leaving the
//! repository. An anchor (`#heading`, alone or after a `.md` file) must name a heading of
//! that page, by GitHub's rule: lowercase; drop every character but letters, digits,
//! spaces, hyphens and underscores; each space becomes a hyphen; the second heading with
//! the same anchor gets `-1`, the third `-2`, and so on. Links inside code (fenced blocks
//! and inline code spans) are not links and are skipped.
//!
//! The pages must not point outside the repository in prose either: `shared/spec` and
//! `ARCHITECTURE.md` may appear only in the vendored specs under docs/spec/.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// Text that names files outside the repository.
const FORBIDDEN: &[&str] = &["shared/spec", "ARCHITECTURE.md"];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("repository root")
}

/// README.md and every `.md` file under docs/, sorted.
fn pages(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root.join("README.md")];
    walk(&root.join("docs"), &mut out);
    out.sort();
    out
}

/// The text with fenced code blocks and inline code spans blanked out (newlines kept, so
/// that byte offsets still give the right line).
fn without_code(text: &str) -> String {
    let out = without_fences(text);
    // Inline code: a run of n backticks up to the next run of exactly n backticks in the
    // same paragraph (it may span lines, not a blank line); an unmatched run is literal text.
    let chars: Vec<char> = out.chars().collect();
    let mut res = String::with_capacity(out.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            res.push(chars[i]);
            i += 1;
            continue;
        }
        let n = chars[i..].iter().take_while(|&&c| c == '`').count();
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = chars[j..].iter().take_while(|&&c| c == '`').count();
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else if chars[j] == '\n' && chars[j + 1..].iter().take_while(|&&c| c != '\n').all(|c| c.is_whitespace()) {
                break; // a blank line ends the paragraph
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                for &c in &chars[i..j + n] {
                    res.push(if c == '\n' { '\n' } else { ' ' });
                }
                i = j + n;
            }
            None => {
                for _ in 0..n {
                    res.push('`');
                }
                i += n;
            }
        }
    }
    res
}

fn blank(line: &str) -> String {
    line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect()
}

/// GitHub's anchor of a heading's text.
fn slug(heading: &str) -> String {
    // A link in a heading renders as its text.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find("](") {
        let close = rest[open..].find(')').map(|c| open + c);
        match close {
            Some(close) => {
                text.push_str(&rest[..open]);
                rest = &rest[close + 1..];
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (ATX `#` headings, and setext headings), in order,
/// duplicates numbered.
fn anchors(text: &str) -> Vec<String> {
    let plain = without_fences(text);
    let lines: Vec<&str> = plain.lines().collect();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let heading = if line.len() - t.len() <= 3 && t.starts_with('#') {
            let hashes = t.chars().take_while(|&c| c == '#').count();
            let after = &t[hashes..];
            if hashes <= 6 && (after.is_empty() || after.starts_with(' ')) {
                Some(after.trim().trim_end_matches('#').trim().to_string())
            } else {
                None
            }
        } else if i > 0
            && !t.is_empty()
            && (t.trim_end().chars().all(|c| c == '=') || t.trim_end().chars().all(|c| c == '-'))
            && !lines[i - 1].trim().is_empty()
            && !lines[i - 1].trim_start().starts_with('|')
            && !lines[i - 1].trim_start().starts_with('#')
        {
            Some(lines[i - 1].trim().to_string())
        } else {
            None
        };
        if let Some(h) = heading {
            let base = slug(&h);
            let n = seen.entry(base.clone()).or_insert(0);
            out.push(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
            *n += 1;
        }
    }
    out
}

/// The text with fenced code blocks blanked out (newlines kept). Inline code stays: a
/// heading's anchor includes its code text.
fn without_fences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<String> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        let is_fence = marker.len() >= 3 && marker.chars().all(|c| c == marker.chars().next().unwrap());
        match &fence {
            Some(open) if is_fence && marker.starts_with(open.as_str()) => {
                fence = None;
                out.push_str(&blank(line));
            }
            Some(_) => out.push_str(&blank(line)),
            None if is_fence => {
                fence = Some(marker);
                out.push_str(&blank(line));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// Every link target of a page, with its line number (1-based).
fn links(text: &str) -> Vec<(usize, String)> {
    let plain = without_code(text);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = plain[from..].find("](") {
        let start = from + pos + 2;
        let rest = &plain[start..];
        let rest = rest.trim_start_matches(' ');
        let target: String = if let Some(angle) = rest.strip_prefix('<') {
            angle.chars().take_while(|&c| c != '>').collect()
        } else {
            // Up to the closing parenthesis or a title, allowing balanced parentheses.
            let mut depth = 0usize;
            let mut t = String::new();
            for c in rest.chars() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => break,
                    ')' => depth -= 1,
                    c if c.is_whitespace() => break,
                    _ => {}
                }
                t.push(c);
            }
            t
        };
        let line = plain[..start].matches('\n').count() + 1;
        out.push((line, target));
        from = start;
    }
    out
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `path` with `.` and `..` folded, or None when it climbs above its start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// The problems of one page: (line, target, why). `page` is relative to `root`.
fn check_page(root: &Path, page: &Path, text: &str, cache: &mut BTreeMap<PathBuf, Vec<String>>) -> Vec<(usize, String, String)> {
    let mut problems = Vec::new();
    for (line, target) in links(text) {
        if target.is_empty() {
            problems.push((line, target, "empty link target".to_string()));
            continue;
        }
        let lower = target.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:") {
            continue;
        }
        if target.contains("://") {
            problems.push((line, target, "a URL scheme other than http(s) or mailto".to_string()));
            continue;
        }
        let (path_part, anchor) = match target.split_once('#') {
            Some((p, a)) => (percent_decode(p), Some(percent_decode(a))),
            None => (percent_decode(&target), None),
        };
        // The linked file, relative to the repository root.
        let rel = if path_part.is_empty() {
            Some(page.to_path_buf())
        } else if let Some(abs) = path_part.strip_prefix('/') {
            normalize(Path::new(abs))
        } else {
            normalize(&page.parent().unwrap_or(Path::new("")).join(&path_part))
        };
        let Some(rel) = rel else {
            problems.push((line, target, "points outside the repository".to_string()));
            continue;
        };
        let full = root.join(&rel);
        if !full.exists() {
            problems.push((line, target.clone(), format!("{} does not exist", rel.display())));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if full.is_dir() || full.extension().map_or(true, |x| x != "md") {
            continue; // anchors of other files (line numbers, …) are not headings
        }
        let heads = cache.entry(rel.clone()).or_insert_with(|| {
            if rel == page {
                anchors(text)
            } else {
                anchors(&fs::read_to_string(&full).unwrap_or_default())
            }
        });
        if !heads.iter().any(|h| *h == anchor) {
            problems.push((line, target, format!("{} has no heading with the anchor `#{anchor}`", rel.display())));
        }
    }
    problems
}

#[test]
fn every_link_of_the_readme_and_docs_resolves() {
    let root = repo_root();
    let pages = pages(&root);
    let names: Vec<String> = pages.iter().map(|p| p.strip_prefix(&root).unwrap().display().to_string()).collect();
    for must in ["README.md", "docs/config.md", "docs/verification.md", "docs/fpga-flow.md", "docs/blocks/scoreboard.md"] {
        assert!(names.iter().any(|n| n == must), "the page walk missed {must}: found {names:?}");
    }
    let mut cache = BTreeMap::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &pages {
        let rel = path.strip_prefix(&root).unwrap();
        let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", rel.display()));
        checked += links(&text).len();
        for (line, target, why) in check_page(&root, rel, &text, &mut cache) {
            failures.push(format!("{}:{line}: link `{target}`: {why}", rel.display()));
        }
    }
    assert!(checked > 50, "only {checked} links found in {} pages: the link scanner is broken", pages.len());
    assert!(failures.is_empty(), "{} broken links:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn no_page_points_outside_the_repository() {
    let root = repo_root();
    let mut failures = Vec::new();
    for path in pages(&root) {
        let rel = path.strip_prefix(&root).unwrap();
        if rel.starts_with("docs/spec") {
            continue; // the vendored spec text, as written
        }
        let text = fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            for bad in FORBIDDEN {
                if line.contains(bad) {
                    failures.push(format!(
                        "{}:{}: names `{bad}`, which is outside the repository (use docs/spec/ or docs/verification.md)",
                        rel.display(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn anchors_follow_githubs_rule() {
    let page = "# Block: `scoreboard`\n\n### `[scoreboard]`\n\n## Cost\n\n## Cost\n\n\
                ```\n## not a heading\n```\n\n## Replay: the patent's worked example (Figs. 5–7)\n\n\
                ## Deviations from the spec's proposal (§5.3, §5.5)\n\nSetext title\n===\n\n## Cost\n";
    assert_eq!(
        anchors(page),
        [
            "block-scoreboard",
            "scoreboard",
            "cost",
            "cost-1",
            "replay-the-patents-worked-example-figs-57",
            "deviations-from-the-specs-proposal-53-55",
            "setext-title",
            "cost-2",
        ]
    );
}

#[test]
fn the_checker_reports_broken_links() {
    // A page that exists (so relative paths resolve from docs/), with made-up content.
    let root = repo_root();
    let page = Path::new("docs/config.md");
    let text = "# Title\n\n## Real heading\n\n\
                [ok](#real-heading) [ok](../README.md) [ok](blocks/) [ok](https://example.com/x)\n\
                [bad anchor](#no-such-heading) [bad file](no-such-file.md)\n\
                [bad anchor elsewhere](fpga-flow.md#no-such-heading) [outside](../../../etc/passwd)\n\
                `[code](not-a-link.md)`\n\n```\n[fenced](not-a-link-either.md)\n```\n";
    let problems = check_page(&root, page, text, &mut BTreeMap::new());
    let targets: Vec<&str> = problems.iter().map(|(_, t, _)| t.as_str()).collect();
    assert_eq!(
        targets,
        ["#no-such-heading", "no-such-file.md", "fpga-flow.md#no-such-heading", "../../../etc/passwd"],
        "{problems:?}"
    );
    assert!(problems.iter().all(|(line, _, _)| *line == 6 || *line == 7), "{problems:?}");
}
